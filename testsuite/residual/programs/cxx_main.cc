/* C++ with exceptions: `cxx WORD...` parses each word as a number. A bad
 * digit throws (caught here); "!" throws an int that is caught, rethrown
 * and caught again; "?" throws from a lambda caught by a catch (...). */
#include "cxx.h"

#include <cstdio>
#include <stdexcept>

namespace {

int attempt(const std::string &word, Tally &tally) {
  try {
    if (word == "!")
      throw 7;
    return parse(word, tally);
  } catch (const BadDigit &bad) {
    return -bad.c;
  } catch (int) {
    throw;
  }
}

template <typename F> int guarded(F f) {
  try {
    return f();
  } catch (...) {
    return -1;
  }
}

} // namespace

int main(int argc, char **argv) {
  Tally tally;
  double scaled = twice(0.5);
  long sum = 0;
  for (int i = 1; i < argc; ++i) {
    std::string word = argv[i];
    try {
      sum = sum * 3 + attempt(word, tally);
    } catch (int code) {
      sum += code;
    }
    sum += guarded([&] {
      if (word == "?")
        throw std::runtime_error("question");
      return clamp(static_cast<int>(word.size()), 3);
    });
  }
  std::printf("%ld %d %g\n", sum, tally.total(), scaled);
  return 0;
}
