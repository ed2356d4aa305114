/* A return entered by ten routes: pick's switch gives r its value on each
   and every route joins at the one return. sign's three routes join at
   its return too, but no test runs it. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static int pick(int k) {
  int r;
  switch (k) {
  case 0: r = 11; break;
  case 1: r = 23; break;
  case 2: r = 35; break;
  case 3: r = 47; break;
  case 4: r = 59; break;
  case 5: r = 61; break;
  case 6: r = 73; break;
  case 7: r = 85; break;
  case 8: r = 97; break;
  default: r = 109; break;
  }
  return r;
}

/* Three routes join at the return, and the tests never run it: every path
   of it is residual. */
__attribute__((noinline)) static int sign(int k) {
  int r;
  if (k < 0)
    r = -1;
  else if (k > 0)
    r = 1;
  else
    r = 0;
  return r;
}

int main(int argc, char **argv) {
  if (argc > 1 && argv[1][0] == 's') {
    printf("%d\n", sign(atoi(argv[2])));
    return 0;
  }
  long sum = 0;
  for (int i = 1; i < argc; ++i)
    sum += pick(atoi(argv[i]));
  printf("%ld\n", sum);
  return 0;
}
