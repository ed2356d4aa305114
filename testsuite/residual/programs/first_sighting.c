/* First sighting only (docs/residual-mode.md): `first_sighting N MODE`
 * runs a loop N times. The tests run MODE 0; the field runs MODE 1, whose
 * paths through f and main the tests never ran, and g, which the tests
 * never called (untested), and one path of h, which has more paths than
 * seen slots: residual paths repeated N times over, which must reach the
 * runtime once each (check_first_sighting.py). */
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

/* 2^13 paths, more than a function gives a slot each (4096): its 256
 * seen slots are shared, the paths whose ids agree modulo 256 on one
 * slot, whose tag tells them apart (f and g have a slot per path, tested
 * against 0). The tests run x = 0..15 (the tested run too); the field runs
 * the one path with only bit 12 set. */
#define BIT(k)                                                                 \
  if ((x >> (k)) & 1)                                                          \
    y = y * 31 + (k);
__attribute__((noinline)) unsigned h(unsigned x) {
  unsigned y = 1;
  BIT(0) BIT(1) BIT(2) BIT(3) BIT(4) BIT(5) BIT(6) BIT(7) BIT(8) BIT(9)
  BIT(10) BIT(11) BIT(12)
  return y;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 10;
  int mode = argc > 2 ? atoi(argv[2]) : 0;
  long sum = 0;
  for (int i = 0; i < n; ++i) {
    sum += f(i, mode);
    sum += h(mode ? 4096u : (unsigned)i % 16);
    if (mode)
      sum += g(i);
  }
  printf("%ld\n", sum);
  return 0;
}
