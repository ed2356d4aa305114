/* Checks that several routes share (issue 10): the `continue`s of a loop
 * body meet at its condition before the path ends at the back edge (zlib's
 * longest_match), and a function's branches meet at one return. Residual
 * mode copies the shared blocks for the routes that bring a tested path's
 * id there, so that the copy's check folds away. `routes V...` scans the
 * Vs: a V over 1000 is a route the tests never take, a V of 0 ends the
 * scan early; the first V is also classified (over 100: untested). Field
 * runs take untested routes in the peeled first iteration, in later
 * iterations, between tested ones, and at the shared return: the residual
 * set must be exact with every copy. */
#include <stdio.h>
#include <stdlib.h>

static int scan(const int *v, int n) {
  int hits = 0, i = 0;
  do {
    if (v[i] < 0)
      continue;
    if (v[i] % 3 == 0)
      continue;
    if (v[i] > 1000) {
      hits += 100;
      continue;
    }
    ++hits;
  } while (++i < n && v[i] != 0);
  return hits;
}

static int classify(int x) {
  int kind;
  if (x < 0)
    kind = -1;
  else if (x == 0)
    kind = 0;
  else if (x > 100)
    kind = 2;
  else
    kind = 1;
  return kind;
}

int main(int argc, char **argv) {
  int v[64], n = 0;
  for (int i = 1; i < argc && n < 64; ++i)
    v[n++] = atoi(argv[i]);
  if (n == 0)
    return 2;
  printf("%d %d\n", scan(v, n), classify(v[0]));
  return 0;
}
