// The numbering pipeline of `pathcov number`: Ball-Larus numbering with
// cuts, the interesting paths, PPP weights, then chords for both registers.
#pragma once

#include "CfgJson.h"

#include "pathcov/core/Chords.h"
#include "pathcov/core/Dag.h"
#include "pathcov/core/Ppp.h"

#include <cstdint>
#include <vector>

namespace pathcov {

struct InterestingPath {
  std::vector<DagEdgeId> edges;
  uint64_t ballLarusId;
};

struct FunctionNumbering {
  uint64_t pathLimit;
  NumberedDag numbered;
  std::vector<InterestingPath> interestingPaths; // in input order
  PppNumbering ppp;
  ChordPlacement chords;
  PathCount acyclicPaths; // of the uncut DAG
};

// Throws InputError for an interesting path that is not a path of the
// numbered DAG, and lets NumberingOverflow through for a graph that cannot
// be numbered within `pathLimit`.
FunctionNumbering numberFunction(const CfgInput &input, uint64_t pathLimit);

} // namespace pathcov
