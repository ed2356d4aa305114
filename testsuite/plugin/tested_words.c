/* A bytemap function whose loop ends a path at every iteration with an id
   the optimizers cannot know (three routes through the body), and one
   whose only path end has a constant id: check_tested_words.py. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static int scan(const int *v, int n) {
  int a = 0;
  for (int i = 0; i < n; i++) {
    if (v[i] > 0)
      a += 3;
    else if (v[i] < 0)
      a -= 1;
    else
      a ^= 5;
  }
  return a;
}

__attribute__((noinline)) static int constant(int x) {
  return x * 7;
}

int main(int argc, char **argv) {
  int v[4096];
  int n = 0;
  /* Each argument "VALUE" or "VALUExCOUNT": COUNT copies of VALUE. */
  for (int i = 1; i < argc; i++) {
    char *end;
    int value = (int)strtol(argv[i], &end, 10);
    int count = *end == 'x' ? atoi(end + 1) : 1;
    for (int k = 0; k < count && n < 4096; k++)
      v[n++] = value;
  }
  printf("%d %d\n", scan(v, n), constant(n));
  return 0;
}
