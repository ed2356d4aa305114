/* Routes that leave a block scope by different returns join at one return
   block, where GCC ends the scope's local (a clobber) with the location of
   the first return it lowered, which no other route runs. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static int classify(const char *s) {
  for (;;) {
    char *end;
    long v = strtol(s, &end, 10);
    if (*end == ',') {
      s = end + 1;
      continue;
    }
    if (*end)
      return -1; /* not a number */
    if (v > 100)
      return 2; /* big */
    return v > 0; /* small */
  }
}

int main(int argc, char **argv) {
  int sum = 0;
  for (int i = 1; i < argc; ++i)
    sum += classify(argv[i]);
  printf("%d\n", sum);
  return 0;
}
