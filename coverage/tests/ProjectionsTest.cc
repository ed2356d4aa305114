// The one coverage computation every report format reads (Projections.h):
// runs through blocks, edges and lines, paths through lines, branches and
// decision lines, and the rule for edges that leave the DAG
// (docs/report.md, "Edges that leave the DAG").
#include "Fixture.h"
#include "Projections.h"

#include "pathcov/core/Paths.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <tuple>
#include <utility>

using namespace pathcov;

namespace {

constexpr EdgeKind kFallthru = EdgeKind::Fallthru, kTrue = EdgeKind::True,
                   kFalse = EdgeKind::False, kFake = EdgeKind::Fake;

// A CFG with ENTRY 0 and EXIT 1.
Cfg cfgOf(uint32_t numBlocks,
          const std::vector<std::tuple<BlockId, BlockId, EdgeKind>> &edges) {
  Cfg cfg(numBlocks, 0, 1);
  for (const auto &[src, dst, kind] : edges)
    cfg.addEdge(src, dst, kind);
  return cfg;
}

// A function of file "f.c" with `cfg`, its blocks' lines and forced cuts,
// and tested paths given as their blocks (Paths.h, pathBlocks) and runs.
CorpusFunction functionOf(
    Cfg cfg, std::vector<std::vector<int>> lines,
    std::vector<std::pair<std::vector<BlockId>, uint64_t>> tested,
    std::vector<BlockId> forcedCuts = {}) {
  CorpusFunction f;
  FunctionMetadata &m = f.metadata;
  m.identity = m.name = "f";
  m.file = "f.c";
  m.cfg = std::move(cfg);
  for (std::vector<int> &blockLines : lines)
    m.blocks.push_back({"", std::move(blockLines)});
  m.pathLimit = kDefaultPathLimit;
  m.forcedCuts = std::move(forcedCuts);
  const NumberedDag numbered = m.number();
  m.cuts = numbered.dag.cuts;
  m.numPaths = numbered.ballLarus.totalPaths;
  for (const auto &[blocks, runs] : tested) {
    const uint64_t id = ballLarusIdOf(numbered.dag, numbered.ballLarus,
                                      pathFromBlocks(numbered.dag, blocks));
    f.paths[id].count = runs;
    f.calls += runs;
  }
  return f;
}

uint64_t runsAlong(const FunctionProjection &p, BlockId src, BlockId dst) {
  const Cfg &cfg = *p.function->metadata.cfg;
  for (EdgeId e : cfg.succs(src))
    if (cfg.edge(e).dst == dst)
      return p.edgeRuns[e];
  ADD_FAILURE() << "no edge " << src << "->" << dst;
  return 0;
}

const FunctionProjection &functionNamed(const CorpusProjection &p,
                                        const std::string &name) {
  for (const FunctionProjection &f : p.functions)
    if (f.function->metadata.name == name)
      return f;
  throw std::out_of_range(name);
}

} // namespace

// loops.c's loops(): B2 `s = 0` (line 3); B3 `if (x & 1)` (5), cut, so
// both its edges leave the DAG; B4 `s += x` (6); B5 `x >>= 1; } while (x)`
// (7, 8), whose true edge is the loop's back edge to B3; B6 `return` (9).
// Tested: 0 2 3 (2 runs), 3 (1), 4 5 6 1 (2), 5 (1).
TEST(Projections, SharedFixtureRunsThroughBlocksEdgesAndLines) {
  const Corpus corpus = reportFixture();
  const CorpusProjection projection = projectCorpus(corpus);
  const FunctionProjection &loops = functionNamed(projection, "loops");
  EXPECT_EQ(loops.blockRuns, (std::vector<uint64_t>{0, 0, 2, 3, 2, 3, 2}));
  EXPECT_EQ(runsAlong(loops, 2, 3), 2u);
  EXPECT_EQ(runsAlong(loops, 4, 5), 2u);
  EXPECT_EQ(runsAlong(loops, 5, 6), 2u);
  // The back edge: the only edge leaving the DAG from B5, so the paths
  // ending at B5 took it.
  EXPECT_EQ(runsAlong(loops, 5, 3), 1u);
  // The cut block's edges: two leave B3, but each is the only one leaving
  // the DAG into its target, so the paths starting there came by it.
  EXPECT_EQ(runsAlong(loops, 3, 4), 2u);
  EXPECT_EQ(runsAlong(loops, 3, 5), 1u);

  const std::map<SourceLine, uint64_t> lines{
      {{"loops.c", 3}, 2}, {{"loops.c", 5}, 3}, {{"loops.c", 6}, 2},
      {{"loops.c", 7}, 3}, {{"loops.c", 8}, 3}, {{"loops.c", 9}, 2}};
  EXPECT_EQ(loops.lines, lines);
  // Paths through line 8 (B5): 4 5 6 1, 4 5, 5 6 1, 5; two tested.
  EXPECT_EQ(loops.linePaths.at({"loops.c", 8}).total, 4u);
  EXPECT_EQ(loops.linePaths.at({"loops.c", 8}).tested, 2u);
  EXPECT_EQ(loops.linePaths.at({"loops.c", 6}).total, 2u);
  EXPECT_EQ(loops.linePaths.at({"loops.c", 6}).tested, 1u);

  ASSERT_EQ(loops.branches.size(), 4u);
  const std::vector<std::pair<BlockId, uint64_t>> branches{
      {3, 2}, {3, 1}, {5, 1}, {5, 2}};
  for (size_t i = 0; i < branches.size(); ++i) {
    EXPECT_EQ(loops.branches[i].block, branches[i].first) << i;
    EXPECT_EQ(loops.branches[i].taken, branches[i].second) << i;
    EXPECT_TRUE(loops.branches[i].blockRan) << i;
  }
  EXPECT_EQ(loops.branches[2].line, (SourceLine{"loops.c", 8}));

  // never() was never called: every line 0, every branch's block not run.
  const FunctionProjection &never = functionNamed(projection, "never");
  EXPECT_EQ(never.lines, (std::map<SourceLine, uint64_t>{{{"loops.c", 13}, 0}}));
  for (const BranchProjection &b : never.branches)
    EXPECT_FALSE(b.blockRan);
  EXPECT_EQ(projection.files.at("loops.c").lines.at(13), 0u);
  EXPECT_EQ(projection.files.at("loops.c").linePaths.at(13).total, 2u);
}

// B3 and B6 are cut, and both send their edges to B4 and B5: neither end of
// those edges tells which one a path took, so none gets runs, though a
// tested path ran from B3 into B4.
TEST(Projections, EdgesNeitherEndTellsApartGetNoRuns) {
  const Cfg cfg = cfgOf(7, {{0, 2, kFallthru}, {2, 3, kTrue}, {2, 6, kFalse},
                           {3, 4, kTrue}, {3, 5, kFalse}, {6, 4, kTrue},
                           {6, 5, kFalse}, {4, 1, kFallthru}, {5, 1, kFallthru}});
  const CorpusFunction f = functionOf(
      cfg, {{}, {}, {2}, {3}, {4}, {5}, {6}}, {{{0, 2, 3}, 1}, {{4, 1}, 1}},
      {3, 6});
  const FunctionProjection p = projectFunction(f);
  EXPECT_EQ(p.blockRuns[3], 1u);
  EXPECT_EQ(p.blockRuns[4], 1u);
  for (const auto &[src, dst] :
       std::vector<std::pair<BlockId, BlockId>>{{3, 4}, {3, 5}, {6, 4}, {6, 5}})
    EXPECT_EQ(runsAlong(p, src, dst), 0u) << src << "->" << dst;
  // LCOV: B3 ran, neither of its branches is taken.
  ASSERT_EQ(p.branches.size(), 6u);
  EXPECT_EQ(p.branches[2].block, 3u);
  EXPECT_TRUE(p.branches[2].blockRan);
  EXPECT_EQ(p.branches[2].taken, 0u);
  EXPECT_EQ(p.branches[3].taken, 0u);
}

// No path ends at ENTRY or starts at EXIT: a fake edge from ENTRY (into a
// setjmp receiver) is told by the paths starting at its target, a fake
// edge into EXIT (a call that may not return) by those ending at its
// source.
TEST(Projections, FakeEdgesToldByTheirOtherEnd) {
  const Cfg cfg = cfgOf(4, {{0, 2, kFallthru}, {0, 3, kFake}, {2, 3, kFallthru},
                           {2, 1, kFake}, {3, 1, kFallthru}});
  const CorpusFunction f = functionOf(
      cfg, {{}, {}, {2}, {3}},
      {{{0, 2}, 3}, {{0, 2, 3, 1}, 1}, {{3, 1}, 5}});
  const FunctionProjection p = projectFunction(f);
  EXPECT_EQ(runsAlong(p, 0, 3), 5u);
  EXPECT_EQ(runsAlong(p, 2, 1), 3u);
  EXPECT_EQ(runsAlong(p, 2, 3), 1u);
  EXPECT_EQ(p.blockRuns[3], 6u);
}

// `if (a && b)` on line 4, split into B2 and B3: the line's count is its
// busiest block's, not their sum, and a path through both blocks is one
// path through the line.
TEST(Projections, LineInSeveralBlocks) {
  const Cfg cfg = cfgOf(5, {{0, 2, kFallthru}, {2, 3, kTrue}, {2, 4, kFalse},
                           {3, 4, kFallthru}, {4, 1, kFallthru}});
  const CorpusFunction f = functionOf(
      cfg, {{}, {}, {4}, {4}, {5}}, {{{0, 2, 3, 4, 1}, 3}, {{0, 2, 4, 1}, 1}});
  const FunctionProjection p = projectFunction(f);
  EXPECT_EQ(p.lines.at({"f.c", 4}), 4u);
  EXPECT_EQ(p.lines.at({"f.c", 5}), 4u);
  EXPECT_EQ(p.linePaths.at({"f.c", 4}).total, 2u);
  EXPECT_EQ(p.linePaths.at({"f.c", 4}).tested, 2u);
}

// A decision line's "branches": the paths through it, or its outcomes.
TEST(Projections, DecisionLinesCountPathsOrOutcomes) {
  const Corpus corpus = reportFixture();
  const SourceLine whileLine{"loops.c", 8};
  const CorpusProjection paths = projectCorpus(corpus, DecisionCount::Paths);
  const FunctionProjection &byPaths = functionNamed(paths, "loops");
  EXPECT_EQ(byPaths.decisions.at(whileLine).total, 4u);
  EXPECT_EQ(byPaths.decisions.at(whileLine).tested, 2u);
  EXPECT_EQ(byPaths.decisions.size(), 2u); // lines 5 and 8
  const CorpusProjection outcomes =
      projectCorpus(corpus, DecisionCount::Outcomes);
  const FunctionProjection &byOutcomes = functionNamed(outcomes, "loops");
  EXPECT_EQ(byOutcomes.decisions.at(whileLine).total, 2u);
  EXPECT_EQ(byOutcomes.decisions.at(whileLine).tested, 2u);
  EXPECT_EQ(outcomes.files.at("loops.c").decisions.at(13).tested, 0u);
}
