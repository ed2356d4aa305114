/* goto: forward and backward, an irreducible loop, and GNU C computed goto
 * (labels as values). */
#include "trace.h"

/* A loop built from a backward goto, left by a forward one: the backward
 * goto is the back edge. */
static int collatz(int n) {
  TRACE_ENTER();
  int count = 0;
again:
  T('a');
  if (n == 1)
    goto done;
  T('s');
  n = n % 2 ? 3 * n + 1 : n / 2;
  ++count;
  TRACE_LOOP();
  goto again;
done:
  T('d');
  TRACE_LEAVE();
  return count;
}

/* A cycle a -> b -> a entered at a (x == 0) or at b (x != 0): no block
 * dominates the other. pathcov's depth-first search takes the true edge
 * of `if (x)` first, so it enters the cycle at b and the edge that closes
 * it is the fallthrough a -> b: that is the back edge, where paths end. */
static int irreducible(int x, int n) {
  TRACE_ENTER();
  int r = 0;
  if (x)
    goto b;
a:
  T('a');
  r += 1;
  if (--n <= 0)
    goto out;
  TRACE_LOOP();
b:
  T('b');
  r *= 2;
  if (--n > 0)
    goto a;
out:
  T('o');
  TRACE_LEAVE();
  return r;
}

/* A threaded interpreter. GCC factors every `goto *` into one block that
 * jumps to the labels through abnormal edges: a path ends in that block
 * (counted before the jump) and the next starts at the label, the same
 * call's next path (k-paths join them), so TRACE_GOTO() comes before each
 * `goto *`. Each label has its own marker, so
 * a path starting at a label reads differently from one falling into it
 * (d falls into n). */
static int threaded(const unsigned char *code) {
  TRACE_ENTER();
  static void *const ops[] = {&&halt, &&inc, &&dbl, &&neg};
  int acc = 1;
  T('s');
  TRACE_GOTO();
  goto *ops[*code++];
inc:
  T('i');
  acc += 1;
  TRACE_GOTO();
  goto *ops[*code++];
dbl:
  T('d');
  acc *= 2;
neg:
  T('n');
  acc = -acc;
  TRACE_GOTO();
  goto *ops[*code++];
halt:
  T('h');
  TRACE_LEAVE();
  return acc;
}

int main(void) {
  TRACE_ENTER();
  static const unsigned char program[] = {1, 2, 1, 3, 2, 2, 1, 0};
  static const unsigned char empty[] = {0};
  int sum = collatz(1) + collatz(6) + collatz(27);
  for (int n = 0; n < 5; ++n) {
    T('m');
    sum = sum * 5 + irreducible(0, n) + irreducible(1, n);
    TRACE_LOOP();
  }
  sum += threaded(program) + threaded(empty);
  printf("%d\n", sum);
  TRACE_LEAVE();
  return 0;
}
