/* goto: a loop built of gotos, an irreducible cycle, and a computed-goto
 * interpreter: `gotos N X CODE...` runs collatz(N), irreducible(X, N) and
 * each CODE ('+' add 1, '*' double, '-' negate, '>' skip the next
 * operation; anything else ends). */
#include <stdio.h>
#include <stdlib.h>

static int collatz(int n) {
  int count = 0;
again:
  if (n <= 1)
    goto done;
  n = n % 2 ? 3 * n + 1 : n / 2;
  ++count;
  goto again;
done:
  return count;
}

static int irreducible(int x, int n) {
  int r = 0;
  if (x)
    goto b;
a:
  r += 1;
  if (--n <= 0)
    goto out;
b:
  r *= 2;
  if (--n > 0)
    goto a;
out:
  return r;
}

static int decode(char c) {
  switch (c) {
  case '+':
    return 1;
  case '*':
    return 2;
  case '-':
    return 3;
  case '>':
    return 4;
  default:
    return 0;
  }
}

static long interpret(const char *pc) {
  static void *const ops[] = {&&end, &&inc, &&dbl, &&neg, &&skip};
  long acc = 1;
  goto *ops[decode(*pc++)];
inc:
  acc += 1;
  goto *ops[decode(*pc++)];
dbl:
  acc *= 2;
  goto *ops[decode(*pc++)];
neg:
  acc = -acc;
  goto *ops[decode(*pc++)];
skip:
  if (*pc)
    ++pc;
  goto *ops[decode(*pc++)];
end:
  return acc;
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  int n = atoi(argv[1]);
  long sum = collatz(n) * 1000 + irreducible(atoi(argv[2]), n);
  for (int i = 3; i < argc; ++i)
    sum = sum * 5 + interpret(argv[i]);
  printf("%ld\n", sum);
  return 0;
}
