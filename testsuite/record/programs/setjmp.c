/* setjmp/longjmp from a nested call back into the function that called
 * setjmp, several times, and out of a loop. A path ends before setjmp and
 * a new one starts after it (TRACE_CUT), on the first return and on each
 * return from longjmp (TRACE_RESUMED), each a new sequence of paths. The function that calls longjmp counts its path
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

/* A loop longjmp leaves three ways: from inside its body (at i == jump_at:
 * the path up to longjmp is the last of the call's sequence), from below
 * (check longjmps when an odd i is a multiple of 5: this call's path is
 * interrupted), or not at all (the loop ends at stop). */
static int scan(int from, int stop, int jump_at) {
  TRACE_ENTER();
  int sum = 0;
  for (int i = from; i < stop; ++i) {
    T('s');
    if (i == jump_at) {
      T('x');
      failed = i;
      TRACE_NORETURN();
      longjmp(env, 2);
    }
    if (i % 2) {
      T('o');
      sum += check(i, 1);
    }
    TRACE_LOOP();
  }
  T('e');
  TRACE_LEAVE();
  return sum;
}

/* Runs scan's rounds, the next one after each longjmp: the first three
 * longjmp out of scan's loop (from it, from below, from it), the last ends
 * it. A new call of scan starts a new sequence of paths however the last
 * one ended. */
static int scans(void) {
  TRACE_ENTER();
  static const int from[] = {1, 3, 6, 6};
  static const int jump_at[] = {4, -1, 8, -1};
  volatile int round = 0;
  volatile int sum = 0;
  T('g');
  TRACE_CUT();
  if (setjmp(env)) {
    TRACE_RESUMED();
    T('y');
    sum += failed;
    ++round;
  }
  for (; round < 4; ++round) {
    T('z');
    sum += scan(from[round], 9, jump_at[round]);
    TRACE_LOOP();
  }
  TRACE_LEAVE();
  return sum;
}

int main(void) {
  TRACE_ENTER();
  int sum = sum_checked(12) + sum_checked(0);
  sum += scans();
  printf("%d\n", sum);
  TRACE_LEAVE();
  return 0;
}
