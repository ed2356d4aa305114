/* Output shared by profiles (profile.c) and reports (residual.c): JSON
 * formatted by hand into a chunk buffer over write(2), or into a caller's
 * memory, and files written under a temporary name then renamed. Nothing
 * here allocates or uses stdio: reports are written from signal handlers
 * with the same code (signal-safety(7): write, open, close, rename, unlink,
 * lstat, getpid, clock_gettime). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h> /* rename, which is async-signal-safe */
#include <string.h>
#include <sys/stat.h>
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

void pathcov_out_u64(struct pathcov_out *o, uint64_t v) {
  char digits[20];
  size_t i = sizeof digits;
  do {
    digits[--i] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  pathcov_out_bytes(o, digits + i, sizeof digits - i);
}

static const char hex_digits[] = "0123456789abcdef";

void pathcov_out_hex64(struct pathcov_out *o, uint64_t v) {
  char s[18];
  s[0] = s[17] = '"';
  for (int i = 16; i >= 1; --i, v >>= 4)
    s[i] = hex_digits[v & 15];
  pathcov_out_bytes(o, s, sizeof s);
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

/* Formats into dst[size]; -1 (ENAMETOOLONG) if it does not fit. */
static int name_done(struct pathcov_out *o, struct pathcov_file *f) {
  pathcov_out_finish(o);
  if (o->total >= o->cap) {
    f->error = ENAMETOOLONG;
    return -1;
  }
  return 0;
}

/* mkdir -p: the directory a variable names may not exist yet, as with
 * gcov's GCOV_PREFIX. mkdir is async-signal-safe. */
static void make_directories(const char *dir) {
  char path[sizeof ((struct pathcov_file *)0)->final];
  size_t n = strlen(dir);
  if (n == 0 || n >= sizeof path)
    return;
  memcpy(path, dir, n + 1);
  for (size_t i = 1; i <= n; ++i)
    if (path[i] == '/' || path[i] == '\0') {
      char c = path[i];
      path[i] = '\0';
      mkdir(path, 0777); /* EEXIST and the like: open tells the real error */
      path[i] = c;
    }
}

int pathcov_file_name(struct pathcov_file *f, const char *dir,
                      const char *prefix, const char *base,
                      unsigned *sequence) {
  f->fd = -1;
  f->error = 0;
  make_directories(dir);
  uint64_t pid = (uint64_t)getpid();
  struct stat st;
  do {
    unsigned seq = __atomic_fetch_add(sequence, 1, __ATOMIC_RELAXED);
    struct pathcov_out o;
    pathcov_out_memory(&o, f->final, sizeof f->final);
    pathcov_out_str(&o, dir);
    pathcov_out_str(&o, "/");
    pathcov_out_str(&o, prefix);
    pathcov_out_str(&o, base);
    pathcov_out_str(&o, "-");
    pathcov_out_u64(&o, pid);
    pathcov_out_str(&o, "-");
    pathcov_out_u64(&o, seq);
    pathcov_out_str(&o, ".json");
    if (name_done(&o, f) != 0)
      return -1;
  } while (lstat(f->final, &st) == 0);
  return 0;
}

int pathcov_file_path(struct pathcov_file *f, const char *path) {
  f->fd = -1;
  f->error = 0;
  struct pathcov_out o;
  pathcov_out_memory(&o, f->final, sizeof f->final);
  pathcov_out_str(&o, path);
  return name_done(&o, f);
}

int pathcov_file_open(struct pathcov_file *f) {
  /* Numbered by pid and a counter of this copy of the runtime, unique among
   * live writers; O_EXCL steps over a leftover of a crashed process that
   * had the same pid. */
  static unsigned counter;
  if (f->error)
    return -1;
  const char *slash = strrchr(f->final, '/');
  size_t dir_len = slash ? (size_t)(slash - f->final) + 1 : 0;
  uint64_t pid = (uint64_t)getpid();
  for (unsigned attempt = 0; attempt < 100; ++attempt) {
    struct pathcov_out o;
    pathcov_out_memory(&o, f->tmp, sizeof f->tmp);
    pathcov_out_bytes(&o, f->final, dir_len);
    pathcov_out_str(&o, ".");
    pathcov_out_str(&o, f->final + dir_len);
    pathcov_out_str(&o, "-");
    pathcov_out_u64(&o, pid);
    pathcov_out_str(&o, "-");
    pathcov_out_u64(&o, __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED));
    pathcov_out_str(&o, ".tmp");
    if (name_done(&o, f) != 0)
      return -1;
    f->fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (f->fd >= 0)
      return 0;
    if (errno != EEXIST)
      break;
  }
  f->error = errno;
  return -1;
}

int pathcov_file_close(struct pathcov_file *f, int write_error) {
  if (f->fd >= 0) {
    if (write_error && !f->error)
      f->error = write_error;
    if (close(f->fd) != 0 && !f->error)
      f->error = errno;
    f->fd = -1;
    if (!f->error && rename(f->tmp, f->final) != 0)
      f->error = errno;
    if (f->error)
      unlink(f->tmp);
  }
  return f->error ? -1 : 0;
}
