#include "Percent.h"

#include <cstdio>

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

} // namespace pathcov
