/* A loop asking __builtin_constant_p of its counter (glibc's toupper does,
 * at -O2), run 256 times per call: residual mode would peel its first
 * iteration, where the counter is a constant, and GCC would decide the
 * builtin otherwise there than in the test build, taking a path the tests
 * could never take (a new user's sed: lib/dfa.c's setbit_case_fold_c).
 * The loop is not peeled: the tests' own input reports nothing. */
#include <stdio.h>

#define UPPER(c)                                                              \
  (__builtin_constant_p(c) ? ((c) >= 'a' && (c) <= 'z' ? (c) - 32 : (c))      \
                           : upper_of(c))

__attribute__((noinline)) static int upper_of(int c) {
  return c >= 'a' && c <= 'z' ? c - 32 : c;
}

static int case_variants(int b) {
  int ub = UPPER(b), n = 0;
  for (int i = 0; i < 256; i++)
    if (UPPER(i) == ub)
      n++;
  return n;
}

int main(int argc, char **argv) {
  printf("%d\n", case_variants(argc > 1 ? argv[1][0] : 'b'));
  return 0;
}
