// Preferential path profiling: computePPPIncrements (PPP paper Figure 10).
//
// Interesting paths are given by their Ball-Larus ids and a prefix is
// represented by the Ball-Larus partial sum along it, which is unique among
// the prefixes that reach a given node (PPP section 5).
#pragma once

#include "pathcov/core/Dag.h"

#include <cstdint>
#include <vector>

namespace pathcov {

struct PppNumbering {
  // Per DAG edge: W(e). An edge that no interesting path takes gets no
  // weight from the algorithm (bottom in the paper); it is 0 here and
  // marked undefined. Aliasing through it is harmless: the parallel
  // Ball-Larus register tells interesting paths from the others.
  std::vector<int64_t> weight;
  std::vector<bool> defined;
  // Per distinct interesting path, in ascending Ball-Larus order.
  std::vector<uint64_t> interestingBallLarusIds;
  std::vector<int64_t> ids;
  // [0, intervalSize) holds every interesting path's PPP id.
  uint64_t intervalSize = 0;
  // Compactness: intervalSize / number of interesting paths (>= 1); 0 when
  // there is no interesting path.
  double delta = 0;

  // The PPP id of an interesting path, or -1 if it is not one of them.
  int64_t idOf(uint64_t ballLarusId) const;
};

// Throws std::out_of_range for an id that is not a path of the DAG and
// NumberingOverflow when a weight or partial id does not fit in 64 bits.
PppNumbering computePPPIncrements(const Dag &dag, const BallLarusNumbering &bl,
                                  std::vector<uint64_t> interestingIds);

} // namespace pathcov
