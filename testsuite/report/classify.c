/* pathcov report's test program (run_report.py knows its lines). */
#include <stdio.h>
#include <stdlib.h>

static int classify(int x) {
  int r = 0;
  if (x < 0)
    r = -1;
  if (x > 10)
    r += 100;
  return r;
}

static int never(int x) {
  return x ? 1 : 2;
}

int main(int argc, char **argv) {
  int sum = 0;
  for (int i = 1; i < argc; ++i)
    sum += classify((int)strtol(argv[i], NULL, 10));
  if (argc > 99)
    sum += never(argc);
  printf("%d\n", sum);
  return 0;
}
