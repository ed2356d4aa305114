/* Loops the tests iterate many times per entry, so that residual mode
 * peels their first iteration (issue 10): `peel ROWS V...` scans the Vs
 * (a negative one is a route the tests never take) and walks a ROWS x Vs
 * grid (nested loops, both peeled). Field runs take untested routes in
 * the peeled first iteration only, in later iterations only, and leave
 * after one iteration or none: the residual set must be exact in both
 * copies of each loop. */
#include <stdio.h>
#include <stdlib.h>

static int scan(const int *v, int n) {
  int hits = 0;
  for (int i = 0; i < n; ++i) {
    if (v[i] < 0) {
      hits += 100;
      continue;
    }
    if (v[i] % 2 == 0)
      ++hits;
  }
  return hits;
}

static long grid(const int *v, int n, int rows) {
  long sum = 0;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < n; ++c) {
      if (v[c] > 1000)
        break;
      sum += (long)v[c] * (r % 3 == 0 ? 2 : 1);
    }
  return sum;
}

int main(int argc, char **argv) {
  int v[64], n = 0;
  if (argc < 2)
    return 2;
  const int rows = atoi(argv[1]);
  for (int i = 2; i < argc && n < 64; ++i)
    v[n++] = atoi(argv[i]);
  printf("%d %ld\n", scan(v, n), grid(v, n, rows));
  return 0;
}
