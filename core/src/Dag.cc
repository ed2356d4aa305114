#include "pathcov/core/Dag.h"

#include "pathcov/core/Checked.h"
#include "pathcov/core/Fnv1a.h"

#include <algorithm>
#include <string>
#include <utility>

namespace pathcov {

const char *dagEdgeRoleName(DagEdgeRole role) {
  switch (role) {
  case DagEdgeRole::Cfg:
    return "cfg";
  case DagEdgeRole::PathStart:
    return "path_start";
  case DagEdgeRole::PathEnd:
    return "path_end";
  }
  return "?";
}

const char *cfgEdgeRoleName(CfgEdgeRole role) {
  switch (role) {
  case CfgEdgeRole::InDag:
    return "dag";
  case CfgEdgeRole::BackEdge:
    return "back_edge";
  case CfgEdgeRole::Abnormal:
    return "abnormal";
  case CfgEdgeRole::Fake:
    return "fake";
  case CfgEdgeRole::Cut:
    return "cut";
  case CfgEdgeRole::Unreachable:
    return "unreachable";
  }
  return "?";
}

namespace {

bool leavesDag(EdgeKind kind) {
  return kind == EdgeKind::Abnormal || kind == EdgeKind::Fake;
}

// Depth-first search over the edges that can stay in the DAG, from ENTRY
// and then from every block a path can start at without coming from ENTRY
// (targets of abnormal and fake edges of blocks already reached). An edge
// to a block still on the DFS stack is a back edge; removing all of them
// leaves a DAG, whether the loops are reducible or not.
class BackEdgeSearch {
public:
  explicit BackEdgeSearch(const Cfg &cfg)
      : cfg_(cfg), state_(cfg.numBlocks(), State::Unvisited),
        isBackEdge_(cfg.edges().size(), false) {}

  void run() {
    visitFrom(cfg_.entry());
    for (bool grew = true; grew;) {
      grew = false;
      for (const CfgEdge &e : cfg_.edges())
        if (leavesDag(e.kind) && state_[e.src] != State::Unvisited &&
            state_[e.dst] == State::Unvisited) {
          visitFrom(e.dst);
          grew = true;
        }
    }
  }

  bool reached(BlockId b) const { return state_[b] != State::Unvisited; }
  bool isBackEdge(EdgeId e) const { return isBackEdge_[e]; }

private:
  enum class State : uint8_t { Unvisited, OnStack, Done };

  void visitFrom(BlockId root) {
    // Iterative: GCC functions can have tens of thousands of blocks.
    std::vector<std::pair<BlockId, size_t>> stack{{root, 0}};
    state_[root] = State::OnStack;
    while (!stack.empty()) {
      auto &[block, next] = stack.back();
      const std::vector<EdgeId> &succs = cfg_.succs(block);
      if (next == succs.size()) {
        state_[block] = State::Done;
        stack.pop_back();
        continue;
      }
      const EdgeId id = succs[next++];
      const CfgEdge &e = cfg_.edge(id);
      if (leavesDag(e.kind))
        continue;
      if (state_[e.dst] == State::OnStack) {
        isBackEdge_[id] = true;
      } else if (state_[e.dst] == State::Unvisited) {
        state_[e.dst] = State::OnStack;
        stack.emplace_back(e.dst, 0);
      }
    }
  }

  const Cfg &cfg_;
  std::vector<State> state_;
  std::vector<bool> isBackEdge_;
};

CfgEdgeRole classify(const Cfg &cfg, const BackEdgeSearch &search,
                     const std::vector<bool> &isCut, EdgeId id) {
  const CfgEdge &e = cfg.edge(id);
  if (!search.reached(e.src))
    return CfgEdgeRole::Unreachable;
  if (e.kind == EdgeKind::Abnormal)
    return CfgEdgeRole::Abnormal;
  if (e.kind == EdgeKind::Fake)
    return CfgEdgeRole::Fake;
  if (search.isBackEdge(id))
    return CfgEdgeRole::BackEdge;
  if (isCut[e.src] && e.dst != cfg.exit())
    return CfgEdgeRole::Cut;
  return CfgEdgeRole::InDag;
}

} // namespace

Dag buildDag(const Cfg &cfg, const std::vector<BlockId> &cuts) {
  const uint32_t n = cfg.numBlocks();
  const BlockId entry = cfg.entry();
  const BlockId exit = cfg.exit();
  std::vector<bool> isCut(n, false);
  for (BlockId b : cuts) {
    if (b >= n || b == entry || b == exit)
      throw GraphError("cannot cut block " + std::to_string(b));
    isCut[b] = true;
  }

  BackEdgeSearch search(cfg);
  search.run();

  Dag dag;
  dag.entry = entry;
  dag.exit = exit;
  dag.out.resize(n);
  dag.pathStart.assign(n, kNoId);
  dag.pathEnd.assign(n, kNoId);
  dag.reachable.resize(n);
  dag.enteredAbnormally.assign(n, false);
  dag.cfgEdgeRole.resize(cfg.edges().size());
  dag.dagEdgeOfCfgEdge.assign(cfg.edges().size(), kNoId);
  dag.cuts = cuts;
  for (BlockId b = 0; b < n; ++b)
    dag.reachable[b] = search.reached(b);
  // Every path ends there, even when no CFG edge does.
  dag.reachable[exit] = true;

  std::vector<bool> endsPath(n, false), startsPath(n, false);
  // How often paths end in each block: the frequencies of the edges that
  // end them there (for the spanning tree, see Dag.h).
  std::vector<uint64_t> endFrequency(n, 0);
  for (EdgeId id = 0; id < cfg.edges().size(); ++id) {
    const CfgEdgeRole role = classify(cfg, search, isCut, id);
    dag.cfgEdgeRole[id] = role;
    if (role == CfgEdgeRole::InDag || role == CfgEdgeRole::Unreachable)
      continue;
    const CfgEdge &e = cfg.edge(id);
    if (e.src != entry) {
      endsPath[e.src] = true;
      endFrequency[e.src] = saturatingAdd(endFrequency[e.src], e.frequency);
    }
    if (e.dst != exit) {
      startsPath[e.dst] = true;
      if (role == CfgEdgeRole::Abnormal || role == CfgEdgeRole::Fake)
        dag.enteredAbnormally[e.dst] = true;
    }
  }

  const auto addEdge = [&dag](BlockId src, BlockId dst, DagEdgeRole role,
                              EdgeId cfgEdge, uint64_t frequency) {
    const auto id = static_cast<DagEdgeId>(dag.edges.size());
    dag.edges.push_back({src, dst, role, cfgEdge, frequency});
    dag.out[src].push_back(id);
    return id;
  };

  for (BlockId b = 0; b < n; ++b) {
    if (!dag.reachable[b] || b == exit)
      continue;
    for (EdgeId id : cfg.succs(b))
      if (dag.cfgEdgeRole[id] == CfgEdgeRole::InDag)
        dag.dagEdgeOfCfgEdge[id] = addEdge(b, cfg.edge(id).dst,
                                           DagEdgeRole::Cfg, id,
                                           cfg.edge(id).frequency);
    if (b == entry) {
      for (BlockId w = 0; w < n; ++w)
        if (startsPath[w])
          dag.pathStart[w] = addEdge(entry, w, DagEdgeRole::PathStart,
                                     kNoId, 0);
    }
    // A block left with no way on (noreturn call without a fake edge,
    // __builtin_unreachable) ends its paths, as a fake edge to EXIT would.
    const bool deadEnd = dag.out[b].empty();
    if (endsPath[b] || deadEnd)
      dag.pathEnd[b] = addEdge(b, exit, DagEdgeRole::PathEnd, kNoId,
                               endFrequency[b]);
  }
  return dag;
}

std::vector<BlockId> Dag::reverseTopologicalOrder() const {
  // DFS postorder from ENTRY: a node is emitted after all its successors.
  std::vector<BlockId> order;
  std::vector<bool> seen(numNodes(), false);
  std::vector<std::pair<BlockId, size_t>> stack{{entry, 0}};
  seen[entry] = true;
  while (!stack.empty()) {
    auto &[node, next] = stack.back();
    if (next == out[node].size()) {
      order.push_back(node);
      stack.pop_back();
      continue;
    }
    const BlockId succ = edges[out[node][next++]].dst;
    if (!seen[succ]) {
      seen[succ] = true;
      stack.emplace_back(succ, 0);
    }
  }
  return order;
}

namespace {

// computeBLIncrements' loop, stopping at the first block (in reverse
// topological order) other than ENTRY whose path count passes `limit` or 64
// bits, unless the block is cut already: cutting cannot bring it lower.
struct LimitCheck {
  BlockId over = kNoId; // the block that stopped the loop
  bool overflow = false; // some count passed 64 bits
};

LimitCheck numberUntilOverLimit(const Dag &dag, uint64_t limit,
                                BallLarusNumbering &bl) {
  std::vector<bool> isCut(dag.numNodes(), false);
  for (BlockId b : dag.cuts)
    isCut[b] = true;
  bl.numPaths.assign(dag.numNodes(), 0);
  bl.value.assign(dag.edges.size(), 0);
  LimitCheck check;
  for (BlockId v : dag.reverseTopologicalOrder()) {
    uint64_t paths = v == dag.exit ? 1 : 0;
    bool overflow = false;
    for (DagEdgeId e : dag.out[v]) {
      bl.value[e] = paths;
      paths = saturatingAdd(paths, bl.numPaths[dag.edges[e].dst], overflow);
    }
    bl.numPaths[v] = paths;
    check.overflow |= overflow;
    if ((overflow || paths > limit) && v != dag.entry && !isCut[v]) {
      check.over = v;
      return check;
    }
  }
  bl.totalPaths = bl.numPaths[dag.entry];
  return check;
}

} // namespace

BallLarusNumbering computeBLIncrements(const Dag &dag, uint64_t limit) {
  BallLarusNumbering bl;
  const LimitCheck check = numberUntilOverLimit(dag, limit, bl);
  if (check.over != kNoId)
    throw NumberingOverflow("block " + std::to_string(check.over) +
                            " has more than " + std::to_string(limit) +
                            " paths");
  if (check.overflow || bl.totalPaths > limit)
    throw NumberingOverflow("the function has more than " +
                            std::to_string(limit) + " paths");
  return bl;
}

NumberedDag numberBallLarus(const Cfg &cfg, uint64_t pathLimit,
                            const std::vector<BlockId> &forcedCuts) {
  if (pathLimit < 1)
    throw std::invalid_argument("the path limit must be at least 1");
  // Cut inner blocks at `innerLimit`. Dummy edges from ENTRY to the cut
  // blocks' successors add up at ENTRY; while ENTRY's total passes the
  // limit, halve the inner limit and cut again from scratch.
  for (uint64_t innerLimit = pathLimit;; innerLimit /= 2) {
    std::vector<BlockId> cuts = forcedCuts;
    for (;;) {
      NumberedDag result{buildDag(cfg, cuts), {}};
      const LimitCheck check =
          numberUntilOverLimit(result.dag, innerLimit, result.ballLarus);
      if (check.over == kNoId) {
        if (!check.overflow && result.ballLarus.totalPaths <= pathLimit)
          return result;
        break;
      }
      cuts.push_back(check.over);
    }
    if (innerLimit == 1)
      throw NumberingOverflow("the function cannot be numbered within a path "
                              "limit of " +
                              std::to_string(pathLimit));
  }
}

PathCount countAcyclicPaths(const Cfg &cfg) {
  // A block past 64 bits is reached from ENTRY, so ENTRY overflows too:
  // stopping there loses nothing.
  BallLarusNumbering bl;
  const LimitCheck check = numberUntilOverLimit(buildDag(cfg), UINT64_MAX, bl);
  PathCount count;
  count.saturated = check.over != kNoId || check.overflow;
  count.count = count.saturated ? UINT64_MAX : bl.totalPaths;
  return count;
}

uint64_t numberingChecksum(const Cfg &cfg, const std::vector<BlockId> &cuts,
                           const std::vector<BlockId> &forcedCuts) {
  std::vector<BlockId> byLimit;
  for (BlockId b : cuts)
    if (std::find(forcedCuts.begin(), forcedCuts.end(), b) == forcedCuts.end())
      byLimit.push_back(b);
  if (byLimit.empty())
    return cfg.checksum();
  Fnv1a h;
  h.addWord(cfg.checksum());
  h.addWord(byLimit.size());
  for (BlockId b : byLimit)
    h.addWord(b);
  return h.value();
}

} // namespace pathcov
