/* PPP paper Figure 3 as C: s branches to a or b, a to c or b, c to d or t. */
#include "trace.h"

static int fig3(int x, int y, int z) {
  TRACE_ENTER();
  int r = 0;
  if (x) {
    T('a');
    if (y)
      goto c;
    r += 1;
  }
  T('b');
  r += 2;
c:
  T('c');
  if (z) {
    T('d');
    r += 4;
  }
  TRACE_LEAVE();
  return r;
}

int main(void) {
  TRACE_ENTER();
  int sum = 0;
  for (int i = 0; i < 8; ++i) {
    T('l');
    sum += fig3(i & 1, i & 2, i & 4);
    TRACE_LOOP();
  }
  printf("%d\n", sum);
  TRACE_LEAVE();
  return 0;
}
