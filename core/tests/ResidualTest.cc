// Residual mode's plan: the table policy and, above all, that the
// instrumentation's check - PPP id clamped into the table, one compare of
// the Ball-Larus id - hits exactly for the tested paths.
#include "RandomCfg.h"

#include "pathcov/core/Paths.h"
#include "pathcov/core/Residual.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>

using namespace pathcov;
using pathcov::test::describeCfg;
using pathcov::test::randomCfg;

namespace {

std::string hex(uint64_t v) {
  char text[17];
  snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

// What a path end of instrumented code finds for path `id`: replays the
// chords with wrapping registers, as the plugin's code does, and checks
// the table the way the policy says. True: counted as tested.
bool checkAtPathEnd(const NumberedDag &numbered, const ResidualPlan &plan,
                    uint64_t id, std::string &problem) {
  uint64_t ballLarus = 0, ppp = 0;
  for (DagEdgeId e : regeneratePath(numbered.dag, numbered.ballLarus, id)) {
    ballLarus += static_cast<uint64_t>(plan.chords.increment[e].ballLarus);
    ppp += static_cast<uint64_t>(plan.chords.increment[e].ppp);
  }
  if (ballLarus != id)
    problem = "the Ball-Larus register ends at " + std::to_string(ballLarus);
  switch (plan.policy) {
  case ResidualPolicy::Array: {
    const uint64_t slot = std::min(ppp, plan.tableSize);
    return plan.table[slot] == ballLarus;
  }
  case ResidualPolicy::Sorted:
    for (uint64_t k = 0; k < plan.tableSize; ++k)
      if (plan.table[k] == ballLarus)
        return true;
    return false;
  case ResidualPolicy::Untested:
  case ResidualPolicy::Stale:
    return false;
  }
  return false;
}

} // namespace

// PPP Figure 3 (docs/number.md): tested sacdt, sact, sbct (Ball-Larus 0,
// 1, 5) get PPP ids 0, 1, 2: the table lists them in that order.
TEST(Residual, PppFigure3GetsTheFigure3Table) {
  Cfg cfg(6, 0, 5);
  for (auto [s, d] : {std::pair{0, 1}, {0, 2}, {1, 3}, {1, 2}, {2, 3}, {3, 4},
                      {3, 5}, {4, 5}})
    cfg.addEdge(s, d, EdgeKind::Fallthru);
  const NumberedDag numbered = numberBallLarus(cfg);
  const ResidualPlan plan =
      planResidual(numbered, cfg.checksum(), hex(cfg.checksum()), {5, 0, 1}, {});
  EXPECT_EQ(plan.policy, ResidualPolicy::Array);
  EXPECT_EQ(plan.tableSize, 3u);
  EXPECT_EQ(plan.table, (std::vector<uint64_t>{0, 1, 5, kNoPath, 0, 0, 0, 0}));
  for (uint64_t id = 0; id < 6; ++id) {
    std::string problem;
    EXPECT_EQ(checkAtPathEnd(numbered, plan, id, problem),
              id == 0 || id == 1 || id == 5)
        << id;
    EXPECT_EQ(problem, "");
  }
  // A table too large for the limit is searched instead.
  const ResidualPlan sorted = planResidual(numbered, cfg.checksum(),
                                           hex(cfg.checksum()), {5, 0, 1},
                                           {2, 16});
  EXPECT_EQ(sorted.policy, ResidualPolicy::Sorted);
  EXPECT_EQ(sorted.table, (std::vector<uint64_t>{0, 1, 5, kNoPath, 0, 0, 0, 0}));
}

TEST(Residual, UntestedAndStaleFunctionsReportEveryPath) {
  Cfg cfg(4, 0, 3);
  cfg.addEdge(0, 1, EdgeKind::Fallthru);
  cfg.addEdge(1, 2, EdgeKind::True);
  cfg.addEdge(1, 3, EdgeKind::False);
  cfg.addEdge(2, 3, EdgeKind::Fallthru);
  const NumberedDag numbered = numberBallLarus(cfg);
  const uint64_t checksum = cfg.checksum();
  EXPECT_EQ(planResidual(numbered, checksum, "", {}, {}).policy,
            ResidualPolicy::Untested);
  EXPECT_EQ(planResidual(numbered, checksum, hex(checksum), {}, {}).policy,
            ResidualPolicy::Untested);
  const ResidualPlan stale =
      planResidual(numbered, checksum, hex(checksum + 1), {0}, {});
  EXPECT_EQ(stale.policy, ResidualPolicy::Stale);
  EXPECT_NE(stale.why.find(hex(checksum + 1)), std::string::npos);
  // A corpus naming a path the function does not have is stale too.
  EXPECT_EQ(planResidual(numbered, checksum, hex(checksum), {0, 7}, {}).policy,
            ResidualPolicy::Stale);
  EXPECT_TRUE(stale.table.empty());
}

// Random graphs (loops, irreducible regions, abnormal edges, cuts), random
// tested sets and limits: at every path end the check hits exactly for the
// tested paths, under every policy, and the Ball-Larus register is exact.
TEST(Residual, RandomGraphsTellTestedPathsFromResidualOnes) {
  unsigned graphs = 0, arrays = 0, sorted = 0, residualPaths = 0;
  for (uint64_t seed = 9000000; graphs < 1500; ++seed) {
    std::mt19937_64 rng(seed);
    const Cfg cfg = randomCfg(rng);
    // Small limits: cut graphs too. A limit too small for the graph is
    // refused (the plugin would leave the function alone).
    NumberedDag numbered;
    try {
      numbered = numberBallLarus(cfg, 2 + rng() % 400);
    } catch (const NumberingOverflow &) {
      continue;
    }
    const uint64_t n = numbered.ballLarus.totalPaths;
    ++graphs;
    std::vector<uint64_t> tested;
    for (uint64_t id = 0; id < n; ++id)
      if (rng() % 3 == 0)
        tested.push_back(id);
    const ResidualLimits limits{1 + rng() % 64, 1.0 + (rng() % 8)};
    const ResidualPlan plan = planResidual(numbered, cfg.checksum(),
                                           hex(cfg.checksum()), tested, limits);
    arrays += plan.policy == ResidualPolicy::Array;
    sorted += plan.policy == ResidualPolicy::Sorted;
    for (uint64_t id = 0; id < n; ++id) {
      std::string problem;
      const bool hit = checkAtPathEnd(numbered, plan, id, problem);
      const bool isTested = std::binary_search(tested.begin(), tested.end(), id);
      residualPaths += !isTested;
      ASSERT_TRUE(problem.empty() && hit == isTested)
          << "seed " << seed << ", path " << id << (isTested ? " (tested)" : "")
          << ", policy " << residualPolicyName(plan.policy) << ": "
          << (problem.empty() ? (hit ? "hit" : "missed") : problem)
          << "\n  graph: " << describeCfg(cfg);
    }
  }
  std::printf("[  stats   ] %u graphs: %u array tables, %u sorted, %u "
              "residual paths checked\n",
              graphs, arrays, sorted, residualPaths);
  EXPECT_GT(arrays, 100u);
  EXPECT_GT(sorted, 100u);
}
