#include <limits_lib.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int sum = 0;
  for (int i = 1; i < argc; ++i)
    sum += clamp_to(atoi(argv[i]), 0, 100);
  printf("%d\n", sum);
  return 0;
}
