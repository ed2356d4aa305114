/* Linked into check_first_sighting.py's residual builds, not instrumented,
 * with -Wl,--wrap=__pathcov_residual_path and __pathcov_residual_word, and
 * the x86-64 stubs' targets pathcov_site_residual_path and _word:
 * counts the runtime's recordings per residual path (every call into it:
 * the x86-64 stubs', which are in another object of the runtime, and the
 * direct calls of other targets; __pathcov_residual_word's own call of the
 * recorder, inside the runtime, is not counted again)
 * and prints them at exit on stderr, "calls\tIDENTITY\tID\tN" a line.
 * With -Wl,--wrap=__pathcov_residual_lookup too, it counts the sorted
 * policy's lookups the same way, "lookups\tIDENTITY\tID\tN" (the lookup's
 * own call of the recorder, inside the runtime, is not counted as a call).
 *
 * On x86-64 the stub that calls it keeps only the general registers: like
 * the runtime's recording code, this must not touch vector registers. */
#include <stdint.h>
#include <stdio.h>

#include <pathcov/abi.h>

#if defined(__x86_64__)
#define RECORDER __attribute__((target("general-regs-only")))
#else
#define RECORDER
#endif

enum { MAX_PATHS = 256 };
struct counts {
  struct {
    const struct pathcov_function *fn;
    uint64_t id;
    uint64_t calls;
  } recorded[MAX_PATHS];
  unsigned used;
  uint64_t overflow;
};
static struct counts calls, lookups;

RECORDER static void count(struct counts *c, struct pathcov_function *fn,
                           uint64_t id) {
  unsigned i = 0;
  while (i < c->used && !(c->recorded[i].fn == fn && c->recorded[i].id == id))
    ++i;
  if (i == c->used && c->used < MAX_PATHS) {
    c->recorded[i].fn = fn;
    c->recorded[i].id = id;
    ++c->used;
  }
  if (i < c->used)
    ++c->recorded[i].calls;
  else
    ++c->overflow;
}

void __real___pathcov_residual_path(struct pathcov_function *fn, uint64_t id);
void __real___pathcov_residual_lookup(struct pathcov_function *fn, uint64_t id);

RECORDER void __wrap___pathcov_residual_path(struct pathcov_function *fn,
                                             uint64_t id) {
  count(&calls, fn, id);
  __real___pathcov_residual_path(fn, id);
}

void __real___pathcov_residual_word(struct pathcov_function *fn, uint64_t id);

RECORDER void __wrap___pathcov_residual_word(struct pathcov_function *fn,
                                             uint64_t id) {
  count(&calls, fn, id);
  __real___pathcov_residual_word(fn, id);
}

void __wrap___pathcov_residual_lookup(struct pathcov_function *fn,
                                      uint64_t id) {
  count(&lookups, fn, id);
  __real___pathcov_residual_lookup(fn, id);
}

/* The x86-64 stubs' targets (runtime/src/internal.h): the same recorder,
 * with the stub's frame for the calling context. */
void __real_pathcov_site_residual_path(struct pathcov_function *fn, uint64_t id,
                                       const void *frame);
void __real_pathcov_site_residual_word(struct pathcov_function *fn, uint64_t id,
                                       const void *frame);

RECORDER void __wrap_pathcov_site_residual_path(struct pathcov_function *fn,
                                                uint64_t id, const void *frame) {
  count(&calls, fn, id);
  __real_pathcov_site_residual_path(fn, id, frame);
}

RECORDER void __wrap_pathcov_site_residual_word(struct pathcov_function *fn,
                                                uint64_t id, const void *frame) {
  count(&calls, fn, id);
  __real_pathcov_site_residual_word(fn, id, frame);
}

static void print(const char *what, const struct counts *c) {
  for (unsigned i = 0; i < c->used; ++i)
    fprintf(stderr, "%s\t%s\t%llu\t%llu\n", what, c->recorded[i].fn->identity,
            (unsigned long long)c->recorded[i].id,
            (unsigned long long)c->recorded[i].calls);
  if (c->overflow)
    fprintf(stderr, "%s overflow %llu\n", what, (unsigned long long)c->overflow);
}

__attribute__((destructor)) static void print_calls(void) {
  print("calls", &calls);
  print("lookups", &lookups);
}
