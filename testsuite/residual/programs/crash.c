/* A crash after residual paths: `crash N...` classifies each N, prints the
 * sum, and dereferences NULL in die(), which the oracle's builds leave
 * uninstrumented (exclude-function=die). main's last path ends before the
 * call, as die is noreturn. Every build dies of it: the record build's
 * crash profile is what ran, the residual build's crash report what of it
 * was not tested. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noreturn, noinline)) static void die(void) {
  volatile int *volatile p = 0;
  *p = 1;
  __builtin_unreachable();
}

static int classify(int x) {
  if (x < 0)
    return -1;
  if (x % 3 == 0)
    return x / 3;
  if (x % 3 == 1)
    return 2 * x;
  return x + 100;
}

int main(int argc, char **argv) {
  long sum = 0;
  for (int i = 1; i < argc; ++i)
    sum = sum * 3 + classify(atoi(argv[i]));
  printf("%ld\n", sum);
  fflush(stdout);
  die();
}
