// Paths that leave a function by an exception (exceptions.py): sized's
// cleanup unwinds out of it, check throws.
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

__attribute__((noinline)) int check(int x) {
  if (x > 3)
    throw std::runtime_error("big");
  return x;
}

__attribute__((noinline)) int sized(int x) {
  std::string s(x + 20, 'a');
  int r = check(x);
  return r + (int)s.size();
}

int main(int argc, char **argv) {
  try {
    std::printf("%d\n", sized(argc > 1 ? std::atoi(argv[1]) : 0));
  } catch (const std::exception &e) {
    std::printf("%s\n", e.what());
  }
  return 0;
}
