// Residual mode: how a function's plan (core/include/pathcov/core/
// Residual.h) becomes data and code. The one place in the plugin that
// reads a table policy: its descriptor flag, its table, the check at a
// path end, and what the optimizations after instrumentation may do with
// that check (docs/architecture.md, "A residual table policy").
#pragma once

#include "pathcov/core/Residual.h"

#include "Instrumenter.h"
#include "RuntimeDecls.h"

#include <cstdint>

namespace pathcov {

// One policy's lowering (ResidualLowering.cc, kLowerings).
struct PolicyLowering {
  uint64_t flag;       // the descriptor's PATHCOV_FN_* (Abi.h), 0: none
  PathEnd pathEnd;     // what a checked path end does
  bool seenSlots;      // its misses may count in seen slots (not where the
                       // check is itself a call)
};

const PolicyLowering &lowerPolicy(ResidualPolicy policy);

// What instrumentResidual emits for a function that is not `complete`:
// its tables and descriptor (spec, less what does not depend on the plan:
// identity, metadata, CFG checksum), and how its path ends use them
// (pathEnds, less the trees that emitting the spec makes).
struct ResidualLowering {
  FunctionTableSpec spec;
  FunctionTables pathEnds;
};

// seenSlots: whether this target has the seen slots' asm (x86-64) and the
// build wants them (not with count-tested).
ResidualLowering lowerResidualPlan(const ResidualPlan &plan, uint64_t numPaths,
                                   bool atomic, bool seenSlots);

// Fills in the trees that emitFunctionTables made (both modes).
void attachTables(FunctionTables &pathEnds, const FunctionTableTrees &trees);

} // namespace pathcov
