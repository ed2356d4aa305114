// wc_name in C++: libwordclass links as a C++ library (libtool then links
// it with -nostdlib and a library list of its own), its constructor for
// kNames is GCC's, not the user's, and wc_name's record has a C++ name.
#include "wordclass.h"

#include <string>

namespace {
const std::string kNames[] = {"number", "word", "punct", "mixed"};
}

const char *wc_name(enum wc_class c) {
  switch (c) {
  case WC_NUMBER:
    return kNames[0].c_str();
  case WC_WORD:
    return kNames[1].c_str();
  case WC_PUNCT:
    return kNames[2].c_str();
  default:
    return kNames[3].c_str();
  }
}
