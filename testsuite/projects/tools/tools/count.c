#include <stdio.h>

#include "util.h"

static int helper(int kind) { return kind == 0 ? 0 : 1; }

int main(int argc, char **argv) {
  int n = 0;
  for (int i = 1; i < argc; ++i)
    n += helper(classify(argv[i]));
  printf("%d\n", n);
  return 0;
}
