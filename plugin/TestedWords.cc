#include "TestedWords.h"

#include "PathMiss.h"

#include "tree-cfg.h"
#include "tree-ssa-dce.h"
#include "tree-into-ssa.h"
#include "tree-ssa.h"

namespace pathcov {

namespace {

// A space: no attribute a user can write.
constexpr const char *kTestedWordsAttribute = "pathcov tested words";

// Whether `def` loads from a marked bytemap.
bool isBytemapLoad(const gimple *def) {
  if (!gimple_assign_load_p(def))
    return false;
  tree base = get_base_address(gimple_assign_rhs1(def));
  return base && VAR_P(base) &&
         lookup_attribute(kTestedWordsAttribute, DECL_ATTRIBUTES(base));
}

// Whether `value` is made of loads from marked bytemaps and 0s, merged by
// PHIs (loop-carried ones included); counts the loads in `loads` (`names`:
// those seen).
bool mergesBytemapBytes(tree value, hash_set<tree> &names, unsigned &loads) {
  if (integer_zerop(value))
    return true;
  if (TREE_CODE(value) != SSA_NAME)
    return false;
  if (names.add(value))
    return true;
  const gimple *def = SSA_NAME_DEF_STMT(value);
  if (const gphi *phi = dyn_cast<const gphi *>(def)) {
    for (unsigned i = 0; i < gimple_phi_num_args(phi); ++i)
      if (!mergesBytemapBytes(gimple_phi_arg_def(phi, i), names, loads))
        return false;
    return true;
  }
  const bool load = isBytemapLoad(def);
  loads += load;
  return load;
}

// Whether `check` tests a byte of a marked bytemap: loaded from it, or
// merged from such loads and 0, the byte of an untested id the optimizers
// knew on that edge (PRE and jump threading
// make these in loops, such as zlib's crc32_z's inner one, whose back edge
// then tested a flag in a register before the word's subtraction, its id
// kept on the stack). A merge with a 1, a tested id's byte, stays as it
// is: there the check costs a register test where the word would cost a
// store.
bool checksBytemapByte(const gcond *check) {
  tree byte = gimple_cond_lhs(check);
  hash_set<tree> names;
  unsigned loads = 0;
  return TREE_CODE(byte) == SSA_NAME && mergesBytemapBytes(byte, names, loads) &&
         loads != 0;
}

// Whether a value `ref` uses is computed in `bb` (the optimizers sink into
// a miss what only the miss uses).
bool computedIn(tree ref, basic_block bb) {
  auto inBlock = [](tree *t, int *, void *data) -> tree {
    return TREE_CODE(*t) == SSA_NAME &&
                   gimple_bb(SSA_NAME_DEF_STMT(*t)) == static_cast<basic_block>(data)
               ? *t
               : NULL_TREE;
  };
  return walk_tree(&ref, inBlock, bb, nullptr) != NULL_TREE;
}

// The word's miss in the block the check misses to (as the instrumentation
// made it), whose word the check's block can address, or nullptr.
gasm *wordMissIn(basic_block miss) {
  if (!single_pred_p(miss))
    return nullptr;
  for (gimple_stmt_iterator gsi = gsi_start_bb(miss); !gsi_end_p(gsi); gsi_next(&gsi))
    if (isWordMissAsm(gsi_stmt(gsi))) {
      gasm *found = as_a<gasm *>(gsi_stmt(gsi));
      return computedIn(wordOfMiss(found), miss) ? nullptr : found;
    }
  return nullptr;
}

// Whether the miss `toMiss` leads to rejoins the check's other way out
// where that way goes, with the same values: then whether the miss runs
// changes nothing but the miss, and the check may go to it on another
// condition (the word's), or always. The instrumentation made it so; the
// optimizers may have given the two ways different values for the code
// after them: GCC's uncprop put the checked byte, on the miss's side, for
// the 0 it equals there into the PHI of a function's return value (expat's
// setContext then returned 1 on a tested route through the miss, where
// plain -O2 returns 0).
bool missRejoinsUnchanged(edge toMiss, edge other) {
  basic_block miss = toMiss->dest;
  if (!single_succ_p(miss) || single_succ(miss) != other->dest)
    return false;
  edge back = single_succ_edge(miss);
  // (Memory's own PHI differs by the miss's asm: the word it counts in.)
  for (gphi_iterator gsi = gsi_start_phis(other->dest); !gsi_end_p(gsi);
       gsi_next(&gsi)) {
    if (virtual_operand_p(gimple_phi_result(gsi.phi())))
      continue;
    // A miss that other routes enter too merges their values first.
    tree missed = PHI_ARG_DEF_FROM_EDGE(gsi.phi(), back);
    gimple *def = TREE_CODE(missed) == SSA_NAME ? SSA_NAME_DEF_STMT(missed) : nullptr;
    if (def && gimple_code(def) == GIMPLE_PHI && gimple_bb(def) == miss)
      missed = PHI_ARG_DEF_FROM_EDGE(def, toMiss);
    if (!operand_equal_p(missed, PHI_ARG_DEF_FROM_EDGE(gsi.phi(), other), 0))
      return false;
  }
  return true;
}

// `check` (`byte != 0` or `byte == 0`) now tests the word: `w = word - 1;
// word = w; if (w < 0)` goes to the miss, which only calls. The check's
// block thus does what the miss's asm did, as plain code the compiler lays
// out and duplicates like any other (one asm with the call inside it kept
// luaV_execute's dispatch from being copied into each opcode's tail), and
// the miss stays cold. Where the miss is not as the instrumentation made
// it, the check goes to it whatever the byte. False, and nothing changed,
// where the miss does not rejoin the other way unchanged.
bool countInWord(gcond *check, bool missOnTrue) {
  edge onTrue, onFalse;
  extract_true_false_edges_from_block(gimple_bb(check), &onTrue, &onFalse);
  if (!missRejoinsUnchanged(missOnTrue ? onTrue : onFalse,
                            missOnTrue ? onFalse : onTrue))
    return false;
  gasm *miss = wordMissIn((missOnTrue ? onTrue : onFalse)->dest);
  if (!miss) {
    if (missOnTrue)
      gimple_cond_make_true(check);
    else
      gimple_cond_make_false(check);
    update_stmt(check);
    return true;
  }
  gimple_stmt_iterator at = gsi_for_stmt(check);
  tree negative = make_temp_ssa_name(boolean_type_node, nullptr, "pathcov_negative");
  gsi_insert_before(&at, buildWordCountAsm(miss, negative), GSI_SAME_STMT);
  gimple_cond_set_condition(check, missOnTrue ? NE_EXPR : EQ_EXPR, negative,
                            boolean_false_node);
  update_stmt(check);
  gimple_stmt_iterator call = gsi_for_stmt(miss);
  gsi_replace(&call, buildWordCallAsm(miss), true);
  return true;
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
    auto_bitmap unused; // the bytes the checks read: their loads and merges go
    basic_block bb;
    FOR_EACH_BB_FN(bb, fun) {
      gcond *check = safe_dyn_cast<gcond *>(last_stmt(bb));
      if (!check || !integer_zerop(gimple_cond_rhs(check)) ||
          (gimple_cond_code(check) != NE_EXPR && gimple_cond_code(check) != EQ_EXPR))
        continue;
      tree byte = gimple_cond_lhs(check);
      if (!checksBytemapByte(check))
        continue;
      // `byte != 0` is the tested way, `byte == 0` the miss's.
      if (!countInWord(check, gimple_cond_code(check) == EQ_EXPR))
        continue;
      bitmap_set_bit(unused, SSA_NAME_VERSION(byte));
      changed = true;
    }
    if (!changed)
      return 0;
    simple_dce_from_worklist(unused);
    mark_virtual_operands_for_renaming(fun);
    return TODO_cleanup_cfg | TODO_update_ssa_only_virtuals;
  }
};

} // namespace

void markTestedWords(tree bytemap) {
  DECL_ATTRIBUTES(bytemap) = tree_cons(get_identifier(kTestedWordsAttribute),
                                       NULL_TREE, DECL_ATTRIBUTES(bytemap));
}

opt_pass *makeTestedWordsPass(gcc::context *ctx) { return new TestedWordsPass(ctx); }

} // namespace pathcov
