/* Writing a profile (docs/record-formats.md, "Profile"): JSON formatted by
 * hand (out.c) into a buffer over write(2), in a temporary file of the
 * target directory renamed to its final name when complete, so that a
 * reader never sees half a profile. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"

static void out_str(struct pathcov_profile *p, const char *s) {
  pathcov_out_str(&p->out, s);
}

static void out_u64(struct pathcov_profile *p, uint64_t v) {
  pathcov_out_u64(&p->out, v);
}

static void out_string(struct pathcov_profile *p, const char *s) {
  pathcov_out_string(&p->out, s);
}

int pathcov_profile_open(struct pathcov_profile *p,
                         const struct pathcov_module *m,
                         const struct pathcov_env_dir *dir, unsigned *sequence,
                         struct pathcov_path *scratch) {
  p->paths = scratch;
  p->functions = 0;
  pathcov_out_fd(&p->out, -1, p->buf, sizeof p->buf);
  if (pathcov_file_name_in(&p->file, dir, "pathcov-", m->base, sequence) != 0)
    return -1;
  if (!scratch) {
    p->file.error = ENOMEM;
    return -1;
  }
  if (pathcov_file_open(&p->file) != 0)
    return -1;
  p->out.fd = p->file.fd;
  return 0;
}

void pathcov_profile_header(struct pathcov_profile *p,
                            const struct pathcov_module *m, const char *reason,
                            int signal, uint64_t invalid_descriptors,
                            uint64_t lost_paths) {
  out_str(p, "{\"format\": \"pathcov-profile\", \"format_version\": \"2.1\",\n"
             " \"module\": ");
  out_string(p, m->path);
  out_str(p, ", \"build_id\": ");
  out_string(p, m->build_id[0] ? m->build_id : NULL);
  out_str(p, ", \"pid\": ");
  out_u64(p, (uint64_t)getpid());
  out_str(p, ",\n \"test\": ");
  out_string(p, pathcov_test_name());
  out_str(p, ", \"reason\": ");
  out_string(p, reason);
  if (signal) {
    out_str(p, ", \"signal\": ");
    out_u64(p, (uint64_t)signal);
  }
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

/* Each path put together in memory, written with one call (internal.h,
 * PATHCOV_PUT). */
void pathcov_profile_function(struct pathcov_profile *p,
                              const struct pathcov_function *fn,
                              const struct pathcov_counts *c) {
  out_str(p, p->functions++ ? ",\n  {\"identity\": " : "\n  {\"identity\": ");
  out_string(p, fn->identity);
  char head[160], *e = head;
  PATHCOV_PUT(e, ", \"checksum\": ");
  e = pathcov_format_hex64(e, fn->cfg_checksum);
  PATHCOV_PUT(e, ", \"num_paths\": ");
  e = pathcov_format_u64(e, fn->num_paths);
  PATHCOV_PUT(e, ", \"calls\": ");
  e = pathcov_format_u64(e, c->calls);
  if (c->resumes) {
    PATHCOV_PUT(e, ", \"resumes\": ");
    e = pathcov_format_u64(e, c->resumes);
  }
  PATHCOV_PUT(e, ",\n   \"paths\": [");
  pathcov_out_bytes(&p->out, head, (size_t)(e - head));
  for (size_t i = 0; i < c->len; ++i) {
    char path[48];
    e = path;
    if (i)
      PATHCOV_PUT(e, ", ");
    PATHCOV_PUT(e, "[");
    e = pathcov_format_u64(e, c->paths[i].id);
    PATHCOV_PUT(e, ", ");
    e = pathcov_format_u64(e, c->paths[i].count);
    PATHCOV_PUT(e, "]");
    pathcov_out_bytes(&p->out, path, (size_t)(e - path));
  }
  char tail[80];
  e = tail;
  PATHCOV_PUT(e, "], \"invalid_ids\": ");
  e = pathcov_format_u64(e, c->invalid_ids);
  PATHCOV_PUT(e, ", \"dropped\": ");
  e = pathcov_format_u64(e, c->dropped);
  PATHCOV_PUT(e, "}");
  pathcov_out_bytes(&p->out, tail, (size_t)(e - tail));
}

int pathcov_profile_close(struct pathcov_profile *p) {
  int write_error = 0;
  if (p->file.fd >= 0) {
    out_str(p, "\n]}\n");
    pathcov_out_finish(&p->out);
    write_error = p->out.error;
  }
  if (pathcov_file_close(&p->file, write_error) == 0)
    return 0;
  errno = p->file.error;
  return -1;
}

