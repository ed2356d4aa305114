// GimpleCfg.h first: the JSON library before GCC's headers.
#include "GimpleCfg.h"

#include "AccessorCounts.h"
#include "Abi.h"
#include "RuntimeDecls.h"

#include <map>
#include <utility>

namespace pathcov {

namespace {

// Per function (DECL_UID: never reused, unlike a collected decl's
// address): its descriptor and the counter to drop. The varpool keeps
// those alive (the descriptor is finalized and names the counter).
std::map<unsigned, std::pair<tree, tree>> gLateCounts;

// Whether `stmt` is a count into `counter` (a path end's or the entry's
// asm).
bool countsInto(const gimple *stmt, tree counter) {
  const gasm *count = dyn_cast<const gasm *>(stmt);
  if (!count || gimple_asm_noutputs(count) == 0)
    return false;
  tree base = get_base_address(TREE_VALUE(gimple_asm_output_op(count, 0)));
  return base == counter;
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
    const auto [descriptor, counter] = found->second;
    gLateCounts.erase(found);
    if (!onlyReturns(fun))
      return 0;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    removeStatements(bb, [counter = counter](const gimple *stmt) {
      return countsInto(stmt, counter);
    });
    if (TREE_CODE(TREE_TYPE(counter)) == ARRAY_TYPE)
      setDescriptorFlags(descriptor, kFlagCallsArePath, 0);
    else
      setDescriptorFlags(descriptor, kFlagPathsAreCalls, kFlagEntryCounted);
    return 0;
  }
};

} // namespace

void noteLateCounts(function *fun, tree descriptor, tree counter) {
  gLateCounts[DECL_UID(fun->decl)] = {descriptor, counter};
}

opt_pass *makeAccessorCountsPass(gcc::context *ctx) {
  return new AccessorCountsPass(ctx);
}

} // namespace pathcov
