/* pathcov gate --fail-under-k-paths (docs/gate.md, "Loop transitions"):
   make_corpora.py builds this with k=2 and runs it on 1 3, giving
   kpaths.json. At -O0 each loop's header is its condition (line 17, line
   26) and its latch the block that ends an iteration.

   sum_odd: 6 paths; 4 end at the latch (from entry or from the header,
   then odd or even), 3 start at the header (leave, odd, even): 12
   transitions. n = 1 runs (entry even, leave); n = 3 runs (entry even,
   odd), (odd, even), (even, leave): 4 tested.
   main: 2 end at the latch, 2 start at the header: 4 transitions; 2 of
   them tested, (entry, again) and (again, leave).
   In all 6 of 16 (37.5%). */
#include <stdlib.h>

int sum_odd(int n) {
  int s = 0;
  for (int i = 0; i < n; i++) {
    if (i & 1)
      s += i;
  }
  return s;
}

int main(int argc, char **argv) {
  int t = 0;
  for (int i = 1; i < argc; i++)
    t += sum_odd(atoi(argv[i]));
  return t == 12345;
}

#ifdef UNRUN
/* Never run (external, so -O0 keeps it): built with k=2, its loop's 4
   transitions (2 paths end at its latch, 2 start at its header) count,
   none tested. */
int count_up(int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += i;
  return s;
}
#endif
