// The papers' examples with the numbers the papers print
// (graphs as reconstructed in shared/notes/paper-examples.md).
#include "pathcov/core/Chords.h"
#include "pathcov/core/Dag.h"
#include "pathcov/core/Paths.h"
#include "pathcov/core/Ppp.h"

#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

using namespace pathcov;

namespace {

// A CFG over single-letter block names, built from "s>a" edge strings.
struct NamedCfg {
  std::string names;
  Cfg cfg;

  NamedCfg(std::string blockNames, const std::vector<std::string> &edges,
           const std::map<std::string, uint64_t> &frequencies = {})
      : names(std::move(blockNames)),
        cfg(static_cast<uint32_t>(names.size()), 0,
            static_cast<uint32_t>(names.size() - 1)) {
    for (const std::string &e : edges) {
      const auto kind = e.size() > 3 && e[3] == '!' ? EdgeKind::Abnormal
                                                    : EdgeKind::Fallthru;
      const auto f = frequencies.find(e.substr(0, 3));
      cfg.addEdge(block(e[0]), block(e[2]), kind,
                  f == frequencies.end() ? 0 : f->second);
    }
  }
  BlockId block(char name) const {
    const auto at = names.find(name);
    EXPECT_NE(at, std::string::npos) << name;
    return static_cast<BlockId>(at);
  }
  std::vector<BlockId> blocks(const std::string &path) const {
    std::vector<BlockId> result;
    for (char c : path)
      result.push_back(block(c));
    return result;
  }
  std::string spell(const std::vector<BlockId> &blocks) const {
    std::string s;
    for (BlockId b : blocks)
      s += names[b];
    return s;
  }
  DagEdgeId dagEdge(const Dag &dag, const std::string &edge) const {
    for (DagEdgeId e = 0; e < dag.edges.size(); ++e)
      if (dag.edges[e].role == DagEdgeRole::Cfg &&
          dag.edges[e].src == block(edge[0]) &&
          dag.edges[e].dst == block(edge[2]))
        return e;
    ADD_FAILURE() << "no DAG edge " << edge;
    return kNoId;
  }
};

uint64_t blId(const NamedCfg &g, const NumberedDag &n, const std::string &p) {
  return ballLarusIdOf(n.dag, n.ballLarus, pathFromBlocks(n.dag, g.blocks(p)));
}

int64_t sumOver(const std::vector<DagEdgeId> &path,
                const std::vector<int64_t> &weight) {
  int64_t sum = 0;
  for (DagEdgeId e : path)
    sum += weight[e];
  return sum;
}

RegisterIncrement chordSum(const std::vector<DagEdgeId> &path,
                           const ChordPlacement &chords) {
  RegisterIncrement sum;
  for (DagEdgeId e : path) {
    sum.ballLarus += chords.increment[e].ballLarus;
    sum.ppp += chords.increment[e].ppp;
  }
  return sum;
}

// PPP paper Figure 3: s->a, s->b, a->c, a->b, b->c, c->d, c->t, d->t.
NamedCfg pppFigure3() {
  return NamedCfg("sabcdt", {"s>a", "s>b", "a>c", "a>b", "b>c", "c>d", "c>t",
                             "d>t"});
}

} // namespace

TEST(PaperExamples, PppFigure3BallLarusIds) {
  const NamedCfg g = pppFigure3();
  const NumberedDag n = numberBallLarus(g.cfg);
  EXPECT_EQ(n.ballLarus.totalPaths, 6u);
  const std::map<char, uint64_t> numPaths{{'s', 6}, {'a', 4}, {'b', 2},
                                          {'c', 2}, {'d', 1}, {'t', 1}};
  for (const auto &[name, count] : numPaths)
    EXPECT_EQ(n.ballLarus.numPaths[g.block(name)], count) << name;
  const std::map<std::string, uint64_t> values{
      {"s>a", 0}, {"s>b", 4}, {"a>c", 0}, {"a>b", 2},
      {"b>c", 0}, {"c>d", 0}, {"c>t", 1}, {"d>t", 0}};
  for (const auto &[edge, value] : values)
    EXPECT_EQ(n.ballLarus.value[g.dagEdge(n.dag, edge)], value) << edge;
  const std::vector<std::string> byId{"sacdt", "sact",  "sabcdt",
                                      "sabct", "sbcdt", "sbct"};
  for (uint64_t id = 0; id < byId.size(); ++id) {
    EXPECT_EQ(g.spell(pathBlocks(n.dag, regeneratePath(n.dag, n.ballLarus, id))),
              byId[id]);
    EXPECT_EQ(blId(g, n, byId[id]), id);
  }
  EXPECT_TRUE(n.dag.cuts.empty());
  EXPECT_EQ(countAcyclicPaths(g.cfg).count, 6u);
}

TEST(PaperExamples, PppFigure3PreferentialIds) {
  const NamedCfg g = pppFigure3();
  const NumberedDag n = numberBallLarus(g.cfg);
  const PppNumbering ppp = computePPPIncrements(
      n.dag, n.ballLarus,
      {blId(g, n, "sacdt"), blId(g, n, "sact"), blId(g, n, "sbct")});
  EXPECT_EQ(ppp.idOf(blId(g, n, "sacdt")), 0);
  EXPECT_EQ(ppp.idOf(blId(g, n, "sact")), 1);
  EXPECT_EQ(ppp.idOf(blId(g, n, "sbct")), 2);
  EXPECT_EQ(ppp.idOf(blId(g, n, "sbcdt")), -1);
  EXPECT_EQ(ppp.intervalSize, 3u);
  EXPECT_DOUBLE_EQ(ppp.delta, 1.0);

  // Figure 3(b)'s weights; a->b carries no interesting path.
  const std::map<std::string, int64_t> weights{
      {"s>a", 0}, {"s>b", 2}, {"a>c", 0}, {"b>c", -1},
      {"c>d", 0}, {"c>t", 1}, {"d>t", 0}};
  for (const auto &[edge, w] : weights) {
    EXPECT_EQ(ppp.weight[g.dagEdge(n.dag, edge)], w) << edge;
    EXPECT_TRUE(ppp.defined[g.dagEdge(n.dag, edge)]) << edge;
  }
  EXPECT_FALSE(ppp.defined[g.dagEdge(n.dag, "a>b")]);

  // Uninteresting paths alias with interesting ones (section 2.3); only
  // the Ball-Larus register tells them apart.
  const std::map<std::string, int64_t> aliases{
      {"sabct", 0}, {"sbcdt", 1}, {"sabcdt", -1}};
  for (const auto &[path, alias] : aliases)
    EXPECT_EQ(sumOver(pathFromBlocks(n.dag, g.blocks(path)), ppp.weight), alias)
        << path;
}

TEST(PaperExamples, PppFigure3BothRegistersOnTheSameChords) {
  const NamedCfg g = pppFigure3();
  const NumberedDag n = numberBallLarus(g.cfg);
  const PppNumbering ppp = computePPPIncrements(
      n.dag, n.ballLarus,
      {blId(g, n, "sacdt"), blId(g, n, "sact"), blId(g, n, "sbct")});
  const ChordPlacement chords =
      computeChordIncrements(n.dag, n.ballLarus, ppp.weight);
  // 6 nodes and 8 edges plus EXIT->ENTRY: 5 tree edges, 4 chords.
  EXPECT_EQ(chords.chords.size(), 4u);
  for (uint64_t id = 0; id < 6; ++id) {
    const auto path = regeneratePath(n.dag, n.ballLarus, id);
    const RegisterIncrement sum = chordSum(path, chords);
    EXPECT_EQ(sum.ballLarus, static_cast<int64_t>(id));
    EXPECT_EQ(sum.ppp, sumOver(path, ppp.weight));
  }
}

// PPP paper Figure 5: no threshold separates {sacet, sbcdt} from the
// others, but PPP still numbers the two compactly.
TEST(PaperExamples, PppFigure5) {
  const NamedCfg g("sabcdet", {"s>a", "s>b", "a>c", "b>c", "c>d", "c>e",
                               "d>t", "e>t"});
  const NumberedDag n = numberBallLarus(g.cfg);
  const PppNumbering ppp = computePPPIncrements(
      n.dag, n.ballLarus, {blId(g, n, "sacet"), blId(g, n, "sbcdt")});
  EXPECT_EQ(ppp.intervalSize, 2u);
  EXPECT_NE(ppp.idOf(blId(g, n, "sacet")), ppp.idOf(blId(g, n, "sbcdt")));
}

// PPP paper Figure 6 (Lemma 3): no perfect numbering exists.
TEST(PaperExamples, PppFigure6HasNoPerfectNumbering) {
  const NamedCfg g("sabcdefgt",
                   {"s>a", "s>b", "s>c", "a>d", "b>d", "c>d", "d>e", "d>f",
                    "d>g", "e>t", "f>t", "g>t"});
  const NumberedDag n = numberBallLarus(g.cfg);
  const std::vector<std::string> interesting{"sadft", "sadgt", "sbdet",
                                             "sbdgt", "scdet", "scdft"};
  std::vector<uint64_t> ids;
  for (const std::string &p : interesting)
    ids.push_back(blId(g, n, p));
  const PppNumbering ppp = computePPPIncrements(n.dag, n.ballLarus, ids);
  std::set<int64_t> pppIds;
  for (uint64_t id : ids)
    pppIds.insert(ppp.idOf(id));
  EXPECT_EQ(pppIds, (std::set<int64_t>{0, 1, 2, 4, 5, 6}));
  EXPECT_EQ(ppp.intervalSize, 7u);
  EXPECT_GT(ppp.delta, 1.0);
  EXPECT_DOUBLE_EQ(ppp.delta, 7.0 / 6.0);
}

// Ball-Larus Figures 5-7 and 9.
TEST(PaperExamples, BallLarusFigures5To7) {
  // Frequencies make the spanning tree the one Figure 7 draws.
  const NamedCfg g("ABCDEF",
                   {"A>C", "A>B", "B>C", "B>D", "C>D", "D>F", "D>E", "E>F"},
                   {{"A>B", 10}, {"C>D", 10}, {"D>F", 10}, {"E>F", 10}});
  const NumberedDag n = numberBallLarus(g.cfg);
  const std::map<char, uint64_t> numPaths{{'A', 6}, {'B', 4}, {'C', 2},
                                          {'D', 2}, {'E', 1}, {'F', 1}};
  for (const auto &[name, count] : numPaths)
    EXPECT_EQ(n.ballLarus.numPaths[g.block(name)], count) << name;
  const std::vector<std::string> byId{"ACDF", "ACDEF", "ABCDF",
                                      "ABCDEF", "ABDF", "ABDEF"};
  for (uint64_t id = 0; id < byId.size(); ++id)
    EXPECT_EQ(blId(g, n, byId[id]), id) << byId[id];

  const ChordPlacement chords = computeChordIncrements(n.dag, n.ballLarus, {});
  // Figure 9: r=0 on A->C, r=2 on B->C, r=4 on B->D, count[r+1] on D->E.
  const std::map<std::string, int64_t> increments{
      {"A>C", 0}, {"B>C", 2}, {"B>D", 4}, {"D>E", 1}};
  std::set<DagEdgeId> expectedChords;
  for (const auto &[edge, inc] : increments) {
    const DagEdgeId e = g.dagEdge(n.dag, edge);
    expectedChords.insert(e);
    EXPECT_FALSE(chords.inTree[e]) << edge;
    EXPECT_EQ(chords.increment[e].ballLarus, inc) << edge;
  }
  EXPECT_EQ(std::set<DagEdgeId>(chords.chords.begin(), chords.chords.end()),
            expectedChords);
}

// Figure 5's graph with a corpus's counts: ACDF (id 0) ran 5 times, ABDEF
// (id 5) twice. Each edge ran as often as the paths through it; by those
// runs the spanning tree keeps the edges that ran, so the edge no path
// took (B->C) is a chord and the hotter path crosses one chord only.
TEST(PaperExamples, BallLarusFigure5EdgeRuns) {
  const NamedCfg g("ABCDEF",
                   {"A>C", "A>B", "B>C", "B>D", "C>D", "D>F", "D>E", "E>F"});
  const NumberedDag n = numberBallLarus(g.cfg);
  const std::vector<uint64_t> runs =
      edgeRunsOfPaths(n.dag, n.ballLarus, {0, 5}, {5, 2});
  const std::map<std::string, uint64_t> expected{
      {"A>C", 5}, {"C>D", 5}, {"D>F", 5}, {"A>B", 2},
      {"B>D", 2}, {"D>E", 2}, {"E>F", 2}, {"B>C", 0}};
  for (const auto &[edge, count] : expected)
    EXPECT_EQ(runs[g.dagEdge(n.dag, edge)], count) << edge;

  const ChordPlacement chords =
      computeChordIncrements(n.dag, n.ballLarus, {}, runs);
  EXPECT_FALSE(chords.inTree[g.dagEdge(n.dag, "B>C")]);
  size_t crossed = 0;
  for (DagEdgeId e : pathFromBlocks(n.dag, g.blocks("ACDF")))
    crossed += !chords.inTree[e];
  EXPECT_EQ(crossed, 1u);
  EXPECT_EQ(chordSum(pathFromBlocks(n.dag, g.blocks("ABDEF")), chords).ballLarus, 5);

  EXPECT_THROW(edgeRunsOfPaths(n.dag, n.ballLarus, {6}, {1}), std::out_of_range);
  EXPECT_THROW(edgeRunsOfPaths(n.dag, n.ballLarus, {0, 5}, {1}),
               std::invalid_argument);
}

// Ball-Larus Figure 10: a loop; the four kinds of path get distinct ids.
TEST(PaperExamples, BallLarusFigure10Loop) {
  const NamedCfg g("ABCDEF",
                   {"A>B", "B>C", "B>D", "C>E", "D>E", "E>B", "E>F"});
  const NumberedDag n = numberBallLarus(g.cfg);
  const Dag &dag = n.dag;
  EXPECT_EQ(dag.cfgEdgeRole[5], CfgEdgeRole::BackEdge);
  EXPECT_NE(dag.pathStart[g.block('B')], kNoId); // dummy A->B
  EXPECT_NE(dag.pathEnd[g.block('E')], kNoId);   // dummy E->F
  EXPECT_EQ(n.ballLarus.totalPaths, 8u);

  // Written as pathBlocks spells them: a path that starts after the back
  // edge begins at B; one that ends at the back edge ends at E.
  const std::vector<std::string> kinds{
      "ABCEF", "ABDEF", // entry to exit
      "ABCE",  "ABDE",  // entry to back edge
      "BCE",   "BDE",   // back edge to back edge
      "BCEF",  "BDEF"}; // back edge to exit
  std::set<uint64_t> ids;
  for (const std::string &p : kinds) {
    const uint64_t id = blId(g, n, p);
    EXPECT_EQ(g.spell(pathBlocks(dag, regeneratePath(dag, n.ballLarus, id))), p);
    ids.insert(id);
  }
  EXPECT_EQ(ids.size(), 8u);
  EXPECT_EQ(*ids.rbegin(), 7u);

  // The back edge's code: count the path at r + end, restart at start.
  const ChordPlacement chords = computeChordIncrements(dag, n.ballLarus, {});
  const PathBoundary code =
      pathBoundaryCode(dag, chords, g.block('E'), g.block('B'));
  for (const std::string &p : {std::string("ABCE"), std::string("BDE")}) {
    // Replay the path: the back edge's path-start code stands for the
    // dummy ENTRY->B, chords run up to E, then the path-end code counts.
    const auto path = pathFromBlocks(dag, g.blocks(p));
    if (path.front() == dag.pathStart[g.block('B')]) {
      EXPECT_EQ(code.pathStart, chords.increment[path.front()]);
    }
    EXPECT_EQ(path.back(), dag.pathEnd[g.block('E')]);
    const RegisterIncrement r = chordSum({path.begin(), path.end() - 1}, chords);
    EXPECT_EQ(r.ballLarus + code.pathEnd.ballLarus,
              static_cast<int64_t>(blId(g, n, p)))
        << p;
  }
}

TEST(PaperExamples, SelfLoopAndAbnormalEdgesEndPaths) {
  // s->a, a->a (self loop), a->b, b->c abnormal (computed goto), c->t, b->t.
  const NamedCfg g("sabct", {"s>a", "a>a", "a>b", "b>c!", "b>t", "c>t"});
  const NumberedDag n = numberBallLarus(g.cfg);
  const Dag &dag = n.dag;
  EXPECT_EQ(dag.cfgEdgeRole[1], CfgEdgeRole::BackEdge);
  EXPECT_EQ(dag.cfgEdgeRole[3], CfgEdgeRole::Abnormal);
  EXPECT_EQ(dag.dagEdgeOfCfgEdge[3], kNoId); // never carries code
  EXPECT_NE(dag.pathEnd[g.block('b')], kNoId);
  EXPECT_NE(dag.pathStart[g.block('c')], kNoId);
  // No code can go on b->c: the path at c starts with both registers at 0,
  // which code at b's end can set.
  const ChordPlacement chords = computeChordIncrements(dag, n.ballLarus, {});
  EXPECT_TRUE(chords.inTree[dag.pathStart[g.block('c')]]);
  EXPECT_EQ(pathBoundaryCode(dag, chords, g.block('b'), g.block('c')).pathStart,
            RegisterIncrement{});
  // Paths end at a (self loop) and b (abnormal edge); new ones start at a
  // and c.
  std::set<std::string> paths;
  for (uint64_t id = 0; id < n.ballLarus.totalPaths; ++id)
    paths.insert(
        g.spell(pathBlocks(dag, regeneratePath(dag, n.ballLarus, id))));
  EXPECT_EQ(paths, (std::set<std::string>{"sabt", "sab", "sa", "abt", "ab",
                                          "a", "ct"}));
}

TEST(PaperExamples, CutsKeepEverySegmentNumbered) {
  // Three diamonds in a row: 8 paths. A limit of 6 forces a cut in the
  // middle: 2 paths before it and 4 after it.
  const NamedCfg g("sabcdefghijt",
                   {"s>a", "s>b", "a>c", "b>c", "c>d", "c>e", "d>f", "e>f",
                    "f>g", "f>h", "g>i", "h>i", "i>t"});
  EXPECT_EQ(numberBallLarus(g.cfg).ballLarus.totalPaths, 8u);
  const NumberedDag n = numberBallLarus(g.cfg, 6);
  EXPECT_FALSE(n.dag.cuts.empty());
  EXPECT_EQ(n.ballLarus.totalPaths, 6u);
  std::set<std::string> paths;
  for (uint64_t id = 0; id < n.ballLarus.totalPaths; ++id)
    paths.insert(
        g.spell(pathBlocks(n.dag, regeneratePath(n.dag, n.ballLarus, id))));
  EXPECT_EQ(paths.size(), n.ballLarus.totalPaths);
  EXPECT_EQ(numberBallLarus(g.cfg, 6).dag.cuts, n.dag.cuts);
  EXPECT_EQ(countAcyclicPaths(g.cfg).count, 8u);
  // A forced cut comes first, whatever the counts.
  const NumberedDag forced = numberBallLarus(g.cfg, kDefaultPathLimit,
                                             {g.block('f')});
  EXPECT_EQ(forced.dag.cuts, std::vector<BlockId>{g.block('f')});
  EXPECT_EQ(forced.ballLarus.totalPaths, 4u + 2u);
  // Segments add up at ENTRY: no cut gets three diamonds under 6 paths.
  EXPECT_THROW(numberBallLarus(g.cfg, 5), NumberingOverflow);
  // The checksum names the numbering: the CFG's own where no limit cut
  // (forced cuts follow from the graph), another where one did, so a
  // corpus of 8 ids is never read as one of 6.
  const NumberedDag whole = numberBallLarus(g.cfg);
  EXPECT_EQ(numberingChecksum(g.cfg, whole.dag.cuts, {}), g.cfg.checksum());
  EXPECT_EQ(numberingChecksum(g.cfg, forced.dag.cuts, {g.block('f')}),
            g.cfg.checksum());
  EXPECT_NE(numberingChecksum(g.cfg, n.dag.cuts, {}), g.cfg.checksum());
  EXPECT_EQ(numberingChecksum(g.cfg, n.dag.cuts, {}),
            numberingChecksum(g.cfg, numberBallLarus(g.cfg, 6).dag.cuts, {}));
}
