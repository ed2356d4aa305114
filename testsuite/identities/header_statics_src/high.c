#include "clamp.h"
#include <stdio.h>
#include <stdlib.h>
int low(int v);
__attribute__((noinline)) static int high(int v) { return clamp(v, 100, 200); }
int main(int argc, char **argv) {
  int v = argc > 1 ? atoi(argv[1]) : 0;
  printf("%d\n", argc > 2 ? high(v) : low(v));
  return 0;
}
