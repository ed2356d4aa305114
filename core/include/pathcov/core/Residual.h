// Residual mode (PPP paper section 2.3 and section 5): how one function of
// a release build tells its tested paths from residual ones.
#pragma once

#include "pathcov/core/Chords.h"
#include "pathcov/core/Dag.h"
#include "pathcov/core/Ppp.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pathcov {

enum class ResidualPolicy : uint8_t {
  Array,    // PPP-indexed table: min(ppp, size), one compare, inline
  Sorted,   // PPP interval too large: binary search of tested ids, out of line
  Untested, // the tests never ran the function: every path is residual
  Stale,    // the corpus has the function with another CFG: every path is
            // residual, and the build says the corpus is stale
};

const char *residualPolicyName(ResidualPolicy policy);

// No path has this Ball-Larus id (ids stay below the path limit, at most
// 2^61): the table's sentinel, which a clamped PPP id always misses.
inline constexpr uint64_t kNoPath = UINT64_MAX;

struct ResidualLimits {
  uint64_t tableEntries = 4096; // the largest PPP interval given an array
  double delta = 16;            // the largest interval / tested paths
};

struct ResidualPlan {
  ResidualPolicy policy = ResidualPolicy::Untested;
  std::string why; // for Stale: what does not match
  std::vector<uint64_t> tested; // the tested ids, ascending
  PppNumbering ppp;             // Array only
  ChordPlacement chords;        // both registers (PPP increments 0 unless Array)
  // The table the instrumentation indexes: tableSize + 1 Ball-Larus ids,
  // the last kNoPath, then as many counts (0). Array: id k is the tested
  // path whose PPP id is k, or kNoPath. Sorted: the tested ids ascending.
  // Empty for Untested and Stale.
  uint64_t tableSize = 0;
  std::vector<uint64_t> table;
};

// `corpusChecksum` is empty when the corpus does not have the function.
// Tested ids must be paths of `numbered`; an id that is not makes the plan
// Stale (a corpus recorded against another numbering), never wrong.
ResidualPlan planResidual(const NumberedDag &numbered, uint64_t cfgChecksum,
                          const std::string &corpusChecksum,
                          const std::vector<uint64_t> &tested,
                          const ResidualLimits &limits);

} // namespace pathcov
