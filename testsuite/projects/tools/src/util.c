#include "util.h"

static int helper(char c) {
  if (c >= '0' && c <= '9')
    return 1;
  if (c == ' ')
    return 2;
  return 0;
}

int classify(const char *text) {
  int digits = 0, spaces = 0;
  for (; *text; ++text) {
    const int kind = helper(*text);
    if (kind == 1)
      ++digits;
    else if (kind == 2)
      ++spaces;
  }
  if (digits > spaces)
    return 1;
  if (spaces > 0)
    return 2;
  return 0;
}
