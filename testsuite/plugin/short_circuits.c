/* Conditions GCC compiles as a chain of jumps at -O0 and folds into one
 * condition from -O1 on (check_optimization_class.py): the CFGs differ. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int both(int a, int b) { return a > 0 && b > 0; }

__attribute__((noinline)) int either(int a, int b) {
  if (a == 3 || b == 5)
    return 7;
  return a - b;
}

int main(int argc, char **argv) {
  const int a = argc > 1 ? atoi(argv[1]) : 1;
  printf("%d %d\n", both(a, 2), either(a, 4));
  return 0;
}
