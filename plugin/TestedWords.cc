#include "TestedWords.h"

#include "tree-cfg.h"
#include "tree-ssa.h"

namespace pathcov {

namespace {

// A space: no attribute a user can write.
constexpr const char *kTestedWordsAttribute = "pathcov tested words";

// Whether `value` is a byte of a marked bytemap: loaded from it by its
// defining statement.
bool isBytemapByte(tree value) {
  if (TREE_CODE(value) != SSA_NAME)
    return false;
  const gimple *def = SSA_NAME_DEF_STMT(value);
  if (!gimple_assign_load_p(def))
    return false;
  tree base = get_base_address(gimple_assign_rhs1(def));
  return base && VAR_P(base) &&
         lookup_attribute(kTestedWordsAttribute, DECL_ATTRIBUTES(base));
}

const pass_data kTestedWordsPassData = {
    GIMPLE_PASS, "pathcov_tested_words", OPTGROUP_NONE, TV_NONE,
    PROP_cfg | PROP_ssa, 0, 0, 0, 0,
};

class TestedWordsPass : public gimple_opt_pass {
public:
  explicit TestedWordsPass(gcc::context *ctx)
      : gimple_opt_pass(kTestedWordsPassData, ctx) {}

  unsigned int execute(function *fun) override {
    bool changed = false;
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) {
      gcond *check = safe_dyn_cast<gcond *>(last_stmt(bb));
      if (!check || !integer_zerop(gimple_cond_rhs(check)) ||
          (gimple_cond_code(check) != NE_EXPR && gimple_cond_code(check) != EQ_EXPR))
        continue;
      tree byte = gimple_cond_lhs(check);
      if (!isBytemapByte(byte))
        continue;
      // `byte != 0` is the tested way, `byte == 0` the miss's.
      if (gimple_cond_code(check) == NE_EXPR)
        gimple_cond_make_false(check);
      else
        gimple_cond_make_true(check);
      update_stmt(check);
      if (has_zero_uses(byte)) {
        gimple_stmt_iterator load = gsi_for_stmt(SSA_NAME_DEF_STMT(byte));
        gsi_remove(&load, true);
        release_ssa_name(byte);
      }
      changed = true;
    }
    return changed ? TODO_cleanup_cfg : 0;
  }
};

} // namespace

void markTestedWords(tree bytemap) {
  DECL_ATTRIBUTES(bytemap) = tree_cons(get_identifier(kTestedWordsAttribute),
                                       NULL_TREE, DECL_ATTRIBUTES(bytemap));
}

opt_pass *makeTestedWordsPass(gcc::context *ctx) { return new TestedWordsPass(ctx); }

} // namespace pathcov
