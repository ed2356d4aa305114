// Shares as the tools print them: one rule for show, gate and the HTML
// report.
#pragma once

#include <cstdint>
#include <string>

namespace pathcov {

// 100 * part / whole; 0 of 0 is 100: nothing is left untested.
double percentOf(uint64_t part, uint64_t whole);

// "37.5": one decimal.
std::string oneDecimal(double value);

// "37.5%": percentOf with one decimal.
std::string percentText(uint64_t part, uint64_t whole);

// "1 function", "2 functions": a count and its noun.
std::string countOf(uint64_t n, const std::string &noun);

// Functions with more paths than this are left out of path-coverage ratios
// by default (gate's --path-bound; show's TOTAL line says both): a few
// functions with astronomically many paths would make every ratio 0%.
inline constexpr uint64_t kDefaultPathBound = 1000;

} // namespace pathcov
