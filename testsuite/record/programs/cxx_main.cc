/* C++: exceptions (a throw caught in a caller, through a frame whose local
 * has a destructor, and rethrown), with cxx_shapes.cc's templates, inline
 * and comdat functions, lambda and virtual calls. Each traced frame an
 * exception leaves ends its path in trace.h's guard, as the profile ends
 * it at the frame's cleanup. */
#include "cxx.h"

namespace {

struct BadDigit {
  char c;
};

int released;

/* A traced destructor, run on normal exits and while unwinding. */
struct Resource {
  ~Resource() {
    TRACE_ENTER();
    T('~');
    ++released;
    TRACE_LEAVE();
  }
};

int digit(char c) {
  TRACE_ENTER();
  if (c < '0' || c > '9') {
    T('x');
    throw BadDigit{c};
  }
  T('d');
  TRACE_LEAVE();
  return c - '0';
}

/* The exception from digit passes through: resource's destructor runs. */
int number(const char *s) {
  TRACE_ENTER();
  Resource resource;
  int n = 0;
  for (; *s; ++s) {
    T('p');
    n = n * 10 + digit(*s);
    TRACE_LOOP();
  }
  TRACE_LEAVE();
  return n;
}

/* Catches a bad digit; rethrows it when it is '!'. */
int number_or_zero(const char *s) {
  TRACE_ENTER();
  try {
    T('a');
    int n = number(s);
    TRACE_LEAVE();
    return n;
  } catch (const BadDigit &e) {
    T('c');
    if (e.c == '!') {
      T('r');
      throw;
    }
  }
  T('z');
  TRACE_LEAVE();
  return 0;
}

} // namespace

int main() {
  TRACE_ENTER();
  static const char *const inputs[] = {"12", "7x", "", "40!", "9", "!"};
  Tally tally;
  for (const char *s : inputs) {
    T('m');
    try {
      tally.add(number_or_zero(s));
    } catch (const BadDigit &e) {
      T('h');
      tally.add(e.c);
    }
    TRACE_LOOP();
  }
  int sum = tally.total() + twice(-released) + shapes_total(7);
  printf("%d\n", sum);
  TRACE_LEAVE();
  return 0;
}
