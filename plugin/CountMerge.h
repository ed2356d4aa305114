// Record mode's counts after inlining: in a block, a count of the counter
// an earlier count of the block counted, with no call or other asm
// between them, is folded into the earlier one (`addq $2`). An accessor
// inlined twice in a row counts its entries in one add, where it took two
// (re2's SparseSetT::insert counted PODArray::operator[] five times a
// call). A call between two counts could leave the function (exit,
// longjmp, an exception), and the second count must not happen then; a
// trap between them is a signal's, which already makes an accessor's
// count run ahead of its path (PATHCOV_FN_CALLS_ARE_PATH).
#pragma once

#include "GccIncludes.h"

namespace pathcov {

opt_pass *makeCountMergePass(gcc::context *ctx);

} // namespace pathcov
