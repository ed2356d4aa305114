/* Recursion: `recursion N M` computes fib(N) (two recursive calls on some
 * paths), is_even(M) (mutual recursion) and the depth of nested brackets
 * in the remaining arguments (recursive descent). */
#include <stdio.h>
#include <stdlib.h>

static int fib(int n) {
  if (n < 2)
    return n;
  int r = fib(n - 1);
  if (n % 3 != 0)
    r += fib(n - 2);
  return r;
}

static int is_odd(unsigned n);

static int is_even(unsigned n) {
  if (n == 0)
    return 1;
  return is_odd(n - 1);
}

static int is_odd(unsigned n) { return n != 0 && is_even(n - 1); }

/* The depth of "[[][]]"-like text; -1 if unbalanced. */
static int depth(const char **s) {
  int deepest = 0;
  while (**s == '[') {
    ++*s;
    int d = depth(s);
    if (d < 0 || **s != ']')
      return -1;
    ++*s;
    if (d + 1 > deepest)
      deepest = d + 1;
  }
  return deepest;
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  long r = fib(atoi(argv[1])) * 10 + is_even((unsigned)atoi(argv[2]));
  for (int i = 3; i < argc; ++i) {
    const char *s = argv[i];
    r = r * 10 + depth(&s);
  }
  printf("%ld\n", r);
  return 0;
}
