// Residual mode: peeling the first iteration of the loops the tests ran
// most (core ResidualPlan::peel says which, and why it pays).
#pragma once

#include "GccIncludes.h"

#include <vector>

namespace pathcov {

struct PeeledLoops {
  unsigned loops = 0;
  unsigned insns = 0; // GCC's size estimate of the copies
  // Per bb->index: the block belongs to a peeled loop as it is left, which
  // runs every iteration after the first. No path there starts at the
  // function's entry: the peeled first iteration's back edge ended it.
  std::vector<bool> laterIterations;

  bool inLaterIterations(basic_block bb) const {
    return unsigned(bb->index) < laterIterations.size() &&
           laterIterations[bb->index];
  }
};

// After instrumentation: peels one iteration off each loop of `fun` whose
// header is in `headers` and whose body (GCC's size estimate) is at most
// `maxInsns`, leaving out loops the copy could break or that GCC could not
// duplicate (abnormal edges, irreducible regions). The copy runs the
// first iteration with the pathcov code of the original, so the paths
// counted do not change. Puts fun in SSA form (the instrumentation's
// temporaries too).
PeeledLoops peelFirstIterations(function *fun,
                                const std::vector<basic_block> &headers,
                                unsigned maxInsns);

} // namespace pathcov
