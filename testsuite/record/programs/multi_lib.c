/* The second unit of the multi-file program (and, in record.shared-*, a
 * shared library): its static `helper` and multi_main.c's are two
 * functions, told apart by their unit. */
#include "trace.h"

static int helper(int x) {
  TRACE_ENTER();
  if (x % 4 == 0) {
    T('q');
    x /= 4;
  }
  T('l');
  TRACE_LEAVE();
  return x + 1;
}

int lib_score(int x) {
  TRACE_ENTER();
  int r = 0;
  while (x > 0) {
    T('s');
    r += helper(x);
    x -= 3;
    TRACE_LOOP();
  }
  TRACE_LEAVE();
  return r;
}
