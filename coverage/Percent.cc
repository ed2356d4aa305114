#include "Percent.h"

#include <cstdio>
#include <string>

namespace pathcov {

double percentOf(uint64_t part, uint64_t whole) {
  return whole ? 100.0 * static_cast<double>(part) / static_cast<double>(whole)
               : 100.0;
}

std::string oneDecimal(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  return text;
}

std::string percentText(uint64_t part, uint64_t whole) {
  return oneDecimal(percentOf(part, whole)) + "%";
}

std::string countOf(uint64_t n, const std::string &noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

} // namespace pathcov
