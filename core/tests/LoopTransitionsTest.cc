// Loop transitions (LoopTransitions.h): the loops of a numbered DAG, how
// many 2-iteration transitions each has, and which windows are whose, on
// hand-made CFGs counted by hand and on random CFGs against brute force
// over every path id.
#include "pathcov/core/LoopTransitions.h"

#include "RandomCfg.h"

#include "pathcov/core/Paths.h"

#include <gtest/gtest.h>

#include <set>

namespace pathcov {
namespace {

// ENTRY 0, EXIT 1. A while loop with an if inside:
//
//   A: s = 0                     2
//   H: while (i < n)             3   true -> B, false -> X
//   B:   if (x & i)              4   true -> C, false -> D
//   C:     s += i;               5
//   D:   else s -= i;            6
//   L:   i++                     8   -> H: the back edge
//   X: return s                  7
Cfg whileWithIf() {
  Cfg cfg(9, 0, 1);
  cfg.addEdge(0, 2, EdgeKind::Fallthru);
  cfg.addEdge(2, 3, EdgeKind::Fallthru);
  cfg.addEdge(3, 4, EdgeKind::True);
  cfg.addEdge(3, 7, EdgeKind::False);
  cfg.addEdge(4, 5, EdgeKind::True);
  cfg.addEdge(4, 6, EdgeKind::False);
  cfg.addEdge(5, 8, EdgeKind::Fallthru);
  cfg.addEdge(6, 8, EdgeKind::Fallthru);
  cfg.addEdge(8, 3, EdgeKind::Fallthru);
  cfg.addEdge(7, 1, EdgeKind::Fallthru);
  return cfg;
}

uint64_t idOf(const NumberedDag &n, const std::vector<BlockId> &blocks) {
  return ballLarusIdOf(n.dag, n.ballLarus, pathFromBlocks(n.dag, blocks));
}

TEST(LoopTransitionsTest, WhileWithIfByHand) {
  const Cfg cfg = whileWithIf();
  const NumberedDag n = numberBallLarus(cfg);
  // Paths: from entry A H then X, or B C L, or B D L (3); from H after the
  // back edge the same three: 6 in all.
  ASSERT_EQ(n.ballLarus.totalPaths, 6u);
  // ENTRY ->* v: A 1; H 2 (through A, or started there); B, C, D, X 2;
  // L 4 (two ways to H, then C or D).
  EXPECT_EQ(pathsToBlocks(n.dag),
            (std::vector<uint64_t>{1, 6, 1, 2, 2, 2, 2, 2, 4}));

  const std::vector<Loop> loops = findLoops(cfg, n.dag, n.ballLarus);
  ASSERT_EQ(loops.size(), 1u);
  const Loop &loop = loops[0];
  EXPECT_EQ(loop.header, 3u);
  EXPECT_EQ(loop.latches, std::vector<BlockId>{8});
  // Paths ending at L: {from entry, from H} x {through C, through D} = 4.
  EXPECT_EQ(loop.pathsToLatches, 4u);
  // Paths starting at H: H X, H B C L, H B D L = 3.
  EXPECT_EQ(loop.pathsFromHeader, 3u);
  // Any of the 4 iterations that reach L, then any of the 3 that start at
  // H: 12 transitions.
  EXPECT_EQ(loop.transitions, 12u);
  EXPECT_FALSE(loop.saturated);

  const uint64_t enterC = idOf(n, {0, 2, 3, 4, 5, 8});
  const uint64_t enterD = idOf(n, {0, 2, 3, 4, 6, 8});
  const uint64_t enterX = idOf(n, {0, 2, 3, 7, 1});
  const uint64_t iterC = idOf(n, {3, 4, 5, 8});
  const uint64_t iterD = idOf(n, {3, 4, 6, 8});
  const uint64_t leave = idOf(n, {3, 7, 1});
  EXPECT_EQ(pathEnds(n.dag, n.ballLarus, enterC).start, kNoId);
  EXPECT_EQ(pathEnds(n.dag, n.ballLarus, enterC).end, 8u);
  EXPECT_EQ(pathEnds(n.dag, n.ballLarus, leave).start, 3u);
  EXPECT_EQ(pathEnds(n.dag, n.ballLarus, leave).end, kNoId);
  EXPECT_EQ(pathEnds(n.dag, n.ballLarus, enterX).start, kNoId);
  EXPECT_EQ(pathEnds(n.dag, n.ballLarus, enterX).end, kNoId);

  // A run of n = 3: C, D, C, leave; a run of n = 1: D, leave. Its
  // 2-windows, and two that no run can make: a path that returns followed
  // by one, and a path followed by one from function entry.
  const std::vector<PathPair> windows{
      {enterC, iterD}, {iterD, iterC}, {iterC, leave}, {enterD, leave},
      {enterX, leave}, {iterC, enterC}};
  const TransitionCoverage c = loopTransitions(cfg, n, windows);
  ASSERT_EQ(c.loops.size(), 1u);
  EXPECT_EQ(c.loops[0].loop.transitions, 12u);
  EXPECT_EQ(c.loops[0].tested,
            (std::vector<PathPair>{{enterC, iterD}, {iterD, iterC},
                                   {iterC, leave}, {enterD, leave}}));
  EXPECT_EQ(c.other, (std::vector<PathPair>{{enterX, leave}, {iterC, enterC}}));
  EXPECT_THROW(loopTransitions(cfg, n, {{0, 6}}), std::out_of_range);
}

// Nested loops whose inner latch goes back to either header:
//   O: while (a)          2   true -> I, false -> EXIT
//   I:   do body          3
//   B:   while (b) / or back to O   4   true -> I, false -> O
TEST(LoopTransitionsTest, LatchOfTwoLoops) {
  Cfg cfg(5, 0, 1);
  cfg.addEdge(0, 2, EdgeKind::Fallthru);
  cfg.addEdge(2, 3, EdgeKind::True);
  cfg.addEdge(2, 1, EdgeKind::False);
  cfg.addEdge(3, 4, EdgeKind::Fallthru);
  cfg.addEdge(4, 3, EdgeKind::True);
  cfg.addEdge(4, 2, EdgeKind::False);
  const NumberedDag n = numberBallLarus(cfg);
  // From O: O EXIT, O I B; from I: I B. Entry 2 + start at O 2 + at I 1.
  ASSERT_EQ(n.ballLarus.totalPaths, 5u);
  const std::vector<Loop> loops = findLoops(cfg, n.dag, n.ballLarus);
  ASSERT_EQ(loops.size(), 2u);
  // Paths ending at B: from entry, from O, from I = 3.
  EXPECT_EQ(loops[0].header, 2u);
  EXPECT_EQ(loops[0].latches, std::vector<BlockId>{4});
  EXPECT_EQ(loops[0].pathsToLatches, 3u);
  EXPECT_EQ(loops[0].pathsFromHeader, 2u);
  EXPECT_EQ(loops[0].transitions, 6u);
  EXPECT_EQ(loops[1].header, 3u);
  EXPECT_EQ(loops[1].pathsToLatches, 3u);
  EXPECT_EQ(loops[1].pathsFromHeader, 1u);
  EXPECT_EQ(loops[1].transitions, 3u);

  const uint64_t fromI = idOf(n, {3, 4});
  const uint64_t fromO = idOf(n, {2, 3, 4});
  const uint64_t leave = idOf(n, {2, 1});
  const TransitionCoverage c =
      loopTransitions(cfg, n, {{fromI, fromI}, {fromI, fromO}, {fromO, leave}});
  ASSERT_EQ(c.loops.size(), 2u);
  EXPECT_EQ(c.loops[0].loop.transitions + c.loops[1].loop.transitions, 9u);
  EXPECT_EQ(c.loops[0].tested,
            (std::vector<PathPair>{{fromI, fromO}, {fromO, leave}}));
  EXPECT_EQ(c.loops[1].tested, (std::vector<PathPair>{{fromI, fromI}}));
  EXPECT_TRUE(c.other.empty());
}

// Two back edges from one block into one header (a switch with two cases
// that continue) count the latch once; a self loop is its own latch.
TEST(LoopTransitionsTest, ParallelBackEdgesAndSelfLoop) {
  Cfg cfg(4, 0, 1);
  cfg.addEdge(0, 2, EdgeKind::Fallthru);
  cfg.addEdge(2, 2, EdgeKind::True); // self loop
  cfg.addEdge(2, 3, EdgeKind::False);
  cfg.addEdge(3, 2, EdgeKind::SwitchCase);
  cfg.addEdge(3, 2, EdgeKind::SwitchCase);
  cfg.addEdge(3, 1, EdgeKind::SwitchCase);
  const NumberedDag n = numberBallLarus(cfg);
  const std::vector<Loop> loops = findLoops(cfg, n.dag, n.ballLarus);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(loops[0].latches, (std::vector<BlockId>{2, 3}));
  // Ending at 2: from entry, from 2 (2). Ending at 3: the same two, then
  // 3 (2). From 2: 2 end, 2 3 end, 2 3 EXIT (3).
  EXPECT_EQ(loops[0].pathsToLatches, 4u);
  EXPECT_EQ(loops[0].pathsFromHeader, 3u);
  EXPECT_EQ(loops[0].transitions, 12u);
}

// More transitions than 64 bits hold: saturated, not wrapped. 40 diamonds
// in the loop body give 2^40 paths ending at the latch and 2^40 + 1
// starting at the header.
TEST(LoopTransitionsTest, Saturates) {
  const uint32_t diamonds = 40;
  Cfg cfg(3 + 3 * diamonds + 1, 0, 1);
  cfg.addEdge(0, 2, EdgeKind::Fallthru); // 2: the header
  BlockId at = 2;
  for (uint32_t d = 0; d < diamonds; ++d) {
    const BlockId a = 3 + 3 * d, b = a + 1, join = a + 2;
    cfg.addEdge(at, a, d == 0 ? EdgeKind::True : EdgeKind::Fallthru);
    if (d == 0)
      cfg.addEdge(at, 1, EdgeKind::False);
    cfg.addEdge(a, b, EdgeKind::True);
    cfg.addEdge(a, join, EdgeKind::False);
    cfg.addEdge(b, join, EdgeKind::Fallthru);
    at = join;
  }
  cfg.addEdge(at, 2, EdgeKind::Fallthru);
  const NumberedDag n = numberBallLarus(cfg);
  const std::vector<Loop> loops = findLoops(cfg, n.dag, n.ballLarus);
  ASSERT_EQ(loops.size(), 1u);
  EXPECT_EQ(loops[0].pathsToLatches, uint64_t{1} << 41);
  EXPECT_EQ(loops[0].pathsFromHeader, (uint64_t{1} << 40) + 1);
  EXPECT_EQ(loops[0].transitions, UINT64_MAX);
  EXPECT_TRUE(loops[0].saturated);
}

// On random CFGs (irreducible loops, abnormal and fake edges, cuts), every
// loop's transitions by brute force: the path ids that end at one of its
// latches times those that start at its header; and every pair of ids is
// sorted into the loop whose T it is in, or none.
TEST(LoopTransitionsTest, RandomAgainstBruteForce) {
  std::mt19937_64 rng(20261127);
  int checked = 0;
  for (int round = 0; round < 400; ++round) {
    const Cfg cfg = test::randomCfg(rng, {2, 16});
    NumberedDag n;
    try {
      n = numberBallLarus(cfg, 40); // small limit: cuts too
    } catch (const std::exception &) {
      continue;
    }
    const uint64_t total = n.ballLarus.totalPaths;
    std::vector<PathEnds> ends;
    for (uint64_t id = 0; id < total; ++id)
      ends.push_back(pathEnds(n.dag, n.ballLarus, id));
    const std::vector<Loop> loops = findLoops(cfg, n.dag, n.ballLarus);
    std::set<BlockId> headers;
    for (EdgeId e = 0; e < cfg.edges().size(); ++e)
      if (n.dag.cfgEdgeRole[e] == CfgEdgeRole::BackEdge)
        headers.insert(cfg.edge(e).dst);
    ASSERT_EQ(loops.size(), headers.size()) << test::describeCfg(cfg);
    std::vector<PathPair> all;
    for (uint64_t p = 0; p < total; ++p)
      for (uint64_t q = 0; q < total; ++q)
        all.emplace_back(p, q);
    const TransitionCoverage c = loopTransitions(cfg, n, all);
    uint64_t sorted = 0;
    for (size_t i = 0; i < loops.size(); ++i) {
      const Loop &loop = loops[i];
      std::set<BlockId> latches;
      for (EdgeId e = 0; e < cfg.edges().size(); ++e)
        if (n.dag.cfgEdgeRole[e] == CfgEdgeRole::BackEdge &&
            cfg.edge(e).dst == loop.header)
          latches.insert(cfg.edge(e).src);
      EXPECT_EQ(std::set<BlockId>(loop.latches.begin(), loop.latches.end()),
                latches);
      uint64_t ending = 0, starting = 0;
      for (const PathEnds &e : ends) {
        ending += e.end != kNoId && latches.count(e.end);
        starting += e.start == loop.header;
      }
      EXPECT_EQ(loop.pathsToLatches, ending) << test::describeCfg(cfg);
      EXPECT_EQ(loop.pathsFromHeader, starting) << test::describeCfg(cfg);
      EXPECT_EQ(loop.transitions, ending * starting) << test::describeCfg(cfg);
      EXPECT_EQ(c.loops[i].tested.size(), ending * starting);
      for (const auto &[p, q] : c.loops[i].tested) {
        EXPECT_TRUE(latches.count(ends[p].end));
        EXPECT_EQ(ends[q].start, loop.header);
      }
      sorted += c.loops[i].tested.size();
    }
    EXPECT_EQ(sorted + c.other.size(), all.size());
    checked += !loops.empty();
  }
  EXPECT_GT(checked, 100);
}

} // namespace
} // namespace pathcov
