#include "calc.h"

#include <stdio.h>

int main(int argc, char **argv) {
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    long value;
    const char *error;
    if (evaluate(argv[i], &value, &error) == 0) {
      printf("%s = %ld\n", argv[i], value);
    } else {
      printf("%s: error: %s\n", argv[i], error);
      status = 1;
    }
  }
  return status;
}
