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

// Whether `e` goes back to a block that dominates its source: a loop's
// next iteration.
bool backEdge(edge e) {
  return dominated_by_p(CDI_DOMINATORS, e->src, e->dest);
}

// Whether `value` is made of loads from marked bytemaps and of 0s that
// come in by a loop's back edge, merged by PHIs; collects its SSA names in
// `names` and counts the loads in `loads`. A 0 elsewhere is a residual
// route the tests never took, likely as cold: where the others' bytes
// are 1 the merged byte costs a register test, which re2's DFA loop kept
// in a register out of its loop, and the word would cost a subtraction
// in memory (residual (a) Ir +0.6%).
bool mergesBytemapBytes(tree value, hash_set<tree> &names, unsigned &loads) {
  if (TREE_CODE(value) != SSA_NAME)
    return false;
  if (names.add(value))
    return true;
  const gimple *def = SSA_NAME_DEF_STMT(value);
  if (const gphi *phi = dyn_cast<const gphi *>(def)) {
    for (unsigned i = 0; i < gimple_phi_num_args(phi); ++i) {
      tree arg = gimple_phi_arg_def(phi, i);
      if (integer_zerop(arg) ? !backEdge(gimple_phi_arg_edge(phi, i))
                             : !mergesBytemapBytes(arg, names, loads))
        return false;
    }
    return true;
  }
  const bool load = isBytemapLoad(def);
  loads += load;
  return load;
}

// Whether nothing but `check` and their own merges reads `names`. Sent
// to the word, the check takes the miss on another condition; the code
// on the two ways may differ only in what the optimizers knew of the
// byte there, so it may differ only where it reads the byte. uncprop put
// the byte for the 0 it equals on the miss's side into a PHI of the
// user's value after the miss (expat's setContext returned it: `return
// 0` on a tested route that went through the miss became `return 1`).
bool onlyCheckReads(hash_set<tree> &names, const gimple *check) {
  for (tree name : names) {
    imm_use_iterator uses;
    gimple *use;
    FOR_EACH_IMM_USE_STMT(use, uses, name) {
      const gphi *phi = dyn_cast<const gphi *>(use);
      if (use != check && !is_gimple_debug(use) &&
          !(phi && names.contains(gimple_phi_result(phi))))
        return false;
    }
  }
  return true;
}

// Whether `check` tests a byte of a marked bytemap and nothing else reads
// that byte: loaded from it, or merged from such loads and the 0 of an
// untested id the optimizers knew on a loop's back edge (PRE makes these,
// as in zlib's crc32_z's inner loop, whose back edge then tested a flag in
// a register before the word's subtraction, its id kept on the stack). A
// merge with a 1, a tested id's byte, stays as it is: there the check
// costs a register test where the word would cost a store.
bool checksBytemapByte(const gcond *check) {
  tree byte = gimple_cond_lhs(check);
  hash_set<tree> names;
  unsigned loads = 0;
  return TREE_CODE(byte) == SSA_NAME && mergesBytemapBytes(byte, names, loads) &&
         loads != 0 && onlyCheckReads(names, check);
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

// `check` (`byte != 0` or `byte == 0`) now tests the word: `w = word - 1;
// word = w; if (w < 0)` goes to the miss, which only calls. The check's
// block thus does what the miss's asm did, as plain code the compiler lays
// out and duplicates like any other (one asm with the call inside it kept
// luaV_execute's dispatch from being copied into each opcode's tail), and
// the miss stays cold. Where the miss is not as the instrumentation made
// it, the check goes to it whatever the byte.
void countInWord(gcond *check, bool missOnTrue) {
  edge onTrue, onFalse;
  extract_true_false_edges_from_block(gimple_bb(check), &onTrue, &onFalse);
  gasm *miss = wordMissIn((missOnTrue ? onTrue : onFalse)->dest);
  if (!miss) {
    if (missOnTrue)
      gimple_cond_make_true(check);
    else
      gimple_cond_make_false(check);
    update_stmt(check);
    return;
  }
  gimple_stmt_iterator at = gsi_for_stmt(check);
  tree negative = make_temp_ssa_name(boolean_type_node, nullptr, "pathcov_negative");
  gsi_insert_before(&at, buildWordCountAsm(miss, negative), GSI_SAME_STMT);
  gimple_cond_set_condition(check, missOnTrue ? NE_EXPR : EQ_EXPR, negative,
                            boolean_false_node);
  update_stmt(check);
  gimple_stmt_iterator call = gsi_for_stmt(miss);
  gsi_replace(&call, buildWordCallAsm(miss), true);
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
    // For the back edges (mergesBytemapBytes); the pass changes no edge,
    // only which one a check takes.
    calculate_dominance_info(CDI_DOMINATORS);
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
      countInWord(check, gimple_cond_code(check) == EQ_EXPR);
      bitmap_set_bit(unused, SSA_NAME_VERSION(byte));
      changed = true;
    }
    free_dominance_info(CDI_DOMINATORS);
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
