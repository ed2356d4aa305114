/* Output shared by profiles (profile.c) and reports (residual.c): JSON
 * formatted by hand into a chunk buffer over write(2), or into a caller's
 * memory; files written under a temporary name then renamed; diagnostics.
 * Nothing here allocates or uses stdio: reports are written from signal
 * handlers with the same code (signal-safety(7): write, open, openat,
 * mkdirat, fstat, fstatat, fchmod, fcntl, close, renameat, unlinkat,
 * getpid, geteuid, clock_gettime; also renameat2, getrandom and the ioctl
 * of isatty, plain system calls). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h> /* renameat2 */
#include <stdlib.h> /* secure_getenv */
#include <string.h>
#include <sys/auxv.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

void pathcov_out_fd(struct pathcov_out *o, int fd, char *buf, size_t size) {
  *o = (struct pathcov_out){.fd = fd, .buf = buf, .cap = size};
}

void pathcov_out_memory(struct pathcov_out *o, char *buf, size_t size) {
  *o = (struct pathcov_out){.fd = -1, .buf = buf, .cap = size};
}

static void write_all(struct pathcov_out *o) {
  size_t done = 0;
  while (done < o->len && !o->error) {
    ssize_t n = write(o->fd, o->buf + done, o->len - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      o->error = n < 0 ? errno : EIO;
    else
      done += (size_t)n;
  }
  o->len = 0;
}

void pathcov_out_bytes(struct pathcov_out *o, const char *s, size_t n) {
  o->total += n;
  if (o->fd < 0) { /* memory: keep what fits, and room for the NUL */
    size_t room = o->cap > o->len + 1 ? o->cap - o->len - 1 : 0;
    size_t chunk = n < room ? n : room;
    if (chunk) /* buf may be NULL when cap is 0 */
      memcpy(o->buf + o->len, s, chunk);
    o->len += chunk;
    return;
  }
  while (n > 0 && !o->error) {
    size_t chunk = o->cap - o->len;
    if (chunk > n)
      chunk = n;
    memcpy(o->buf + o->len, s, chunk);
    o->len += chunk;
    s += chunk;
    n -= chunk;
    if (o->len == o->cap)
      write_all(o);
  }
}

int pathcov_out_finish(struct pathcov_out *o) {
  if (o->fd < 0) {
    if (o->cap)
      o->buf[o->len] = '\0';
    return 0;
  }
  write_all(o);
  return o->error ? -1 : 0;
}

void pathcov_out_str(struct pathcov_out *o, const char *s) {
  pathcov_out_bytes(o, s, strlen(s));
}

/* The decimal digits of v, written backwards from `end`: their start. */
static char *digits_before(char *end, uint64_t v) {
  do {
    *--end = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  return end;
}

char *pathcov_format_u64(char *to, uint64_t v) {
  char digits[20];
  const char *start = digits_before(digits + sizeof digits, v);
  const size_t n = (size_t)(digits + sizeof digits - start);
  memcpy(to, start, n);
  return to + n;
}

void pathcov_out_u64(struct pathcov_out *o, uint64_t v) {
  char digits[20];
  const char *start = digits_before(digits + sizeof digits, v);
  pathcov_out_bytes(o, start, (size_t)(digits + sizeof digits - start));
}

static const char hex_digits[] = "0123456789abcdef";

/* 16 lowercase hex digits of v into s[16]. */
static void hex16(char *s, uint64_t v) {
  for (int i = 15; i >= 0; --i, v >>= 4)
    s[i] = hex_digits[v & 15];
}

char *pathcov_format_hex64(char *to, uint64_t v) {
  to[0] = to[17] = '"';
  hex16(to + 1, v);
  return to + 18;
}

void pathcov_out_hex64(struct pathcov_out *o, uint64_t v) {
  char s[18];
  pathcov_out_bytes(o, s, (size_t)(pathcov_format_hex64(s, v) - s));
}

/* The length (1-4) of the well-formed UTF-8 sequence at s, 0 if there is
 * none (stray continuation byte, overlong form, surrogate, > U+10FFFF). */
static size_t utf8_length(const unsigned char *s) {
  size_t n;
  uint32_t cp, min;
  if (s[0] < 0x80)
    return 1;
  if ((s[0] & 0xe0) == 0xc0)
    n = 2, cp = s[0] & 0x1f, min = 0x80;
  else if ((s[0] & 0xf0) == 0xe0)
    n = 3, cp = s[0] & 0x0f, min = 0x800;
  else if ((s[0] & 0xf8) == 0xf0)
    n = 4, cp = s[0] & 0x07, min = 0x10000;
  else
    return 0;
  for (size_t i = 1; i < n; ++i) { /* stops at the NUL: not a continuation */
    if ((s[i] & 0xc0) != 0x80)
      return 0;
    cp = cp << 6 | (s[i] & 0x3f);
  }
  if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
    return 0;
  return n;
}

/* Identities, paths and test names are arbitrary bytes: quotes,
 * backslashes and control characters are escaped, and a byte that is not
 * part of well-formed UTF-8 is written as the code point of the same value
 * (read as Latin-1), so the output is always valid UTF-8 JSON. */
void pathcov_out_string(struct pathcov_out *o, const char *s) {
  if (!s) {
    pathcov_out_str(o, "null");
    return;
  }
  pathcov_out_str(o, "\"");
  for (const unsigned char *u = (const unsigned char *)s; *u;) {
    /* A run of printable ASCII as it is, in one piece: a profile is
     * mostly identities (re2's: 600 KB at exit, 18 instructions a byte
     * when each byte was a piece of its own). */
    const unsigned char *plain = u;
    while (*u >= 0x20 && *u < 0x80 && *u != '"' && *u != '\\')
      ++u;
    if (u != plain)
      pathcov_out_bytes(o, (const char *)plain, (size_t)(u - plain));
    if (!*u)
      break;
    size_t n = utf8_length(u);
    if (n == 0 || *u < 0x20) {
      char escape[6] = {'\\', 'u', '0', '0', hex_digits[*u >> 4],
                        hex_digits[*u & 15]};
      pathcov_out_bytes(o, escape, sizeof escape);
      n = 1;
    } else if (*u == '"' || *u == '\\') {
      char escape[2] = {'\\', (char)*u};
      pathcov_out_bytes(o, escape, 2);
    } else {
      pathcov_out_bytes(o, (const char *)u, n);
    }
    u += n;
  }
  pathcov_out_str(o, "\"");
}


/* ---------------------------------------------------------------- files */

/* Files and directories the runtime creates are its user's only, whatever
 * the umask: coverage tells which paths ran on the program's input, a side
 * channel on that input. */
#define FILE_MODE 0600
#define DIRECTORY_MODE 0700

/* Whether the symbolic link name in parent may be followed on the way to a
 * report or profile directory: only if its owner is root or this process's
 * effective user, who could as well have written the path it points to. A
 * link another user planted in a shared directory (/tmp) is not. */
static int is_trusted_link(int parent, const char *name) {
  struct stat st;
  return fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
         S_ISLNK(st.st_mode) && (st.st_uid == 0 || st.st_uid == geteuid());
}

/* The directory name in parent, made if missing (as gcov's GCOV_PREFIX
 * does), opened. Never through a symbolic link for the last component of
 * the path (last) or for a directory made here; through a trusted one
 * (is_trusted_link) for the others. */
static int open_component(int parent, const char *name, int last) {
  int flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;
  int made = mkdirat(parent, name, DIRECTORY_MODE) == 0;
  int fd = openat(parent, name, flags | O_NOFOLLOW);
  if (fd >= 0) {
    if (made)
      fchmod(fd, DIRECTORY_MODE); /* a umask may have taken bits away */
    return fd;
  }
  if (errno != ENOTDIR && errno != ELOOP) /* a link fails with either */
    return -1;
  struct stat st;
  if (fstatat(parent, name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
      !S_ISLNK(st.st_mode)) {
    errno = ENOTDIR;
    return -1;
  }
  if (last || made || !is_trusted_link(parent, name)) {
    errno = ELOOP;
    return -1;
  }
  return openat(parent, name, flags);
}

/* Opens dir (open_component for each component). Returns the descriptor,
 * or -1 with errno set. */
static int open_directory(const char *dir) {
  char path[PATH_MAX];
  size_t n = strlen(dir);
  if (n >= sizeof path) {
    errno = ENAMETOOLONG;
    return -1;
  }
  memcpy(path, dir, n + 1);
  int fd = open(path[0] == '/' ? "/" : ".",
                O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  char *component = path;
  while (fd >= 0) {
    component += strspn(component, "/");
    if (!*component)
      return fd;
    char *end = component + strcspn(component, "/");
    int last = end[strspn(end, "/")] == '\0';
    *end = '\0';
    int next = open_component(fd, component, last);
    int error = errno;
    close(fd);
    errno = error;
    fd = next;
    if (last)
      return fd;
    component = end + 1;
  }
  return -1;
}

/* Formats f->final from o; -1 (ENAMETOOLONG) if it does not fit. */
static int name_done(struct pathcov_out *o, struct pathcov_file *f) {
  pathcov_out_finish(o);
  if (o->total >= o->cap) {
    f->error = ENAMETOOLONG;
    return -1;
  }
  return 0;
}

/* Sets f->final to DIR/PREFIX-BASE-PID-SEQ.json, for the next sequence
 * number whose name no file takes. */
static int next_free_name(struct pathcov_file *f) {
  uint64_t pid = (uint64_t)getpid();
  struct stat st;
  do {
    unsigned seq = __atomic_fetch_add(f->sequence, 1, __ATOMIC_RELAXED);
    struct pathcov_out o;
    pathcov_out_memory(&o, f->final + f->name, sizeof f->final - f->name);
    pathcov_out_str(&o, f->prefix);
    pathcov_out_str(&o, f->base);
    pathcov_out_str(&o, "-");
    pathcov_out_u64(&o, pid);
    pathcov_out_str(&o, "-");
    pathcov_out_u64(&o, seq);
    pathcov_out_str(&o, ".json");
    if (name_done(&o, f) != 0)
      return -1;
  } while (fstatat(f->dir, f->final + f->name, &st, AT_SYMLINK_NOFOLLOW) == 0);
  return 0;
}

int pathcov_file_name(struct pathcov_file *f, const char *dir,
                      const char *prefix, const char *base,
                      unsigned *sequence) {
  *f = (struct pathcov_file){.fd = -1, .dir = -1, .prefix = prefix,
                             .base = base, .sequence = sequence};
  struct pathcov_out o;
  pathcov_out_memory(&o, f->final, sizeof f->final);
  pathcov_out_str(&o, dir);
  pathcov_out_str(&o, "/");
  if (name_done(&o, f) != 0)
    return -1;
  f->name = o.len;
  f->dir = open_directory(dir);
  if (f->dir < 0) {
    f->error = errno;
    f->final[f->name - 1] = '\0'; /* messages name the directory */
    return -1;
  }
  return next_free_name(f);
}

int pathcov_file_path(struct pathcov_file *f, const char *path) {
  *f = (struct pathcov_file){.fd = -1, .dir = -1};
  struct pathcov_out o;
  pathcov_out_memory(&o, f->final, sizeof f->final);
  pathcov_out_str(&o, path);
  if (name_done(&o, f) != 0)
    return -1;
  /* The program chose the path: its directory is opened as it names it,
   * links and all. */
  const char *slash = strrchr(f->final, '/');
  if (!slash) {
    f->dir = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  } else {
    f->name = (size_t)(slash - f->final) + 1;
    f->final[f->name - 1] = '\0';
    f->dir = open(f->name > 1 ? f->final : "/",
                  O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    f->final[f->name - 1] = '/';
  }
  if (f->dir < 0) {
    f->error = errno;
    return -1;
  }
  return 0;
}

/* 64 unpredictable bits, async-signal-safe: getrandom (a raw system call,
 * without its libc wrapper's cancellation point), else, with no entropy
 * yet or no getrandom, the clock mixed with the pid and a counter. */
static uint64_t random_bits(void) {
  uint64_t x;
  if (syscall(SYS_getrandom, &x, sizeof x, GRND_NONBLOCK) == sizeof x)
    return x;
  static uint64_t counter;
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  x = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
  x ^= (uint64_t)getpid() << 40 ^
       __atomic_add_fetch(&counter, 1, __ATOMIC_RELAXED) << 20;
  /* splitmix64's finaliser */
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

int pathcov_file_open(struct pathcov_file *f) {
  /* A random name: nobody can take it in advance (O_EXCL steps over the
   * rare collision), nor stop the file by taking many. */
  if (f->error)
    return -1;
  for (unsigned attempt = 0; attempt < 100; ++attempt) {
    struct pathcov_out o;
    pathcov_out_memory(&o, f->tmp, sizeof f->tmp);
    char digits[16];
    hex16(digits, random_bits());
    pathcov_out_str(&o, ".pathcov-");
    pathcov_out_bytes(&o, digits, sizeof digits);
    pathcov_out_str(&o, ".tmp");
    pathcov_out_finish(&o);
    f->fd = openat(f->dir, f->tmp,
                   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                   FILE_MODE);
    if (f->fd >= 0) {
      fchmod(f->fd, FILE_MODE); /* a umask may have taken bits away */
      return 0;
    }
    if (errno != EEXIST)
      break;
  }
  f->error = errno;
  return -1;
}

/* Renames the complete temporary file to its final name. An automatic
 * name is never replaced: if a file took it since next_free_name, the next
 * free one is used. The API's path is replaced, as documented. */
static int publish(struct pathcov_file *f) {
  if (!f->sequence)
    return renameat(f->dir, f->tmp, f->dir, f->final + f->name);
  for (;;) {
    if (renameat2(f->dir, f->tmp, f->dir, f->final + f->name,
                  RENAME_NOREPLACE) == 0)
      return 0;
    if (errno == EINVAL || errno == ENOSYS) /* not on this file system */
      return renameat(f->dir, f->tmp, f->dir, f->final + f->name);
    if (errno != EEXIST)
      return -1;
    if (next_free_name(f) != 0) {
      errno = f->error;
      return -1;
    }
  }
}

int pathcov_file_close(struct pathcov_file *f, int write_error) {
  if (f->fd >= 0) {
    if (write_error && !f->error)
      f->error = write_error;
    if (close(f->fd) != 0 && !f->error)
      f->error = errno;
    f->fd = -1;
    if (!f->error && publish(f) != 0)
      f->error = errno;
    if (f->error)
      unlinkat(f->dir, f->tmp, 0);
  }
  if (f->dir >= 0) {
    close(f->dir);
    f->dir = -1;
  }
  return f->error ? -1 : 0;
}

/* ---------------------------------------------------------- environment */

int pathcov_secure_execution(void) { return getauxval(AT_SECURE) != 0; }

/* PATHCOV_DIAGNOSTICS=always, read at start-up (pathcov_read_settings):
 * signal handlers must not read the environment. */
static int diagnostics_always;

void pathcov_read_settings(void) {
  const char *diagnostics = secure_getenv("PATHCOV_DIAGNOSTICS");
  diagnostics_always = diagnostics && strcmp(diagnostics, "always") == 0;
}

/* Whether fd is where a diagnostic may go: a terminal, a pipe or a socket,
 * or a file opened for appending (a log). A program that closed stderr and
 * opened its data on descriptor 2 must not find our lines in its data. */
static int is_diagnostic_stream(int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0)
    return 0;
  if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
    return 1;
  if (S_ISREG(st.st_mode)) {
    int flags = fcntl(fd, F_GETFL);
    return flags >= 0 && (flags & O_APPEND);
  }
  return S_ISCHR(st.st_mode) && isatty(fd); /* an ioctl */
}

void pathcov_diagnostic(const char *line, size_t len) {
  if (!diagnostics_always && !is_diagnostic_stream(STDERR_FILENO))
    return;
  if (write(STDERR_FILENO, line, len) < 0) {
    /* stderr is gone: nowhere left to report */
  }
}

void pathcov_env_dir_read(struct pathcov_env_dir *d, const char *variable) {
  const char *path = secure_getenv(variable);
  if (!path || !*path)
    path = ".";
  d->variable = variable;
  d->error = strlen(path) < sizeof d->path ? 0 : ENAMETOOLONG;
  if (!d->error)
    memcpy(d->path, path, strlen(path) + 1);
}

int pathcov_file_name_in(struct pathcov_file *f, const struct pathcov_env_dir *d,
                         const char *prefix, const char *base,
                         unsigned *sequence) {
  if (!d->error)
    return pathcov_file_name(f, d->path, prefix, base, sequence);
  *f = (struct pathcov_file){.fd = -1, .dir = -1, .error = d->error};
  f->final[0] = '$';
  memcpy(f->final + 1, d->variable, strlen(d->variable) + 1);
  return -1;
}

void pathcov_warn_in_signal(const char *what, const struct pathcov_file *f) {
  char line[PATH_MAX + 160];
  struct pathcov_out o;
  pathcov_out_memory(&o, line, sizeof line - 1);
  pathcov_out_str(&o, "pathcov: cannot write ");
  pathcov_out_str(&o, what);
  pathcov_out_str(&o, " ");
  pathcov_out_str(&o, f->final);
  pathcov_out_str(&o, " (errno ");
  pathcov_out_u64(&o, (uint64_t)f->error);
  pathcov_out_str(&o, ")");
  pathcov_out_finish(&o);
  line[o.len] = '\n';
  pathcov_diagnostic(line, o.len + 1);
}
