/* The parsing unit: exceptions thrown here are caught in cxx_main.cc, on
 * the way through a frame whose local has a destructor. */
#include "cxx.h"

namespace {

int released;

struct Resource {
  ~Resource() { ++released; }
};

int digit(char c) {
  if (c < '0' || c > '9')
    throw BadDigit{c};
  return c - '0';
}

} // namespace

int parse(const std::string &s, Tally &tally) {
  Resource resource;
  int n = 0;
  for (char c : s) {
    n = clamp(n * 10 + digit(c), 1000000);
    tally.add(n);
  }
  return twice(n) + released;
}
