// GimpleCfg.h first: the JSON library before GCC's headers.
#include "GimpleCfg.h"

#include "LoopPeeling.h"

#include "cfgloopmanip.h"
#include "cfghooks.h"
#include "tree-inline.h"
#include "tree-into-ssa.h"
#include "tree-ssa-loop.h"
#include "tree-ssa-loop-manip.h"

namespace pathcov {

namespace {

// Whether duplicating `loop` keeps every edge of it an ordinary one:
// abnormal edges (setjmp receivers, computed and nonlocal gotos) and
// irreducible regions stay as they are, with their code as placed; and
// whether it holds no exception dispatch (a catch's handler choice): the
// plugin runs before GCC lowers those, and a copy of one, left
// unreachable, made GCC's ehdisp pass crash (a new user's yaml-cpp tests,
// `for (...) try { load(i); } catch (...) {...}`). Cleanups (destructors'
// landing pads, resx) copy as GCC's own loop copies do: the copies of the
// statements that throw keep their landing pad. Refusing those too cost
// re2's residual (a) 1.8% Ir (its loops' destructors: 55 loops peeled -> 35).
// Nor a loop that asks __builtin_constant_p (asksBuiltinConstantP).
bool ordinaryLoop(class loop *loop) {
  basic_block *body = get_loop_body(loop);
  bool ordinary = true;
  for (unsigned i = 0; i < loop->num_nodes && ordinary; ++i) {
    if (body[i]->flags & BB_IRREDUCIBLE_LOOP)
      ordinary = false;
    edge e;
    edge_iterator ei;
    FOR_EACH_EDGE(e, ei, body[i]->succs)
      if (e->flags & (EDGE_ABNORMAL | EDGE_IRREDUCIBLE_LOOP))
        ordinary = false;
    FOR_EACH_EDGE(e, ei, body[i]->preds)
      if (e->flags & EDGE_ABNORMAL)
        ordinary = false;
    gimple *last = last_stmt(body[i]);
    if ((last && gimple_code(last) == GIMPLE_EH_DISPATCH) ||
        asksBuiltinConstantP(body[i]))
      ordinary = false;
  }
  free(body);
  return ordinary;
}

// Takes out the ends of scope (`v = {CLOBBER(eol)}`) of a peeled copy's
// block. A variable declared in the loop's body ends its scope at the end
// of each iteration; in the copy, that end comes before the loop, on
// forward edges only, and -Wdangling-pointer then takes the loop's own uses
// of its address for uses after its end (a new user's zstd build warned in
// huf_decompress.c: -Werror builds would break). An end of scope only lets
// the variable's stack slot be shared; the loop's own ends stay.
void dropEndsOfScope(basic_block copy) {
  removeStatements(copy, [](const gimple *stmt) {
    return gimple_clobber_p(stmt, CLOBBER_EOL);
  });
}

// The loop `header` heads, or nullptr. loop_optimizer_init may have given
// the loop a preheader by splitting its header (make_forwarder_block):
// the block keeps the entering edges and the loop starts after it.
class loop *loopHeadedBy(basic_block header) {
  if (header->loop_father->header == header)
    return header->loop_father;
  if (!single_succ_p(header))
    return nullptr;
  class loop *next = single_succ(header)->loop_father;
  if (next->header != single_succ(header) || !loop_outer(next) ||
      loop_preheader_edge(next)->src != header)
    return nullptr;
  return next;
}

} // namespace

PeeledLoops peelFirstIterations(function *fun,
                                const std::vector<basic_block> &headers,
                                unsigned maxInsns) {
  PeeledLoops peeled;
  // The copy gets fresh SSA names for what it defines, so everything must
  // be in SSA form before it is made.
  update_ssa(TODO_update_ssa);
  // Preheaders and simple latches, which the duplication needs; the
  // irreducible regions marked.
  loop_optimizer_init(LOOPS_NORMAL);
  // Where the duplication notes which block and loop copied which.
  initialize_original_copy_tables();
  for (basic_block header : headers) {
    class loop *loop = loopHeadedBy(header);
    if (!loop || !loop_outer(loop) || !can_duplicate_loop_p(loop) ||
        !ordinaryLoop(loop))
      continue;
    const unsigned insns = tree_num_loop_insns(loop, &eni_size_weights);
    if (insns > maxInsns)
      continue;
    // The copy may leave the loop at any of its exits.
    auto_sbitmap wontExit(2);
    bitmap_clear(wontExit);
    if (!gimple_duplicate_loop_body_to_header_edge(
            loop, loop_preheader_edge(loop), 1, wontExit, nullptr, nullptr,
            DLTHE_FLAG_UPDATE_FREQ))
      continue;
    // The copy's definitions reach the loop: SSA again before the next.
    update_ssa(TODO_update_ssa);
    ++peeled.loops;
    peeled.insns += insns;
    // The copy went on the preheader edge: the loop is the original.
    basic_block *body = get_loop_body(loop);
    peeled.laterIterations.resize(last_basic_block_for_fn(fun), false);
    for (unsigned i = 0; i < loop->num_nodes; ++i) {
      peeled.laterIterations[body[i]->index] = true;
      if (basic_block copy = get_bb_copy(body[i]))
        dropEndsOfScope(copy);
    }
    free(body);
  }
  free_original_copy_tables();
  loop_optimizer_finalize(fun);
  return peeled;
}

} // namespace pathcov
