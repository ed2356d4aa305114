/* Loops whose paths depend on the input: `loops K ROWS V...` (or `loops -`
 * with "K ROWS V..." on standard input) finds the first multiple of K
 * among the Vs, runs nested loops (continue, break) over ROWS rows, and
 * counts with a do-while and an empty-bodied loop. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int find_multiple(const int *v, int n, int k) {
  for (int i = 0; i < n; ++i)
    if (v[i] % k == 0)
      return i;
  return -1;
}

static int nested(int rows) {
  int sum = 0;
  for (int r = 0; r < rows; ++r) {
    int c = 0;
    while (c < 6) {
      ++c;
      if (c % 3 == 0)
        continue;
      if (c + r > 6)
        break;
      sum += c * r;
    }
    sum += c;
  }
  return sum;
}

static int count(int n) {
  int steps = 0;
  do {
    steps += 2;
  } while (steps < n);
  while (n-- > 3)
    ;
  return steps + n;
}

int main(int argc, char **argv) {
  int v[64], n = 0, k = 1, rows = 0;
  if (argc > 1 && strcmp(argv[1], "-") == 0) {
    if (scanf("%d %d", &k, &rows) != 2)
      return 2;
    while (n < 64 && scanf("%d", &v[n]) == 1)
      ++n;
  } else {
    if (argc < 3)
      return 2;
    k = atoi(argv[1]);
    rows = atoi(argv[2]);
    for (int i = 3; i < argc && n < 64; ++i)
      v[n++] = atoi(argv[i]);
  }
  if (k == 0)
    k = 1;
  printf("%d %d %d\n", find_multiple(v, n, k), nested(rows), count(n));
  return 0;
}
