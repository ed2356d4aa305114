/* The C++ program's shared header: its template, inline function and
 * class methods are comdat, emitted by both units (cxx_main.cc,
 * cxx_parse.cc): one function each in the corpus, one descriptor per unit
 * in the residual build. */
#ifndef PATHCOV_RESIDUAL_CXX_H
#define PATHCOV_RESIDUAL_CXX_H

#include <string>

struct BadDigit {
  char c;
};

template <typename V> V twice(V x) {
  if (x < V(0))
    x = -x;
  return x + x;
}

inline int clamp(int x, int limit) {
  if (x > limit)
    return limit;
  return x;
}

class Tally {
public:
  void add(int x) {
    if (x % 2)
      odd_ += x;
    else
      even_ += x;
  }
  int total() const { return odd_ * 3 + even_; }

private:
  int odd_ = 0, even_ = 0;
};

// cxx_parse.cc: the number s spells; throws BadDigit.
int parse(const std::string &s, Tally &tally);

#endif
