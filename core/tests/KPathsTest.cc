// k-iteration path profiling: the k-slab forest the runtime keeps (built
// here by the reference KSlabBuilder), the checks a profile's forest must
// pass, and the k-IPF the tools make of it, against the thesis chapter's
// example, against brute-force n-gram counts, and against random
// executions of random CFGs instrumented as the plugin instruments them.
#include "pathcov/core/KPaths.h"

#include "RandomCfg.h"

#include "pathcov/core/Checked.h"
#include "pathcov/core/Dag.h"
#include "pathcov/core/LoopTransitions.h"
#include "pathcov/core/Paths.h"

#include <gtest/gtest.h>

#include <iostream>
#include <numeric>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>

namespace pathcov {
namespace {

using Counts = std::map<std::vector<uint64_t>, uint64_t>;

constexpr uint64_t kStar = kStreamStart;

std::vector<KSlabNode> buildKSlabForest(const std::vector<uint64_t> &stream,
                                        unsigned k) {
  KSlabBuilder builder(k);
  for (uint64_t r : stream)
    builder.processBlPathId(r);
  return builder.nodes();
}

uint64_t totalCount(const std::vector<KSlabNode> &nodes) {
  return std::accumulate(
      nodes.begin(), nodes.end(), uint64_t{0},
      [](uint64_t sum, const KSlabNode &node) { return sum + node.count; });
}

// The nodes as (parent, id, count) rows, which gtest compares and prints.
using Row = std::tuple<int64_t, uint64_t, uint64_t>;
std::vector<Row> rows(const std::vector<KSlabNode> &nodes) {
  std::vector<Row> out;
  for (const KSlabNode &node : nodes)
    out.emplace_back(node.parent, node.id, node.count);
  return out;
}

// The chapter's example: one invocation of its CFG, chunks (k = 4)
// <6,2,0> <0,2,2> <0,0,2> <2,0,0> <2,3>.
const std::vector<uint64_t> kThesisStream{kStar, 6, 2, 0, 0, 2, 2, 0,
                                          0,     2, 2, 0, 0, 2, 3};

TEST(KPathsTest, ThesisExampleSlabForest) {
  const std::vector<KSlabNode> nodes = buildKSlabForest(kThesisStream, 4);
  ASSERT_EQ(checkKSlabForest(nodes, 4, 8), "");
  // By hand from process_bl_path_id; the forest's long paths are the
  // chapter's list L: <6,2,0,0,2,2>, <0,2,2,0,0,2>, <0,0,2,2,0,0>,
  // <2,0,0,2,3>, and the upper-slab paths <0,0,2> and <2,3>. The nodes
  // each id makes, in order:
  const std::vector<Row> expected{
      {-1, 6, 1},            // 6: c1, a sequence's first chunk: upper slab only
      {0, 2, 1},             // 2
      {1, 0, 1},             // 0
      {-1, 0, 0}, {2, 0, 1}, // 0: c2, a new tree, and c1's path goes on
      {3, 2, 0},  {4, 2, 1}, // 2
      {5, 2, 0},  {6, 2, 1}, // 2
      {7, 0, 1},             // 0: c3, root 0 is there already
      {3, 0, 0},  {9, 0, 1}, // 0
      {10, 2, 0}, {11, 2, 1}, // 2
      {-1, 2, 0}, {12, 2, 1}, // 2: c4
      {14, 0, 0}, {15, 0, 1}, // 0
      {16, 0, 0}, {17, 0, 1}, // 0
      {18, 2, 1},             // 2: c5, root 2 is there already
      {14, 3, 0}, {20, 3, 1}, // 3
  };
  EXPECT_EQ(rows(nodes), expected);

  // One tree per chunk-starting id: 6, 0, 2.
  std::vector<uint64_t> roots;
  for (const KSlabNode &node : nodes)
    if (node.parent < 0)
      roots.push_back(node.id);
  EXPECT_EQ(roots, (std::vector<uint64_t>{6, 0, 2}));
  EXPECT_EQ(totalCount(nodes), 14u);

  // <0,0> occurs three times in the stream and five times in the 4-SF;
  // only the three that end in the bottom slab are counted.
  unsigned edges = 0;
  uint64_t counted = 0;
  for (const KSlabNode &node : nodes)
    if (node.parent >= 0 && nodes[node.parent].id == 0 && node.id == 0) {
      ++edges;
      counted += node.count;
    }
  EXPECT_EQ(edges, 5u);
  EXPECT_EQ(counted, 3u);
}

TEST(KPathsTest, ThesisExampleIterationPathForest) {
  const Counts ipf = makeKIpf(buildKSlabForest(kThesisStream, 4), 4);
  // By hand from the stream 6 2 0 0 2 2 0 0 2 2 0 0 2 3: 14 ids, 13
  // 2-grams, 12 3-grams, 11 4-grams.
  const Counts expected{
      // 1-grams, the first level: plain Ball-Larus counts.
      {{0}, 6},
      {{2}, 6},
      {{3}, 1},
      {{6}, 1},
      // 2-grams.
      {{0, 0}, 3},
      {{0, 2}, 3},
      {{2, 0}, 3},
      {{2, 2}, 2},
      {{2, 3}, 1},
      {{6, 2}, 1},
      // 3-grams.
      {{0, 0, 2}, 3},
      {{0, 2, 2}, 2},
      {{0, 2, 3}, 1},
      {{2, 0, 0}, 3},
      {{2, 2, 0}, 2},
      {{6, 2, 0}, 1},
      // 4-grams; <2,0,0,2> is the chapter's B C E B D E B D E B C E.
      {{0, 0, 2, 2}, 2},
      {{0, 0, 2, 3}, 1},
      {{0, 2, 2, 0}, 2},
      {{2, 0, 0, 2}, 3},
      {{2, 2, 0, 0}, 2},
      {{6, 2, 0, 0}, 1},
  };
  EXPECT_EQ(ipf, expected);
  EXPECT_EQ(ipf, countNGrams(kThesisStream, 4));
  // A 4-SF holds the smaller k's forests too (Property 2); k = 1 is
  // Ball-Larus profiling.
  EXPECT_EQ(makeKIpf(buildKSlabForest(kThesisStream, 4), 1),
            (Counts{{{0}, 6}, {{2}, 6}, {{3}, 1}, {{6}, 1}}));
}

TEST(KPathsTest, NoSequenceCrossesAStreamStart) {
  // Without its markers the stream would have <1,1>, <0,1,1>, ...
  const std::vector<uint64_t> stream{kStar, 0, 1, kStar, 1, 0, kStar};
  const std::vector<KSlabNode> nodes = buildKSlabForest(stream, 2);
  ASSERT_EQ(checkKSlabForest(nodes, 2, 2), "");
  // With k = 2 every id is a chunk: a root, and a child of the id
  // before it unless a marker came between. Root 1 counts the 1 after the
  // second marker, the first id of its sequence.
  EXPECT_EQ(rows(nodes), (std::vector<Row>{
                             {-1, 0, 1}, // 0
                             {-1, 1, 1}, // 1: a root, and <0,1> below 0
                             {0, 1, 1},
                             {1, 0, 1}, // * 1 0: <1,0> below root 1
                         }));

  EXPECT_EQ(totalCount(nodes), 4u);
  const Counts expected{{{0}, 2}, {{1}, 2}, {{0, 1}, 1}, {{1, 0}, 1}};
  EXPECT_EQ(makeKIpf(nodes, 2), expected);
  EXPECT_EQ(countNGrams(stream, 2), expected);
  // A stream need not start with a marker.
  EXPECT_EQ(rows(buildKSlabForest({0, 1, kStar, 1, 0}, 2)), rows(nodes));
}

TEST(KPathsTest, EmptyStreams) {
  for (const std::vector<uint64_t> &stream :
       {std::vector<uint64_t>{}, std::vector<uint64_t>{kStar, kStar}}) {
    const std::vector<KSlabNode> nodes = buildKSlabForest(stream, 3);
    EXPECT_TRUE(nodes.empty());
    EXPECT_EQ(checkKSlabForest(nodes, 3, 0), "");
    EXPECT_TRUE(makeKIpf(nodes, 3).empty());
    EXPECT_TRUE(countNGrams(stream, 3).empty());
  }
}

TEST(KPathsTest, RefusesKOutOfRange) {
  EXPECT_THROW(KSlabBuilder{1}, std::invalid_argument);
  EXPECT_THROW(KSlabBuilder{kKPathMax + 1}, std::invalid_argument);
  EXPECT_NO_THROW(KSlabBuilder{kKPathMax});
  EXPECT_THROW(makeKIpf({}, 0), std::invalid_argument);
  EXPECT_THROW(makeKIpf({}, kKPathMax + 1), std::invalid_argument);
  EXPECT_EQ(checkKSlabForest({}, 1, 1), "k = 1 is not in 2..16");
  EXPECT_EQ(checkKSlabForest({}, 17, 1), "k = 17 is not in 2..16");
}

TEST(KPathsTest, MatchesNGramCountsOnRandomStreams) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    std::mt19937_64 random(seed);
    const auto below = [&](uint64_t n) {
      return std::uniform_int_distribution<uint64_t>(0, n - 1)(random);
    };
    const uint64_t length = below(301);
    const uint64_t alphabet = 1 + below(6);
    // From no markers to one item in three.
    const uint64_t markerOdds = below(4) == 0 ? 0 : 3 + below(20);
    std::vector<uint64_t> stream;
    uint64_t ids = 0;
    for (uint64_t i = 0; i < length; ++i) {
      if (markerOdds && below(markerOdds) == 0) {
        stream.push_back(kStar);
      } else {
        stream.push_back(below(alphabet));
        ++ids;
      }
    }
    for (unsigned k = 2; k <= 6; ++k) {
      SCOPED_TRACE("seed " + std::to_string(seed) + ", k = " +
                   std::to_string(k) + ", " + std::to_string(length) +
                   " items, " + std::to_string(alphabet) + " ids");
      const std::vector<KSlabNode> nodes = buildKSlabForest(stream, k);
      ASSERT_EQ(checkKSlabForest(nodes, k, alphabet), "");
      EXPECT_EQ(totalCount(nodes), ids);
      // At most two nodes an id (top and bottom), and no more than a
      // full forest of 2k-2 levels over the alphabet.
      EXPECT_LE(nodes.size(), 2 * ids);
      uint64_t fullForest = 0, level = 1;
      for (unsigned depth = 0; depth <= 2 * k - 3; ++depth)
        fullForest += level *= alphabet;
      EXPECT_LE(nodes.size(), fullForest);
      for (unsigned j = 1; j <= k; ++j)
        ASSERT_EQ(makeKIpf(nodes, j), countNGrams(stream, j)) << "j = " << j;
    }
  }
}

// Node 0 a root labelled 0 with children 1 and 2 (labels 1, 2); node 3
// below node 1: a well-formed 3-SF (depth up to 3) for 3 paths.
std::vector<KSlabNode> smallForest() {
  return {{-1, 0, 1}, {0, 1, 1}, {0, 2, 1}, {1, 0, 1}};
}

TEST(KPathsTest, RefusesMalformedForests) {
  std::vector<KSlabNode> nodes = smallForest();
  ASSERT_EQ(checkKSlabForest(nodes, 3, 3), "");

  nodes = smallForest();
  nodes[1].parent = 3;
  EXPECT_EQ(checkKSlabForest(nodes, 3, 3),
            "nodes[1]: parent 3 does not come before it");
  nodes[1].parent = 1;
  EXPECT_EQ(checkKSlabForest(nodes, 3, 3),
            "nodes[1]: parent 1 does not come before it");

  nodes = smallForest();
  nodes[2].parent = 4;
  EXPECT_EQ(checkKSlabForest(nodes, 3, 3),
            "nodes[2]: parent 4 is not a node (4 of them)");
  nodes[2].parent = -2;
  EXPECT_EQ(checkKSlabForest(nodes, 3, 3),
            "nodes[2]: parent -2 is not a node (4 of them)");

  nodes = smallForest();
  nodes[2].id = 1;
  EXPECT_EQ(checkKSlabForest(nodes, 3, 3),
            "nodes[2]: a second child of nodes[0] with path 1 (nodes[1] is "
            "the first)");

  nodes = smallForest();
  nodes.push_back({-1, 0, 0});
  EXPECT_EQ(checkKSlabForest(nodes, 3, 3),
            "nodes[4]: a second root with path 0 (nodes[0] is the first)");

  // Depth 3 is a 3-SF's deepest level; 4 is too deep, and a 2-SF has
  // depth 1 at most.
  nodes = smallForest();
  nodes.push_back({3, 2, 1});
  ASSERT_EQ(checkKSlabForest(nodes, 3, 3), "");
  nodes.push_back({4, 2, 1});
  EXPECT_EQ(checkKSlabForest(nodes, 3, 3),
            "nodes[5]: at depth 4, below the deepest level of a 3-SF (depth "
            "3)");
  EXPECT_EQ(checkKSlabForest(smallForest(), 2, 3),
            "nodes[3]: at depth 2, below the deepest level of a 2-SF (depth "
            "1)");

  nodes = smallForest();
  EXPECT_EQ(checkKSlabForest(nodes, 3, 2),
            "nodes[2]: path 2 is not in paths (2 of them)");
  nodes[0].id = kStreamStart;
  EXPECT_EQ(checkKSlabForest(nodes, 3, UINT64_MAX),
            "nodes[0]: path 18446744073709551615 is not in paths "
            "(18446744073709551615 of them)");
}

// Random CFGs, random executions. Each graph (RandomCfg.h, loops and
// parallel edges; every other graph also with abnormal and fake edges, dead
// ends and unreachable blocks) is numbered by numberBallLarus, with a small
// path limit now and then so that some blocks are cut. Then a few calls
// walk it from ENTRY along random ordinary successors (InDag, BackEdge and
// Cut edges; abnormal and fake edges are never taken) with the Ball-Larus
// register kept as the plugin's code keeps it (Instrumenter.cc): 0 at
// ENTRY, plus Val(e) on each DAG edge; at a back edge or a cut edge v->w
// the path ends at v (plus Val of v's PathEnd dummy) and the next starts at
// w with Val of w's PathStart dummy; at EXIT the path ends. The stream of
// ids has a kStreamStart at each call's start and after each cut (a cut
// breaks the sequence), none after a back edge (the next iteration goes
// on). A call that is still running after its step budget, or reaches a
// block with no ordinary successor, is interrupted: its current path is
// dropped, as the runtime drops an interrupted path. Then:
//  1. each emitted id regenerates to exactly the DAG edges (and blocks)
//     the walk took for it: the simulation is the instrumentation's;
//  2. makeKIpf of the KSlabBuilder's k-SF is countNGrams of the stream for
//     k = 2..4, and one 4-SF holds the IPFs of every j <= 4;
//  3. in every window of the k-IPF, each two ids in a row (a, b) are a
//     path a ending at a block v (its PathEnd dummy) and a path b starting
//     at a block h != ENTRY (its PathStart dummy) with a CFG back edge v->h:
//     windows only join paths across back edges. The 2-windows are the
//     back-edge crossings the walks made, with their counts, and
//     loopTransitions puts every one of them in a loop;
//  4. level 1 of the k-IPF counts how often each id was emitted.
TEST(KPathsTest, RandomExecutionsOfRandomCfgs) {
  using test::describeCfg;
  using test::randomCfg;
  using test::RandomCfgOptions;
  std::map<std::string, uint64_t> stats;
  for (uint64_t seed = 1; seed <= 1000; ++seed) {
    std::mt19937_64 random(seed);
    const auto below = [&](uint64_t n) {
      return std::uniform_int_distribution<uint64_t>(0, n - 1)(random);
    };
    RandomCfgOptions options;
    options.irregular = seed % 2 ? 0.0 : 1.0;
    const Cfg cfg = randomCfg(random, options);

    // A quarter of the graphs are numbered under a small path limit, which
    // cuts blocks (when the limit cannot be met at all, the default one).
    static constexpr uint64_t kSmallLimits[] = {6, 15, 40, 100};
    uint64_t limit = kDefaultPathLimit;
    if (below(4) == 0)
      limit = kSmallLimits[below(4)];
    NumberedDag numbered;
    try {
      numbered = numberBallLarus(cfg, limit);
    } catch (const NumberingOverflow &) {
      ++stats["limit_unmet"];
      limit = kDefaultPathLimit;
      numbered = numberBallLarus(cfg, limit);
    }
    const Dag &dag = numbered.dag;
    const BallLarusNumbering &bl = numbered.ballLarus;
    SCOPED_TRACE("seed " + std::to_string(seed) + ", path limit " +
                 std::to_string(limit) + ", " +
                 std::to_string(dag.cuts.size()) + " cuts, graph " +
                 describeCfg(cfg));
    ++stats["graphs"];
    if (!dag.cuts.empty())
      ++stats["graphs_cut"];

    // The back edges v->h, as (v, h).
    std::set<std::pair<BlockId, BlockId>> backEdges;
    for (EdgeId id = 0; id < cfg.edges().size(); ++id)
      if (dag.cfgEdgeRole[id] == CfgEdgeRole::BackEdge)
        backEdges.emplace(cfg.edge(id).src, cfg.edge(id).dst);

    std::vector<uint64_t> stream;
    std::map<uint64_t, uint64_t> emitted; // id -> times
    Counts crossings; // {a, b} -> times path b followed a over a back edge
    const unsigned calls = 1 + static_cast<unsigned>(below(6));
    for (unsigned call = 0; call < calls; ++call) {
      ++stats["calls"];
      stream.push_back(kStreamStart);
      const uint64_t maxSteps = 5 + below(150);
      BlockId b = cfg.entry();
      uint64_t reg = 0;
      std::vector<DagEdgeId> edges;     // the current path's DAG edges
      std::vector<BlockId> blocks{b};   // and blocks, as pathBlocks has them
      uint64_t joinFrom = kStreamStart; // the path before a back edge
      const auto emit = [&] {
        ASSERT_LT(reg, bl.totalPaths);
        ASSERT_EQ(regeneratePath(dag, bl, reg), edges) << "id " << reg;
        ASSERT_EQ(pathBlocks(dag, edges), blocks) << "id " << reg;
        stream.push_back(reg);
        ++emitted[reg];
        if (joinFrom != kStreamStart)
          ++crossings[{joinFrom, reg}];
        joinFrom = kStreamStart;
      };
      for (uint64_t step = 0;; ++step) {
        if (b == cfg.exit()) {
          emit();
          ++stats["returns"];
          break;
        }
        std::vector<EdgeId> ordinary;
        for (EdgeId id : cfg.succs(b)) {
          const CfgEdgeRole role = dag.cfgEdgeRole[id];
          if (role == CfgEdgeRole::InDag || role == CfgEdgeRole::BackEdge ||
              role == CfgEdgeRole::Cut)
            ordinary.push_back(id);
        }
        if (ordinary.empty() || step == maxSteps) {
          ++stats["interrupted"];
          break; // the current path is dropped, its sequence with it
        }
        const EdgeId id = ordinary[below(ordinary.size())];
        const BlockId to = cfg.edge(id).dst;
        const CfgEdgeRole role = dag.cfgEdgeRole[id];
        if (role == CfgEdgeRole::InDag) {
          const DagEdgeId e = dag.dagEdgeOfCfgEdge[id];
          ASSERT_NE(e, kNoId);
          reg += bl.value[e];
          edges.push_back(e);
          blocks.push_back(to);
        } else {
          ASSERT_NE(dag.pathEnd[b], kNoId) << "block " << b;
          ASSERT_NE(dag.pathStart[to], kNoId) << "block " << to;
          reg += bl.value[dag.pathEnd[b]];
          edges.push_back(dag.pathEnd[b]);
          emit();
          if (::testing::Test::HasFatalFailure())
            return;
          if (role == CfgEdgeRole::Cut) {
            ++stats["cut_edges_taken"];
            stream.push_back(kStreamStart);
          } else {
            ++stats["back_edges_taken"];
            joinFrom = stream.back();
          }
          reg = bl.value[dag.pathStart[to]];
          edges.assign(1, dag.pathStart[to]);
          blocks.assign(1, to);
        }
        b = to;
      }
      if (::testing::Test::HasFatalFailure())
        return;
    }
    Counts level1;
    for (const auto &[id, times] : emitted) {
      level1[{id}] = times;
      stats["ids"] += times;
    }
    const std::vector<KSlabNode> forest4 = buildKSlabForest(stream, 4);
    for (unsigned k = 2; k <= 4; ++k) {
      SCOPED_TRACE("k = " + std::to_string(k));
      const std::vector<KSlabNode> nodes =
          k == 4 ? forest4 : buildKSlabForest(stream, k);
      ASSERT_EQ(checkKSlabForest(nodes, k, bl.totalPaths), "");
      const Counts ipf = makeKIpf(nodes, k);
      ASSERT_EQ(ipf, countNGrams(stream, k));
      EXPECT_EQ(makeKIpf(forest4, k), ipf);

      Counts ipfLevel1, windows; // the IPF's levels 1 and 2
      for (const auto &[window, count] : ipf) {
        if (window.size() == 1)
          ipfLevel1[window] = count;
        if (window.size() == 2)
          windows[window] = count;
        if (window.size() == 4)
          ++stats["4_windows"];
        for (size_t i = 1; i < window.size(); ++i) {
          const PathEnds a = pathEnds(dag, bl, window[i - 1]);
          const PathEnds b = pathEnds(dag, bl, window[i]);
          ASSERT_NE(a.end, kNoId) << "path " << window[i - 1] << " returns";
          ASSERT_NE(b.start, kNoId)
              << "path " << window[i] << " starts at ENTRY";
          EXPECT_NE(b.start, cfg.entry());
          EXPECT_TRUE(backEdges.count({a.end, b.start}))
              << "paths " << window[i - 1] << ", " << window[i]
              << ": no back edge " << a.end << "->" << b.start;
        }
      }
      EXPECT_EQ(ipfLevel1, level1);
      EXPECT_EQ(windows, crossings);
    }
    std::vector<PathPair> pairs;
    for (const auto &[pair, count] : crossings)
      pairs.emplace_back(pair[0], pair[1]);
    const TransitionCoverage coverage = loopTransitions(cfg, numbered, pairs);
    EXPECT_TRUE(coverage.other.empty());
    size_t tested = 0;
    for (const LoopCoverage &loop : coverage.loops) {
      tested += loop.tested.size();
      for (const PathPair &pair : loop.tested)
        EXPECT_EQ(pathEnds(dag, bl, pair.second).start, loop.loop.header);
    }
    EXPECT_EQ(tested, pairs.size());
    stats["2_windows"] += pairs.size();
    if (::testing::Test::HasFailure())
      return; // one failing graph is enough to read
  }
  std::cout << "[  stats   ] KPathsTest.RandomExecutionsOfRandomCfgs:";
  for (const auto &[what, n] : stats)
    std::cout << ' ' << what << '=' << n;
  std::cout << std::endl;
  // The walks did what the test is about.
  EXPECT_GT(stats["back_edges_taken"], 0u);
  EXPECT_GT(stats["cut_edges_taken"], 0u);
  EXPECT_GT(stats["interrupted"], 0u);
  EXPECT_GT(stats["returns"], 0u);
  EXPECT_GT(stats["4_windows"], 0u);
}

} // namespace
} // namespace pathcov
