// GimpleCfg.h first: the JSON library before GCC's headers.
#include "GimpleCfg.h"

#include "CountMerge.h"
#include "PathMiss.h"

#include <vector>

namespace pathcov {

namespace {

// The counts of a block since its last call or other asm: each a counter
// counted there first, and the count that now counts it.
struct OpenCount {
  tree counter;
  gasm *count;
  uint64_t by;
};

bool mergeCountsIn(basic_block bb) {
  std::vector<OpenCount> open;
  bool changed = false;
  for (gimple_stmt_iterator gsi = gsi_start_bb(bb); !gsi_end_p(gsi);) {
    gimple *stmt = gsi_stmt(gsi);
    uint64_t by = 0;
    if (!isCountAsm(stmt, by)) {
      if (is_gimple_call(stmt) || gimple_code(stmt) == GIMPLE_ASM)
        open.clear();
      gsi_next(&gsi);
      continue;
    }
    gasm *count = as_a<gasm *>(stmt);
    tree counter = TREE_VALUE(gimple_asm_output_op(count, 0));
    OpenCount *earlier = nullptr;
    for (OpenCount &o : open)
      if (operand_equal_p(o.counter, counter, 0))
        earlier = &o;
    if (!earlier || earlier->by + by > INT32_MAX) {
      open.push_back({counter, count, by});
      gsi_next(&gsi);
      continue;
    }
    earlier->by += by;
    setCountBy(earlier->count, earlier->by);
    unlink_stmt_vdef(stmt);
    gsi_remove(&gsi, true);
    release_defs(stmt);
    changed = true;
  }
  return changed;
}

const pass_data kCountMergePassData = {
    GIMPLE_PASS, "pathcov_merge_counts", OPTGROUP_NONE, TV_NONE,
    PROP_cfg | PROP_ssa, 0, 0, 0, 0,
};

class CountMergePass : public gimple_opt_pass {
public:
  explicit CountMergePass(gcc::context *ctx)
      : gimple_opt_pass(kCountMergePassData, ctx) {}

  unsigned int execute(function *fun) override {
    bool changed = false;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun)
    changed |= mergeCountsIn(bb);
    return changed ? TODO_update_ssa_only_virtuals : 0;
  }
};

} // namespace

opt_pass *makeCountMergePass(gcc::context *ctx) { return new CountMergePass(ctx); }

} // namespace pathcov
