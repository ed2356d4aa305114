/* The C++ program's shared header: its template, inline function and class
 * methods are comdat, emitted by both units (cxx_main.cc, cxx_shapes.cc)
 * and kept once by the linker. */
#ifndef PATHCOV_TEST_CXX_H
#define PATHCOV_TEST_CXX_H

#include "trace.h"

/* Instantiated for int and double: two functions of one name. */
template <typename V> V twice(V x) {
  TRACE_ENTER();
  if (x < V(0)) {
    T('n');
    x = -x;
  }
  T('t');
  TRACE_LEAVE();
  return x + x;
}

inline int clamp(int x, int limit) {
  TRACE_ENTER();
  if (x > limit) {
    T('c');
    TRACE_LEAVE();
    return limit;
  }
  TRACE_LEAVE();
  return x;
}

class Tally {
public:
  void add(int x) {
    TRACE_ENTER();
    if (x % 2) {
      T('o');
      odd_ += x;
    } else {
      T('e');
      even_ += x;
    }
    TRACE_LEAVE();
  }

  int total() const {
    TRACE_ENTER();
    T('s');
    TRACE_LEAVE();
    return odd_ * 3 + even_;
  }

private:
  int odd_ = 0;
  int even_ = 0;
};

int shapes_total(int n);

#endif
