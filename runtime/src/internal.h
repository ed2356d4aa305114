/* Interfaces between the runtime's source files. The library is compiled
 * with -fvisibility=hidden: none of this leaves the module it is linked
 * into; only PATHCOV_EXPORT functions (pathcov.h) are exported. */
#ifndef PATHCOV_RUNTIME_INTERNAL_H
#define PATHCOV_RUNTIME_INTERNAL_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "pathcov/abi.h"

/* Exported, but calls from inside a module bind to that module's own copy of
 * the runtime (default visibility would let the first module that exports
 * the name serve every module's calls). */
#define PATHCOV_EXPORT __attribute__((visibility("protected")))

/* The longest GNU build-id kept, in bytes (ld writes 20; a longer one is
 * reported as none). */
#define PATHCOV_BUILD_ID_MAX 64

/* The module (executable or shared library) this copy of the runtime is
 * linked into. */
struct pathcov_module {
  char path[PATH_MAX];  /* absolute where the system tells us */
  const char *base;     /* last component of path */
  char build_id[2 * PATHCOV_BUILD_ID_MAX + 1]; /* lowercase hex; "" if none */
};

/* Fills *m for the loaded object containing addr. Takes the loader lock: call
 * it once, at start-up. */
void pathcov_module_identify(const void *addr, struct pathcov_module *m);

/* One path and its count, as a profile lists it. */
struct pathcov_path {
  uint64_t id;
  uint64_t count;
};

/* What one profile reports for one function. */
struct pathcov_counts {
  uint64_t calls;
  uint64_t invalid_ids;
  uint64_t dropped;
  size_t len;                 /* entries in paths */
  struct pathcov_path *paths; /* ascending ids, nonzero counts */
};

/* A profile being written: a temporary file, renamed to its final name when
 * complete. */
struct pathcov_profile {
  int fd;
  int error;                /* first errno that went wrong, 0 if none */
  char final[PATH_MAX + 64];
  char tmp[PATH_MAX + 64];
  struct pathcov_path *paths; /* scratch for the caller: max_paths entries */
  unsigned long functions;  /* functions written so far */
  size_t len;               /* bytes in buf */
  char buf[8192];
};

/* Creates the temporary file of the next profile of m in
 * $PATHCOV_PROFILE_DIR and allocates p->paths. The final name takes the
 * first sequence number >= *sequence that no file uses (a dlclose'd library
 * loaded again restarts its sequence at 0; a reused pid meets old files) and
 * *sequence moves past it. Returns 0, or -1 with p->error set; either way
 * pathcov_profile_close(p) must follow. */
int pathcov_profile_open(struct pathcov_profile *p,
                         const struct pathcov_module *m, unsigned *sequence,
                         size_t max_paths);

/* Writes the profile's top-level fields. The last two are written only when
 * nonzero (they are not in format 1.0: see runtime.c). */
void pathcov_profile_header(struct pathcov_profile *p,
                            const struct pathcov_module *m, const char *reason,
                            uint64_t invalid_descriptors, uint64_t lost_paths);

void pathcov_profile_function(struct pathcov_profile *p,
                              const struct pathcov_function *fn,
                              const struct pathcov_counts *c);

/* Completes the file and renames it to its final name. On any failure,
 * removes the temporary file, prints one line on stderr and returns -1
 * with errno set; else returns 0. */
int pathcov_profile_close(struct pathcov_profile *p);

/* Prints one line on stderr with a single write(2), so that lines from
 * concurrent processes do not interleave. */
void pathcov_warn(const char *format, ...)
    __attribute__((format(printf, 1, 2)));

#endif
