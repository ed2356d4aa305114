/* exit() from inside nested calls. A call to a noreturn function ends its
 * block and the path is counted just before it (TRACE_NORETURN): in fail,
 * before exit(), and in validate, before the call to fail, which is
 * declared noreturn. run and main never get their paths back: they are
 * interrupted, not counted. */
#include "trace.h"

__attribute__((noreturn)) static void fail(int code) {
  TRACE_ENTER();
  T('f');
  printf("failed: %d\n", code);
  if (code > 100) {
    T('h');
    code = 100;
  }
  TRACE_NORETURN();
  exit(code);
}

static int validate(int x) {
  TRACE_ENTER();
  T('v');
  if (x < 0) {
    T('n');
    TRACE_NORETURN();
    fail(-x);
  }
  TRACE_LEAVE();
  return x * 2;
}

static int run(const int *v, int n) {
  TRACE_ENTER();
  int sum = 0;
  for (int i = 0; i < n; ++i) {
    T('r');
    sum += validate(v[i]);
    printf("%d\n", sum);
    TRACE_LOOP();
  }
  TRACE_LEAVE();
  return sum;
}

int main(void) {
  TRACE_ENTER();
  static const int v[] = {3, 1, 4, 1, 5, -9, 2, 6};
  T('m');
  int sum = run(v, 8);
  printf("not reached: %d\n", sum);
  TRACE_LEAVE();
  return 0;
}
