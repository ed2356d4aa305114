#include <stdio.h>

#include "util.h"

static int helper(char c) { return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c; }

int main(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    for (const char *c = argv[i]; *c; ++c)
      putchar(helper(*c));
    printf(" %d\n", classify(argv[i]));
  }
  return 0;
}
