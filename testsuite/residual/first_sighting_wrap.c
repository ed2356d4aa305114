/* Linked into check_first_sighting.py's residual builds, not instrumented,
 * with -Wl,--wrap=__pathcov_residual_path: counts the runtime's recordings
 * per residual path (every call into it: the x86-64 stub's, which is in
 * another object of the runtime, and the direct calls of other targets)
 * and prints them at exit on stderr, "calls\tIDENTITY\tID\tN" a line.
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
static struct {
  const struct pathcov_function *fn;
  uint64_t id;
  uint64_t calls;
} recorded[MAX_PATHS];
static unsigned used;
static uint64_t overflow;

void __real___pathcov_residual_path(struct pathcov_function *fn, uint64_t id);

RECORDER void __wrap___pathcov_residual_path(struct pathcov_function *fn,
                                             uint64_t id) {
  unsigned i = 0;
  while (i < used && !(recorded[i].fn == fn && recorded[i].id == id))
    ++i;
  if (i == used && used < MAX_PATHS) {
    recorded[i].fn = fn;
    recorded[i].id = id;
    ++used;
  }
  if (i < used)
    ++recorded[i].calls;
  else
    ++overflow;
  __real___pathcov_residual_path(fn, id);
}

__attribute__((destructor)) static void print_calls(void) {
  for (unsigned i = 0; i < used; ++i)
    fprintf(stderr, "calls\t%s\t%llu\t%llu\n", recorded[i].fn->identity,
            (unsigned long long)recorded[i].id,
            (unsigned long long)recorded[i].calls);
  if (overflow)
    fprintf(stderr, "calls overflow %llu\n", (unsigned long long)overflow);
}
