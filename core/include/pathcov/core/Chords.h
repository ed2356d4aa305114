// The spanning tree and chord increments for both registers (Ball-Larus
// section 3.3, event counting; PPP section 5: both counters on the same
// edges).
#pragma once

#include "pathcov/core/Dag.h"
#include "pathcov/core/Ppp.h"

#include <cstdint>
#include <vector>

namespace pathcov {

// What one piece of instrumentation adds to the two path registers.
//
// The registers are unsigned 64-bit and wrap: increments are residues
// modulo 2^64 (shown here as two's complement). A chord increment can be far
// larger than any path id - around a fundamental cycle the Ball-Larus values
// of many edges add up - and partial sums may wrap, but every complete path
// sums to its id exactly, since ids are below 2^64. A negative PPP id wraps
// to a huge one, so `ppp < intervalSize` in unsigned arithmetic is the whole
// bounds check.
struct RegisterIncrement {
  int64_t ballLarus = 0;
  int64_t ppp = 0;
  bool operator==(const RegisterIncrement &o) const {
    return ballLarus == o.ballLarus && ppp == o.ppp;
  }
};

struct ChordPlacement {
  // Per DAG edge: on the maximum-weight spanning tree or a chord. The tree
  // is built over the DAG plus EXIT->ENTRY, which joins it first, then the
  // ENTRY->w dummies of blocks entered abnormally (so their paths start at
  // 0), then the other edges by frequency.
  std::vector<bool> inTree;
  std::vector<DagEdgeId> chords; // ascending
  // Per DAG edge: the chord's increment for each register (0 on the tree).
  // Along every ENTRY->EXIT path the increments add up, modulo 2^64, to the
  // path's Ball-Larus id and PPP id respectively.
  std::vector<RegisterIncrement> increment;
};

// `pppWeights` is PppNumbering::weight (or empty: PPP increments are 0).
// The tree takes path starts last (their chords are free: the increment is
// the register's initial value), the other edges by frequency, highest
// first: measured (`edgeCounts`, per DAG edge, e.g. how often a corpus's
// tested paths ran it), then estimated (DagEdge::frequency), ties by DAG
// edge id, so the same DAG and counts always get the same chords. Without
// counts (empty), the estimates alone.
ChordPlacement computeChordIncrements(const Dag &dag,
                                      const BallLarusNumbering &bl,
                                      const std::vector<int64_t> &pppWeights,
                                      const std::vector<uint64_t> &edgeCounts = {});

// The code placed on a CFG edge that ends one path and starts the next (a
// back edge, a cut edge): count the path at register + pathEnd, then set the
// register to pathStart.
struct PathBoundary {
  RegisterIncrement pathEnd;   // increment of the dummy src->EXIT
  RegisterIncrement pathStart; // increment of the dummy ENTRY->dst
};
PathBoundary pathBoundaryCode(const Dag &dag, const ChordPlacement &chords,
                              BlockId src, BlockId dst);

} // namespace pathcov
