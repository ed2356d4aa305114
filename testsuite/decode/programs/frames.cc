// A residual path whose calling context runs through C++ functions, built
// without debug information: decode names the frames from the symbol
// table, demangled (cxx_frames.py).
#include <cstdio>
#include <cstdlib>

namespace shapes {
__attribute__((noinline)) int classify(int x) {
  if (x > 100)
    return 2;
  return x > 0;
}

struct Walker {
  __attribute__((noinline)) int step(int x) { return classify(x) + 1; }
};
} // namespace shapes

int main(int argc, char **argv) {
  shapes::Walker w;
  std::printf("%d\n", w.step(argc > 1 ? std::atoi(argv[1]) : 0));
  return 0;
}
