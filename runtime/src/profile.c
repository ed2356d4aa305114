/* Writing a profile (docs/record-formats.md, "Profile"): JSON formatted by
 * hand into a buffer over write(2), in a temporary file of the target
 * directory renamed to its final name when complete, so that a reader never
 * sees half a profile. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

static void out_flush(struct pathcov_profile *p) {
  size_t done = 0;
  while (done < p->len && !p->error) {
    ssize_t n = write(p->fd, p->buf + done, p->len - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      p->error = n < 0 ? errno : EIO;
    else
      done += (size_t)n;
  }
  p->len = 0;
}

static void out_bytes(struct pathcov_profile *p, const char *s, size_t n) {
  while (n > 0 && !p->error) {
    size_t chunk = sizeof p->buf - p->len;
    if (chunk > n)
      chunk = n;
    memcpy(p->buf + p->len, s, chunk);
    p->len += chunk;
    s += chunk;
    n -= chunk;
    if (p->len == sizeof p->buf)
      out_flush(p);
  }
}

static void out_str(struct pathcov_profile *p, const char *s) {
  out_bytes(p, s, strlen(s));
}

static void out_u64(struct pathcov_profile *p, uint64_t v) {
  char digits[20];
  size_t i = sizeof digits;
  do {
    digits[--i] = (char)('0' + v % 10);
    v /= 10;
  } while (v);
  out_bytes(p, digits + i, sizeof digits - i);
}

/* A 64-bit checksum: 16 lowercase hex digits in a string. */
static void out_hex64(struct pathcov_profile *p, uint64_t v) {
  char s[18];
  s[0] = s[17] = '"';
  for (int i = 16; i >= 1; --i, v >>= 4)
    s[i] = "0123456789abcdef"[v & 15];
  out_bytes(p, s, sizeof s);
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

/* A JSON string, or null for NULL. Identities, paths and test names are
 * arbitrary bytes: quotes, backslashes and control characters are escaped,
 * and a byte that is not part of well-formed UTF-8 is written as the code
 * point of the same value (read as Latin-1), so the file is always valid
 * UTF-8 JSON. */
static void out_string(struct pathcov_profile *p, const char *s) {
  if (!s) {
    out_str(p, "null");
    return;
  }
  out_str(p, "\"");
  for (const unsigned char *u = (const unsigned char *)s; *u;) {
    size_t n = utf8_length(u);
    if (n == 0 || *u < 0x20) {
      char escape[7];
      snprintf(escape, sizeof escape, "\\u%04x", *u);
      out_bytes(p, escape, 6);
      n = 1;
    } else if (*u == '"' || *u == '\\') {
      char escape[2] = {'\\', (char)*u};
      out_bytes(p, escape, 2);
    } else {
      out_bytes(p, (const char *)u, n);
    }
    u += n;
  }
  out_str(p, "\"");
}

int pathcov_profile_open(struct pathcov_profile *p,
                         const struct pathcov_module *m, unsigned *sequence,
                         size_t max_paths) {
  p->fd = -1;
  p->error = 0;
  p->paths = NULL;
  p->functions = 0;
  p->len = 0;
  const char *dir = getenv("PATHCOV_PROFILE_DIR");
  if (!dir || !*dir)
    dir = ".";
  long pid = (long)getpid();
  unsigned seq;
  struct stat st;
  do {
    seq = (*sequence)++;
    if (snprintf(p->final, sizeof p->final, "%s/pathcov-%s-%ld-%u.json", dir,
                 m->base, pid, seq) >= (int)sizeof p->final) {
      p->error = ENAMETOOLONG;
      return -1;
    }
  } while (lstat(p->final, &st) == 0);

  p->paths = malloc((max_paths ? max_paths : 1) * sizeof *p->paths);
  if (!p->paths) {
    p->error = ENOMEM;
    return -1;
  }
  /* pid and sequence make the name unique among live writers; the clock
   * bits avoid a leftover of a crashed process that had the same pid. */
  for (unsigned attempt = 0; attempt < 100 && p->fd < 0; ++attempt) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    unsigned long noise = (unsigned long)now.tv_nsec ^ attempt * 0x9e3779b9ul;
    snprintf(p->tmp, sizeof p->tmp, "%s/.pathcov-%s-%ld-%u-%08lx.tmp", dir,
             m->base, pid, seq, noise & 0xfffffffful);
    p->fd = open(p->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (p->fd < 0 && errno != EEXIST)
      break;
  }
  if (p->fd < 0) {
    p->error = errno;
    return -1;
  }
  return 0;
}

void pathcov_profile_header(struct pathcov_profile *p,
                            const struct pathcov_module *m, const char *reason,
                            uint64_t invalid_descriptors, uint64_t lost_paths) {
  out_str(p, "{\"format\": \"pathcov-profile\", \"format_version\": \"1.0\",\n"
             " \"module\": ");
  out_string(p, m->path);
  out_str(p, ", \"build_id\": ");
  out_string(p, m->build_id[0] ? m->build_id : NULL);
  out_str(p, ", \"pid\": ");
  out_u64(p, (uint64_t)getpid());
  out_str(p, ",\n \"test\": ");
  out_string(p, getenv("PATHCOV_TEST"));
  out_str(p, ", \"reason\": ");
  out_string(p, reason);
  if (invalid_descriptors) {
    out_str(p, ", \"invalid_descriptors\": ");
    out_u64(p, invalid_descriptors);
  }
  if (lost_paths) {
    out_str(p, ", \"lost_paths\": ");
    out_u64(p, lost_paths);
  }
  out_str(p, ",\n \"functions\": [");
}

void pathcov_profile_function(struct pathcov_profile *p,
                              const struct pathcov_function *fn,
                              const struct pathcov_counts *c) {
  out_str(p, p->functions++ ? ",\n  {\"identity\": " : "\n  {\"identity\": ");
  out_string(p, fn->identity);
  out_str(p, ", \"checksum\": ");
  out_hex64(p, fn->cfg_checksum);
  out_str(p, ", \"num_paths\": ");
  out_u64(p, fn->num_paths);
  out_str(p, ", \"calls\": ");
  out_u64(p, c->calls);
  out_str(p, ",\n   \"paths\": [");
  for (size_t i = 0; i < c->len; ++i) {
    out_str(p, i ? ", [" : "[");
    out_u64(p, c->paths[i].id);
    out_str(p, ", ");
    out_u64(p, c->paths[i].count);
    out_str(p, "]");
  }
  out_str(p, "], \"invalid_ids\": ");
  out_u64(p, c->invalid_ids);
  out_str(p, ", \"dropped\": ");
  out_u64(p, c->dropped);
  out_str(p, "}");
}

int pathcov_profile_close(struct pathcov_profile *p) {
  if (p->fd >= 0) {
    out_str(p, "\n]}\n");
    out_flush(p);
    if (close(p->fd) != 0 && !p->error)
      p->error = errno;
    if (!p->error && rename(p->tmp, p->final) != 0)
      p->error = errno;
    if (p->error)
      unlink(p->tmp);
  }
  free(p->paths);
  if (!p->error)
    return 0;
  pathcov_warn("cannot write profile %s: %s", p->final, strerror(p->error));
  errno = p->error;
  return -1;
}

void pathcov_warn(const char *format, ...) {
  static const char prefix[] = "pathcov: ";
  char line[2 * PATH_MAX];
  memcpy(line, prefix, sizeof prefix - 1);
  size_t room = sizeof line - (sizeof prefix - 1) - 1; /* keep 1 for '\n' */
  va_list ap;
  va_start(ap, format);
  int n = vsnprintf(line + sizeof prefix - 1, room, format, ap);
  va_end(ap);
  if (n < 0)
    return;
  size_t len = sizeof prefix - 1 + ((size_t)n < room ? (size_t)n : room - 1);
  line[len++] = '\n';
  if (write(STDERR_FILENO, line, len) < 0) {
    /* stderr is gone: nowhere left to report */
  }
}
