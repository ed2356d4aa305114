// Residual mode, kFlagTestedWords (abi.h, PATHCOV_FN_TESTED_WORDS): a
// bytemap function's path end whose id the optimizers could not fold
// counts in the path's seen word straight away. Its check was a load and a
// branch before the word's subtraction and branch, which a residual path
// took both of; now every path takes only the word's, and the runtime sets
// a tested path's word out of reach the first time it goes negative.
#pragma once

#include "GccIncludes.h"

namespace pathcov {

// Marks `bytemap` as the table of a function with tested words, for the
// pass below (an attribute: it survives LTO's streaming).
void markTestedWords(tree bytemap);

// A GIMPLE pass after the optimizers (after "optimized"): each check that
// is still a load from a marked bytemap compared with 0 becomes the word's
// subtraction, its sign the branch to the miss, which keeps only the call;
// the load goes. Checks that folded (the id known at compile time) are
// gone by then, so they cost nothing as before.
opt_pass *makeTestedWordsPass(gcc::context *ctx);

} // namespace pathcov
