/* setjmp/longjmp from a nested call back into the function that called
 * setjmp, several times. A path ends before setjmp and a new one starts
 * after it (TRACE_CUT), on the first return and on each return from
 * longjmp (TRACE_RESUMED). The function that calls longjmp counts its path
 * up to the call (TRACE_NORETURN); the paths longjmp interrupts in the
 * frames between are not counted. */
#include <setjmp.h>

#include "trace.h"

static jmp_buf env;
static int failed; /* the n of the last failure */

/* Fails (longjmp) when n is a multiple of 5, at the bottom of `depth`
 * recursive calls; else returns n. */
static int check(int n, int depth) {
  TRACE_ENTER();
  T('k');
  if (depth > 0) {
    T('r');
    int r = check(n, depth - 1);
    TRACE_LEAVE();
    return r;
  }
  if (n % 5 == 0) {
    T('j');
    failed = n;
    TRACE_NORETURN();
    longjmp(env, 1);
  }
  TRACE_LEAVE();
  return n;
}

/* Sums check(i) over 0..n-1, restarting after each failure; `volatile`:
 * the locals longjmp must find as they were last set. */
static int sum_checked(int n) {
  TRACE_ENTER();
  volatile int i = 0;
  volatile int sum = 0;
  T('b');
  TRACE_CUT();
  if (setjmp(env)) {
    TRACE_RESUMED();
    T('l');
    sum -= failed + 1;
    ++i;
  }
  for (; i < n; ++i) {
    T('c');
    sum += check(i, i % 3);
    TRACE_LOOP();
  }
  TRACE_LEAVE();
  return sum;
}

int main(void) {
  TRACE_ENTER();
  int sum = sum_checked(12) + sum_checked(0);
  printf("%d\n", sum);
  TRACE_LEAVE();
  return 0;
}
