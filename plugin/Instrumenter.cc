#include "Instrumenter.h"

#include "PathMiss.h"
#include "RuntimeDecls.h"

namespace pathcov {

std::string checkAbnormalEdges(const GimpleCfg &g, const Dag &dag) {
  for (EdgeId id = 0; id < g.edgeOf.size(); ++id) {
    if (dag.cfgEdgeRole[id] != CfgEdgeRole::Abnormal)
      continue;
    const CfgEdge &e = g.cfg.edge(id);
    const AbnormalRole from = g.abnormalRole[e.src];
    const AbnormalRole to = g.abnormalRole[e.dst];
    const gimple *last = last_stmt(g.blockOf[e.src]);
    // The source must end its path by itself (nothing else leaves it), or
    // be a call whose abnormal exit interrupts the path (longjmp, nonlocal
    // goto: counted as interrupted), or the dispatcher, which never runs.
    const bool sourceOk = from == AbnormalRole::NoNormalSuccessor ||
                          from == AbnormalRole::Dispatcher ||
                          (last && is_gimple_call(last));
    // The target must start a clean path by itself: a setjmp receiver
    // restarts after its call, the dispatcher never runs, a block entered
    // only abnormally resets the register at its start, and a source that
    // ends its path resets it before jumping.
    const bool targetOk = to == AbnormalRole::SetjmpReceiver ||
                          to == AbnormalRole::Dispatcher ||
                          enteredOnlyAbnormally(g.blockOf[e.dst]) ||
                          from == AbnormalRole::NoNormalSuccessor;
    if (!sourceOk || !targetOk)
      return "abnormal edge from block " + std::to_string(g.blockOf[e.src]->index) +
             " to block " + std::to_string(g.blockOf[e.dst]->index) +
             " cannot be instrumented";
  }
  for (BlockId s : g.setjmpBlocks)
    for (EdgeId id : g.cfg.succs(s))
      if (g.cfg.edge(id).dst == g.cfg.exit())
        return "a setjmp block returns directly";
  return "";
}

namespace {

// A residual check waiting for its branches: after `last`, which computes
// `tested`, count the path (when the table counts) if tested, else miss
// (see CodeBuilder::insertCheckBranches).
struct PendingCheck {
  gimple *last;
  tree tested; // boolean; NULL_TREE: no path is tested, always a miss
  tree id;
  tree count; // the tested path's count, or NULL_TREE
  bool innerTested; // CheckSite::innerTested (endPath sets it)
};

// Whether DAG edge `e` has every path through it tested (`inner`: of those
// that do not start at the function's entry): a path end on the way in by
// it needs no check (in a peeled loop's later iterations).
bool everyPathTested(const FunctionTables &tables, DagEdgeId e,
                     bool inner = false) {
  const std::vector<bool> *every =
      inner ? tables.everyInnerPathTested : tables.everyPathTested;
  return e != kNoId && every && (*every)[e];
}

// Builds the statements of one insertion point.
class CodeBuilder {
public:
  CodeBuilder(const FunctionTables &tables, bool atomic)
      : tables_(tables), atomic_(atomic) {
    ballLarus_ = create_tmp_var(pathType(), "pathcov_path");
    suppress_warning(ballLarus_);
    if (tables.pathEnd == PathEnd::CheckTable) {
      ppp_ = create_tmp_var(pathType(), "pathcov_ppp");
      suppress_warning(ppp_);
    }
    if (tables.kpaths) {
      kState_ = create_tmp_var(
          build_array_type_nelts(counterType(), kKPathStateWords),
          "pathcov_kstate");
      TREE_ADDRESSABLE(kState_) = 1;
      suppress_warning(kState_);
    }
  }

  // k=N: the next path starts a sequence of its own (abi.h: the state's
  // first word 0).
  void breakSequence() {
    if (!kState_)
      return;
    add(gimple_build_assign(
        build4(ARRAY_REF, counterType(), kState_, size_int(0), NULL_TREE,
               NULL_TREE),
        build_int_cst(counterType(), 0)));
  }

  void setRegisters(RegisterIncrement value) {
    add(gimple_build_assign(ballLarus_, constant(value.ballLarus)));
    if (ppp_)
      add(gimple_build_assign(ppp_, constant(value.ppp)));
  }

  void addToRegisters(RegisterIncrement increment) {
    if (increment.ballLarus != 0)
      add(gimple_build_assign(ballLarus_, PLUS_EXPR, ballLarus_,
                              constant(increment.ballLarus)));
    if (ppp_ && increment.ppp != 0)
      add(gimple_build_assign(ppp_, PLUS_EXPR, ppp_, constant(increment.ppp)));
  }

  // Ends the path whose ids are the registers plus `offset`, at DAG edge
  // `end` (into EXIT), on the way in by DAG edge `route` (kNoId: at the
  // end itself). A route every path of which was tested needs no check.
  // Returns whether the route left out the check its end has elsewhere.
  bool endPath(RegisterIncrement offset, DagEdgeId end,
               DagEdgeId route = kNoId) {
    const bool endChecked = !tables_.checkedEnd || (*tables_.checkedEnd)[end];
    const DagEdgeId by = route == kNoId ? end : route;
    const bool checked = endChecked && !everyPathTested(tables_, by);
    if (!checked && !tables_.history)
      return endChecked;
    tree id = sum(ballLarus_, offset.ballLarus, "pathcov_id");
    if (tables_.history)
      add(buildHistoryAsm(tables_.descriptor, id));
    if (!checked)
      return endChecked;
    const size_t before = checks_.size();
    endCode(offset, id);
    if (checks_.size() > before)
      checks_.back().innerTested = everyPathTested(tables_, by, true);
    return false;
  }

  void countCall() { increment(tables_.calls, one()); }

  // A nonlocal goto landed: it abandoned the path it left, like a longjmp
  // back to a setjmp (see leaveSetjmp).
  void countResume() {
    increment(descriptorRef(DescriptorField::Resumes), one());
  }

  // Around a setjmp call: the flag is set on the way in and cleared on the
  // way out, so finding it clear on the way out means a second return (a
  // longjmp came back), counted in `resumes`: each abandoned one path.
  void enterSetjmp(tree flag) {
    add(gimple_build_assign(flag, build_int_cst(TREE_TYPE(flag), 1)));
  }
  void leaveSetjmp(tree flag) {
    tree value = make_temp_ssa_name(unsigned_char_type_node, nullptr,
                                    "pathcov_flag");
    add(gimple_build_assign(value, flag));
    tree second = make_temp_ssa_name(boolean_type_node, nullptr, "pathcov_flag");
    add(gimple_build_assign(second, EQ_EXPR, value,
                            build_int_cst(unsigned_char_type_node, 0)));
    tree count = make_temp_ssa_name(counterType(), nullptr, "pathcov_flag");
    add(gimple_build_assign(count, NOP_EXPR, second));
    increment(descriptorRef(DescriptorField::Resumes), count);
    add(gimple_build_assign(flag, build_int_cst(TREE_TYPE(flag), 0)));
  }

  gimple_seq take() {
    gimple_seq seq = seq_;
    seq_ = nullptr;
    return seq;
  }

  // Gives each residual check its branches. After all the code is in
  // place: they split the block the check ended up in. `if (!tested) miss`
  // goes in first, then, for a counting table, `if (tested) count++` before
  // it; the optimizers thread the second test away after a hit. A check
  // with nothing tested (untested, stale) is the miss alone. Returns the
  // checks with a table to test.
  std::vector<CheckSite> insertCheckBranches() {
    std::vector<CheckSite> sites;
    for (const PendingCheck &check : checks_) {
      basic_block bb = gimple_bb(check.last);
      if (!check.tested) {
        insertMiss(bb, check.last, check.id);
        continue;
      }
      gcond *branch = gimple_build_cond(EQ_EXPR, check.tested, boolean_false_node,
                                        NULL_TREE, NULL_TREE);
      sites.push_back({branch, check.id, check.innerTested});
      basic_block miss = insert_cond_bb(bb, check.last, branch,
                                        profile_probability::very_unlikely());
      insertMiss(miss, nullptr, check.id);
      if (!check.count)
        continue;
      basic_block hit = insert_cond_bb(
          bb, check.last,
          gimple_build_cond(NE_EXPR, check.tested, boolean_false_node,
                            NULL_TREE, NULL_TREE),
          profile_probability::very_likely());
      increment(check.count, one());
      gimple_stmt_iterator gsi = gsi_start_bb(hit);
      gsi_insert_seq_after(&gsi, take(), GSI_NEW_STMT);
    }
    return sites;
  }

private:
  // The path end's code for path `id` (registers plus `offset`): the k
  // window, then the count, call or check the path end takes.
  void endCode(RegisterIncrement offset, tree id) {
    if (kState_)
      add(gimple_build_call(kpathDecl(), 3, addressAs(ptr_type_node, tables_.kpaths),
                            addressAs(build_pointer_type(counterType()), kState_),
                            id));
    switch (tables_.pathEnd) {
    case PathEnd::CountInline:
      // Else an id out of range (a pathcov bug) lands in the extra last
      // counter the runtime reports: branch-free and never out of bounds.
      increment(element(tables_.idsInRange ? id : indexWithin(id)), one());
      return;
    case PathEnd::CountHashed:
      // With seen slots, the slot's test and count, else the call
      // (insertCheckBranches).
      if (!tables_.seen)
        return callRuntime(recordPathDecl(), id);
      return pending(NULL_TREE, id, NULL_TREE);
    case PathEnd::LookUp:
      return callRuntime(residualLookupDecl(), id);
    case PathEnd::Residual:
      // Untested, stale: every path is residual. With seen slots, only the
      // miss's slot test (insertCheckBranches); else the call.
      if (!tables_.seen)
        return callRuntime(residualPathDecl(), id);
      return pending(NULL_TREE, id, NULL_TREE);
    case PathEnd::CheckBytemap:
      return checkBytemap(id);
    case PathEnd::CheckTable:
      // Unmasked: the PPP id less the table's base, in range for every
      // path (one add, which the path end's offset folds into).
      if (tables_.unmasked)
        return checkTable(sum(ppp_,
                              int64_t(uint64_t(offset.ppp) - uint64_t(tables_.pppBase)),
                              "pathcov_index"),
                          id);
      return checkTable(
          indexWithin(sum(ppp_, offset.ppp, "pathcov_ppp_id")), id);
    case PathEnd::CheckHashed:
      return checkHashed(id);
    }
  }

  // PPP paper section 2.3: the PPP id finds the slot, the Ball-Larus id
  // decides. A PPP id out of the interval (an untested path's; masked,
  // negative ones wrapped) reaches a slot whose id is another path's or
  // none. The branches come later (insertCheckBranches).
  void checkTable(tree index, tree id) {
    // abi.h: the ids, then their counts; a count is its id's address plus
    // a constant, which the address arithmetic folds in.
    pending(holds(index, id), id,
            tables_.counted ? element(index, tables_.bound + 1) : NULL_TREE);
  }

  // Whether entry `index` of the table is `id`, compared as wide as the
  // table's entries: a 32-bit table's (kFlagNarrow) against the id's low
  // 32 bits, which are the id (every id of such a function fits), so that
  // the compare takes its entry straight from memory, one instruction.
  tree holds(tree index, tree id) {
    tree entryType = TYPE_MAIN_VARIANT(TREE_TYPE(TREE_TYPE(tables_.counters)));
    tree entry = make_temp_ssa_name(entryType, nullptr, "pathcov_slot");
    add(gimple_build_assign(entry, build4(ARRAY_REF, entryType, tables_.counters,
                                          index, NULL_TREE, NULL_TREE)));
    tree key = id;
    if (TYPE_PRECISION(entryType) < TYPE_PRECISION(pathType())) {
      key = make_temp_ssa_name(entryType, nullptr, "pathcov_id");
      add(gimple_build_assign(key, NOP_EXPR, id));
    }
    tree tested = make_temp_ssa_name(boolean_type_node, nullptr, "pathcov_tested");
    add(gimple_build_assign(tested, EQ_EXPR, entry, key));
    return tested;
  }

  // Byte id: one compare with memory (`cmpb $0, table(%reg)`), where a
  // bit would take a shift, a load and a bit test. The bytemap is a
  // constant: where the id is known at compile time the whole check folds
  // away (tested) or leaves only the call.
  void checkBytemap(tree id) {
    tree byte = make_temp_ssa_name(unsigned_char_type_node, nullptr, "pathcov_byte");
    add(gimple_build_assign(byte, build4(ARRAY_REF, unsigned_char_type_node,
                                         tables_.counters, id, NULL_TREE,
                                         NULL_TREE)));
    tree tested = make_temp_ssa_name(boolean_type_node, nullptr, "pathcov_tested");
    add(gimple_build_assign(tested, NE_EXPR, byte,
                            build_int_cst(unsigned_char_type_node, 0)));
    pending(tested, id, NULL_TREE);
  }

  // Cuckoo hashing (core hashSlot): slots (id * K_i) >> shift of the
  // constant table, whose size is 2^(64 - shift), for two or three
  // multipliers; a tested id is in one of them, any other id in none. All
  // the loads, no branch but the miss's: about four instructions a probe
  // whatever the function's size, and where the id is known at compile
  // time the check folds away like a bytemap's.
  void checkHashed(tree id) {
    int bits = 0;
    while ((uint64_t{1} << bits) < tables_.bound)
      ++bits;
    tree shift = build_int_cst(unsigned_type_node, 64 - bits);
    tree tested = NULL_TREE, hitIndex = NULL_TREE;
    for (uint64_t multiplier : tables_.multipliers) {
      tree product = make_temp_ssa_name(pathType(), nullptr, "pathcov_hash");
      add(gimple_build_assign(product, MULT_EXPR, id,
                              build_int_cstu(pathType(), multiplier)));
      tree index = make_temp_ssa_name(pathType(), nullptr, "pathcov_hash");
      add(gimple_build_assign(index, RSHIFT_EXPR, product, shift));
      tree found = holds(index, id);
      if (tested) {
        // count-tested=1: the hit's slot count, at table_size + choices +
        // slot (abi.h), whichever probe hit.
        if (tables_.counted) {
          tree hit = make_temp_ssa_name(pathType(), nullptr, "pathcov_hash");
          add(gimple_build_assign(hit, COND_EXPR, tested, hitIndex, index));
          index = hit;
        }
        tree either = make_temp_ssa_name(boolean_type_node, nullptr, "pathcov_tested");
        add(gimple_build_assign(either, BIT_IOR_EXPR, tested, found));
        found = either;
      }
      hitIndex = index;
      tested = found;
    }
    pending(tested, id,
            tables_.counted ? element(hitIndex, tables_.bound + tables_.multipliers.size())
                            : NULL_TREE);
  }

  void pending(tree tested, tree id, tree count) {
    checks_.push_back({gimple_seq_last_stmt(seq_), tested, id, count, false});
  }

  // counters[index + offset]
  tree element(tree index, uint64_t offset = 0) {
    tree at = index;
    if (offset != 0) {
      at = make_temp_ssa_name(pathType(), nullptr, "pathcov_index");
      add(gimple_build_assign(at, PLUS_EXPR, index, constant(offset)));
    }
    return build4(ARRAY_REF, counterType(), tables_.counters, at, NULL_TREE,
                  NULL_TREE);
  }

  // An index into a table of bound + 1 entries, a power of two (record
  // mode's counters, CheckTable's ids): one AND, never out of bounds.
  tree indexWithin(tree value) {
    tree index = make_temp_ssa_name(pathType(), nullptr, "pathcov_index");
    add(gimple_build_assign(index, BIT_AND_EXPR, value, constant(tables_.bound)));
    return index;
  }

  tree sum(tree reg, int64_t offset, const char *name) {
    tree value = make_temp_ssa_name(pathType(), nullptr, name);
    add(gimple_build_assign(value, PLUS_EXPR, reg, constant(offset)));
    return value;
  }

  void increment(tree ref, tree by) {
    if (TARGET_64BIT && integer_onep(by)) {
      add(buildCountAsm(unshare_expr(ref), atomic_));
      return;
    }
    if (atomic_) {
      tree f = builtin_decl_explicit(BUILT_IN_ATOMIC_FETCH_ADD_8);
      add(gimple_build_call(f, 3, build_fold_addr_expr(ref), by,
                            build_int_cst(integer_type_node, MEMMODEL_RELAXED)));
      return;
    }
    tree old = make_temp_ssa_name(counterType(), nullptr, "pathcov_count");
    add(gimple_build_assign(old, ref));
    tree updated = make_temp_ssa_name(counterType(), nullptr, "pathcov_count");
    add(gimple_build_assign(updated, PLUS_EXPR, old, by));
    add(gimple_build_assign(unshare_expr(ref), updated));
  }

  tree descriptorRef(DescriptorField field) {
    return build3(COMPONENT_REF, counterType(), tables_.descriptor,
                  descriptorField(descriptorType(), field), NULL_TREE);
  }

  void callRuntime(tree decl, tree id) { add(runtimeCall(decl, id)); }

  // The miss of path `id`, in `bb` after `after` (nullptr: bb is empty):
  // on x86-64 one asm statement, the seen slot's test and count, else the
  // call (PathMiss.h); elsewhere the call (no seen slots there:
  // ResidualLowering.cc, Plugin.cc instrumentRecord).
  void insertMiss(basic_block bb, gimple *after, tree id) {
    gimple *miss = nullptr;
    if (TARGET_64BIT)
      miss = buildMissAsm({tables_.descriptor, tables_.seen, tables_.seenSlots,
                           tables_.seenWords, atomic_,
                           tables_.pathEnd == PathEnd::CountHashed
                               ? kRecordMissStub
                               : kResidualMissStub},
                          id);
    else
      miss = runtimeCall(residualPathDecl(), id);
    gimple_stmt_iterator gsi = after ? gsi_for_stmt(after) : gsi_start_bb(bb);
    gsi_insert_after(&gsi, miss, GSI_NEW_STMT);
  }

  gcall *runtimeCall(tree decl, tree id) {
    return gimple_build_call(decl, 2, build_fold_addr_expr(tables_.descriptor),
                             id);
  }

  // var's address as `type`, a value a call can take.
  tree addressAs(tree type, tree var) {
    tree address = make_temp_ssa_name(type, nullptr, "pathcov_address");
    add(gimple_build_assign(address, NOP_EXPR, build_fold_addr_expr(var)));
    return address;
  }

  void add(gimple *stmt) { gimple_seq_add_stmt(&seq_, stmt); }
  static tree constant(int64_t v) { return build_int_cst(pathType(), v); }
  static tree one() { return build_int_cst(counterType(), 1); }

  const FunctionTables &tables_;
  bool atomic_;
  tree ballLarus_ = NULL_TREE;
  tree ppp_ = NULL_TREE;
  tree kState_ = NULL_TREE; // k=N: the activation's k-slab state
  gimple_seq seq_ = nullptr;
  std::vector<PendingCheck> checks_;
};

// Whether a block holds nothing a path end must come after, so that the
// path may as well end on the way in: copies, arithmetic that cannot trap,
// clobbers, hints, and a return (the statements GCC's function splitting
// accepts in the return block it splits at, ipa-split.cc find_return_bb;
// no call, no store, nothing that can trap).
bool holdsNoEvent(basic_block bb) {
  for (gimple_stmt_iterator gsi = gsi_after_labels(bb); !gsi_end_p(gsi);
       gsi_next(&gsi)) {
    gimple *stmt = gsi_stmt(gsi);
    switch (gimple_code(stmt)) {
    case GIMPLE_DEBUG:
    case GIMPLE_PREDICT:
    case GIMPLE_NOP:
    case GIMPLE_RETURN:
      continue;
    case GIMPLE_ASSIGN:
      if (gimple_clobber_p(stmt) ||
          (!gimple_has_side_effects(stmt) && !gimple_could_trap_p(stmt) &&
           !gimple_vdef(stmt)))
        continue;
      return false;
    default:
      return false;
    }
  }
  return true;
}

// A path end that goes on the edges into a block instead of in it: at
// DAG edge `end` (into EXIT), the id the registers plus `offset` on the
// way in.
struct EntryPathEnd {
  DagEdgeId end = kNoId;
  RegisterIncrement offset;
};

// The registers wrap (Chords.h): so do sums of increments.
RegisterIncrement wrappingSum(RegisterIncrement a, RegisterIncrement b) {
  return {int64_t(uint64_t(a.ballLarus) + uint64_t(b.ballLarus)),
          int64_t(uint64_t(a.ppp) + uint64_t(b.ppp))};
}

// A return entered by more routes keeps its path end where the path end is
// more than a count: a check on each of pcre2's many routes into match()'s
// return cost more than it folded (residual (a) Ir +4.7%: the function
// grew, its registers spilled). Record mode's inline count is one
// instruction: no limit (bzip2's record Ir -3.6% without it). Only the
// routes that need a check count: those some untested path takes.
constexpr unsigned kMaxCheckedEntries = 8;

// A latch's path end goes on the routes in when one needs no check, or
// when at most this many do, each then with an id of its own that may
// fold: bzip2 residual (a) 606.7M -> 599.4M Ir with 2 (603.7M with 1, the
// same with 4 and 8), for 1.2 KB more code; with no limit sqlite's text
// grew 32 KB and its Ir did not fall.
constexpr unsigned kMaxLatchChecks = 2;


// Per block, its path end where it goes on the edges in (end kNoId: it
// does not). Each route in then ends its path at its own id, often a
// constant that folds a residual check away.
// - A factored computed goto (GCC gives a function one block, `goto *x`,
//   that every computed goto of its source jumps to): lua's luaV_execute
//   ends every opcode's path there; the block is left the bare jump that
//   GCC copies back into each route as without pathcov.
// - A return block, and the blocks that lead only to it, holding no event
//   (holdsNoEvent), each entered by at most kMaxCheckedEntries edges
//   unless the path end is an inline count:
//   `return c ? a : b;` joins its routes before the return. The path
//   register is then not live into the return block, so function
//   splitting can still split a function there, and partial inlining
//   inline its head, as without pathcov (a path end in the block made GCC
//   give up: sqlite3.c had 74 functions split plain, 0 in record mode).
// - Residual mode: a loop's latch, and the blocks that lead only to it,
//   holding no event: each route in is checked only if some untested path
//   takes it (everyPathTested), so an interpreter's opcodes that the tests
//   ran every way through end their iteration with no check at all (see
//   kMaxLatchChecks).
// The last two not where every path end misses (an untested function).
// Only blocks entered by DAG edges alone.
std::vector<EntryPathEnd> pathEndsOnEntries(const GimpleCfg &g, const Dag &dag,
                                            const ChordPlacement &chords,
                                            const FunctionTables &tables) {
  const BlockId n = g.cfg.numBlocks();
  const bool counting = tables.pathEnd == PathEnd::CountInline;
  // Record mode keeps a latch's count on its back edge: on the routes in,
  // bzip2's record Ir changed by 0.2%, pcre2's grew 0.5% (match(), whose
  // paths are counted in the runtime's table).
  const bool recording = counting || tables.pathEnd == PathEnd::CountHashed;
  std::vector<bool> enteredByDagEdges(n, true);
  // Per block, the entries a path end there would give code (history=N
  // records every path, tested or not).
  std::vector<unsigned> checkedEntries(n, 0);
  for (EdgeId id = 0; id < g.edgeOf.size(); ++id) {
    const CfgEdgeRole role = dag.cfgEdgeRole[id];
    const BlockId dst = g.cfg.edge(id).dst;
    if (role != CfgEdgeRole::InDag && role != CfgEdgeRole::Unreachable)
      enteredByDagEdges[dst] = false;
    if (!counting &&
        (tables.history || !everyPathTested(tables, dag.dagEdgeOfCfgEdge[id])))
      ++checkedEntries[dst];
  }
  const auto eligible = [&](BlockId b) {
    return dag.reachable[b] && b != g.cfg.entry() && b != g.cfg.exit() &&
           enteredByDagEdges[b];
  };
  std::vector<EntryPathEnd> onEntries(n);
  // An untested or stale function's every path end misses: on the routes
  // in, nothing folds, and each route gets a miss of its own (zlib's
  // residual (a) text and data 2.4% larger, sqlite3's 4.0%, Ir the same).
  // Its computed goto's path end still goes on them, for the bare jump.
  const bool everyEndMisses = tables.pathEnd == PathEnd::Residual && !tables.history;
  // Whether a block's path end on its entries is a latch's: a dummy into
  // EXIT, as a computed goto's is, but from a block with a normal successor.
  const auto toLatch = [&](BlockId b) {
    const DagEdgeId end = onEntries[b].end;
    return end != kNoId && dag.edges[end].role == DagEdgeRole::PathEnd &&
           g.abnormalRole[dag.edges[end].src] == AbnormalRole::None;
  };
  for (BlockId b = 0; b < n; ++b) {
    if (!eligible(b) || g.abnormalRole[b] != AbnormalRole::NoNormalSuccessor ||
        dag.pathEnd[b] == kNoId)
      continue;
    gimple_stmt_iterator gsi = gsi_after_labels(g.blockOf[b]);
    while (!gsi_end_p(gsi) && is_gimple_debug(gsi_stmt(gsi)))
      gsi_next(&gsi);
    if (!gsi_end_p(gsi) && gsi_stmt(gsi) == last_stmt(g.blockOf[b]) &&
        gimple_code(gsi_stmt(gsi)) == GIMPLE_GOTO &&
        computed_goto_p(gsi_stmt(gsi)))
      onEntries[b] = {dag.pathEnd[b], chords.increment[dag.pathEnd[b]]};
  }
  // From EXIT back, so that a block's successor is settled before it: a
  // block of a chain has one DAG edge out, into EXIT or the chain's next.
  for (BlockId b : dag.reverseTopologicalOrder()) {
    if (everyEndMisses || !eligible(b) || g.abnormalRole[b] != AbnormalRole::None ||
        g.cfg.succs(b).size() != 1 || checkedEntries[b] > kMaxCheckedEntries ||
        !holdsNoEvent(g.blockOf[b]))
      continue;
    const EdgeId out = g.cfg.succs(b).front();
    if (dag.cfgEdgeRole[out] == CfgEdgeRole::BackEdge && !recording) {
      onEntries[b] = {dag.pathEnd[b], chords.increment[dag.pathEnd[b]]};
      continue;
    }
    if (dag.pathEnd[b] != kNoId || dag.cfgEdgeRole[out] != CfgEdgeRole::InDag)
      continue;
    const DagEdgeId edge = dag.dagEdgeOfCfgEdge[out];
    const RegisterIncrement step = chords.increment[edge];
    const BlockId next = g.cfg.edge(out).dst;
    const EntryPathEnd &rest = onEntries[next];
    if (next == g.cfg.exit())
      onEntries[b] = {edge, step};
    else if (rest.end != kNoId && g.abnormalRole[next] == AbnormalRole::None)
      onEntries[b] = {rest.end, wrappingSum(step, rest.offset)};
  }
  // A latch's path end stays on its back edge unless a route in needs no
  // check (one of the entries that would get it, from outside the blocks
  // that lead to the latch, is tested), or at most kMaxLatchChecks do:
  // otherwise its one check would become one per entry.
  std::vector<bool> gains(dag.edges.size(), false); // per latch's end
  std::vector<unsigned> checks(dag.edges.size(), 0);
  for (EdgeId id = 0; id < g.edgeOf.size(); ++id) {
    const CfgEdge &e = g.cfg.edge(id);
    if (!toLatch(e.dst) || onEntries[e.src].end != kNoId)
      continue;
    if (!tables.history && everyPathTested(tables, dag.dagEdgeOfCfgEdge[id]))
      gains[onEntries[e.dst].end] = true;
    else
      ++checks[onEntries[e.dst].end];
  }
  for (BlockId b = 0; b < n; ++b)
    if (toLatch(b) && !gains[onEntries[b].end] &&
        checks[onEntries[b].end] > kMaxLatchChecks)
      onEntries[b] = {};
  return onEntries;
}

} // namespace

bool pathsFollowPaths(const GimpleCfg &g, const Dag &dag) {
  for (EdgeId id = 0; id < g.edgeOf.size(); ++id) {
    const CfgEdge &e = g.cfg.edge(id);
    if (dag.cfgEdgeRole[id] == CfgEdgeRole::BackEdge ||
        (g.abnormalRole[e.src] == AbnormalRole::NoNormalSuccessor &&
         e.dst != g.cfg.exit() && dag.reachable[e.src]))
      return true;
  }
  return false;
}

InstrumentedPaths instrumentPaths(const GimpleCfg &g,
                                       const NumberedDag &numbered,
                                       const ChordPlacement &chords,
                                       const FunctionTables &tables,
                                       const PluginOptions &options) {
  const Dag &dag = numbered.dag;
  CodeBuilder code(tables, options.atomic);

  const auto increment = [&](DagEdgeId e) {
    return e == kNoId ? RegisterIncrement{} : chords.increment[e];
  };
  const auto endOf = [&](BlockId b) { return increment(dag.pathEnd[b]); };
  const auto startOf = [&](BlockId b) { return increment(dag.pathStart[b]); };
  const auto isSetjmp = [&](BlockId b) {
    return g.abnormalRole[b] == AbnormalRole::SetjmpReceiver;
  };
  // In memory, so that it keeps its value across longjmp.
  tree setjmpFlag = NULL_TREE;
  if (!g.setjmpBlocks.empty()) {
    setjmpFlag = create_tmp_var(
        build_qualified_type(unsigned_char_type_node, TYPE_QUAL_VOLATILE),
        "pathcov_setjmp");
    TREE_THIS_VOLATILE(setjmpFlag) = 1;
    // As the C front end marks a volatile variable: never a register.
    TREE_SIDE_EFFECTS(setjmpFlag) = 1;
  }

  const std::vector<EntryPathEnd> onEntries =
      pathEndsOnEntries(g, dag, chords, tables);
  uint64_t testedRoutes = 0;
  // Code on edges. ENTRY's single edge first starts the first path.
  for (EdgeId id = 0; id < g.edgeOf.size(); ++id) {
    const CfgEdge &e = g.cfg.edge(id);
    const CfgEdgeRole role = dag.cfgEdgeRole[id];
    if (role == CfgEdgeRole::Unreachable || role == CfgEdgeRole::Abnormal)
      continue;
    if (e.src == g.cfg.entry()) {
      if (tables.calls)
        code.countCall();
      code.setRegisters({});
      code.breakSequence();
    }
    if (role == CfgEdgeRole::BackEdge || role == CfgEdgeRole::Cut) {
      // A setjmp block's path was counted on the way in (see below).
      if (isSetjmp(e.src))
        code.leaveSetjmp(setjmpFlag);
      else if (onEntries[e.src].end == kNoId)
        code.endPath(endOf(e.src), dag.pathEnd[e.src]);
      // A back edge goes on with the loop's next iteration; a cut (a
      // setjmp call's among them, whichever return this is) breaks the
      // activation's sequence of paths.
      if (role == CfgEdgeRole::Cut || isSetjmp(e.src))
        code.breakSequence();
      code.setRegisters(startOf(e.dst));
    } else if (role == CfgEdgeRole::InDag &&
               onEntries[e.src].end == kNoId) {
      // (An edge out of a block whose path ended on the way in: nothing.)
      const DagEdgeId dagEdge = dag.dagEdgeOfCfgEdge[id];
      code.addToRegisters(increment(dagEdge));
      if (e.dst == g.cfg.exit())
        code.endPath({}, dagEdge);
      if (const EntryPathEnd &at = onEntries[e.dst]; at.end != kNoId) {
        testedRoutes += code.endPath(at.offset, at.end, dagEdge);
        // A computed goto's target starts a path of its own.
        if (g.abnormalRole[e.dst] == AbnormalRole::NoNormalSuccessor)
          code.setRegisters({});
      }
    }
    // A path ends before every setjmp call: a second return from it then
    // starts a clean path on the way out.
    if (isSetjmp(e.dst)) {
      code.endPath(endOf(e.dst), dag.pathEnd[e.dst]);
      code.enterSetjmp(setjmpFlag);
    }
    if (gimple_seq seq = code.take())
      gsi_insert_seq_on_edge(g.edgeOf[id], seq);
  }

  // Code inside blocks, where no edge can carry it.
  for (BlockId b = 0; b < g.cfg.numBlocks(); ++b) {
    if (!dag.reachable[b])
      continue;
    basic_block bb = g.blockOf[b];
    if (g.abnormalRole[b] == AbnormalRole::NoNormalSuccessor &&
        dag.pathEnd[b] != kNoId && onEntries[b].end == kNoId) {
      // noreturn call, computed goto, resx out of the function: the path
      // ends here; a jump to another block of this function starts a path
      // at 0 there (the spanning tree made sure of that).
      code.endPath(endOf(b), dag.pathEnd[b]);
      code.setRegisters({});
      gimple_stmt_iterator gsi = gsi_last_bb(bb);
      if (gsi_end_p(gsi))
        gsi_insert_seq_after(&gsi, code.take(), GSI_NEW_STMT);
      else if (stmt_ends_bb_p(gsi_stmt(gsi)) || is_gimple_call(gsi_stmt(gsi)))
        gsi_insert_seq_before(&gsi, code.take(), GSI_SAME_STMT);
      else
        gsi_insert_seq_after(&gsi, code.take(), GSI_NEW_STMT);
    } else if (g.abnormalRole[b] == AbnormalRole::None &&
               dag.enteredAbnormally[b] && enteredOnlyAbnormally(bb)) {
      // Entered through the dispatcher: a nonlocal goto's receiver. (A
      // computed goto's target is entered from the goto's own block.)
      edge pred;
      edge_iterator ei;
      FOR_EACH_EDGE(pred, ei, bb->preds)
        if (g.abnormalRole[g.idOf(pred->src)] == AbnormalRole::Dispatcher) {
          // A nonlocal goto's landing: the path it left was abandoned,
          // and its sequence with it. (A computed goto's target goes on
          // with the sequence.)
          code.countResume();
          code.breakSequence();
          break;
        }
      code.setRegisters({});
      gimple_stmt_iterator gsi = gsi_after_labels(bb);
      gsi_insert_seq_before(&gsi, code.take(), GSI_SAME_STMT);
    }
  }
  gsi_commit_edge_inserts();
  return {code.insertCheckBranches(), testedRoutes};
}

} // namespace pathcov
