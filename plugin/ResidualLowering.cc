#include "ResidualLowering.h"

#include "pathcov/core/Checked.h"

#include "PathMiss.h"

namespace pathcov {

namespace {

// Indexed by ResidualPolicy. Complete functions get no code and no
// descriptor (Plugin.cc) but with history=N, where their row gives a
// descriptor without tables and path ends with nothing to check.
constexpr PolicyLowering kLowerings[kResidualPolicies] = {
    /* Bytemap  */ {kFlagBytemap, PathEnd::CheckBytemap, true},
    /* Array    */ {0, PathEnd::CheckTable, true},
    /* Hashed   */ {kFlagCuckoo, PathEnd::CheckHashed, true},
    /* Sorted   */ {kFlagSorted, PathEnd::LookUp, false},
    /* Untested */ {0, PathEnd::Residual, true},
    /* Stale    */ {kFlagStale, PathEnd::Residual, true},
    /* Complete */ {0, PathEnd::Residual, false},
};
static_assert(static_cast<int>(ResidualPolicy::Complete) + 1 ==
                  kResidualPolicies,
              "a row of kLowerings per policy");

// First sighting only (docs/residual-mode.md): a power of two of seen
// slots, a word per path up to kSeenWordLimit paths, else shared ones.
uint64_t seenSlotsFor(const ResidualPlan &plan, uint64_t numPaths) {
  if (!lowerPolicy(plan.policy).seenSlots || plan.checkedEnds == 0)
    return 0;
  return numPaths > kSeenWordLimit ? kSharedSeenSlots
                                      : powerOfTwoAtLeast(numPaths);
}

} // namespace

const PolicyLowering &lowerPolicy(ResidualPolicy policy) {
  return kLowerings[static_cast<int>(policy)];
}

ResidualLowering lowerResidualPlan(const ResidualPlan &plan, uint64_t numPaths,
                                   bool atomic, bool seenSlots) {
  const PolicyLowering &lowering = lowerPolicy(plan.policy);
  ResidualLowering out;
  FunctionTableSpec &spec = out.spec;
  spec.numPaths = numPaths;
  spec.seenSlots = seenSlots ? seenSlotsFor(plan, numPaths) : 0;
  const bool seenWords = spec.seenSlots != 0 && spec.seenSlots >= numPaths;
  // A path end the optimizers leave unsure of its id counts in its word
  // straight away (abi.h, PATHCOV_FN_TESTED_WORDS): not with atomic counts,
  // where the word's subtraction is a locked one.
  const bool testedWords = seenWords && !atomic && lowering.pathEnd == PathEnd::CheckBytemap;
  spec.flags = kFlagResidual | lowering.flag | (plan.narrow ? kFlagNarrow : 0) |
               (plan.counted ? kFlagCounted : 0) | (atomic ? kFlagAtomic : 0) |
               (plan.multipliers.size() == 3 ? kFlagThreeChoices : 0) |
               (seenWords ? kFlagSeenWords : 0) | (testedWords ? kFlagTestedWords : 0);
  spec.tableSize = plan.tableSize;
  spec.numCounters = plan.table.size();
  spec.initialCounters = plan.table;
  spec.bytemap = plan.bytemap;
  spec.readOnly = !plan.counted;

  FunctionTables &ends = out.pathEnds;
  ends.pathEnd = lowering.pathEnd;
  ends.bound = plan.tableSize;
  ends.counted = plan.counted;
  ends.checkedEnd = &plan.checkedEnd;
  if (!plan.everyPathTested.empty()) {
    ends.everyPathTested = &plan.everyPathTested;
    ends.everyInnerPathTested = &plan.everyInnerPathTested;
  }
  ends.seenSlots = spec.seenSlots;
  ends.seenWords = seenWords;
  ends.multipliers = plan.multipliers;
  ends.unmasked = plan.unmasked;
  ends.pppBase = plan.pppBase;
  return out;
}

void attachTables(FunctionTables &pathEnds, const FunctionTableTrees &trees) {
  pathEnds.descriptor = trees.descriptor;
  pathEnds.counters = trees.counters;
  pathEnds.seen = trees.seen;
  pathEnds.calls = trees.calls;
}

} // namespace pathcov
