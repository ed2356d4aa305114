// Property tests for the core over thousands of random CFGs (RandomCfg.h):
// DAG conversion, Ball-Larus numbering, regeneration, event counting, PPP,
// cuts, checked arithmetic.
//
// Every random graph comes from a fixed seed. A failing graph is reported
// with its seed and edge list, and again after minimisation; the edge lists
// are parseCfg's format, so a reproducer can be pasted into a test.
#include "RandomCfg.h"

#include "pathcov/core/Cfg.h"
#include "pathcov/core/Checked.h"
#include "pathcov/core/Chords.h"
#include "pathcov/core/Dag.h"
#include "pathcov/core/Paths.h"
#include "pathcov/core/Ppp.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <tuple>
#include <sstream>
#include <string>
#include <typeinfo>
#include <vector>

using namespace pathcov;
using pathcov::test::describeCfg;
using pathcov::test::minimizeCfg;
using pathcov::test::parseCfg;
using pathcov::test::randomCfg;
using pathcov::test::RandomCfgOptions;

namespace {

// ---------------------------------------------------------------------------
// The harness: a property is a function of a graph (and a seed for its own
// random choices) that returns "" when it holds, else what went wrong.

// Fails the property with the condition's text and a message, which is
// streamed and must start with a string literal ("" << x if need be).
#define PROP(cond, ...)                                                        \
  do {                                                                         \
    if (!(cond)) {                                                             \
      std::ostringstream prop_os_;                                             \
      prop_os_ << "(" #cond ") is false: " __VA_ARGS__;                        \
      return prop_os_.str();                                                   \
    }                                                                          \
  } while (0)

// Runs `expr`, which must throw `Exception`.
#define PROP_THROWS(expr, Exception, ...)                                      \
  do {                                                                         \
    bool prop_threw_ = false;                                                  \
    try {                                                                      \
      (void)(expr);                                                            \
    } catch (const Exception &) {                                              \
      prop_threw_ = true;                                                      \
    }                                                                          \
    PROP(prop_threw_, #expr " did not throw " #Exception ". " __VA_ARGS__);    \
  } while (0)

// Runs a property's sub-check and passes its failure on.
#define PROP_CHECK(call)                                                       \
  do {                                                                         \
    std::string prop_failure_ = (call);                                        \
    if (!prop_failure_.empty())                                                \
      return prop_failure_;                                                    \
  } while (0)

// Counters reported at the end of each test ("graphs", "paths", ...).
class Stats {
public:
  void add(const std::string &what, uint64_t n = 1) { counts_[what] += n; }
  void print(const std::string &test) const {
    std::cout << "[  stats   ] " << test << ":";
    for (const auto &[what, n] : counts_)
      std::cout << ' ' << what << '=' << n;
    std::cout << std::endl;
  }

private:
  std::map<std::string, uint64_t> counts_;
};

// nullptr while minimising: the counts are for the graphs drawn.
void tally(Stats *stats, const std::string &what, uint64_t n = 1) {
  if (stats)
    stats->add(what, n);
}

using Property =
    std::function<std::string(const Cfg &, uint64_t seed, Stats *stats)>;

std::string runProperty(const Property &property, const Cfg &cfg,
                        uint64_t seed, Stats *stats) {
  try {
    return property(cfg, seed, stats);
  } catch (const std::exception &e) {
    return std::string("unexpected exception ") + typeid(e).name() + ": " +
           e.what();
  }
}

// What a failure is about: its condition, or the exception's type.
std::string failureKey(const std::string &failure) {
  const auto colon = failure.find(": ");
  return failure.substr(0, colon);
}

// Reports a failing graph, with a minimised reproducer of the same failure.
void reportFailure(const Property &property, const Cfg &cfg, uint64_t seed,
                   const std::string &failure) {
  const std::string key = failureKey(failure);
  const Cfg small = minimizeCfg(cfg, [&](const Cfg &c) {
    return failureKey(runProperty(property, c, seed, nullptr)) == key;
  });
  ADD_FAILURE() << "seed " << seed << "\n  graph: " << describeCfg(cfg)
                << "\n  " << failure << "\n  minimised: " << describeCfg(small)
                << "\n  " << runProperty(property, small, seed, nullptr);
}

// PATHCOV_PROPERTY_SURVEY=1: count every failing graph (in the stats, as
// "FAILING") instead of stopping after three minimised ones.
bool surveying() {
  const char *survey = std::getenv("PATHCOV_PROPERTY_SURVEY");
  return survey && *survey && std::string(survey) != "0";
}

// Checks `property` on `numGraphs` random graphs, seeds firstSeed onwards.
void forRandomGraphs(uint64_t firstSeed, unsigned numGraphs,
                     const RandomCfgOptions &options, const Property &property,
                     Stats &stats) {
  const bool survey = surveying();
  unsigned failing = 0;
  for (unsigned i = 0; i < numGraphs; ++i) {
    const uint64_t seed = firstSeed + i;
    std::mt19937_64 rng(seed);
    const Cfg cfg = randomCfg(rng, options);
    stats.add("graphs");
    const std::string failure = runProperty(property, cfg, seed, &stats);
    if (failure.empty())
      continue;
    if (survey) {
      stats.add("FAILING");
      stats.add("FAILING " + failureKey(failure));
      ADD_FAILURE() << "seed " << seed << ": " << failure;
      continue;
    }
    reportFailure(property, cfg, seed, failure);
    if (++failing == 3) {
      ADD_FAILURE() << "stopped after 3 failing graphs";
      return;
    }
  }
}

// Runs a property on one fixed graph.
void forGraph(const Cfg &cfg, uint64_t seed, const Property &property,
              Stats &stats) {
  stats.add("graphs");
  const std::string failure = runProperty(property, cfg, seed, &stats);
  if (!failure.empty())
    reportFailure(property, cfg, seed, failure);
}

std::string testName() {
  const auto *info = ::testing::UnitTest::GetInstance()->current_test_info();
  return std::string(info->test_suite_name()) + "." + info->name();
}

// ---------------------------------------------------------------------------
// Independent views of a DAG: its node set, path counts, paths.

constexpr uint64_t kEnumerationLimit = 5000;

template <typename T> std::string str(const std::vector<T> &v) {
  std::ostringstream os;
  os << '[';
  for (size_t i = 0; i < v.size(); ++i)
    os << (i ? " " : "") << v[i];
  return os.str() + ']';
}

bool leavesDag(CfgEdgeRole role) {
  return role != CfgEdgeRole::InDag && role != CfgEdgeRole::Unreachable;
}

// Blocks reachable from ENTRY over CFG edges of every kind.
std::vector<bool> cfgReachable(const Cfg &cfg) {
  std::vector<bool> seen(cfg.numBlocks(), false);
  std::vector<BlockId> work{cfg.entry()};
  seen[cfg.entry()] = true;
  while (!work.empty()) {
    const BlockId b = work.back();
    work.pop_back();
    for (EdgeId e : cfg.succs(b))
      if (!seen[cfg.edge(e).dst]) {
        seen[cfg.edge(e).dst] = true;
        work.push_back(cfg.edge(e).dst);
      }
  }
  return seen;
}

// Nodes reachable from ENTRY over DAG edges.
std::vector<bool> dagNodes(const Dag &dag) {
  std::vector<bool> seen(dag.numNodes(), false);
  std::vector<BlockId> work{dag.entry};
  seen[dag.entry] = true;
  while (!work.empty()) {
    const BlockId b = work.back();
    work.pop_back();
    for (DagEdgeId e : dag.out[b])
      if (!seen[dag.edges[e].dst]) {
        seen[dag.edges[e].dst] = true;
        work.push_back(dag.edges[e].dst);
      }
  }
  return seen;
}

// Paths from each node to EXIT, by a memoised walk over dag.out (not the
// core's order or loop); UINT64_MAX once past 2^64 - 2.
class PathCounter {
public:
  explicit PathCounter(const Dag &dag)
      : dag_(dag), count_(dag.numNodes(), 0), done_(dag.numNodes(), false) {}
  uint64_t operator()(BlockId v) {
    if (done_[v])
      return count_[v];
    unsigned __int128 sum = v == dag_.exit ? 1 : 0;
    for (DagEdgeId e : dag_.out[v])
      sum += (*this)(dag_.edges[e].dst);
    count_[v] = sum >= UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(sum);
    done_[v] = true;
    return count_[v];
  }

private:
  const Dag &dag_;
  std::vector<uint64_t> count_;
  std::vector<bool> done_;
};

// Every ENTRY->EXIT path of the DAG as its DAG edges, by depth-first search
// over dag.out, independent of the numbering. Call only when the count is
// known to be small.
void enumeratePaths(const Dag &dag, BlockId v, std::vector<DagEdgeId> &prefix,
                    std::vector<std::vector<DagEdgeId>> &paths) {
  if (v == dag.exit) {
    paths.push_back(prefix);
    return;
  }
  for (DagEdgeId e : dag.out[v]) {
    prefix.push_back(e);
    enumeratePaths(dag, dag.edges[e].dst, prefix, paths);
    prefix.pop_back();
  }
}

std::vector<std::vector<DagEdgeId>> allPaths(const Dag &dag) {
  std::vector<std::vector<DagEdgeId>> paths;
  std::vector<DagEdgeId> prefix;
  enumeratePaths(dag, dag.entry, prefix, paths);
  return paths;
}

uint64_t valueSum(const BallLarusNumbering &bl,
                  const std::vector<DagEdgeId> &path) {
  uint64_t sum = 0;
  for (DagEdgeId e : path)
    sum += bl.value[e];
  return sum;
}

int64_t weightSum(const std::vector<int64_t> &weight,
                  const std::vector<DagEdgeId> &path) {
  int64_t sum = 0;
  for (DagEdgeId e : path)
    sum = checkedAdd(sum, weight[e], "test weight sum");
  return sum;
}

// The registers wrap (Chords.h): sum modulo 2^64, as instrumented code does.
RegisterIncrement chordSum(const ChordPlacement &placement,
                           const std::vector<DagEdgeId> &path) {
  uint64_t ballLarus = 0, ppp = 0;
  for (DagEdgeId e : path) {
    ballLarus += static_cast<uint64_t>(placement.increment[e].ballLarus);
    ppp += static_cast<uint64_t>(placement.increment[e].ppp);
  }
  return {static_cast<int64_t>(ballLarus), static_cast<int64_t>(ppp)};
}

// The path's edges form ENTRY -> ... -> EXIT in the DAG.
std::string checkIsDagPath(const Dag &dag, const std::vector<DagEdgeId> &path) {
  BlockId at = dag.entry;
  for (DagEdgeId e : path) {
    PROP(e < dag.edges.size(), "edge " << e);
    PROP(dag.edges[e].src == at, "edge " << e << " does not leave " << at);
    at = dag.edges[e].dst;
  }
  PROP(at == dag.exit, "the path ends at " << at);
  return "";
}

bool operator==(const DagEdge &a, const DagEdge &b) {
  return a.src == b.src && a.dst == b.dst && a.role == b.role &&
         a.cfgEdge == b.cfgEdge && a.frequency == b.frequency;
}

// The two DAGs are identical (frequencies too unless told otherwise).
std::string checkSameDag(const Dag &a, const Dag &b,
                         bool compareFrequencies = true) {
  PROP(a.entry == b.entry && a.exit == b.exit);
  PROP(a.edges.size() == b.edges.size());
  for (size_t e = 0; e < a.edges.size(); ++e) {
    DagEdge x = a.edges[e], y = b.edges[e];
    if (!compareFrequencies)
      x.frequency = y.frequency = 0;
    PROP(x == y, "DAG edge " << e);
  }
  PROP(a.out == b.out);
  PROP(a.pathStart == b.pathStart);
  PROP(a.pathEnd == b.pathEnd);
  PROP(a.reachable == b.reachable);
  PROP(a.cfgEdgeRole == b.cfgEdgeRole);
  PROP(a.dagEdgeOfCfgEdge == b.dagEdgeOfCfgEdge);
  PROP(a.cuts == b.cuts, "" << str(a.cuts) << " vs " << str(b.cuts));
  return "";
}

std::string checkSameNumbering(const BallLarusNumbering &a,
                               const BallLarusNumbering &b) {
  PROP(a.totalPaths == b.totalPaths, "" << a.totalPaths << " vs " << b.totalPaths);
  PROP(a.numPaths == b.numPaths);
  PROP(a.value == b.value);
  return "";
}

// ---------------------------------------------------------------------------
// Property 1: buildDag's structure. `uncut` is buildDag(cfg) when `dag` was
// built with cuts (roles are then compared with it), else null.

std::string checkDagStructure(const Cfg &cfg, const Dag &dag,
                              const Dag *uncut) {
  const uint32_t n = cfg.numBlocks();
  const size_t numCfgEdges = cfg.edges().size();
  PROP(dag.entry == cfg.entry() && dag.exit == cfg.exit());
  PROP(dag.numNodes() == n && dag.pathStart.size() == n &&
       dag.pathEnd.size() == n && dag.reachable.size() == n);
  PROP(dag.cfgEdgeRole.size() == numCfgEdges &&
       dag.dagEdgeOfCfgEdge.size() == numCfgEdges);

  // Reachability: closure of ENTRY under CFG edges of every kind, and EXIT,
  // where every path ends even when no CFG edge reaches it.
  const std::vector<bool> reach = cfgReachable(cfg);
  for (BlockId b = 0; b < n; ++b)
    PROP(dag.reachable[b] == (reach[b] || b == dag.exit),
         "block " << b << ", reachable in the CFG: " << reach[b]);

  // The topological order covers the DAG's nodes (the reachable blocks)
  // once, each after its successors.
  const std::vector<BlockId> order = dag.reverseTopologicalOrder();
  std::vector<int> position(n, -1);
  for (size_t i = 0; i < order.size(); ++i) {
    PROP(order[i] < n, "order " << str(order));
    PROP(position[order[i]] == -1,
         "block " << order[i] << " twice in " << str(order));
    position[order[i]] = static_cast<int>(i);
  }
  for (BlockId b = 0; b < n; ++b)
    PROP((position[b] != -1) == dag.reachable[b],
         "block " << b << " reachable=" << dag.reachable[b]
                  << " order=" << str(order));
  PROP(!order.empty() && order.back() == dag.entry, "" << str(order));

  // Edges: well-formed, acyclic, listed in `out` in id order per block.
  for (DagEdgeId e = 0; e < dag.edges.size(); ++e) {
    const DagEdge &d = dag.edges[e];
    PROP(d.src < n && d.dst < n, "DAG edge " << e);
    PROP(position[d.src] > position[d.dst],
         "DAG edge " << e << ": " << d.src << "->" << d.dst << " in order "
                     << str(order));
    PROP(d.src != dag.exit, "DAG edge " << e);
    PROP(std::count(dag.out[d.src].begin(), dag.out[d.src].end(), e) == 1,
         "DAG edge " << e);
    switch (d.role) {
    case DagEdgeRole::Cfg:
      PROP(d.cfgEdge < numCfgEdges, "DAG edge " << e);
      PROP(cfg.edge(d.cfgEdge).src == d.src && cfg.edge(d.cfgEdge).dst == d.dst,
           "DAG edge " << e);
      PROP(d.frequency == cfg.edge(d.cfgEdge).frequency, "DAG edge " << e);
      PROP(dag.cfgEdgeRole[d.cfgEdge] == CfgEdgeRole::InDag,
           "DAG edge " << e);
      PROP(dag.dagEdgeOfCfgEdge[d.cfgEdge] == e, "DAG edge " << e);
      break;
    case DagEdgeRole::PathStart:
      PROP(d.src == dag.entry && d.cfgEdge == kNoId && d.frequency == 0,
           "DAG edge " << e);
      PROP(dag.pathStart[d.dst] == e, "DAG edge " << e);
      break;
    case DagEdgeRole::PathEnd: {
      // As often as the paths that end there: its CFG edges out of the DAG.
      uint64_t ending = 0;
      for (EdgeId id : cfg.succs(d.src))
        if (dag.cfgEdgeRole[id] != CfgEdgeRole::InDag &&
            dag.cfgEdgeRole[id] != CfgEdgeRole::Unreachable)
          ending = saturatingAdd(ending, cfg.edge(id).frequency);
      PROP(d.dst == dag.exit && d.cfgEdge == kNoId && d.frequency == ending,
           "DAG edge " << e);
      PROP(dag.pathEnd[d.src] == e, "DAG edge " << e);
      break;
    }
    }
  }
  size_t listed = 0;
  for (BlockId b = 0; b < n; ++b) {
    listed += dag.out[b].size();
    PROP(std::is_sorted(dag.out[b].begin(), dag.out[b].end()), "block " << b);
    if (!dag.reachable[b] || b == dag.exit)
      PROP(dag.out[b].empty(), "block " << b);
    else
      PROP(!dag.out[b].empty(), "reachable block " << b << " has no out-edge");
    // The CFG edges kept keep their successor order.
    std::vector<EdgeId> kept, expected;
    for (DagEdgeId e : dag.out[b])
      if (dag.edges[e].role == DagEdgeRole::Cfg)
        kept.push_back(dag.edges[e].cfgEdge);
    for (EdgeId id : cfg.succs(b))
      if (dag.cfgEdgeRole[id] == CfgEdgeRole::InDag)
        expected.push_back(id);
    PROP(kept == expected, "block " << b);
  }
  PROP(listed == dag.edges.size());

  // Each CFG edge's role.
  std::vector<bool> leaving(n, false), entered(n, false), abnormally(n, false);
  size_t inDag = 0;
  for (EdgeId id = 0; id < numCfgEdges; ++id) {
    const CfgEdge &e = cfg.edge(id);
    const CfgEdgeRole role = dag.cfgEdgeRole[id];
    PROP((role == CfgEdgeRole::Unreachable) == !dag.reachable[e.src],
         "CFG edge " << id << " role " << cfgEdgeRoleName(role));
    if (dag.reachable[e.src]) {
      PROP((role == CfgEdgeRole::Abnormal) == (e.kind == EdgeKind::Abnormal),
           "CFG edge " << id << " role " << cfgEdgeRoleName(role));
      PROP((role == CfgEdgeRole::Fake) == (e.kind == EdgeKind::Fake),
           "CFG edge " << id << " role " << cfgEdgeRoleName(role));
    }
    if (role == CfgEdgeRole::InDag) {
      ++inDag;
      const DagEdgeId d = dag.dagEdgeOfCfgEdge[id];
      PROP(d < dag.edges.size(), "CFG edge " << id);
      PROP(dag.edges[d].role == DagEdgeRole::Cfg && dag.edges[d].cfgEdge == id &&
               dag.edges[d].src == e.src && dag.edges[d].dst == e.dst,
           "CFG edge " << id);
    } else {
      PROP(dag.dagEdgeOfCfgEdge[id] == kNoId, "CFG edge " << id);
    }
    if (e.src == e.dst && dag.reachable[e.src] &&
        role != CfgEdgeRole::Abnormal)
      PROP(role == CfgEdgeRole::BackEdge, "self loop " << id);
    if (!leavesDag(role))
      continue;
    // Ends a path at its source (unless that is ENTRY) and starts one at
    // its target (unless that is EXIT).
    if (e.src != dag.entry) {
      leaving[e.src] = true;
      PROP(dag.pathEnd[e.src] != kNoId,
           "CFG edge " << id << " (" << cfgEdgeRoleName(role) << ")");
    }
    if (e.dst != dag.exit) {
      entered[e.dst] = true;
      abnormally[e.dst] = abnormally[e.dst] || role == CfgEdgeRole::Abnormal ||
                          role == CfgEdgeRole::Fake;
      PROP(dag.pathStart[e.dst] != kNoId,
           "CFG edge " << id << " (" << cfgEdgeRoleName(role) << ")");
    }
  }

  // Dummies exist only for those reasons (and dead ends), one per block.
  size_t starts = 0, ends = 0;
  for (BlockId b = 0; b < n; ++b) {
    starts += dag.pathStart[b] != kNoId;
    ends += dag.pathEnd[b] != kNoId;
    PROP((dag.pathStart[b] != kNoId) == entered[b], "block " << b);
    bool otherOut = false;
    for (DagEdgeId e : dag.out[b])
      otherOut |= dag.edges[e].role != DagEdgeRole::PathEnd;
    const bool deadEnd = dag.reachable[b] && b != dag.exit && !otherOut;
    PROP((dag.pathEnd[b] != kNoId) == (leaving[b] || deadEnd),
         "block " << b << " leaving=" << leaving[b] << " deadEnd=" << deadEnd);
  }
  PROP(dag.edges.size() == inDag + starts + ends);
  // Dag.h: enteredAbnormally marks the targets of abnormal and fake edges.
  PROP(dag.enteredAbnormally.size() == n);
  for (BlockId b = 0; b < n; ++b)
    PROP(dag.enteredAbnormally[b] == abnormally[b], "block " << b);

  // No cuts: a back edge closes a cycle of DAG edges (its target reaches its
  // source), and nothing is cut.
  std::set<BlockId> cutSet(dag.cuts.begin(), dag.cuts.end());
  PROP(cutSet.size() == dag.cuts.size(), "cuts " << str(dag.cuts));
  if (!uncut) {
    PROP(dag.cuts.empty());
    for (EdgeId id = 0; id < numCfgEdges; ++id) {
      if (dag.cfgEdgeRole[id] != CfgEdgeRole::BackEdge)
        continue;
      PROP(cfg.edge(id).kind != EdgeKind::Abnormal &&
               cfg.edge(id).kind != EdgeKind::Fake,
           "CFG edge " << id);
      std::vector<bool> seen(n, false);
      std::vector<BlockId> work{cfg.edge(id).dst};
      seen[cfg.edge(id).dst] = true;
      while (!work.empty()) {
        const BlockId b = work.back();
        work.pop_back();
        for (DagEdgeId e : dag.out[b])
          if (dag.edges[e].role == DagEdgeRole::Cfg &&
              !seen[dag.edges[e].dst]) {
            seen[dag.edges[e].dst] = true;
            work.push_back(dag.edges[e].dst);
          }
      }
      PROP(seen[cfg.edge(id).src], "back edge " << id << " closes no cycle");
    }
    return "";
  }

  // With cuts: the roles are the uncut DAG's, except that a cut block's
  // out-edges that stayed in the DAG, other than those into EXIT, are Cut.
  for (BlockId c : dag.cuts)
    PROP(c != dag.entry && c != dag.exit && c < n && dag.reachable[c],
         "cut " << c);
  for (EdgeId id = 0; id < numCfgEdges; ++id) {
    const CfgEdge &e = cfg.edge(id);
    const CfgEdgeRole was = uncut->cfgEdgeRole[id];
    const CfgEdgeRole role = dag.cfgEdgeRole[id];
    const bool cut =
        was == CfgEdgeRole::InDag && cutSet.count(e.src) && e.dst != dag.exit;
    PROP(role == (cut ? CfgEdgeRole::Cut : was),
         "CFG edge " << id << " " << e.src << "->" << e.dst << ": "
                     << cfgEdgeRoleName(role) << ", uncut "
                     << cfgEdgeRoleName(was) << ", cuts " << str(dag.cuts));
    if (role == CfgEdgeRole::Cut)
      PROP(cutSet.count(e.src), "CFG edge " << id);
  }
  return "";
}

std::string propertyDag(const Cfg &cfg, uint64_t, Stats *stats) {
  const Dag dag = buildDag(cfg);
  PROP_CHECK(checkDagStructure(cfg, dag, nullptr));
  tally(stats, "dag_edges", dag.edges.size());
  for (CfgEdgeRole role : dag.cfgEdgeRole)
    tally(stats, std::string("role_") + cfgEdgeRoleName(role));
  if (!cfgReachable(cfg)[dag.exit])
    tally(stats, "exit_unreachable_in_cfg");
  // The same CFG gives the same DAG.
  PROP_CHECK(checkSameDag(dag, buildDag(cfg)));
  return "";
}

// ---------------------------------------------------------------------------
// Property 2: Ball-Larus ids are exactly 0..N-1.

std::string propertyBallLarusIds(const Cfg &cfg, uint64_t, Stats *stats) {
  const Dag dag = buildDag(cfg);
  PathCounter paths(dag);
  const uint64_t n = paths(dag.entry);
  const PathCount counted = countAcyclicPaths(cfg);
  if (n == UINT64_MAX) {
    PROP(counted.saturated && counted.count == UINT64_MAX);
    tally(stats, "saturated");
    return "";
  }
  PROP(!counted.saturated && counted.count == n,
       "" << counted.count << " (saturated " << counted.saturated << ") vs " << n);

  const BallLarusNumbering bl = computeBLIncrements(dag);
  PROP(bl.totalPaths == n, "" << bl.totalPaths << " vs " << n);
  PROP(bl.numPaths.size() == dag.numNodes() &&
       bl.value.size() == dag.edges.size());
  const std::vector<bool> nodes = dagNodes(dag);
  for (BlockId v = 0; v < dag.numNodes(); ++v) {
    if (!nodes[v])
      continue;
    PROP(bl.numPaths[v] == paths(v), "block " << v << ": " << bl.numPaths[v]
                                              << " vs " << paths(v));
    // Figure 1: an out-edge's value is the paths of the edges before it.
    uint64_t before = 0;
    for (DagEdgeId e : dag.out[v]) {
      PROP(bl.value[e] == before, "DAG edge " << e);
      before += paths(dag.edges[e].dst);
    }
  }

  // Below the default limit nothing is cut, and the numbering is the uncut
  // DAG's.
  if (n <= kDefaultPathLimit) {
    const NumberedDag numbered = numberBallLarus(cfg);
    PROP(numbered.dag.cuts.empty(), "cuts " << str(numbered.dag.cuts));
    PROP_CHECK(checkSameDag(numbered.dag, dag));
    PROP_CHECK(checkSameNumbering(numbered.ballLarus, bl));
  }

  if (n > kEnumerationLimit) {
    tally(stats, "too_many_paths_to_enumerate");
    return "";
  }
  const auto all = allPaths(dag);
  PROP(all.size() == n, "" << all.size() << " paths enumerated, N = " << n);
  std::vector<uint64_t> ids;
  for (const auto &p : all)
    ids.push_back(valueSum(bl, p));
  std::sort(ids.begin(), ids.end());
  for (uint64_t i = 0; i < n; ++i)
    PROP(ids[i] == i, "sorted sum #" << i << " is " << ids[i]);
  tally(stats, "enumerated_graphs");
  tally(stats, "enumerated_paths", n);
  return "";
}

// ---------------------------------------------------------------------------
// Property 3: regeneration inverts numbering; pathFromBlocks inverts
// pathBlocks unless parallel edges make the blocks ambiguous.

// Some ids of [0, n): all of them if n is small, else a sample with both
// ends.
std::vector<uint64_t> someIds(uint64_t n, std::mt19937_64 &rng,
                              size_t samples) {
  std::vector<uint64_t> ids;
  if (n <= kEnumerationLimit) {
    ids.resize(n);
    std::iota(ids.begin(), ids.end(), 0);
    return ids;
  }
  ids = {0, n - 1, n / 2};
  std::uniform_int_distribution<uint64_t> any(0, n - 1);
  while (ids.size() < samples)
    ids.push_back(any(rng));
  return ids;
}

std::string checkRoundTrips(const Dag &dag, const BallLarusNumbering &bl,
                            const std::vector<uint64_t> &ids, Stats *stats) {
  // Enumerated paths by their sums, to compare regeneration with.
  std::vector<std::vector<DagEdgeId>> bySum;
  if (bl.totalPaths <= kEnumerationLimit) {
    bySum.resize(bl.totalPaths);
    for (auto &p : allPaths(dag)) {
      const uint64_t id = valueSum(bl, p);
      PROP(id < bl.totalPaths && bySum[id].empty(), "sum " << id);
      bySum[id] = std::move(p);
    }
  }
  size_t ambiguous = 0;
  for (uint64_t id : ids) {
    const std::vector<DagEdgeId> path = regeneratePath(dag, bl, id);
    PROP_CHECK(checkIsDagPath(dag, path));
    PROP(ballLarusIdOf(dag, bl, path) == id, "id " << id);
    if (!bySum.empty())
      PROP(path == bySum[id], "id " << id);

    const std::vector<BlockId> blocks = pathBlocks(dag, path);
    PROP(!blocks.empty(), "id " << id);
    PROP((blocks.front() == dag.entry) ==
             (dag.edges[path.front()].role != DagEdgeRole::PathStart),
         "id " << id << " blocks " << str(blocks));
    PROP((blocks.back() == dag.exit) ==
             (dag.edges[path.back()].role != DagEdgeRole::PathEnd),
         "id " << id << " blocks " << str(blocks));
    bool parallel = false;
    for (size_t k = 0; k + 1 < blocks.size(); ++k) {
      int joining = 0;
      for (DagEdgeId e : dag.out[blocks[k]])
        joining += dag.edges[e].role == DagEdgeRole::Cfg &&
                   dag.edges[e].dst == blocks[k + 1];
      PROP(joining >= 1, "id " << id << " blocks " << str(blocks));
      parallel |= joining > 1;
    }
    if (parallel) {
      // Throwing is slow: check a few ambiguous paths per graph.
      if (++ambiguous <= 64) {
        PROP_THROWS(pathFromBlocks(dag, blocks), GraphError,
                    "id " << id << " blocks " << str(blocks));
        tally(stats, "ambiguous_block_paths_refused");
      }
    } else {
      PROP(pathFromBlocks(dag, blocks) == path,
           "id " << id << " blocks " << str(blocks));
      tally(stats, "block_round_trips");
    }
  }
  tally(stats, "regenerated", ids.size());

  PROP_THROWS(regeneratePath(dag, bl, bl.totalPaths), std::out_of_range);
  std::vector<DagEdgeId> broken = regeneratePath(dag, bl, 0);
  broken.pop_back();
  PROP_THROWS(ballLarusIdOf(dag, bl, broken), GraphError);
  PROP_THROWS(ballLarusIdOf(dag, bl, {DagEdgeId(dag.edges.size())}),
              GraphError);
  return "";
}

std::string propertyRegeneration(const Cfg &cfg, uint64_t seed, Stats *stats) {
  std::mt19937_64 rng(seed * 31 + 3);
  const NumberedDag numbered = numberBallLarus(cfg);
  return checkRoundTrips(numbered.dag, numbered.ballLarus,
                         someIds(numbered.ballLarus.totalPaths, rng, 300),
                         stats);
}

// ---------------------------------------------------------------------------
// Property 4: event counting.

// The ENTRY->w dummies that the tree must hold (Dag.h, enteredAbnormally:
// paths into a block entered abnormally start with both registers at 0).
std::vector<bool> forcedTreeEdges(const Dag &dag) {
  std::vector<bool> forced(dag.edges.size(), false);
  for (BlockId w = 0; w < dag.numNodes(); ++w)
    if (dag.enteredAbnormally[w] && dag.pathStart[w] != kNoId)
      forced[dag.pathStart[w]] = true;
  return forced;
}

// How much the tree wants an edge (Chords.h): path starts least (their
// chords are free), the others by measured count (if any), then by
// estimated frequency.
std::tuple<bool, uint64_t, uint64_t>
treeRank(const Dag &dag, const std::vector<uint64_t> &edgeCounts, DagEdgeId e) {
  return {dag.edges[e].role != DagEdgeRole::PathStart,
          edgeCounts.empty() ? 0 : edgeCounts[e], dag.edges[e].frequency};
}

// Kruskal as Chords.h and Dag.h specify it: EXIT->ENTRY first, then the
// forced ENTRY->w dummies, then by rank, highest first, ties by DAG edge id.
std::vector<bool> specifiedTree(const Dag &dag,
                                const std::vector<uint64_t> &edgeCounts) {
  const auto rank = [&](DagEdgeId e) { return treeRank(dag, edgeCounts, e); };
  std::vector<DagEdgeId> order(dag.edges.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](DagEdgeId a, DagEdgeId b) {
    if (rank(a) != rank(b))
      return rank(a) > rank(b);
    return a < b;
  });
  std::vector<BlockId> leader(dag.numNodes());
  std::iota(leader.begin(), leader.end(), 0);
  const std::function<BlockId(BlockId)> find = [&](BlockId x) {
    return leader[x] == x ? x : leader[x] = find(leader[x]);
  };
  leader[find(dag.exit)] = find(dag.entry);
  std::vector<bool> inTree(dag.edges.size(), false);
  const std::vector<bool> forced = forcedTreeEdges(dag);
  std::stable_partition(order.begin(), order.end(),
                        [&](DagEdgeId e) { return forced[e]; });
  for (DagEdgeId e : order) {
    const BlockId a = find(dag.edges[e].src), b = find(dag.edges[e].dst);
    if (a != b) {
      leader[b] = a;
      inTree[e] = true;
    }
  }
  return inTree;
}

// The tree plus EXIT->ENTRY spans the DAG's nodes, holds the forced
// ENTRY->w dummies, and is a maximum spanning tree given those: no other
// tree edge on a chord's cycle is colder than the chord.
std::string checkSpanningTree(const Dag &dag, const ChordPlacement &placement,
                              const std::vector<uint64_t> &edgeCounts = {}) {
  const size_t numEdges = dag.edges.size();
  PROP(placement.inTree.size() == numEdges &&
       placement.increment.size() == numEdges);
  std::vector<DagEdgeId> chords;
  for (DagEdgeId e = 0; e < numEdges; ++e)
    if (!placement.inTree[e])
      chords.push_back(e);
  PROP(placement.chords == chords);
  for (DagEdgeId e = 0; e < numEdges; ++e)
    if (placement.inTree[e])
      PROP(placement.increment[e] == RegisterIncrement{},
           "tree edge " << e << " has an increment");

  const std::vector<bool> nodes = dagNodes(dag);
  const size_t numNodes = std::count(nodes.begin(), nodes.end(), true);
  // Links of the tree: (neighbour, DAG edge or kNoId for EXIT->ENTRY).
  std::vector<std::vector<std::pair<BlockId, DagEdgeId>>> links(
      dag.numNodes());
  links[dag.exit].push_back({dag.entry, kNoId});
  links[dag.entry].push_back({dag.exit, kNoId});
  size_t treeEdges = 0;
  for (DagEdgeId e = 0; e < numEdges; ++e)
    if (placement.inTree[e]) {
      ++treeEdges;
      links[dag.edges[e].src].push_back({dag.edges[e].dst, e});
      links[dag.edges[e].dst].push_back({dag.edges[e].src, e});
    }
  PROP(treeEdges + 1 == numNodes - 1,
       "" << treeEdges << " tree edges + EXIT->ENTRY for " << numNodes << " nodes");
  // Connected (with that many edges, also acyclic): a walk from ENTRY
  // reaches every node, and records each node's tree parent.
  std::vector<BlockId> parent(dag.numNodes(), kNoId);
  std::vector<DagEdgeId> parentEdge(dag.numNodes(), kNoId);
  std::vector<uint32_t> depth(dag.numNodes(), 0);
  std::vector<bool> seen(dag.numNodes(), false);
  std::vector<BlockId> work{dag.entry};
  seen[dag.entry] = true;
  size_t reached = 1;
  while (!work.empty()) {
    const BlockId v = work.back();
    work.pop_back();
    for (const auto &[w, e] : links[v]) {
      if (seen[w])
        continue;
      seen[w] = true;
      ++reached;
      parent[w] = v;
      parentEdge[w] = e;
      depth[w] = depth[v] + 1;
      work.push_back(w);
    }
  }
  PROP(reached == numNodes, "" << reached << " of " << numNodes << " nodes");
  const std::vector<bool> forced = forcedTreeEdges(dag);
  for (DagEdgeId e = 0; e < numEdges; ++e)
    if (forced[e])
      PROP(placement.inTree[e], "the path start " << e << " of block "
                                                  << dag.edges[e].dst
                                                  << " (entered abnormally)");

  // Cycle property of a maximum spanning tree by rank (EXIT->ENTRY counts
  // as hotter than anything).
  for (DagEdgeId c : chords) {
    BlockId a = dag.edges[c].src, b = dag.edges[c].dst;
    while (a != b) {
      BlockId &deeper = depth[a] >= depth[b] ? a : b;
      const DagEdgeId t = parentEdge[deeper];
      if (t != kNoId && !forced[t])
        PROP(treeRank(dag, edgeCounts, t) >= treeRank(dag, edgeCounts, c),
             "tree edge " << t << " ranks below chord " << c);
      deeper = parent[deeper];
    }
  }
  PROP(placement.inTree == specifiedTree(dag, edgeCounts),
       "not the tree specified (forced path starts, then rank order, "
       "ties by id)");
  return "";
}

// Paths to check sums on: all of them, or a sample (ids with paths).
std::vector<std::pair<uint64_t, std::vector<DagEdgeId>>>
somePaths(const Dag &dag, const BallLarusNumbering &bl, std::mt19937_64 &rng,
          size_t samples) {
  std::vector<std::pair<uint64_t, std::vector<DagEdgeId>>> paths;
  if (bl.totalPaths <= kEnumerationLimit) {
    for (auto &p : allPaths(dag)) {
      const uint64_t id = valueSum(bl, p);
      paths.emplace_back(id, std::move(p));
    }
    return paths;
  }
  for (uint64_t id : someIds(bl.totalPaths, rng, samples))
    paths.emplace_back(id, regeneratePath(dag, bl, id));
  return paths;
}

// A random set of interesting ids: up to `most` distinct ones, some twice.
std::vector<uint64_t> randomInteresting(uint64_t n, std::mt19937_64 &rng,
                                        uint64_t most) {
  std::uniform_int_distribution<uint64_t> any(0, n - 1);
  const uint64_t k = std::uniform_int_distribution<uint64_t>(
      0, std::min(n, most))(rng);
  std::vector<uint64_t> ids;
  for (uint64_t i = 0; i < k; ++i)
    ids.push_back(any(rng));
  for (size_t i = 0, copies = ids.size() / 3; i < copies; ++i)
    ids.push_back(ids[i]);
  std::shuffle(ids.begin(), ids.end(), rng);
  return ids;
}

// Sums of increments along every path checked give the Ball-Larus id and
// the PPP weight sum.
std::string checkEventCounting(
    const Dag &dag, const ChordPlacement &placement,
    const std::vector<int64_t> &pppWeight,
    const std::vector<std::pair<uint64_t, std::vector<DagEdgeId>>> &paths) {
  for (const auto &[id, path] : paths) {
    const RegisterIncrement sum = chordSum(placement, path);
    PROP(sum.ballLarus == static_cast<int64_t>(id),
         "path " << id << ": chord sum " << sum.ballLarus);
    const int64_t ppp = pppWeight.empty() ? 0 : weightSum(pppWeight, path);
    PROP(sum.ppp == ppp, "path " << id << ": PPP chord sum " << sum.ppp
                                 << ", weight sum " << ppp);
  }
  // A path boundary's code is the increments of its two dummies.
  for (BlockId v = 0; v < dag.numNodes(); ++v)
    for (BlockId w = 0; w < dag.numNodes(); ++w) {
      if (dag.pathEnd[v] == kNoId || dag.pathStart[w] == kNoId)
        continue;
      const PathBoundary b = pathBoundaryCode(dag, placement, v, w);
      PROP(b.pathEnd == placement.increment[dag.pathEnd[v]] &&
               b.pathStart == placement.increment[dag.pathStart[w]],
           "" << v << "->" << w);
    }
  return "";
}

std::string checkSamePlacement(const ChordPlacement &a,
                               const ChordPlacement &b) {
  PROP(a.inTree == b.inTree);
  PROP(a.chords == b.chords);
  PROP(a.increment == b.increment);
  return "";
}

std::string checkSamePpp(const PppNumbering &a, const PppNumbering &b) {
  PROP(a.weight == b.weight && a.defined == b.defined);
  PROP(a.interestingBallLarusIds == b.interestingBallLarusIds && a.ids == b.ids);
  PROP(a.intervalSize == b.intervalSize && a.delta == b.delta);
  return "";
}

// The same CFG with its frequencies shuffled among its edges, or drawn
// again (few values, many ties; or any 64-bit value).
Cfg withOtherFrequencies(const Cfg &cfg, std::mt19937_64 &rng) {
  std::vector<uint64_t> frequencies;
  for (const CfgEdge &e : cfg.edges())
    frequencies.push_back(e.frequency);
  const uint64_t mode = rng() % 3;
  if (mode == 0)
    std::shuffle(frequencies.begin(), frequencies.end(), rng);
  else
    for (uint64_t &f : frequencies)
      f = mode == 1 ? rng() % 3 : rng();
  Cfg other(cfg.numBlocks(), cfg.entry(), cfg.exit());
  for (size_t i = 0; i < frequencies.size(); ++i) {
    const CfgEdge &e = cfg.edge(static_cast<EdgeId>(i));
    other.addEdge(e.src, e.dst, e.kind, frequencies[i]);
  }
  return other;
}

std::string propertyEventCounting(const Cfg &cfg, uint64_t seed,
                                  Stats *stats) {
  std::mt19937_64 rng(seed * 17 + 5);
  const NumberedDag numbered = numberBallLarus(cfg);
  const Dag &dag = numbered.dag;
  const BallLarusNumbering &bl = numbered.ballLarus;
  const std::vector<uint64_t> interesting =
      randomInteresting(bl.totalPaths, rng, 24);
  const PppNumbering ppp = computePPPIncrements(dag, bl, interesting);
  const auto paths = somePaths(dag, bl, rng, 200);

  // Both registers; and the Ball-Larus register alone.
  const ChordPlacement placement = computeChordIncrements(dag, bl, ppp.weight);
  PROP_CHECK(checkSpanningTree(dag, placement));
  PROP_CHECK(checkEventCounting(dag, placement, ppp.weight, paths));
  const ChordPlacement blOnly = computeChordIncrements(dag, bl, {});
  PROP(blOnly.inTree == placement.inTree, "the tree depends on the weights");
  PROP_CHECK(checkEventCounting(dag, blOnly, {}, paths));
  tally(stats, "paths_summed", paths.size());
  tally(stats, "chords", placement.chords.size());

  // Determinism: everything again from scratch.
  const NumberedDag again = numberBallLarus(cfg);
  PROP_CHECK(checkSameDag(again.dag, dag));
  PROP_CHECK(checkSameNumbering(again.ballLarus, bl));
  const PppNumbering pppAgain =
      computePPPIncrements(again.dag, again.ballLarus, interesting);
  PROP_CHECK(checkSamePpp(pppAgain, ppp));
  PROP_CHECK(checkSamePlacement(
      computeChordIncrements(again.dag, again.ballLarus, pppAgain.weight),
      placement));

  // Other frequencies: the same DAG and ids (and PPP weights), perhaps
  // other chords, the same sums.
  const Cfg reweighted = withOtherFrequencies(cfg, rng);
  const NumberedDag other = numberBallLarus(reweighted);
  PROP_CHECK(checkSameDag(other.dag, dag, /*compareFrequencies=*/false));
  PROP_CHECK(checkSameNumbering(other.ballLarus, bl));
  const PppNumbering otherPpp =
      computePPPIncrements(other.dag, other.ballLarus, interesting);
  PROP_CHECK(checkSamePpp(otherPpp, ppp));
  const ChordPlacement otherPlacement =
      computeChordIncrements(other.dag, other.ballLarus, otherPpp.weight);
  PROP_CHECK(checkSpanningTree(other.dag, otherPlacement));
  PROP_CHECK(
      checkEventCounting(other.dag, otherPlacement, otherPpp.weight, paths));
  if (otherPlacement.chords != placement.chords)
    tally(stats, "reweighted_with_other_chords");

  // Measured counts, as a corpus gives them: the interesting paths ran
  // random numbers of times, each edge as often as the paths through it.
  // The tree by them; the same sums.
  std::vector<uint64_t> ids, counts;
  uint64_t runs = 0;
  for (uint64_t id : std::set<uint64_t>(interesting.begin(), interesting.end())) {
    ids.push_back(id);
    counts.push_back(1 + rng() % 1000);
    runs += counts.back();
  }
  const std::vector<uint64_t> edgeCounts = edgeRunsOfPaths(dag, bl, ids, counts);
  // A flow: every run leaves ENTRY and reaches EXIT, and what enters a
  // block leaves it.
  std::vector<uint64_t> in(dag.numNodes(), 0), out(dag.numNodes(), 0);
  for (DagEdgeId e = 0; e < dag.edges.size(); ++e) {
    out[dag.edges[e].src] += edgeCounts[e];
    in[dag.edges[e].dst] += edgeCounts[e];
  }
  PROP(out[dag.entry] == runs && in[dag.exit] == runs,
       "edge runs: " << out[dag.entry] << " leave ENTRY, " << in[dag.exit]
                     << " reach EXIT, of " << runs);
  for (BlockId v = 0; v < dag.numNodes(); ++v)
    if (v != dag.entry && v != dag.exit)
      PROP(in[v] == out[v], "edge runs: block " << v << " entered " << in[v]
                                                << " times, left " << out[v]);
  const ChordPlacement measured =
      computeChordIncrements(dag, bl, ppp.weight, edgeCounts);
  PROP_CHECK(checkSpanningTree(dag, measured, edgeCounts));
  PROP_CHECK(checkEventCounting(dag, measured, ppp.weight, paths));
  // A path that ran more often than all the others together crosses one
  // chord (the tree cannot hold a whole ENTRY->EXIT path): its path start
  // if it has one, else the coldest of its edges. Unless path starts are
  // forced into the tree (blocks entered abnormally): they may close
  // cycles with it.
  uint64_t total = 0;
  for (uint64_t c : counts)
    total += c;
  const std::vector<bool> forced = forcedTreeEdges(dag);
  const auto hottest = std::max_element(counts.begin(), counts.end());
  if (hottest != counts.end() && 2 * *hottest > total &&
      std::find(forced.begin(), forced.end(), true) == forced.end()) {
    const std::vector<DagEdgeId> path =
        regeneratePath(dag, bl, ids[hottest - counts.begin()]);
    std::vector<DagEdgeId> chordsOnPath;
    for (DagEdgeId e : path)
      if (!measured.inTree[e])
        chordsOnPath.push_back(e);
    PROP(chordsOnPath.size() == 1, "the hottest path crosses chords "
                                       << str(chordsOnPath));
    if (dag.edges[path[0]].role == DagEdgeRole::PathStart)
      PROP(chordsOnPath[0] == path[0], "the hottest path's chord is "
                                           << chordsOnPath[0]
                                           << ", not its path start");
    tally(stats, "hottest_path_one_chord");
  }
  return "";
}

// ---------------------------------------------------------------------------
// Property 5: PPP.

std::string checkPpp(const Dag &dag, const BallLarusNumbering &bl,
                     const std::vector<uint64_t> &input,
                     const std::vector<uint64_t> &universe, Stats *stats) {
  const uint64_t n = bl.totalPaths;
  const PppNumbering ppp = computePPPIncrements(dag, bl, input);
  std::vector<uint64_t> distinct = input;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()),
                 distinct.end());
  PROP(ppp.interestingBallLarusIds == distinct);
  PROP(ppp.ids.size() == distinct.size());
  PROP(ppp.weight.size() == dag.edges.size() &&
       ppp.defined.size() == dag.edges.size());

  // Each interesting path's id is its weight sum; defined = on one of them.
  std::vector<bool> used(dag.edges.size(), false);
  for (size_t i = 0; i < distinct.size(); ++i) {
    const std::vector<DagEdgeId> path = regeneratePath(dag, bl, distinct[i]);
    PROP(weightSum(ppp.weight, path) == ppp.ids[i],
         "path " << distinct[i] << ": weight sum "
                 << weightSum(ppp.weight, path) << ", id " << ppp.ids[i]);
    for (DagEdgeId e : path)
      used[e] = true;
  }
  for (DagEdgeId e = 0; e < dag.edges.size(); ++e) {
    PROP(ppp.defined[e] == used[e], "DAG edge " << e);
    if (!used[e])
      PROP(ppp.weight[e] == 0, "DAG edge " << e);
  }

  if (distinct.empty()) {
    PROP(ppp.intervalSize == 0 && ppp.delta == 0);
    tally(stats, "ppp_empty");
  } else {
    std::vector<int64_t> ids = ppp.ids;
    std::sort(ids.begin(), ids.end());
    PROP(std::adjacent_find(ids.begin(), ids.end()) == ids.end(),
         "two interesting paths share a PPP id");
    PROP(ids.front() == 0, "minimum " << ids.front());
    PROP(static_cast<uint64_t>(ids.back()) + 1 == ppp.intervalSize,
         "maximum " << ids.back() << ", interval " << ppp.intervalSize);
    PROP(ppp.delta == static_cast<double>(ppp.intervalSize) /
                          static_cast<double>(distinct.size()),
         "delta " << ppp.delta);
    // Induction over the reverse topological order: every prefix's interval
    // at v lies in [0, NumPaths(v)) (a weight is at most the Ball-Larus
    // value, a partial id at least cis(q) >= 0), so the interval is never
    // larger than Ball-Larus's.
    PROP(ppp.intervalSize <= n, "" << ppp.intervalSize << " > N = " << n);
    tally(stats, "ppp_sets");
    tally(stats, "ppp_interesting", distinct.size());
    if (ppp.intervalSize == distinct.size())
      tally(stats, "ppp_perfect");
  }
  for (uint64_t id : universe) {
    const auto at = std::lower_bound(distinct.begin(), distinct.end(), id);
    const int64_t expected =
        at != distinct.end() && *at == id ? ppp.ids[at - distinct.begin()] : -1;
    PROP(ppp.idOf(id) == expected, "idOf(" << id << ") = " << ppp.idOf(id));
  }

  // All paths interesting: by the same induction every prefix at v sees all
  // of v's suffixes, so each weight is exactly the Ball-Larus value and the
  // PPP ids are the Ball-Larus ids (delta 1).
  if (distinct.size() == n) {
    for (DagEdgeId e = 0; e < dag.edges.size(); ++e)
      PROP(ppp.weight[e] == static_cast<int64_t>(bl.value[e]),
           "DAG edge " << e << ": weight " << ppp.weight[e] << ", value "
                       << bl.value[e]);
    for (uint64_t i = 0; i < n; ++i)
      PROP(ppp.ids[i] == static_cast<int64_t>(i), "path " << i);
    PROP(ppp.intervalSize == n && ppp.delta == 1.0);
    tally(stats, "ppp_all_paths");
  }
  return "";
}

std::string propertyPpp(const Cfg &cfg, uint64_t seed, Stats *stats) {
  std::mt19937_64 rng(seed * 13 + 7);
  const NumberedDag numbered = numberBallLarus(cfg);
  const Dag &dag = numbered.dag;
  const BallLarusNumbering &bl = numbered.ballLarus;
  const uint64_t n = bl.totalPaths;
  const std::vector<uint64_t> universe = someIds(n, rng, 400);
  std::uniform_int_distribution<uint64_t> any(0, n - 1);

  PROP_CHECK(checkPpp(dag, bl, {}, universe, stats));
  PROP_CHECK(checkPpp(dag, bl, {any(rng)}, universe, stats));
  const uint64_t one = any(rng);
  PROP_CHECK(checkPpp(dag, bl, {one, one, one}, universe, stats));
  PROP_CHECK(checkPpp(dag, bl, randomInteresting(n, rng, 40), universe, stats));
  if (n <= kEnumerationLimit) {
    // All paths, in a random order with duplicates; and about half of them.
    std::vector<uint64_t> all = universe;
    all.insert(all.end(), universe.begin(),
               universe.begin() + static_cast<std::ptrdiff_t>(n / 4));
    std::shuffle(all.begin(), all.end(), rng);
    PROP_CHECK(checkPpp(dag, bl, all, universe, stats));
    std::vector<uint64_t> half;
    for (uint64_t id : universe)
      if (rng() % 2)
        half.push_back(id);
    PROP_CHECK(checkPpp(dag, bl, half, universe, stats));
  }
  PROP_THROWS(computePPPIncrements(dag, bl, {n}), std::out_of_range);
  return "";
}

// ---------------------------------------------------------------------------
// Property 6: cuts.

// ENTRY -> t0; ti -> li, ti -> ri; li -> ti+1, ri -> ti+1; tk -> EXIT:
// 2^k paths. Frequencies from `rng` when given, else 0.
Cfg diamondChain(uint32_t k, std::mt19937_64 *rng) {
  // Blocks: 0 ENTRY, 1 EXIT, then t0, l0, r0, t1, ... tk.
  const uint32_t n = 2 + 3 * k + 1;
  Cfg cfg(n, 0, 1);
  const auto top = [](uint32_t i) { return 2 + 3 * i; };
  const auto freq = [&]() -> uint64_t { return rng ? (*rng)() % 4 : 0; };
  cfg.addEdge(0, top(0), EdgeKind::Fallthru, freq());
  for (uint32_t i = 0; i < k; ++i) {
    cfg.addEdge(top(i), top(i) + 1, EdgeKind::True, freq());
    cfg.addEdge(top(i), top(i) + 2, EdgeKind::False, freq());
    cfg.addEdge(top(i) + 1, top(i + 1), EdgeKind::Fallthru, freq());
    cfg.addEdge(top(i) + 2, top(i + 1), EdgeKind::Fallthru, freq());
  }
  cfg.addEdge(top(k), 1, EdgeKind::Fallthru, freq());
  return cfg;
}

// A numbered (possibly cut) graph: structure, counts, limit, and sampled or
// enumerated ids, round trips and event counting.
std::string checkNumberedWithCuts(const Cfg &cfg, const NumberedDag &numbered,
                                  uint64_t limit,
                                  const std::vector<BlockId> &forced,
                                  std::mt19937_64 &rng, size_t samples,
                                  Stats *stats) {
  const Dag &dag = numbered.dag;
  const BallLarusNumbering &bl = numbered.ballLarus;
  const Dag uncut = buildDag(cfg);
  PROP_CHECK(checkDagStructure(cfg, dag, &uncut));
  // Forced cuts come first, in the order given.
  PROP(dag.cuts.size() >= forced.size() &&
           std::equal(forced.begin(), forced.end(), dag.cuts.begin()),
       "cuts " << str(dag.cuts) << ", forced " << str(forced));
  // The result is buildDag with those cuts, numbered within the limit.
  PROP_CHECK(checkSameDag(buildDag(cfg, dag.cuts), dag));
  PROP_CHECK(checkSameNumbering(computeBLIncrements(dag, limit), bl));

  PROP(bl.totalPaths >= 1 && bl.totalPaths <= limit,
       "" << bl.totalPaths << " paths, limit " << limit);
  PathCounter paths(dag);
  const std::vector<bool> nodes = dagNodes(dag);
  for (BlockId v = 0; v < dag.numNodes(); ++v)
    if (nodes[v]) {
      PROP(bl.numPaths[v] <= limit, "block " << v << ": " << bl.numPaths[v]);
      PROP(bl.numPaths[v] == paths(v), "block " << v);
    }
  PROP(bl.totalPaths == paths(dag.entry));
  // Every path of the cut DAG (every cut segment) gets its own id.
  if (bl.totalPaths <= kEnumerationLimit) {
    std::vector<uint64_t> ids;
    for (const auto &p : allPaths(dag))
      ids.push_back(valueSum(bl, p));
    std::sort(ids.begin(), ids.end());
    PROP(ids.size() == bl.totalPaths);
    for (uint64_t i = 0; i < ids.size(); ++i)
      PROP(ids[i] == i, "sorted sum #" << i << " is " << ids[i]);
    tally(stats, "enumerated_paths", ids.size());
  }
  // Determinism: the same cuts and numbering again.
  const NumberedDag again = numberBallLarus(cfg, limit, forced);
  PROP_CHECK(checkSameDag(again.dag, dag));
  PROP_CHECK(checkSameNumbering(again.ballLarus, bl));

  PROP_CHECK(checkRoundTrips(dag, bl, someIds(bl.totalPaths, rng, samples),
                             stats));
  const std::vector<uint64_t> interesting =
      randomInteresting(bl.totalPaths, rng, 8);
  const PppNumbering ppp = computePPPIncrements(dag, bl, interesting);
  PROP_CHECK(checkPpp(dag, bl, interesting, {}, stats));
  const ChordPlacement placement = computeChordIncrements(dag, bl, ppp.weight);
  PROP_CHECK(checkSpanningTree(dag, placement));
  PROP_CHECK(checkEventCounting(dag, placement, ppp.weight,
                                somePaths(dag, bl, rng, samples)));
  return "";
}

// Is there a cut set (holding the forced cuts) that numbers the graph
// within a limit? A branch and bound over the blocks that can be cut, in
// topological order, on a model of what buildDag(cfg, cuts) gives:
// a block keeps its CFG edges into EXIT and its PathEnd; uncut, it adds its
// successors' paths; cut, those become one PathEnd and each successor gets
// a PathStart. For a partial choice the model's count at ENTRY is a lower
// bound (an undecided block counts the fewer of its two counts and starts
// no path yet); with every block decided it is exact.
class CutSearch {
public:
  enum class Result { Found, None, GaveUp };

  CutSearch(const Cfg &cfg, const std::vector<BlockId> &forced)
      : uncut_(buildDag(cfg)), order_(uncut_.reverseTopologicalOrder()),
        choice_(cfg.numBlocks(), Choice::Keep), intoExit_(cfg.numBlocks(), 0),
        end_(cfg.numBlocks(), 0), inner_(cfg.numBlocks()) {
    for (BlockId v : order_)
      for (DagEdgeId e : uncut_.out[v]) {
        const DagEdge &d = uncut_.edges[e];
        if (d.role == DagEdgeRole::PathEnd)
          end_[v] = 1;
        else if (d.role == DagEdgeRole::PathStart)
          staticStarts_.push_back(d.dst);
        else if (d.dst == uncut_.exit)
          ++intoExit_[v];
        else
          inner_[v].push_back(d.dst);
      }
    for (BlockId b : forced)
      choice_[b] = Choice::Cut;
    for (BlockId v : order_)
      if (v != uncut_.entry && v != uncut_.exit && !inner_[v].empty() &&
          choice_[v] != Choice::Cut) {
        choice_[v] = Choice::Undecided;
        cuttable_.push_back(v);
      }
    // Deciding from ENTRY down prunes far more than from EXIT up.
    std::reverse(cuttable_.begin(), cuttable_.end());
  }

  Result find(uint64_t limit, std::vector<BlockId> &cuts, unsigned budget) {
    limit_ = limit;
    budget_ = budget;
    if (!branch(0))
      return budget_ == 0 ? Result::GaveUp : Result::None;
    cuts.clear();
    for (BlockId v = 0; v < choice_.size(); ++v)
      if (choice_[v] == Choice::Cut && v != uncut_.entry)
        cuts.push_back(v);
    return Result::Found;
  }

private:
  enum class Choice : uint8_t { Keep, Cut, Undecided };

  static uint64_t capped(unsigned __int128 x) {
    return x >= UINT64_MAX ? UINT64_MAX : static_cast<uint64_t>(x);
  }

  uint64_t bound() const {
    std::vector<uint64_t> paths(choice_.size(), 0);
    std::vector<bool> started(choice_.size(), false);
    for (BlockId w : staticStarts_)
      started[w] = true;
    std::vector<BlockId> newStarts;
    for (BlockId v : order_) {
      if (v == uncut_.exit) {
        paths[v] = 1;
        continue;
      }
      unsigned __int128 kept = intoExit_[v] + end_[v];
      for (BlockId w : inner_[v])
        kept += paths[w];
      if (v == uncut_.entry) {
        for (BlockId w : staticStarts_)
          kept += paths[w];
        for (BlockId w : newStarts)
          kept += paths[w];
        paths[v] = capped(kept);
        continue;
      }
      const uint64_t cut = capped(intoExit_[v] + 1);
      switch (inner_[v].empty() ? Choice::Keep : choice_[v]) {
      case Choice::Keep:
        paths[v] = capped(kept);
        break;
      case Choice::Cut:
        paths[v] = cut;
        for (BlockId w : inner_[v])
          if (!started[w]) {
            started[w] = true;
            newStarts.push_back(w);
          }
        break;
      case Choice::Undecided:
        paths[v] = std::min(capped(kept), cut);
        break;
      }
    }
    return paths[uncut_.entry];
  }

  bool branch(size_t i) {
    if (budget_ == 0)
      return false;
    --budget_;
    if (bound() > limit_)
      return false;
    if (i == cuttable_.size())
      return true;
    const BlockId v = cuttable_[i];
    for (Choice c : {Choice::Cut, Choice::Keep}) {
      choice_[v] = c;
      if (branch(i + 1))
        return true;
      if (budget_ == 0)
        return false;
    }
    choice_[v] = Choice::Undecided;
    return false;
  }

  Dag uncut_;
  std::vector<BlockId> order_;
  std::vector<Choice> choice_;
  std::vector<uint64_t> intoExit_, end_;
  std::vector<std::vector<BlockId>> inner_; // CFG successors other than EXIT
  std::vector<BlockId> staticStarts_;       // PathStarts whatever is cut
  std::vector<BlockId> cuttable_;           // undecided, topological order
  uint64_t limit_ = 0;
  unsigned budget_ = 0;
};

// Why numberBallLarus may refuse `limit`. Its guarantee: the greedy cuts
// (halving the inner limit down to 1) never need more paths than cutting
// every block, so a limit at least that large is always met. Optimal cut
// sets are a hard combinatorial problem and not promised: an exact search
// counts, in the stats, the refusals where some cut set would have worked.
// Returns "" if the refusal is within the guarantee.
std::string checkRefusalJustified(const Cfg &cfg, uint64_t limit,
                                  const std::vector<BlockId> &forced,
                                  Stats *stats) {
  const Dag uncut = buildDag(cfg);
  std::vector<BlockId> everyBlock;
  for (BlockId b = 0; b < cfg.numBlocks(); ++b)
    if (uncut.reachable[b] && b != cfg.entry() && b != cfg.exit())
      everyBlock.push_back(b);
  const Dag allCut = buildDag(cfg, everyBlock);
  const uint64_t allCutPaths = PathCounter(allCut)(allCut.entry);
  if (limit >= allCutPaths) {
    std::ostringstream os;
    os << "numberBallLarus refused a limit that cutting every block meets: "
       << "numberBallLarus(cfg, " << limit << ", forcedCuts " << str(forced)
       << ") threw NumberingOverflow, but cutting every block gives "
       << allCutPaths << " paths";
    return os.str();
  }
  CutSearch search(cfg, forced);
  std::vector<BlockId> cuts;
  switch (search.find(limit, cuts, 50000)) {
  case CutSearch::Result::None:
    tally(stats, "refused_no_cut_set_works");
    break;
  case CutSearch::Result::GaveUp:
    tally(stats, "refused_unverified_search_gave_up");
    break;
  case CutSearch::Result::Found:
    tally(stats, "refused_though_a_cut_set_exists");
    break;
  }
  return "";
}

TEST(PropertyDag, RandomGraphsBecomeDags) {
  Stats stats;
  forRandomGraphs(1000000, 10000, {}, propertyDag, stats);
  stats.print(testName());
}

TEST(PropertyBallLarus, IdsAreExactlyZeroToN) {
  Stats stats;
  forRandomGraphs(2000000, 8000, {}, propertyBallLarusIds, stats);
  stats.print(testName());
}

TEST(PropertyRegeneration, RegenerationInvertsNumbering) {
  Stats stats;
  forRandomGraphs(3000000, 5000, {}, propertyRegeneration, stats);
  stats.print(testName());
}

TEST(PropertyChords, ChordSumsAreBothIdsOnEveryPath) {
  Stats stats;
  forRandomGraphs(4000000, 6000, {}, propertyEventCounting, stats);
  stats.print(testName());
}

TEST(PropertyPpp, InterestingPathsGetUniqueCompactIds) {
  Stats stats;
  forRandomGraphs(5000000, 4000, {}, propertyPpp, stats);
  stats.print(testName());
}

// Numbered with the default limit: cut where needed, every segment's ids
// checked on samples.
std::string propertyDefaultLimit(const Cfg &cfg, uint64_t seed, Stats *stats) {
  const NumberedDag numbered = numberBallLarus(cfg);
  tally(stats, "cuts", numbered.dag.cuts.size());
  const PathCount acyclic = countAcyclicPaths(cfg);
  if (acyclic.saturated || acyclic.count >= (uint64_t(1) << 60))
    tally(stats, "more_than_2^60_paths");
  PROP(acyclic.saturated || acyclic.count <= kDefaultPathLimit ||
           !numbered.dag.cuts.empty(),
       "" << acyclic.count << " paths and no cut");
  std::mt19937_64 rng(seed);
  return checkNumberedWithCuts(cfg, numbered, kDefaultPathLimit, {}, rng,
                               2000, stats);
}

// 80 diamonds in a row: 2^80 paths, more than 64 bits hold.
TEST(PropertyCuts, ChainOf80DiamondsIsCutBelowTheDefaultLimit) {
  Stats stats;
  for (uint64_t variant = 0; variant < 5; ++variant) {
    std::mt19937_64 rng(variant);
    const Cfg cfg = diamondChain(80, variant ? &rng : nullptr);
    EXPECT_TRUE(countAcyclicPaths(cfg).saturated);
    EXPECT_FALSE(numberBallLarus(cfg).dag.cuts.empty());
    forGraph(cfg, variant, propertyDefaultLimit, stats);
  }
  stats.print(testName());
}

TEST(PropertyCuts, ManyPathsFitTheRegistersUnderTheDefaultLimit) {
  Stats stats;
  for (uint64_t seed = 0; seed < 150; ++seed) {
    std::mt19937_64 rng(7000000 + seed);
    const uint32_t k = 40 + static_cast<uint32_t>(rng() % 81);
    forGraph(diamondChain(k, &rng), seed, propertyDefaultLimit, stats);
  }
  stats.print(testName());
}

// Small limits (2..50), sometimes with forced cuts: either every cut
// segment is numbered 0..N-1 within the limit, or the refusal is one the
// algorithm's guarantee allows.
std::string propertySmallLimit(const Cfg &cfg, uint64_t seed, Stats *stats) {
  std::mt19937_64 rng(seed);
  const uint64_t limit = 2 + rng() % 49;
  std::vector<BlockId> forced;
  if (rng() % 4 == 0) {
    const Dag uncut = buildDag(cfg);
    for (BlockId b = 0; b < cfg.numBlocks(); ++b)
      if (uncut.reachable[b] && b != cfg.entry() && b != cfg.exit() &&
          rng() % 3 == 0)
        forced.push_back(b);
    tally(stats, "with_forced_cuts");
  }
  NumberedDag numbered;
  try {
    numbered = numberBallLarus(cfg, limit, forced);
  } catch (const NumberingOverflow &) {
    tally(stats, "refused");
    return checkRefusalJustified(cfg, limit, forced, stats);
  }
  tally(stats, numbered.dag.cuts.empty() ? "numbered_uncut" : "numbered_cut");
  tally(stats, "cuts", numbered.dag.cuts.size());
  return checkNumberedWithCuts(cfg, numbered, limit, forced, rng, 50, stats);
}

TEST(PropertyCuts, SmallPathLimitsCutEverySegmentToUniqueIds) {
  Stats stats;
  forRandomGraphs(6000000, 5000, {}, propertySmallLimit, stats);
  stats.print(testName());
}

// The minimal graph found for the refusal above: ENTRY 0 -> 1 and -> 2;
// block 1 has four edges into EXIT 4 (4 paths whatever is cut), block 2
// two edges to 3, block 3 two edges into EXIT (2 -> 4 paths). 8 paths, limit
// 7: cutting block 2 gives 4 + 1 + 2 = 7 paths.
TEST(PropertyCuts, SmallestRefusedGraphThatACutSetNumbers) {
  const Cfg cfg = parseCfg(
      "blocks 5 entry 0 exit 4: 0->1 fallthru 0, 0->2 fallthru 0, "
      "1->4 switch 0, 1->4 switch 0, 1->4 switch 0, 1->4 switch 0, "
      "2->3 true 0, 2->3 false 0, 3->4 true 0, 3->4 false 0");
  EXPECT_EQ(countAcyclicPaths(cfg).count, 8u);
  const BallLarusNumbering cut = computeBLIncrements(buildDag(cfg, {2}), 7);
  EXPECT_EQ(cut.totalPaths, 7u);
  EXPECT_NO_THROW({
    const NumberedDag numbered = numberBallLarus(cfg, 7);
    EXPECT_LE(numbered.ballLarus.totalPaths, 7u);
  }) << "a cut set meets the limit, so numberBallLarus must not refuse it";
}

// An adversarial but legal graph for the chords: a ladder of 60 rungs
// (L0 -> EXIT, Lj -> Lj-1 twice: 2^60 paths) below k zigzag blocks
// y1..yk. Each yi has out-edges yi -> xi, yi -> mi (yk -> the ladder's
// top), yi -> xi-1 in that order; mi -> yi+1; xi -> EXIT. About 2^60 + 2k
// paths: below the default limit, nothing is cut. All frequencies are 0,
// so the spanning tree takes edges in DAG edge id order, that is by block
// id: the yi come first, the xi and the mi last. The tree then holds
// ENTRY -> y1 and every yi -> xi and yi -> xi-1, and the tree path to yi
// zigzags y1 -> x1 <- y2 -> x2 <- ... through values Val(yi -> xi-1) of
// about 2^60 each: the potential of yi is about -(i-1) 2^60, and so is the
// increment of the chord xi -> EXIT.
Cfg zigzagOverLadder(uint32_t k, std::mt19937_64 *frequencies) {
  const uint32_t rungs = 60;
  const auto y = [](uint32_t i) { return 1 + i; };      // 2..k+1
  const auto x = [k](uint32_t i) { return k + 2 + i; }; // k+2..2k+2
  const auto rung = [k](uint32_t j) { return 2 * k + 3 + j; };
  const auto m = [k](uint32_t i) { return 2 * k + 3 + rungs + i; };
  Cfg cfg(2 * k + 3 + rungs + k, 0, 1);
  const auto f = [&]() -> uint64_t {
    return frequencies ? (*frequencies)() % 4 : 0;
  };
  cfg.addEdge(0, y(1), EdgeKind::Fallthru, f());
  for (uint32_t i = 1; i <= k; ++i) {
    cfg.addEdge(y(i), x(i), EdgeKind::SwitchCase, f());
    cfg.addEdge(y(i), i < k ? m(i) : rung(rungs), EdgeKind::SwitchCase, f());
    cfg.addEdge(y(i), x(i - 1), EdgeKind::SwitchCase, f());
  }
  for (uint32_t i = 0; i <= k; ++i)
    cfg.addEdge(x(i), 1, EdgeKind::Fallthru, f());
  cfg.addEdge(rung(0), 1, EdgeKind::Fallthru, f());
  for (uint32_t j = 1; j <= rungs; ++j) {
    cfg.addEdge(rung(j), rung(j - 1), EdgeKind::True, f());
    cfg.addEdge(rung(j), rung(j - 1), EdgeKind::False, f());
  }
  for (uint32_t i = 1; i < k; ++i)
    cfg.addEdge(m(i), y(i + 1), EdgeKind::Fallthru, f());
  return cfg;
}

// Chord increments can exceed any path id by far (around a fundamental
// cycle many Ball-Larus values add up: here about -(k-1) 2^60). The
// registers wrap, so every graph numberBallLarus accepts gets increments
// whose sums, modulo 2^64, are the ids.
TEST(PropertyChords, DefaultLimitLeavesRoomForTheChordIncrements) {
  Stats stats;
  const Property property = [](const Cfg &cfg, uint64_t seed, Stats *stats) {
    const NumberedDag numbered = numberBallLarus(cfg);
    tally(stats, "cuts", numbered.dag.cuts.size());
    std::mt19937_64 rng(seed);
    return checkNumberedWithCuts(cfg, numbered, kDefaultPathLimit, {}, rng,
                                 50, stats);
  };
  for (uint32_t k = 1; k <= 12; ++k)
    for (uint64_t seed = 0; seed < 4; ++seed) {
      // Frequencies all 0 (seed 0) or random.
      std::mt19937_64 rng(seed);
      const Cfg cfg = zigzagOverLadder(k, seed ? &rng : nullptr);
      stats.add("graphs");
      const std::string failure = runProperty(property, cfg, k, &stats);
      EXPECT_EQ(failure, "")
          << "k = " << k << ", frequencies " << (seed ? "random" : "all 0")
          << " (seed " << seed << ")\n  graph: " << describeCfg(cfg);
    }
  stats.print(testName());
}

// ---------------------------------------------------------------------------
// Property 7: checked arithmetic at the boundaries.

TEST(PropertyChecked, SignedAddAndSubThrowExactlyOnOverflow) {
  EXPECT_EQ(checkedAdd(INT64_MAX - 1, int64_t(1), "t"), INT64_MAX);
  EXPECT_THROW(checkedAdd(INT64_MAX, int64_t(1), "t"), NumberingOverflow);
  EXPECT_EQ(checkedAdd(INT64_MIN, int64_t(0), "t"), INT64_MIN);
  EXPECT_THROW(checkedAdd(INT64_MIN, int64_t(-1), "t"), NumberingOverflow);
  EXPECT_EQ(checkedAdd(INT64_MAX, INT64_MIN, "t"), -1);
  EXPECT_THROW(checkedAdd(INT64_MAX, INT64_MAX, "t"), NumberingOverflow);
  EXPECT_EQ(checkedSub(INT64_MIN + 1, int64_t(1), "t"), INT64_MIN);
  EXPECT_THROW(checkedSub(INT64_MIN, int64_t(1), "t"), NumberingOverflow);
  EXPECT_THROW(checkedSub(int64_t(0), INT64_MIN, "t"), NumberingOverflow);
  EXPECT_EQ(checkedSub(int64_t(-1), INT64_MIN, "t"), INT64_MAX);
  EXPECT_THROW(checkedSub(INT64_MAX, int64_t(-1), "t"), NumberingOverflow);
  // The message names the quantity.
  try {
    checkedAdd(INT64_MAX, int64_t(1), "chord increment");
    ADD_FAILURE() << "no throw";
  } catch (const NumberingOverflow &e) {
    EXPECT_NE(std::string(e.what()).find("chord increment"), std::string::npos);
  }
}

TEST(PropertyChecked, UnsignedAddThrowsAndSaturatingAddSticks) {
  EXPECT_EQ(checkedAdd(UINT64_MAX - 1, uint64_t(1), "t"), UINT64_MAX);
  EXPECT_THROW(checkedAdd(UINT64_MAX, uint64_t(1), "t"), NumberingOverflow);
  EXPECT_THROW(checkedAdd(UINT64_MAX, UINT64_MAX, "t"), NumberingOverflow);

  bool saturated = false;
  EXPECT_EQ(saturatingAdd(UINT64_MAX - 1, 1, saturated), UINT64_MAX);
  EXPECT_FALSE(saturated) << "exactly UINT64_MAX is not an overflow";
  EXPECT_EQ(saturatingAdd(UINT64_MAX, 0, saturated), UINT64_MAX);
  EXPECT_FALSE(saturated);
  EXPECT_EQ(saturatingAdd(UINT64_MAX, 1, saturated), UINT64_MAX);
  EXPECT_TRUE(saturated);
  // Sticky: a later sum that fits does not clear the flag.
  EXPECT_EQ(saturatingAdd(1, 2, saturated), 3u);
  EXPECT_TRUE(saturated);
  saturated = false;
  EXPECT_EQ(saturatingAdd(UINT64_MAX, UINT64_MAX, saturated), UINT64_MAX);
  EXPECT_TRUE(saturated);
}

TEST(PropertyChecked, PowerOfTwoAtLeastRoundsUpOrSaysItDoesNotFit) {
  EXPECT_EQ(powerOfTwoAtLeast(0), 1u);
  EXPECT_EQ(powerOfTwoAtLeast(1), 1u);
  EXPECT_EQ(powerOfTwoAtLeast(2), 2u);
  EXPECT_EQ(powerOfTwoAtLeast(3), 4u);
  EXPECT_EQ(powerOfTwoAtLeast(4096), 4096u);
  EXPECT_EQ(powerOfTwoAtLeast(4097), 8192u);
  EXPECT_EQ(powerOfTwoAtLeast(uint64_t{1} << 63), uint64_t{1} << 63);
  EXPECT_EQ(powerOfTwoAtLeast((uint64_t{1} << 63) + 1), 0u);
  EXPECT_EQ(powerOfTwoAtLeast(UINT64_MAX), 0u);
}

TEST(PropertyChecked, ToSignedAcceptsExactlyTheInt64Range) {
  EXPECT_EQ(toSigned(0, "t"), 0);
  EXPECT_EQ(toSigned(uint64_t(INT64_MAX), "t"), INT64_MAX);
  EXPECT_THROW(toSigned(uint64_t(INT64_MAX) + 1, "t"), NumberingOverflow);
  EXPECT_THROW(toSigned(UINT64_MAX, "t"), NumberingOverflow);
  EXPECT_EQ(toSigned(kDefaultPathLimit, "t"), int64_t(1) << 61);
}

TEST(PropertyChecked, RandomOperandsAgreeWithWideArithmetic) {
  std::mt19937_64 rng(7);
  // Operands near the boundaries as well as anywhere.
  const auto operand = [&]() -> uint64_t {
    switch (rng() % 4) {
    case 0:
      return rng();
    case 1:
      return UINT64_MAX - rng() % 4;
    case 2:
      return uint64_t(INT64_MAX) - 2 + rng() % 5;
    default:
      return rng() % 4;
    }
  };
  for (int i = 0; i < 200000; ++i) {
    const uint64_t a = operand(), b = operand();
    const unsigned __int128 wide = (unsigned __int128)a + b;
    if (wide > UINT64_MAX)
      EXPECT_THROW(checkedAdd(a, b, "t"), NumberingOverflow) << a << "+" << b;
    else
      EXPECT_EQ(checkedAdd(a, b, "t"), a + b);
    bool saturated = false;
    EXPECT_EQ(saturatingAdd(a, b, saturated),
              wide > UINT64_MAX ? UINT64_MAX : a + b);
    EXPECT_EQ(saturated, wide > UINT64_MAX) << a << "+" << b;

    const auto sa = static_cast<int64_t>(a), sb = static_cast<int64_t>(b);
    const __int128 sum = (__int128)sa + sb, diff = (__int128)sa - sb;
    if (sum > INT64_MAX || sum < INT64_MIN)
      EXPECT_THROW(checkedAdd(sa, sb, "t"), NumberingOverflow);
    else
      EXPECT_EQ(checkedAdd(sa, sb, "t"), static_cast<int64_t>(sum));
    if (diff > INT64_MAX || diff < INT64_MIN)
      EXPECT_THROW(checkedSub(sa, sb, "t"), NumberingOverflow);
    else
      EXPECT_EQ(checkedSub(sa, sb, "t"), static_cast<int64_t>(diff));
    if (a > uint64_t(INT64_MAX))
      EXPECT_THROW(toSigned(a, "t"), NumberingOverflow);
    else
      EXPECT_EQ(toSigned(a, "t"), sa);
    if (HasFailure())
      return;
  }
}

// A graph with exactly 2^64 - 1 acyclic paths (`extra`: one more path,
// 2^64): v0 -> EXIT, vi -> vi-1 twice (2^i paths), ENTRY -> every vi.
Cfg binaryLadder(bool extra) {
  const uint32_t n = 2 + 64; // 0 ENTRY, 1 EXIT, 2 + i = vi
  Cfg cfg(n, 0, 1);
  cfg.addEdge(2, 1, EdgeKind::Fallthru);
  for (uint32_t i = 1; i < 64; ++i) {
    cfg.addEdge(2 + i, 1 + i, EdgeKind::True);
    cfg.addEdge(2 + i, 1 + i, EdgeKind::False);
  }
  for (uint32_t i = 0; i < 64; ++i)
    cfg.addEdge(0, 2 + i, EdgeKind::SwitchCase);
  if (extra)
    cfg.addEdge(0, 2, EdgeKind::SwitchCase);
  return cfg;
}

TEST(PropertyChecked, PathCountsAtTheTwoToThe64Boundary) {
  // Dag.h: PathCount::saturated means "more than 2^64 - 1 paths".
  const PathCount over = countAcyclicPaths(binaryLadder(true));
  EXPECT_TRUE(over.saturated);
  EXPECT_EQ(over.count, UINT64_MAX);

  const PathCount exact = countAcyclicPaths(binaryLadder(false));
  EXPECT_EQ(exact.count, UINT64_MAX);
  EXPECT_FALSE(exact.saturated)
      << "exactly 2^64 - 1 paths is a count, not saturation";

  // Dag.h: computeBLIncrements throws "if a count exceeds `limit` (or 64
  // bits)"; 2^64 - 1 paths exceed neither with the default limit.
  const Dag dag = buildDag(binaryLadder(false));
  EXPECT_NO_THROW({
    const BallLarusNumbering bl = computeBLIncrements(dag);
    EXPECT_EQ(bl.totalPaths, UINT64_MAX);
  });
  EXPECT_THROW(computeBLIncrements(buildDag(binaryLadder(true))),
               NumberingOverflow);
  // Within the default limit the ladder is cut and numbered.
  const NumberedDag numbered = numberBallLarus(binaryLadder(false));
  EXPECT_LE(numbered.ballLarus.totalPaths, kDefaultPathLimit);
  EXPECT_FALSE(numbered.dag.cuts.empty());
}

// parseCfg reads describeCfg's edge lists back (reproducers in failure
// messages can be pasted into tests).
TEST(PropertyHarness, EdgeListsRoundTrip) {
  for (uint64_t seed = 0; seed < 200; ++seed) {
    std::mt19937_64 rng(seed);
    const Cfg cfg = randomCfg(rng);
    const Cfg back = parseCfg(describeCfg(cfg));
    ASSERT_EQ(describeCfg(back), describeCfg(cfg)) << "seed " << seed;
  }
}

} // namespace
