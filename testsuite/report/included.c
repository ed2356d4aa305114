/* A function whose body is in a file of its own (generated code is often
   included so): body.inc defines no function, but its lines are on the
   paths of sign. */
#include <stdio.h>
#include <stdlib.h>

static int sign(int x) {
#include "body.inc"
}

int main(int argc, char **argv) {
  printf("%d\n", sign(argc > 1 ? atoi(argv[1]) : 0));
  return 0;
}
