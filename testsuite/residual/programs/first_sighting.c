/* First sighting only (docs/residual-mode.md): `first_sighting N MODE`
 * runs a loop N times. The tests run MODE 0; the field runs MODE 1, whose
 * paths through f and main the tests never ran, and g, which the tests
 * never called (untested): residual paths repeated N times over, which
 * must reach the runtime once each (check_first_sighting.py). */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int f(int x, int mode) {
  if (mode)
    x += 3;
  else
    x -= 1;
  if (x & 1)
    x *= 2;
  return x;
}

__attribute__((noinline)) int g(int x) { return x % 3 ? x + 1 : x - 1; }

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  int mode = argc > 2 ? atoi(argv[2]) : 0;
  long sum = 0;
  for (int i = 0; i < n; ++i) {
    sum += f(i, mode);
    if (mode)
      sum += g(i);
  }
  printf("%ld\n", sum);
  return 0;
}
