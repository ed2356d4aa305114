// GimpleCfg.h first: the JSON library before GCC's headers.
#include "GimpleCfg.h"

#include "AccessorCounts.h"
#include "Abi.h"
#include "PathMiss.h"
#include "RuntimeDecls.h"

#include <map>

namespace pathcov {

namespace {

// Per function (DECL_UID: never reused, unlike a collected decl's
// address): what noteLateCounts was told. The varpool keeps the trees
// alive (the descriptor is finalized and names the counter).
struct LateCount {
  tree descriptor;
  tree counter;
  uint64_t flag; // for the descriptor once the counter's counts are gone
};
std::map<unsigned, LateCount> gLateCounts;

// Whether `stmt` is a count into `counter` (a path end's or the entry's).
bool countsInto(const gimple *stmt, tree counter) {
  uint64_t by = 0;
  return isCountAsm(stmt, by) &&
         get_base_address(TREE_VALUE(gimple_asm_output_op(
             as_a<const gasm *>(stmt), 0))) == counter;
}

const pass_data kAccessorCountsPassData = {
    GIMPLE_PASS, "pathcov_accessor_counts", OPTGROUP_NONE, TV_NONE,
    PROP_cfg | PROP_ssa, 0, 0, 0, 0,
};

class AccessorCountsPass : public gimple_opt_pass {
public:
  explicit AccessorCountsPass(gcc::context *ctx)
      : gimple_opt_pass(kAccessorCountsPassData, ctx) {}

  bool gate(function *fun) override {
    return gLateCounts.count(DECL_UID(fun->decl)) != 0;
  }

  unsigned int execute(function *fun) override {
    const auto found = gLateCounts.find(DECL_UID(fun->decl));
    const LateCount late = found->second;
    gLateCounts.erase(found);
    if (!onlyReturns(fun))
      return 0;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    removeStatements(bb, [&late](const gimple *stmt) {
      return countsInto(stmt, late.counter);
    });
    // Without an entry count nothing says the function ran.
    setDescriptorFlags(late.descriptor, late.flag,
                       late.flag == kFlagPathsAreCalls ? kFlagEntryCounted : 0);
    return 0;
  }
};

} // namespace

void noteLateCounts(function *fun, tree descriptor, tree counter, uint64_t flag) {
  gLateCounts[DECL_UID(fun->decl)] = {descriptor, counter, flag};
}

opt_pass *makeAccessorCountsPass(gcc::context *ctx) {
  return new AccessorCountsPass(ctx);
}

} // namespace pathcov
