/* Record mode with corpus= (check_record_corpus.py): without a profile the
   spanning tree ranks `weigh`'s two branches alike (the same loop depth:
   GimpleCfg.cc), and the tie puts an increment on the even one, the branch
   every iteration takes; with the last run's corpus the increments go
   where that run never went. */
#include <stdio.h>
#include <stdlib.h>

static int tally[8];

__attribute__((noinline)) static long weigh(const int *v, int n) {
  long sum = 0;
  for (int i = 0; i < n; ++i) {
    if (v[i] & 1) {
      ++tally[v[i] & 7];
      sum += 3 * v[i];
    } else {
      --tally[v[i] & 3];
      sum -= v[i];
    }
    if (v[i] > 100000000)
      tally[0] = 0;
#ifdef RECORD_CORPUS_STALE /* another CFG of the same function */
    if (v[i] == 3)
      tally[2] = 1;
#endif
  }
  return sum;
}

int main(int argc, char **argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 1000;
  int *v = malloc(n * sizeof *v);
  if (!v)
    return 1;
  for (int i = 0; i < n; ++i)
    v[i] = 2 * i;
  printf("%ld %d\n", weigh(v, n), tally[1]);
  free(v);
  return 0;
}
