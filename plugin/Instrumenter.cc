#include "Instrumenter.h"

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

// Builds the statements of one insertion point.
class CodeBuilder {
public:
  CodeBuilder(tree reg, const FunctionTables &tables, uint64_t numPaths,
              bool atomic)
      : reg_(reg), tables_(tables), numPaths_(numPaths), atomic_(atomic) {}

  void setRegister(int64_t value) {
    gimple_seq_add_stmt(&seq_, gimple_build_assign(reg_, constant(value)));
  }

  void addToRegister(int64_t increment) {
    if (increment != 0)
      gimple_seq_add_stmt(&seq_, gimple_build_assign(reg_, PLUS_EXPR, reg_,
                                                     constant(increment)));
  }

  // Counts the path whose id is register + offset.
  void countPath(int64_t offset) {
    tree id = make_temp_ssa_name(pathType(), nullptr, "pathcov_id");
    gimple_seq_add_stmt(&seq_, gimple_build_assign(id, PLUS_EXPR, reg_,
                                                   constant(offset)));
    if (!tables_.counters) {
      gimple_seq_add_stmt(
          &seq_, gimple_build_call(recordPathDecl(), 2,
                                   build_fold_addr_expr(tables_.descriptor), id));
      return;
    }
    // An id out of range (a pathcov bug) lands in the extra last counter
    // the runtime reports: branch-free and never out of bounds.
    tree index = make_temp_ssa_name(pathType(), nullptr, "pathcov_index");
    gimple_seq_add_stmt(&seq_, gimple_build_assign(
                                   index, MIN_EXPR, id,
                                   build_int_cst(pathType(), numPaths_)));
    increment(build4(ARRAY_REF, counterType(), tables_.counters, index,
                     NULL_TREE, NULL_TREE));
  }

  void countCall() {
    tree type = descriptorType();
    tree calls = build3(COMPONENT_REF, counterType(), tables_.descriptor,
                        descriptorField(type, DescriptorField::Calls),
                        NULL_TREE);
    increment(calls);
  }

  gimple_seq take() {
    gimple_seq seq = seq_;
    seq_ = nullptr;
    return seq;
  }

private:
  void increment(tree ref) {
    tree one = build_int_cst(counterType(), 1);
    if (atomic_) {
      tree f = builtin_decl_explicit(BUILT_IN_ATOMIC_FETCH_ADD_8);
      gimple_seq_add_stmt(
          &seq_, gimple_build_call(f, 3, build_fold_addr_expr(ref), one,
                                   build_int_cst(integer_type_node,
                                                 MEMMODEL_RELAXED)));
      return;
    }
    tree old = make_temp_ssa_name(counterType(), nullptr, "pathcov_count");
    gimple_seq_add_stmt(&seq_, gimple_build_assign(old, ref));
    tree updated = make_temp_ssa_name(counterType(), nullptr, "pathcov_count");
    gimple_seq_add_stmt(&seq_,
                        gimple_build_assign(updated, PLUS_EXPR, old, one));
    gimple_seq_add_stmt(&seq_, gimple_build_assign(unshare_expr(ref), updated));
  }

  static tree constant(int64_t v) { return build_int_cst(pathType(), v); }

  tree reg_;
  const FunctionTables &tables_;
  uint64_t numPaths_;
  bool atomic_;
  gimple_seq seq_ = nullptr;
};

} // namespace

void instrumentPaths(const GimpleCfg &g, const NumberedDag &numbered,
                     const ChordPlacement &chords,
                     const FunctionTables &tables,
                     const PluginOptions &options) {
  const Dag &dag = numbered.dag;
  tree reg = create_tmp_var(pathType(), "pathcov_path");
  suppress_warning(reg);
  CodeBuilder code(reg, tables, numbered.ballLarus.totalPaths, options.atomic);

  const auto increment = [&](DagEdgeId e) {
    return e == kNoId ? 0 : chords.increment[e].ballLarus;
  };
  const auto endOf = [&](BlockId b) { return increment(dag.pathEnd[b]); };
  const auto startOf = [&](BlockId b) { return increment(dag.pathStart[b]); };
  const auto isSetjmp = [&](BlockId b) {
    return g.abnormalRole[b] == AbnormalRole::SetjmpReceiver;
  };

  // Code on edges. ENTRY's single edge first starts the first path.
  for (EdgeId id = 0; id < g.edgeOf.size(); ++id) {
    const CfgEdge &e = g.cfg.edge(id);
    const CfgEdgeRole role = dag.cfgEdgeRole[id];
    if (role == CfgEdgeRole::Unreachable || role == CfgEdgeRole::Abnormal)
      continue;
    if (e.src == g.cfg.entry()) {
      code.countCall();
      code.setRegister(0);
    }
    if (role == CfgEdgeRole::BackEdge || role == CfgEdgeRole::Cut) {
      // A setjmp block's path was counted on the way in (see below).
      if (!isSetjmp(e.src))
        code.countPath(endOf(e.src));
      code.setRegister(startOf(e.dst));
    } else if (role == CfgEdgeRole::InDag) {
      code.addToRegister(increment(dag.dagEdgeOfCfgEdge[id]));
      if (e.dst == g.cfg.exit())
        code.countPath(0);
    }
    // A path ends before every setjmp call: a second return from it then
    // starts a clean path on the way out.
    if (isSetjmp(e.dst))
      code.countPath(endOf(e.dst));
    if (gimple_seq seq = code.take())
      gsi_insert_seq_on_edge(g.edgeOf[id], seq);
  }

  // Code inside blocks, where no edge can carry it.
  for (BlockId b = 0; b < g.cfg.numBlocks(); ++b) {
    if (!dag.reachable[b])
      continue;
    basic_block bb = g.blockOf[b];
    if (g.abnormalRole[b] == AbnormalRole::NoNormalSuccessor &&
        dag.pathEnd[b] != kNoId) {
      // noreturn call, computed goto, resx out of the function: the path
      // ends here; a jump to another block of this function starts a path
      // at 0 there (the spanning tree made sure of that).
      code.countPath(endOf(b));
      code.setRegister(0);
      gimple_stmt_iterator gsi = gsi_last_bb(bb);
      if (gsi_end_p(gsi))
        gsi_insert_seq_after(&gsi, code.take(), GSI_NEW_STMT);
      else if (stmt_ends_bb_p(gsi_stmt(gsi)) || is_gimple_call(gsi_stmt(gsi)))
        gsi_insert_seq_before(&gsi, code.take(), GSI_SAME_STMT);
      else
        gsi_insert_seq_after(&gsi, code.take(), GSI_NEW_STMT);
    } else if (g.abnormalRole[b] == AbnormalRole::None &&
               dag.enteredAbnormally[b] && enteredOnlyAbnormally(bb)) {
      code.setRegister(0);
      gimple_stmt_iterator gsi = gsi_after_labels(bb);
      gsi_insert_seq_before(&gsi, code.take(), GSI_SAME_STMT);
    }
  }
  gsi_commit_edge_inserts();
}

} // namespace pathcov
