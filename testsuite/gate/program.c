/* The program the gate tests measure (run_gate.py builds it with the
   pathcov plugin): functions with few paths, one with more paths than the
   default bound (1000), and one no test calls. */
#include <stdio.h>
#include <stdlib.h>

/* 4 paths: the tests pick which through argv[1]. */
int classify(int x) {
  int r = 0;
  if (x & 1)
    r += 1;
  if (x & 2)
    r += 2;
  return r;
}

/* 2 paths. */
int sign(int x) {
  if (x < 0)
    return -1;
  return 1;
}

/* 2^11 = 2048 paths: above the default bound. */
#define D(n) if (x & (1 << n)) s += n; else s -= n;
int wide(int x) {
  int s = 0;
  D(0) D(1) D(2) D(3) D(4) D(5) D(6) D(7) D(8) D(9) D(10)
  return s;
}

/* Never called. */
int unused(int x) {
  if (x > 3)
    return x * 2;
  return x;
}

int main(int argc, char **argv) {
  int total = 0;
  for (int i = 1; i < argc; ++i) {
    int x = atoi(argv[i]);
    total += classify(x) + sign(x) + wide(x);
  }
  if (argc > 100)
    total += unused(argc);
  printf("%d\n", total);
#ifdef VARIANT /* make_corpora.py's variants.json: main with another CFG */
  if (total > 1000)
    puts("large");
#endif
  return 0;
}
