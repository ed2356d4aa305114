// How the XML formats (Cobertura, SonarQube) write a decision line's
// "branches" (DecisionCount, docs/report.md).
#pragma once

#include "Projections.h"

#include <algorithm>
#include <cstdint>

namespace pathcov {

// Java readers (Cobertura plugins, SonarQube) keep these counts in an int.
constexpr uint64_t kMaxJavaInt = 2147483647;

inline uint64_t cappedForJava(uint64_t n) { return std::min(n, kMaxJavaInt); }

// What a decision line's "branches" are, for the XML formats' readers (no
// "--" in an XML comment: no option names).
inline const char *decisionMeaning(DecisionCount counting) {
  return counting == DecisionCount::Paths
             ? "the paths through a decision line, not its branch outcomes"
             : "the branch outcomes of a decision line, as LCOV's branches";
}

} // namespace pathcov
