/* setjmp/longjmp: `setjmp N K DEPTH` sums check(i) for i in 1..N, and
 * check longjmps back from DEPTH nested calls when i is a multiple of K. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static jmp_buf env;
static int failed;

static int check(int n, int k, int depth) {
  if (depth > 0)
    return check(n, k, depth - 1) + 1;
  if (n % k == 0) {
    failed = n;
    longjmp(env, 1);
  }
  return n;
}

static int sum_checked(int n, int k, int depth) {
  volatile int i = 1;
  volatile int sum = 0;
  if (setjmp(env)) {
    sum -= failed;
    ++i;
  }
  for (; i <= n; ++i)
    sum += check(i, k, depth);
  return sum;
}

int main(int argc, char **argv) {
  if (argc < 4)
    return 2;
  printf("%d\n", sum_checked(atoi(argv[1]), atoi(argv[2]), atoi(argv[3])));
  return 0;
}
