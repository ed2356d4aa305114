/* Residual paths first seen in many tests of one process (as a harness
 * names them with pathcov_test_begin), for check_first_tests.py: with an
 * argument, 70 tests each take a path of bits() of their own, then test
 * t0 again a new one, then one more outside any test. The record run
 * (no argument) never calls bits(): all its paths are residual. */
#include <pathcov/pathcov.h>
#include <stdio.h>

/* A path per value of the low 7 bits. */
__attribute__((noinline)) int bits(int i) {
  int r = 0;
  if (i & 1)
    r += 1;
  if (i & 2)
    r += 3;
  if (i & 4)
    r += 5;
  if (i & 8)
    r += 7;
  if (i & 16)
    r += 11;
  if (i & 32)
    r += 13;
  if (i & 64)
    r += 17;
  return r;
}

int main(int argc, char **argv) {
  (void)argv;
  if (argc < 2)
    return 0;
  int sum = 0;
  char name[16];
  for (int i = 0; i < 70; ++i) {
    snprintf(name, sizeof name, "t%d", i);
    pathcov_test_begin(name);
    sum += bits(i);
    pathcov_test_end();
  }
  pathcov_test_begin("t0");
  sum += bits(100);
  pathcov_test_end();
  sum += bits(101);
  printf("%d\n", sum);
  return 0;
}
