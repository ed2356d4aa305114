/* Two units, each with a static `helper` (see multi_lib.c). main prints
 * errno as main found it: 0, as C says, though the runtime's start-up
 * (in the program and, in record.shared-*, in the library) ran before. */
#include <errno.h>

#include "trace.h"

int lib_score(int x);

static int helper(int x) {
  TRACE_ENTER();
  if (x % 2) {
    T('o');
    TRACE_LEAVE();
    return lib_score(x);
  }
  T('e');
  TRACE_LEAVE();
  return x / 2;
}

int main(void) {
  const int errno_at_main = errno;
  TRACE_ENTER();
  int sum = 0;
  for (int i = 0; i < 10; ++i) {
    T('m');
    sum = sum * 3 + helper(i);
    TRACE_LOOP();
  }
  printf("%d, errno at main %d\n", sum, errno_at_main);
  TRACE_LEAVE();
  return 0;
}
