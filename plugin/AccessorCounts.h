// Record mode, PATHCOV_FN_CALLS_ARE_PATH (abi.h) decided late: a function
// of one path whose calls the instrumentation could not tell would return
// (C++ accessors call accessors; GCC learns that they are pure and finish,
// and inlines them, only after the instrumentation ran) counts its entries
// and its path. Once the early inliner has run on it, a pass looks again:
// if nothing left in it can keep it from returning, its path end's count
// goes and its descriptor says that its entries count its path.
#pragma once

#include "GccIncludes.h"

namespace pathcov {

// Notes `fun`'s descriptor and counters: one path, counted at its end.
void noteOnePathFunction(function *fun, tree descriptor, tree counters);

// A GIMPLE pass after "einline" for the noted functions.
opt_pass *makeAccessorCountsPass(gcc::context *ctx);

} // namespace pathcov
