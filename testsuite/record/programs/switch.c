/* Switches: fallthrough, default, a dense switch (cases 0..6), a sparse one
 * (far apart values), and a switch nested in a loop whose cases break out
 * of the switch or continue the loop. */
#include "trace.h"

/* Dense, with fallthrough from case to case and a default. */
static int dense(int x) {
  TRACE_ENTER();
  int r = 0;
  switch (x) {
  case 0:
    T('0');
    r += 1;
    /* fallthrough */
  case 1:
  case 2:
    T('1');
    r += 2;
    break;
  case 3:
    T('3');
    r += 3;
    /* fallthrough */
  case 4:
    T('4');
    r *= 2;
    /* fallthrough */
  case 5:
    T('5');
    r += 5;
    break;
  case 6:
    T('6');
    TRACE_LEAVE();
    return 60;
  default:
    T('d');
    r = -1;
  }
  T('e');
  TRACE_LEAVE();
  return r;
}

/* Sparse, with no default: a value matching no case skips the switch. */
static int sparse(int x) {
  TRACE_ENTER();
  int r = x;
  switch (x) {
  case 7:
    T('a');
    r = 1;
    break;
  case 1000:
    T('b');
    r = 2;
    /* fallthrough */
  case 65536:
    T('c');
    r += 3;
    break;
  case -40000:
    T('n');
    r = 4;
    break;
  }
  TRACE_LEAVE();
  return r;
}

/* A small interpreter: a switch per instruction inside a loop. */
static int interpret(const char *code) {
  TRACE_ENTER();
  int acc = 0;
  for (int pc = 0; code[pc]; ++pc) {
    T('l');
    switch (code[pc]) {
    case '+':
      T('+');
      ++acc;
      break;
    case '*':
      T('*');
      acc *= 2;
      break;
    case '#':
      T('#');
      TRACE_LOOP();
      continue;
    default:
      T('?');
      switch (code[pc] & 3) {
      case 0:
        T('z');
        acc -= 1;
        break;
      default:
        T('y');
        acc += 3;
      }
    }
    T('x');
    acc ^= pc;
    TRACE_LOOP();
  }
  TRACE_LEAVE();
  return acc;
}

int main(void) {
  TRACE_ENTER();
  static const int values[] = {7, 1000, 65536, -40000, 3, 0};
  int sum = 0;
  for (int i = -1; i < 9; ++i) {
    T('m');
    sum = sum * 7 + dense(i) + sparse(values[(i + 6) % 6]);
    TRACE_LOOP();
  }
  sum += interpret("+*#+a!b*#d++*") + interpret("");
  printf("%d\n", sum);
  TRACE_LEAVE();
  return 0;
}
