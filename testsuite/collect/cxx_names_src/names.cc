// C++ names for `pathcov show -f` (cxx_names.py): a member function, an
// operator and a function template, in a namespace.
#include <cstdio>

namespace shapes {
struct Scanner {
  int scanNext(int v) { return v > 0 ? v - 1 : v + 1; }
  bool operator<(const Scanner &other) const { return depth < other.depth; }
  int depth = 0;
};

template <typename T> T twice(T v) { return v < 0 ? -v * 2 : v * 2; }
} // namespace shapes

int main(int argc, char **) {
  shapes::Scanner s;
  std::printf("%d %d %d\n", s.scanNext(argc), shapes::twice(argc), s < s);
  return 0;
}
