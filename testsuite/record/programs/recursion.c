/* Direct and mutual recursion: each call has its own path, and a caller's
 * path goes on after the callee returns; a recursive loop, each frame with
 * its own sequence of iterations. */
#include "trace.h"

/* Direct, with two recursive calls on some paths. */
static int fib(int n) {
  TRACE_ENTER();
  if (n < 2) {
    T('b');
    TRACE_LEAVE();
    return n;
  }
  T('r');
  int r = fib(n - 1);
  if (n % 3 != 0) {
    T('s');
    r += fib(n - 2);
  }
  T('e');
  TRACE_LEAVE();
  return r;
}

static int is_odd(unsigned n);

/* Mutual: is_even and is_odd call each other. */
static int is_even(unsigned n) {
  TRACE_ENTER();
  if (n == 0) {
    T('z');
    TRACE_LEAVE();
    return 1;
  }
  T('e');
  int r = is_odd(n - 1);
  TRACE_LEAVE();
  return r;
}

static int is_odd(unsigned n) {
  TRACE_ENTER();
  T('o');
  int r = n != 0 && is_even(n - 1);
  TRACE_LEAVE();
  return r;
}

/* A loop whose body recurses: each frame's iterations are a sequence of
 * paths of its own (k-paths), whatever the frames it calls run meanwhile. */
static int tree(int depth) {
  TRACE_ENTER();
  int sum = 1;
  for (int i = 0; i < depth; ++i) {
    T('i');
    if (i % 2 == 0) {
      T('r');
      sum += tree(depth - 1 - i);
    }
    TRACE_LOOP();
  }
  T('x');
  TRACE_LEAVE();
  return sum;
}

int main(void) {
  TRACE_ENTER();
  int sum = fib(9) + tree(4);
  for (unsigned n = 0; n < 7; ++n) {
    T('m');
    sum = sum * 2 + is_even(n) + is_odd(n * 3);
    TRACE_LOOP();
  }
  printf("%d\n", sum);
  TRACE_LEAVE();
  return 0;
}
