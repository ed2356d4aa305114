/* GNU C nested functions: a nonlocal goto from a nested function, called
 * through another function, back to a label of the function that holds
 * it. The goto abandons the holder's path that made the call (and the
 * callers' paths in between), as a longjmp would: the label counts a
 * resume (TRACE_RESUMED), the abandoned paths are not counted, and with
 * k=N no window spans the landing. */
#include "trace.h"

static int run(int (*step)(int), int n) {
  TRACE_ENTER();
  int sum = 0;
  for (int i = 0; i < n; ++i) {
    T('i');
    sum += step(i);
    TRACE_LOOP();
  }
  TRACE_LEAVE();
  return sum;
}

static int find(int wanted) {
  __label__ found; /* a declaration: it must open the block */
  TRACE_ENTER();
  int step(int i) {
    TRACE_ENTER();
    if (i == wanted) {
      T('w');
      TRACE_NORETURN();
      goto found;
    }
    TRACE_LEAVE();
    return i;
  }
  /* Paths that end before the goto leaves: with k=N the landing must not
   * join them (a nonlocal goto breaks the sequence). */
  for (int j = 0; j < 2; ++j) {
    T('p');
    TRACE_LOOP();
  }
  T('f');
  int sum = run(step, 6);
  TRACE_LEAVE();
  return sum;
found:
  TRACE_RESUMED();
  T('g');
  TRACE_LEAVE();
  return -wanted;
}

int main(void) {
  TRACE_ENTER();
  int total = 0;
  for (int wanted = 2; wanted < 10; wanted += 3) {
    T('m');
    total += find(wanted);
    TRACE_LOOP();
  }
  printf("%d\n", total);
  TRACE_LEAVE();
  return 0;
}
