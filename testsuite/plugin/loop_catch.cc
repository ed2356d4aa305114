// A loop whose body is a try/catch, which the tests run 4 times per entry
// (check_peeling.py): its first iteration is not peeled, since a copy of
// the catch's exception dispatch made GCC's ehdisp pass crash (a new
// user's yaml-cpp tests).
#include <cstdio>
#include <cstdlib>

struct Failure {
  int code;
};

__attribute__((noinline)) static int parse(int i) {
  if (i % 2 == 0)
    throw Failure{i};
  return i * 10;
}

__attribute__((noinline)) static int total(int n) {
  int sum = 0;
  for (int i = 0; i < n; i++) {
    try {
      sum += parse(i);
    } catch (const Failure &f) {
      sum -= f.code;
    }
  }
  return sum;
}

int main(int argc, char **argv) {
  std::printf("%d\n", total(argc > 1 ? std::atoi(argv[1]) : 4));
  return 0;
}
