#include <stdio.h>

#include "util.h"

static int helper(const char *arg) { return printf("%s: %d\n", arg, classify(arg)) < 0; }

int main(int argc, char **argv) {
  int failed = 0;
  for (int i = 1; i < argc; ++i)
    failed |= helper(argv[i]);
  return failed;
}
