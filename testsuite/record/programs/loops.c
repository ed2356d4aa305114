/* Loops: nested for and while, break, continue, a self loop (empty body),
 * an early return from inside a loop, a loop that runs zero times. The
 * back edge of a for loop is taken after the body (and after `continue`),
 * so TRACE_LOOP() ends the body and precedes each `continue`. */
#include "trace.h"

/* The index of the first multiple of k in v[0..n), or -1. A zero n runs
 * the loop zero times. */
static int find_multiple(const int *v, int n, int k) {
  TRACE_ENTER();
  for (int i = 0; i < n; ++i) {
    T('f');
    if (v[i] % k == 0) {
      T('r');
      TRACE_LEAVE();
      return i;
    }
    TRACE_LOOP();
  }
  T('n');
  TRACE_LEAVE();
  return -1;
}

/* A while loop with continue and break, nested in a for loop. */
static int nested(int rows) {
  TRACE_ENTER();
  int sum = 0;
  for (int r = 0; r < rows; ++r) {
    T('o');
    int c = 0;
    while (c < 6) {
      T('w');
      ++c;
      if (c % 3 == 0) {
        T('c');
        TRACE_LOOP();
        continue;
      }
      if (c + r > 6) {
        T('b');
        break;
      }
      sum += c * r;
      TRACE_LOOP();
    }
    T('e');
    sum += c;
    TRACE_LOOP();
  }
  TRACE_LEAVE();
  return sum;
}

/* A self loop: with an empty body the condition's block jumps to itself,
 * and no marker can go on that edge. For n >= 0 the loop takes it n times
 * (and leaves n at -1): TRACE_LOOPS records them after the loop. */
static int spin(int n) {
  TRACE_ENTER();
  T('s');
  int start = n;
  while (n-- > 0)
    ;
  TRACE_LOOPS(start);
  T('t');
  TRACE_LEAVE();
  return n + start;
}

int main(void) {
  TRACE_ENTER();
  static const int v[] = {5, 7, 9, 14, 3, 21};
  int sum = 0;
  for (int k = 2; k < 9; ++k) {
    T('m');
    sum = sum * 3 + find_multiple(v, 6, k) + find_multiple(v, k % 3, k);
    TRACE_LOOP();
  }
  sum += nested(5) + spin(0) + spin(1) + spin(4);
  printf("%d\n", sum);
  TRACE_LEAVE();
  return 0;
}
