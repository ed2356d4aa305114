/* `twice` is only here for inlining (gnu_inline extern inline): its
 * out-of-line copy is in twice.c, compiled without the plugin, like a
 * library's. pathcov, as gcov, must not number it: whether its paths
 * count would depend on whether the optimizers inline it. */
#include <stdio.h>

extern inline __attribute__((gnu_inline)) int twice(int x) {
  if (x > 0)
    return 2 * x;
  return 0;
}

int main(int argc, char **argv) {
  (void)argv;
  printf("%d\n", twice(argc));
  return 0;
}
