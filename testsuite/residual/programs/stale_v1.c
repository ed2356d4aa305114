/* Version 1 of a small program (stale_v1.c and stale_v2.c differ only in
 * scale()): a corpus recorded from version 1 is stale for version 2's
 * scale(). `stale N...` prints scale(N) + offset(N) for each N. Functions
 * are extern, so that both versions' functions have the same identities. */
#include <stdio.h>
#include <stdlib.h>

int offset(int x) {
  if (x < 0)
    return -x;
  return x + 1;
}

int scale(int x) {
  int r = x;
  if (x > 10)
    r = x * 2;
  return r;
}

int main(int argc, char **argv) {
  long sum = 0;
  for (int i = 1; i < argc; ++i) {
    int x = atoi(argv[i]);
    sum = sum * 3 + scale(x) + offset(x);
  }
  printf("%ld\n", sum);
  return 0;
}
