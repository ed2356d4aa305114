/* Loops whose iterations end at one latch after two, three or four
   routes (the arms of an if chain): check_latch_routes.py,
   check_tested_words.py; and an inner loop that runs v[0] - 1 times. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static int two(const int *v, int n) {
  int a = 0;
  for (int i = 0; i < n; i++) {
    if (v[i] > 0)
      a += 3;
    else
      a -= 1;
  }
  return a;
}

__attribute__((noinline)) static int three(const int *v, int n) {
  int a = 0;
  for (int i = 0; i < n; i++) {
    if (v[i] > 0)
      a += 3;
    else if (v[i] < 0)
      a -= 1;
    else
      a ^= 5;
  }
  return a;
}

__attribute__((noinline)) static int four(const int *v, int n) {
  int a = 0;
  for (int i = 0; i < n; i++) {
    if (v[i] > 0)
      a += 3;
    else if (v[i] < -10)
      a -= 7;
    else if (v[i] < 0)
      a -= 1;
    else
      a ^= 5;
  }
  return a;
}

/* The inner loop's back edge ends a path whose id is a constant, its
   first iteration one whose id is not: where the tests never iterate it
   (v[0] <= 2), GCC's PRE merges the byte the first iteration loads with the
   back edge's known 0 (check_tested_words.py). */
__attribute__((noinline)) static unsigned nested(const int *v, int n) {
  unsigned c = 0;
  for (int i = 0; i < n; i++) {
    if (v[i] > 0)
      c += 7;
    for (int k = 1; k < v[0]; k++)
      c ^= (unsigned)v[i] * (unsigned)k * 2654435761u;
  }
  return c;
}

int main(int argc, char **argv) {
  int v[64];
  int n = argc - 1 < 64 ? argc - 1 : 64;
  for (int i = 0; i < n; i++)
    v[i] = atoi(argv[i + 1]);
  printf("%d %d %d %u\n", two(v, n), three(v, n), four(v, n), nested(v, n));
  return 0;
}
