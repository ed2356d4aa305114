// GimpleCfg.h first: the JSON library before GCC's headers.
#include "GimpleCfg.h"
#include "TestedRoutes.h"

#include "cfghooks.h"
#include "cfgloop.h"
#include "tree-cfg.h"
#include "tree-into-ssa.h"

#include <algorithm>

namespace pathcov {

namespace {

// Deep enough for the register's chain of increments and copies.
constexpr int kMaxDepth = 32;

// A way to a check: an edge into the first of `blocks`, which lead one to
// the next to the check's block, the last.
struct Route {
  edge entry;
  std::vector<basic_block> blocks;
};

// The value of `t` at the check when the execution took `route`: true
// with `value` when it is a constant. A phi of a route block takes the
// argument of the edge the route enters it by, but only a block before
// `before` (the route's blocks at or after it belong to an earlier
// visit, from where `t` was defined); any other phi must be the same
// constant on every way in (a peeled loop's header: its start value).
bool constantOn(const Route &route, tree t, size_t before, int depth,
                uint64_t &value) {
  if (TREE_CODE(t) == INTEGER_CST) {
    value = TREE_INT_CST_LOW(t);
    return true;
  }
  if (TREE_CODE(t) != SSA_NAME || depth > kMaxDepth)
    return false;
  gimple *def = SSA_NAME_DEF_STMT(t);
  const auto at = std::find(route.blocks.begin(), route.blocks.end(), gimple_bb(def));
  const size_t position = at - route.blocks.begin(); // size(): not on it
  if (gphi *phi = dyn_cast<gphi *>(def)) {
    if (position < before) {
      edge in = position == 0 ? route.entry
                              : find_edge(route.blocks[position - 1], *at);
      return constantOn(route, PHI_ARG_DEF_FROM_EDGE(phi, in), position,
                        depth + 1, value);
    }
    if (position != route.blocks.size())
      return false;
    const unsigned args = gimple_phi_num_args(phi);
    for (unsigned i = 0; i < args; ++i) {
      uint64_t arg;
      if (!constantOn(route, gimple_phi_arg_def(phi, i), 0, depth + 1, arg) ||
          (i > 0 && arg != value))
        return false;
      value = arg;
    }
    return args > 0;
  }
  if (!is_gimple_assign(def))
    return false;
  // Its operands as they were when it ran: the phis of its own block, not
  // those after it; off the route, none of the route's.
  before = std::min(before, position == route.blocks.size() ? 0 : position + 1);
  switch (gimple_assign_rhs_code(def)) {
  case INTEGER_CST:
  case SSA_NAME:
    return constantOn(route, gimple_assign_rhs1(def), before, depth + 1, value);
  case PLUS_EXPR: {
    uint64_t a, b;
    if (!constantOn(route, gimple_assign_rhs1(def), before, depth + 1, a) ||
        !constantOn(route, gimple_assign_rhs2(def), before, depth + 1, b))
      return false;
    value = a + b; // the registers wrap (core Chords.h)
    return true;
  }
  default:
    return false;
  }
}

// Statements that become code: not labels, debug statements or branch
// prediction hints (a `continue` leaves one).
unsigned statementsIn(basic_block bb) {
  unsigned n = 0;
  for (gimple_stmt_iterator gsi = gsi_start_nondebug_bb(bb); !gsi_end_p(gsi);
       gsi_next_nondebug(&gsi))
    if (gimple_code(gsi_stmt(gsi)) != GIMPLE_LABEL &&
        gimple_code(gsi_stmt(gsi)) != GIMPLE_PREDICT &&
        gimple_code(gsi_stmt(gsi)) != GIMPLE_NOP)
      ++n;
  return n;
}

// Blocks that can be copied as they are: no abnormal or EH edges out, not
// a loop's header, not in an irreducible region, no __builtin_constant_p
// (asksBuiltinConstantP).
bool plainBlock(basic_block bb) {
  if (bb->loop_father->header == bb || (bb->flags & BB_IRREDUCIBLE_LOOP) ||
      asksBuiltinConstantP(bb))
    return false;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE(e, ei, bb->succs)
    if (e->flags & EDGE_COMPLEX)
      return false;
  return true;
}

// The ways to `check`'s block: back from it through blocks with one
// predecessor to where the routes meet, and through an empty block before
// that where more meet (the `continue`s of a loop body, before its
// condition). None when the blocks to copy have more than `maxStmts`
// statements (the check's own not counted: they fold away) or cannot be
// copied.
std::vector<Route> routesTo(basic_block check, unsigned maxStmts,
                            unsigned &copied) {
  std::vector<basic_block> chain{check};
  copied = 0;
  basic_block bb = check;
  while (single_pred_p(bb)) {
    bb = single_pred(bb);
    if (bb == ENTRY_BLOCK_PTR_FOR_FN(cfun) || !plainBlock(bb))
      return {};
    copied += statementsIn(bb);
    if (copied > maxStmts)
      return {};
    chain.insert(chain.begin(), bb);
  }
  if (chain.size() < 2 || EDGE_COUNT(bb->preds) < 2 || !plainBlock(check))
    return {};
  std::vector<Route> routes;
  edge e;
  edge_iterator ei;
  FOR_EACH_EDGE(e, ei, bb->preds) {
    if (e->flags & EDGE_COMPLEX)
      continue;
    basic_block before = e->src;
    if (!single_succ_p(before) || EDGE_COUNT(before->preds) < 2 ||
        statementsIn(before) != 0 || !plainBlock(before)) {
      routes.push_back({e, chain});
      continue;
    }
    std::vector<basic_block> longer{before};
    longer.insert(longer.end(), chain.begin(), chain.end());
    edge in;
    edge_iterator ein;
    FOR_EACH_EDGE(in, ein, before->preds)
      if (!(in->flags & EDGE_COMPLEX))
        routes.push_back({in, longer});
  }
  return routes;
}

} // namespace

ThreadedRoutes threadTestedRoutes(function *fun,
                                  const std::vector<CheckSite> &checks,
                                  const std::vector<uint64_t> &testedIds,
                                  unsigned maxStmts) {
  ThreadedRoutes threaded;
  if (checks.empty())
    return threaded;
  // The registers become SSA names, whose definitions the search reads.
  update_ssa(TODO_update_ssa);
  loop_optimizer_init(LOOPS_HAVE_MARKED_IRREDUCIBLE_REGIONS);
  for (const CheckSite &check : checks) {
    basic_block checkBlock = gimple_bb(check.branch);
    if (!checkBlock)
      continue;
    unsigned copied = 0;
    const std::vector<Route> routes = routesTo(checkBlock, maxStmts, copied);
    // The routes whose path here is a tested one; not every route, as the
    // original keeps the last.
    std::vector<const Route *> tested;
    for (const Route &route : routes) {
      uint64_t id;
      if (constantOn(route, check.id, route.blocks.size(), 0, id) &&
          std::binary_search(testedIds.begin(), testedIds.end(), id))
        tested.push_back(&route);
    }
    if (tested.size() == routes.size() && !tested.empty())
      tested.pop_back();
    for (const Route *route : tested) {
      std::vector<basic_block> region = route->blocks;
      if (!gimple_duplicate_sese_region(route->entry, EDGE_SUCC(checkBlock, 0),
                                        region.data(), region.size(), nullptr,
                                        false))
        break;
      // The copy's definitions reach the blocks after it: SSA again
      // (dominators afresh) before the next copy reads them. An empty
      // block where routes met may have given all of them their copies.
      free_dominance_info(CDI_DOMINATORS);
      delete_unreachable_blocks();
      update_ssa(TODO_update_ssa);
      ++threaded.routes;
      threaded.stmts += copied;
    }
  }
  loop_optimizer_finalize(fun);
  return threaded;
}

} // namespace pathcov
