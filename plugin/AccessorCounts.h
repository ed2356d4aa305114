// Record mode, PATHCOV_FN_CALLS_ARE_PATH and PATHCOV_FN_PATHS_ARE_CALLS
// (abi.h) decided late: a function without loops whose calls the
// instrumentation could not tell would return (C++ accessors call
// accessors; GCC learns that they are pure and finish, and inlines them,
// only after the instrumentation ran) counts its entries and its paths.
// Once the early inliner has run on it, a pass looks again: if nothing left
// in it can keep it from returning, one path's end count goes (its entries
// count it), or, of several paths, the entry count goes (its paths' counts
// sum to its entries).
#pragma once

#include "GccIncludes.h"

namespace pathcov {

// Notes `fun`'s descriptor and the counter to drop if it only returns, with
// the flag that then says so: its one path's (`counters`,
// kFlagCallsArePath) or its entries' (`calls`, kFlagPathsAreCalls).
void noteLateCounts(function *fun, tree descriptor, tree counter, uint64_t flag);

// A GIMPLE pass after "einline" for the noted functions.
opt_pass *makeAccessorCountsPass(gcc::context *ctx);

} // namespace pathcov
