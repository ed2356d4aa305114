// Residual mode's plan: the table policy and, above all, that the
// instrumentation's check - PPP id masked into the table, one compare of
// the Ball-Larus id - hits exactly for the tested paths.
#include "RandomCfg.h"

#include "pathcov/core/Paths.h"
#include "pathcov/core/Residual.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <random>

using namespace pathcov;
using pathcov::test::describeCfg;
using pathcov::test::randomCfg;

namespace {

// A table entry against a path's Ball-Larus id, as the plugin's code
// compares them: a narrow table's entries and ids in 32 bits.
bool sameEntry(const ResidualPlan &plan, uint64_t entry, uint64_t ballLarus) {
  return plan.narrow ? (entry & UINT32_MAX) == (ballLarus & UINT32_MAX)
                     : entry == ballLarus;
}

// What a path end of instrumented code finds for path `id`: replays the
// chords with wrapping registers, as the plugin's code does, and checks
// the table the way the policy says. True: counted as tested.
bool checkAtPathEnd(const NumberedDag &numbered, const ResidualPlan &plan,
                    uint64_t id, std::string &problem) {
  uint64_t ballLarus = 0, ppp = 0;
  const std::vector<DagEdgeId> path =
      regeneratePath(numbered.dag, numbered.ballLarus, id);
  for (DagEdgeId e : path) {
    ballLarus += static_cast<uint64_t>(plan.chords.increment[e].ballLarus);
    ppp += static_cast<uint64_t>(plan.chords.increment[e].ppp);
  }
  if (ballLarus != id)
    problem = "the Ball-Larus register ends at " + std::to_string(ballLarus);
  if (!plan.checkedEnd[path.back()]) {
    // No code: only tested paths end there, and nothing counts them.
    if (plan.counted)
      problem = "a path end of a counting table has no code";
    return true;
  }
  switch (plan.policy) {
  case ResidualPolicy::Bytemap:
    if (ballLarus >= plan.bytemap.size()) {
      problem = "path " + std::to_string(id) + " is outside the bytemap";
      return false;
    }
    return plan.bytemap[ballLarus] != 0;
  case ResidualPolicy::Array: {
    // ppp & tableSize, as the plugin's code: tableSize + 1 entries, a
    // power of two (unmasked: any number).
    if ((!plan.unmasked && (plan.tableSize & (plan.tableSize + 1)) != 0) ||
        plan.table.size() != (plan.tableSize + 1) * (plan.counted ? 2 : 1)) {
      problem = "an array table whose size is not a power of two";
      return false;
    }
    if (plan.unmasked) {
      // The register less pppBase, unmasked: in the table for every path.
      const uint64_t index = ppp - static_cast<uint64_t>(plan.pppBase);
      if (index >= plan.tableSize) {
        problem = "path " + std::to_string(id) + "'s PPP id " +
                  std::to_string(static_cast<int64_t>(ppp)) +
                  " is outside the unmasked table";
        return false;
      }
      return sameEntry(plan, plan.table[index], ballLarus);
    }
    return sameEntry(plan, plan.table[ppp & plan.tableSize], ballLarus);
  }
  case ResidualPolicy::Hashed: {
    // A probe per choice, as the plugin's code: t[h1(id)] == id ||
    // t[h2(id)] == id (|| t[h3(id)] == id); a 64-bit table has the
    // multipliers after its tableSize slots.
    const size_t choices = plan.multipliers.size();
    if ((choices != 2 && choices != 3) ||
        plan.table.size() != plan.tableSize + (plan.narrow ? 0 : choices) +
                                 (plan.counted ? plan.tableSize : 0) ||
        (!plan.narrow &&
         !std::equal(plan.multipliers.begin(), plan.multipliers.end(),
                     plan.table.begin() + plan.tableSize))) {
      problem = "a hashed table without its multipliers (or counts)";
      return false;
    }
    for (uint64_t multiplier : plan.multipliers)
      if (sameEntry(plan, plan.table[hashSlot(ballLarus, multiplier, plan.tableSize)],
                    ballLarus))
        return true;
    return false;
  }
  case ResidualPolicy::Sorted:
    for (uint64_t k = 0; k < plan.tableSize; ++k)
      if (plan.table[k] == ballLarus)
        return true;
    return false;
  case ResidualPolicy::Untested:
  case ResidualPolicy::Stale:
    return false;
  case ResidualPolicy::Complete:
    problem = "a complete function has a checked path end";
    return false;
  }
  return false;
}

struct NumberedCfg {
  Cfg cfg;
  NumberedDag numbered;
};

// A random graph numbered with a small path limit, so that some are cut;
// none when the limit is too small for it (the plugin would leave such a
// function alone).
std::optional<NumberedCfg> randomNumberedCfg(std::mt19937_64 &rng) {
  Cfg cfg = randomCfg(rng);
  try {
    NumberedDag numbered = numberBallLarus(cfg, 2 + rng() % 400);
    return NumberedCfg{std::move(cfg), std::move(numbered)};
  } catch (const NumberingOverflow &) {
    return std::nullopt;
  }
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
  const auto plan = [&](ResidualLimits limits) {
    return planResidual(numbered, cfg.checksum(), hex64(cfg.checksum()),
                        {5, 0, 1}, limits);
  };
  const auto expectExactChecks = [&](const ResidualPlan &p) {
    for (uint64_t id = 0; id < 6; ++id) {
      std::string problem;
      EXPECT_EQ(checkAtPathEnd(numbered, p, id, problem),
                id == 0 || id == 1 || id == 5)
          << residualPolicyName(p.policy) << " " << id;
      EXPECT_EQ(problem, "");
    }
  };
  // Six paths: a byte each by default, paths 0, 1 and 5 set. Both path ends
  // (c->t, d->t) have untested paths ending there, so both are checked.
  const ResidualPlan bytemap = plan({});
  EXPECT_EQ(bytemap.policy, ResidualPolicy::Bytemap);
  EXPECT_EQ(bytemap.bytemap, (std::vector<uint8_t>{1, 1, 0, 0, 0, 1}));
  EXPECT_EQ(bytemap.checkedEnds, 2u);
  EXPECT_EQ(bytemap.uncheckedEnds, 0u);
  EXPECT_DOUBLE_EQ(bytemap.ppp.delta, 1.0);
  expectExactChecks(bytemap);
  // Without bytemaps, the PPP table of Figure 3, a constant: the
  // Ball-Larus ids 0, 1 and 5 at their PPP ids 0, 1 and 2. Every path's
  // PPP id lies in [-1, 2], so the table covers them all from -1 (the
  // check needs no mask), and a last entry, never indexed, follows.
  const ResidualPlan array = plan({4096, 16, 0, false});
  EXPECT_EQ(array.policy, ResidualPolicy::Array);
  EXPECT_TRUE(array.unmasked);
  EXPECT_EQ(array.pppBase, -1);
  EXPECT_EQ(array.tableSize, 4u);
  EXPECT_EQ(array.table, (std::vector<uint64_t>{kNoPath, 0, 1, 5, kNoPath}));
  expectExactChecks(array);
  // table-limit bounds the entries the table has: that one takes 5; with
  // a limit of 4, the masked table, 4 entries (a power of two above the
  // interval of 3, the ids at their PPP ids); with a limit of 3, the hash
  // table.
  const ResidualPlan masked = plan({4, 16, 0, false});
  EXPECT_EQ(masked.policy, ResidualPolicy::Array);
  EXPECT_FALSE(masked.unmasked);
  EXPECT_EQ(masked.table, (std::vector<uint64_t>{0, 1, 5, kNoPath}));
  expectExactChecks(masked);
  EXPECT_EQ(plan({3, 16, 0, false}).policy, ResidualPolicy::Hashed);
  // Counting the tested paths: never a bytemap, and counts after the ids.
  const ResidualPlan counted = plan({4096, 16, 1 << 16, true});
  EXPECT_EQ(counted.policy, ResidualPolicy::Array);
  EXPECT_TRUE(counted.counted);
  EXPECT_EQ(counted.table, (std::vector<uint64_t>{kNoPath, 0, 1, 5, kNoPath,
                                                  0, 0, 0, 0, 0}));
  expectExactChecks(counted);
  // A table too large for the limit: a two-choice cuckoo hash table of 8
  // slots (at least twice the 3 tested ids), 32-bit (6 paths), so without
  // the multipliers after it. Slots (id * K_i) >> 61: id 0 -> 0, 0; id 1
  // -> 7, 4; id 5 -> 3, 6, each in its first free one.
  const ResidualPlan hashed = plan({2, 16, 0, false});
  EXPECT_EQ(hashed.policy, ResidualPolicy::Hashed);
  EXPECT_EQ(hashed.tableSize, 8u);
  const uint64_t k1 = 0xe220a8397b1dcdafull, k2 = 0x910a2dec89025cc1ull,
                 k3 = 0x975835de1c9756cfull;
  EXPECT_EQ(hashMultipliers(0, 3), (std::vector<uint64_t>{k1, k2, k3}));
  EXPECT_EQ(hashed.multipliers, (std::vector<uint64_t>{k1, k2}));
  const uint64_t _ = kNoPath;
  EXPECT_EQ(hashed.table, (std::vector<uint64_t>{0, _, _, 5, _, _, _, 1}));
  EXPECT_FALSE(hashed.counted);
  EXPECT_TRUE(hashed.narrow);
  expectExactChecks(hashed);
  // Counting them too: the same table in 64 bits, the multipliers after
  // it, then a count per slot.
  const ResidualPlan countedHash = plan({2, 16, 0, true});
  EXPECT_EQ(countedHash.policy, ResidualPolicy::Hashed);
  EXPECT_TRUE(countedHash.counted);
  EXPECT_FALSE(countedHash.narrow);
  EXPECT_EQ(countedHash.table,
            (std::vector<uint64_t>{0, _, _, 5, _, _, _, 1, k1, k2, 0, 0, 0, 0,
                                   0, 0, 0, 0}));
  expectExactChecks(countedHash);
  // Three choices where two would take more than twoChoiceSlots slots
  // (here always): 4 slots (at least 9/8 of the 3 ids). Slots
  // (id * K_i) >> 62: id 0 -> 0, 0, 0; id 1 -> 3, 2, 2; id 5 -> 1, 3, 3.
  ResidualLimits threeChoices{2, 16, 0, false};
  threeChoices.twoChoiceSlots = 0;
  const ResidualPlan hashed3 = plan(threeChoices);
  EXPECT_EQ(hashed3.policy, ResidualPolicy::Hashed);
  EXPECT_EQ(hashed3.tableSize, 4u);
  EXPECT_EQ(hashed3.multipliers, (std::vector<uint64_t>{k1, k2, k3}));
  EXPECT_EQ(hashed3.table, (std::vector<uint64_t>{0, 5, _, 1}));
  expectExactChecks(hashed3);
  threeChoices.countTested = true;
  const ResidualPlan counted3 = plan(threeChoices);
  EXPECT_EQ(counted3.table,
            (std::vector<uint64_t>{0, 5, _, 1, k1, k2, k3, 0, 0, 0, 0}));
  expectExactChecks(counted3);
  // (Should no hash table be found: the sorted ids, see
  // HashedFallsBackToSortedWhenNoTableIsFound.)
}

namespace {

// n diamonds in a row: 2^n paths, block 3k the k-th diamond's top.
Cfg diamonds(int n) {
  Cfg cfg(3 * n + 2, 0, 3 * n + 1);
  for (int k = 0; k < n; ++k) {
    cfg.addEdge(3 * k, 3 * k + 1, EdgeKind::True);
    cfg.addEdge(3 * k, 3 * k + 2, EdgeKind::False);
    cfg.addEdge(3 * k + 1, 3 * k + 3, EdgeKind::Fallthru);
    cfg.addEdge(3 * k + 2, 3 * k + 3, EdgeKind::Fallthru);
  }
  cfg.addEdge(3 * n, 3 * n + 1, EdgeKind::Fallthru);
  return cfg;
}

// Every path id below `paths` checked at its end as the plugin's code
// would: a hit exactly for the ids of `tested` (ascending); every `step`th.
void expectEveryPathToldRight(const NumberedDag &numbered, const ResidualPlan &plan,
                              const std::vector<uint64_t> &tested, uint64_t paths,
                              uint64_t step = 1) {
  for (uint64_t id = 0; id < paths; id += step) {
    std::string problem;
    EXPECT_EQ(checkAtPathEnd(numbered, plan, id, problem),
              std::binary_search(tested.begin(), tested.end(), id))
        << id;
    EXPECT_EQ(problem, "");
  }
}

// `n` distinct ids below `limit`, from a fixed seed.
std::vector<uint64_t> randomIds(size_t n, uint64_t limit) {
  std::mt19937_64 rng(42);
  std::vector<uint64_t> ids;
  while (ids.size() < n) {
    const uint64_t id = rng() % limit;
    if (std::find(ids.begin(), ids.end(), id) == ids.end())
      ids.push_back(id);
  }
  return ids;
}

} // namespace

// A function of 2^14 paths, 1000 of them tested (spread out: a PPP interval
// far over the table limit): a hashed table of 2048 slots, exact for every
// path, 32-bit (no multipliers after it); the same table whatever the
// corpus's order, every time.
TEST(Residual, LargeFunctionsWithFewTestedPathsGetADeterministicHashTable) {
  const Cfg cfg = diamonds(14);
  const NumberedDag numbered = numberBallLarus(cfg);
  ASSERT_EQ(numbered.ballLarus.totalPaths, 16384u);
  std::vector<uint64_t> tested = randomIds(1000, 16384);
  const ResidualLimits limits{4096, 16, 0, false};
  const ResidualPlan plan = planResidual(numbered, cfg.checksum(),
                                         hex64(cfg.checksum()), tested, limits);
  ASSERT_EQ(plan.policy, ResidualPolicy::Hashed);
  EXPECT_GT(plan.ppp.intervalSize, 4096u);
  EXPECT_EQ(plan.tableSize, 2048u);
  EXPECT_TRUE(plan.narrow);
  EXPECT_EQ(plan.table.size(), 2048u);
  EXPECT_EQ(std::count_if(plan.table.begin(), plan.table.end(),
                          [](uint64_t id) { return id != kNoPath; }),
            1000);
  std::sort(tested.begin(), tested.end());
  expectEveryPathToldRight(numbered, plan, tested, 16384);
  // Deterministic: the same ids in another order, planned again.
  std::vector<uint64_t> reversed(tested.rbegin(), tested.rend());
  const ResidualPlan again = planResidual(numbered, cfg.checksum(),
                                          hex64(cfg.checksum()), reversed, limits);
  EXPECT_EQ(again.policy, ResidualPolicy::Hashed);
  EXPECT_EQ(again.tableSize, plan.tableSize);
  EXPECT_EQ(again.table, plan.table);
  EXPECT_EQ(plan.multipliers.size(), 2u);
  // A table over twoChoiceSlots takes three choices, which fill it far
  // beyond two's 50%: 1800 tested ids in 2048 slots (88%; two choices
  // would take 4096), still exact.
  ResidualLimits threeChoices = limits;
  threeChoices.twoChoiceSlots = 2048;
  std::vector<uint64_t> many = randomIds(1800, 16384);
  const ResidualPlan full = planResidual(
      numbered, cfg.checksum(), hex64(cfg.checksum()), many, threeChoices);
  ASSERT_EQ(full.policy, ResidualPolicy::Hashed);
  EXPECT_EQ(full.multipliers.size(), 3u);
  EXPECT_EQ(full.tableSize, 2048u);
  std::sort(many.begin(), many.end());
  expectEveryPathToldRight(numbered, full, many, 16384);
}

// Cuckoo insertion that may not move an id fails on a table of 1500 ids,
// at both sizes (4096 and 8192 slots) and with every pair of multipliers:
// the plan falls back to the sorted table, still exact.
TEST(Residual, HashedFallsBackToSortedWhenNoTableIsFound) {
  const Cfg cfg = diamonds(14);
  const NumberedDag numbered = numberBallLarus(cfg);
  std::vector<uint64_t> tested = randomIds(1500, 16384);
  std::sort(tested.begin(), tested.end());
  ResidualLimits limits{4096, 16, 0, false};
  limits.hashKicks = 0;
  const ResidualPlan plan = planResidual(numbered, cfg.checksum(),
                                         hex64(cfg.checksum()), tested, limits);
  ASSERT_EQ(plan.policy, ResidualPolicy::Sorted);
  EXPECT_EQ(plan.tableSize, tested.size());
  std::vector<uint64_t> expected = tested;
  expected.push_back(kNoPath);
  EXPECT_EQ(plan.table, expected);
  expectEveryPathToldRight(numbered, plan, tested, 16384);
  // Counting: the sorted ids, a count after each.
  limits.countTested = true;
  const ResidualPlan counted = planResidual(
      numbered, cfg.checksum(), hex64(cfg.checksum()), tested, limits);
  ASSERT_EQ(counted.policy, ResidualPolicy::Sorted);
  EXPECT_TRUE(counted.counted);
  EXPECT_EQ(counted.table.size(), 2 * (tested.size() + 1));
  expectEveryPathToldRight(numbered, counted, tested, 16384, 7);
  // Directly: no table, where moving ids finds one.
  for (unsigned choices : {2u, 3u}) {
    EXPECT_TRUE(buildCuckooTable(tested, 4096, hashMultipliers(0, choices), 0).empty());
    EXPECT_EQ(buildCuckooTable(tested, 4096, hashMultipliers(0, choices), 500).size(),
              4096u);
  }
  // Two ids whose slots are all one slot never fit.
  EXPECT_TRUE(buildCuckooTable({1, 2}, 4, {1, 1, 1}, 500).empty());
}

// A path end that only tested paths reach gets no check; a function whose
// paths were all tested gets no code at all.
TEST(Residual, PathEndsOnlyTestedPathsReachAreNotChecked) {
  // 0 -> 1 -> {2 | 3} -> 4 (EXIT), with 2 -> 4 and 3 -> 4 the two ends:
  // paths 0 (via 2) and 1 (via 3).
  Cfg cfg(5, 0, 4);
  cfg.addEdge(0, 1, EdgeKind::Fallthru);
  cfg.addEdge(1, 2, EdgeKind::True);
  cfg.addEdge(1, 3, EdgeKind::False);
  cfg.addEdge(2, 4, EdgeKind::Fallthru);
  cfg.addEdge(3, 4, EdgeKind::Fallthru);
  const NumberedDag numbered = numberBallLarus(cfg);
  const std::string checksum = hex64(cfg.checksum());
  const ResidualPlan one = planResidual(numbered, cfg.checksum(), checksum, {0}, {});
  EXPECT_EQ(one.policy, ResidualPolicy::Bytemap);
  EXPECT_EQ(one.checkedEnds, 1u);
  EXPECT_EQ(one.uncheckedEnds, 1u);
  const DagEdgeId endOfPath0 = regeneratePath(numbered.dag, numbered.ballLarus, 0).back();
  const DagEdgeId endOfPath1 = regeneratePath(numbered.dag, numbered.ballLarus, 1).back();
  EXPECT_FALSE(one.checkedEnd[endOfPath0]);
  EXPECT_TRUE(one.checkedEnd[endOfPath1]);
  const ResidualPlan both =
      planResidual(numbered, cfg.checksum(), checksum, {1, 0}, {});
  EXPECT_EQ(both.policy, ResidualPolicy::Complete);
  EXPECT_EQ(both.checkedEnds, 0u);
  // Counting tested paths needs code at every end, complete or not: the
  // counts live there.
  for (const std::vector<uint64_t> &tested : {std::vector<uint64_t>{0},
                                               std::vector<uint64_t>{1, 0}}) {
    const ResidualPlan counted = planResidual(numbered, cfg.checksum(), checksum,
                                              tested, {4096, 16, 0, true});
    EXPECT_EQ(counted.policy, ResidualPolicy::Array);
    EXPECT_EQ(counted.checkedEnds, 2u);
    EXPECT_EQ(counted.uncheckedEnds, 0u);
  }
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
  EXPECT_EQ(planResidual(numbered, checksum, hex64(checksum), {}, {}).policy,
            ResidualPolicy::Untested);
  const ResidualPlan stale =
      planResidual(numbered, checksum, hex64(checksum + 1), {0}, {});
  EXPECT_EQ(stale.policy, ResidualPolicy::Stale);
  EXPECT_NE(stale.why.find(hex64(checksum + 1)), std::string::npos);
  // A corpus naming a path the function does not have is stale too.
  EXPECT_EQ(planResidual(numbered, checksum, hex64(checksum), {0, 7}, {}).policy,
            ResidualPolicy::Stale);
  EXPECT_TRUE(stale.table.empty());
}

// Random graphs (loops, irreducible regions, abnormal edges, cuts), random
// tested sets and limits: at every path end the check hits exactly for the
// tested paths, under every policy, and the Ball-Larus register is exact.
TEST(Residual, RandomGraphsTellTestedPathsFromResidualOnes) {
  unsigned graphs = 0, residualPaths = 0, unmaskedArrays = 0;
  unsigned byPolicy[kResidualPolicies] = {};
  unsigned hashedByChoices[kMaxHashChoices + 1] = {};
  for (uint64_t seed = 9000000; graphs < 1500; ++seed) {
    std::mt19937_64 rng(seed);
    const std::optional<NumberedCfg> random = randomNumberedCfg(rng);
    if (!random)
      continue;
    const Cfg &cfg = random->cfg;
    const NumberedDag &numbered = random->numbered;
    const uint64_t n = numbered.ballLarus.totalPaths;
    ++graphs;
    // Some functions fully tested (complete), most a third.
    const unsigned oneIn = rng() % 8 == 0 ? 1 : 3;
    std::vector<uint64_t> tested;
    for (uint64_t id = 0; id < n; ++id)
      if (rng() % oneIn == 0)
        tested.push_back(id);
    ResidualLimits limits{1 + rng() % 64, 1.0 + (rng() % 8),
                          rng() % 2 ? 0 : rng() % 128, rng() % 4 == 0};
    // Now and then no cuckoo moves, or no hash table at all: some hashed
    // plans fall back to sorted.
    if (rng() % 4 == 0)
      limits.hashKicks = 0;
    if (rng() % 4 == 0)
      limits.hashAttempts = 0;
    // Half the hash tables with three choices.
    if (rng() % 2 == 0)
      limits.twoChoiceSlots = 0;
    // Half the arrays masked.
    limits.unmaskedArrays = rng() % 2 == 0;
    const ResidualPlan plan = planResidual(numbered, cfg.checksum(),
                                           hex64(cfg.checksum()), tested, limits);
    ++byPolicy[static_cast<int>(plan.policy)];
    if (plan.policy == ResidualPolicy::Hashed)
      ++hashedByChoices[plan.multipliers.size()];
    unmaskedArrays += plan.unmasked;
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
  std::printf("[  stats   ] %u graphs:", graphs);
  for (int p = 0; p < kResidualPolicies; ++p) {
    std::printf(" %u %s,", byPolicy[p],
                residualPolicyName(static_cast<ResidualPolicy>(p)));
    const auto policy = static_cast<ResidualPolicy>(p);
    if (policy != ResidualPolicy::Untested && policy != ResidualPolicy::Stale) {
      EXPECT_GT(byPolicy[p], 50u) << residualPolicyName(policy);
    }
  }
  std::printf(" %u residual paths checked; %u arrays unmasked\n", residualPaths,
              unmaskedArrays);
  // Arrays of both kinds (checkAtPathEnd: every path's PPP id inside an
  // unmasked one).
  EXPECT_GT(unmaskedArrays, 50u);
  EXPECT_GT(byPolicy[static_cast<int>(ResidualPolicy::Array)] - unmaskedArrays, 50u);
  EXPECT_GT(hashedByChoices[2], 20u);
  EXPECT_GT(hashedByChoices[3], 20u);
}

// A route into a path end needs no check of its own when it enters by an
// edge every path through which was tested (the plugin's path ends on a
// block's entries), and none in a peeled loop's later iterations when
// every path through it that does not start at the function's entry was.
// Random graphs and tested sets against brute force: an edge is marked
// exactly when no untested path (of those) takes it, and some path does;
// neither is computed when the tested paths are counted (their counts need
// every check).
TEST(Residual, EdgesWhosePathsWereAllTestedAreExactlyThoseNoUntestedPathTakes) {
  unsigned graphs = 0, marked = 0, unmarked = 0, innerOnly = 0;
  for (uint64_t seed = 9100000; graphs < 1000; ++seed) {
    std::mt19937_64 rng(seed);
    const std::optional<NumberedCfg> random = randomNumberedCfg(rng);
    if (!random)
      continue;
    const Cfg &cfg = random->cfg;
    const NumberedDag &numbered = random->numbered;
    const Dag &dag = numbered.dag;
    const uint64_t n = numbered.ballLarus.totalPaths;
    ++graphs;
    // Mostly tested, so that many edges have every path tested.
    std::vector<uint64_t> tested;
    for (uint64_t id = 0; id < n; ++id)
      if (rng() % 5 != 0)
        tested.push_back(id);
    const bool countTested = rng() % 8 == 0;
    const ResidualPlan plan =
        planResidual(numbered, cfg.checksum(), hex64(cfg.checksum()), tested,
                     {64, 16, 0, countTested});
    // Per DAG edge, for all paths and for those not starting at the
    // function's entry (a CFG edge out of ENTRY): taken by one, by an
    // untested one.
    std::vector<bool> taken[2], takenUntested[2];
    for (int inner = 0; inner < 2; ++inner) {
      taken[inner].assign(dag.edges.size(), false);
      takenUntested[inner].assign(dag.edges.size(), false);
    }
    for (uint64_t id = 0; id < n; ++id) {
      const bool isTested = std::binary_search(tested.begin(), tested.end(), id);
      const std::vector<DagEdgeId> path =
          regeneratePath(dag, numbered.ballLarus, id);
      const bool inner = dag.edges[path.front()].role != DagEdgeRole::Cfg;
      for (int which = 0; which <= int(inner); ++which)
        for (DagEdgeId e : path) {
          taken[which][e] = true;
          if (!isTested)
            takenUntested[which][e] = true;
        }
    }
    if (tested.empty() || countTested) {
      EXPECT_TRUE(plan.everyPathTested.empty()) << "seed " << seed;
      EXPECT_TRUE(plan.everyInnerPathTested.empty()) << "seed " << seed;
      continue;
    }
    ASSERT_EQ(plan.everyPathTested.size(), dag.edges.size());
    ASSERT_EQ(plan.everyInnerPathTested.size(), dag.edges.size());
    for (DagEdgeId e = 0; e < dag.edges.size(); ++e) {
      const bool every = taken[0][e] && !takenUntested[0][e];
      const bool everyInner = taken[1][e] && !takenUntested[1][e];
      ASSERT_EQ(plan.everyPathTested[e], every)
          << "seed " << seed << ", DAG edge " << e
          << "\n  graph: " << describeCfg(cfg);
      ASSERT_EQ(plan.everyInnerPathTested[e], everyInner)
          << "seed " << seed << ", DAG edge " << e << " (paths not from entry)"
          << "\n  graph: " << describeCfg(cfg);
      ++(every ? marked : unmarked);
      innerOnly += everyInner && !every;
    }
  }
  std::printf("[  stats   ] %u graphs: %u edges with every path tested, %u not, "
              "%u with every path not from the entry tested but not all\n",
              graphs, marked, unmarked, innerOnly);
  EXPECT_GT(marked, 1000u);
  EXPECT_GT(unmarked, 1000u);
  EXPECT_GT(innerOnly, 100u);
}

// Ball-Larus Figure 10 (a loop B..E, back edge E->B) with the compiler's
// estimates favouring B->C, while the tests ran B D E (id 7) a thousand
// times: with the tests' counts the chords leave that path, whose only one
// is its path start (free: the register's initial value); without them,
// D->E carries one. Exact either way.
TEST(Residual, TestedCountsPutTheChordsOffTheHottestPath) {
  enum : BlockId { A, B, C, D, E, F };
  Cfg cfg(6, A, F);
  cfg.addEdge(A, B, EdgeKind::Fallthru, 1);
  const EdgeId bc = cfg.addEdge(B, C, EdgeKind::True, 7);
  const EdgeId bd = cfg.addEdge(B, D, EdgeKind::False, 3);
  cfg.addEdge(C, E, EdgeKind::Fallthru, 7);
  const EdgeId de = cfg.addEdge(D, E, EdgeKind::Fallthru, 3);
  cfg.addEdge(E, B, EdgeKind::True, 9);
  cfg.addEdge(E, F, EdgeKind::False, 1);
  const NumberedDag numbered = numberBallLarus(cfg);
  const Dag &dag = numbered.dag;
  const std::vector<uint64_t> tested{0, 4, 7}, counts{1, 1, 1000};
  const ResidualLimits limits;
  const ResidualPlan estimated = planResidual(
      numbered, cfg.checksum(), hex64(cfg.checksum()), tested, limits);
  const ResidualPlan measured = planResidual(
      numbered, cfg.checksum(), hex64(cfg.checksum()), tested, limits, counts);
  ASSERT_EQ(measured.policy, ResidualPolicy::Bytemap);

  const std::vector<DagEdgeId> hot = regeneratePath(dag, numbered.ballLarus, 7);
  ASSERT_EQ(hot, (std::vector<DagEdgeId>{dag.pathStart[B], dag.dagEdgeOfCfgEdge[bd],
                                         dag.dagEdgeOfCfgEdge[de], dag.pathEnd[E]}));
  EXPECT_FALSE(estimated.chords.inTree[dag.dagEdgeOfCfgEdge[de]]);
  EXPECT_TRUE(estimated.chords.inTree[dag.dagEdgeOfCfgEdge[bc]]);
  for (DagEdgeId e : hot)
    EXPECT_EQ(measured.chords.inTree[e], e != dag.pathStart[B]) << e;
  // A repeated id adds up its counts: B D E ran 4 + 4 times, more than
  // B C E's 3 + 3, so D->E is on the tree (with 4 alone it would be a
  // chord). Counts must match the ids.
  const ResidualPlan repeated =
      planResidual(numbered, cfg.checksum(), hex64(cfg.checksum()), {7, 0, 4, 7},
                   limits, {4, 3, 3, 4});
  EXPECT_EQ(repeated.tested, tested);
  EXPECT_TRUE(repeated.chords.inTree[dag.dagEdgeOfCfgEdge[de]]);
  EXPECT_THROW(planResidual(numbered, cfg.checksum(), hex64(cfg.checksum()),
                            tested, limits, {1, 1}),
               std::invalid_argument);
  for (uint64_t id = 0; id < numbered.ballLarus.totalPaths; ++id)
    for (const ResidualPlan *plan : {&estimated, &measured}) {
      std::string problem;
      EXPECT_EQ(checkAtPathEnd(numbered, *plan, id, problem),
                std::count(tested.begin(), tested.end(), id) == 1)
          << id;
      EXPECT_EQ(problem, "");
    }
}

// A loop: 0 (ENTRY) -> 1 (header) -> 2 -> {3 | 4} -> 5, 5 -> 1 (back edge),
// 5 -> 6 -> 7 (EXIT). Paths starting at 1 are the second and later
// iterations; those from ENTRY enter the loop.
TEST(Residual, PeelsTheLoopsTheTestsIteratedOftenPerEntry) {
  Cfg cfg(8, 0, 7);
  cfg.addEdge(0, 1, EdgeKind::Fallthru);
  cfg.addEdge(1, 2, EdgeKind::Fallthru);
  cfg.addEdge(2, 3, EdgeKind::True);
  cfg.addEdge(2, 4, EdgeKind::False);
  cfg.addEdge(3, 5, EdgeKind::Fallthru);
  cfg.addEdge(4, 5, EdgeKind::Fallthru);
  cfg.addEdge(5, 1, EdgeKind::True);
  cfg.addEdge(5, 6, EdgeKind::False);
  cfg.addEdge(6, 7, EdgeKind::Fallthru);
  const NumberedDag numbered = numberBallLarus(cfg);
  const Dag &dag = numbered.dag;
  ASSERT_NE(dag.pathStart[1], kNoId);
  const std::string checksum = hex64(cfg.checksum());
  // Every path tested but one (so that some end is checked); `perEntry`
  // runs of each iteration path per run of an entering one.
  const auto plan = [&](uint64_t perEntry, ResidualLimits limits) {
    std::vector<uint64_t> ids, counts;
    for (uint64_t id = 1; id < numbered.ballLarus.totalPaths; ++id) {
      const bool iteration =
          regeneratePath(dag, numbered.ballLarus, id).front() == dag.pathStart[1];
      ids.push_back(id);
      counts.push_back(iteration ? perEntry : 1);
    }
    return planResidual(numbered, cfg.checksum(), checksum, ids, limits, counts);
  };
  // Iteration paths: 4 of them (2 routes x 2 ends); entering ones: 3
  // tested, each once, so 3 entries.
  EXPECT_EQ(numbered.ballLarus.totalPaths, 8u);
  const ResidualLimits defaults;
  EXPECT_EQ(plan(3, defaults).peel, std::vector<BlockId>({1})); // 12 >= 4 * 3
  EXPECT_EQ(plan(2, defaults).peel, std::vector<BlockId>());    // 8 < 4 * 3
  ResidualLimits never = defaults;
  never.peelIterations = 0;
  EXPECT_EQ(plan(100, never).peel, std::vector<BlockId>());
  // A PPP array's check folds where both registers are constants, which
  // they are together (the same chords), and its table is constant: not
  // with count-tested, whose table holds counts.
  ResidualLimits arrays = defaults;
  arrays.bytemapPaths = 0;
  EXPECT_EQ(plan(100, arrays).policy, ResidualPolicy::Array);
  EXPECT_EQ(plan(100, arrays).peel, std::vector<BlockId>({1}));
  ResidualLimits countedArrays = arrays;
  countedArrays.countTested = true;
  EXPECT_EQ(plan(100, countedArrays).policy, ResidualPolicy::Array);
  EXPECT_EQ(plan(100, countedArrays).peel, std::vector<BlockId>());
  // Without the tests' counts nothing says which loops are hot.
  std::vector<uint64_t> ids;
  for (uint64_t id = 1; id < numbered.ballLarus.totalPaths; ++id)
    ids.push_back(id);
  EXPECT_EQ(planResidual(numbered, cfg.checksum(), checksum, ids, defaults).peel,
            std::vector<BlockId>());
}

// An array or hash table without counts holds 32-bit ids where every id
// fits (fewer than UINT32_MAX paths): then an id whose low 32 bits are a
// tested id's must still miss, so a function of 2^33 paths keeps 64-bit
// ids; counts keep them too (abi.h's layout). Checked through
// checkAtPathEnd's model of the 32-bit compare.
TEST(Residual, TablesHoldThirtyTwoBitIdsWhereEveryIdFits) {
  ResidualLimits arrays;
  arrays.bytemapPaths = 0;
  ResidualLimits hashes = arrays;
  hashes.tableEntries = 2; // the interval of 3 needs 4
  const std::vector<uint64_t> tested = {0, 1, 2};
  for (int n : {4, 33}) {
    const Cfg cfg = diamonds(n);
    const NumberedDag numbered = numberBallLarus(cfg);
    const uint64_t paths = numbered.ballLarus.totalPaths;
    ASSERT_EQ(paths, uint64_t{1} << n);
    std::vector<uint64_t> probes = {0, 1, 2, 3, paths - 1};
    if (paths > (uint64_t{1} << 32))
      probes.insert(probes.end(), {uint64_t{1} << 32, (uint64_t{1} << 32) + 1,
                                   (uint64_t{1} << 32) + 2});
    for (ResidualLimits limits : {arrays, hashes})
      for (bool countTested : {false, true}) {
        limits.countTested = countTested;
        const ResidualPlan plan = planResidual(
            numbered, cfg.checksum(), hex64(cfg.checksum()), tested, limits);
        const std::string what = std::to_string(n) + " diamonds, " +
                                 residualPolicyName(plan.policy) +
                                 (countTested ? ", counted" : "");
        EXPECT_EQ(plan.policy, limits.tableEntries == 2 ? ResidualPolicy::Hashed
                                                        : ResidualPolicy::Array)
            << what;
        EXPECT_EQ(plan.narrow, !countTested && paths < UINT32_MAX) << what;
        for (uint64_t id : probes) {
          std::string problem;
          EXPECT_EQ(checkAtPathEnd(numbered, plan, id, problem), id <= 2)
              << what << ", path " << id;
          EXPECT_EQ(problem, "");
        }
      }
  }
}

// No array holds table-limit tested paths or more (it has more entries
// than tested paths), so their PPP numbering, whose cost grows with their
// total length, is not computed; one fewer still gets it.
TEST(Residual, PppNumbersOnlyWhereAnArrayCanHoldTheTestedPaths) {
  const Cfg cfg = diamonds(4);
  const NumberedDag numbered = numberBallLarus(cfg);
  ResidualLimits limits;
  limits.bytemapPaths = 0;
  limits.tableEntries = 4;
  const auto plan = [&](std::vector<uint64_t> tested) {
    return planResidual(numbered, cfg.checksum(), hex64(cfg.checksum()),
                        tested, limits);
  };
  const ResidualPlan three = plan({0, 1, 2});
  EXPECT_EQ(three.policy, ResidualPolicy::Array);
  EXPECT_EQ(three.ppp.intervalSize, 3u);
  const ResidualPlan four = plan({0, 1, 2, 3});
  EXPECT_EQ(four.policy, ResidualPolicy::Hashed);
  EXPECT_EQ(four.ppp.intervalSize, 0u);
  EXPECT_TRUE(four.ppp.ids.empty());
}


// A path end that only tested paths reach has no check, so the tested
// paths ending there are never looked up: the array and the hash table
// hold the others alone (PPP numbers those), and every path is still
// told right.
TEST(Residual, TablesLeaveOutTestedPathsEndingWithoutACheck) {
  // ENTRY branches to two diamonds, each with its own return to EXIT.
  Cfg cfg(10, 0, 9);
  cfg.addEdge(0, 1, EdgeKind::True);
  cfg.addEdge(0, 2, EdgeKind::False);
  for (BlockId top : {1, 2}) {
    const BlockId left = 2 * top + 1, right = 2 * top + 2, join = 6 + top;
    cfg.addEdge(top, left, EdgeKind::True);
    cfg.addEdge(top, right, EdgeKind::False);
    cfg.addEdge(left, join, EdgeKind::Fallthru);
    cfg.addEdge(right, join, EdgeKind::Fallthru);
    cfg.addEdge(join, 9, EdgeKind::Fallthru);
  }
  const NumberedDag numbered = numberBallLarus(cfg);
  ASSERT_EQ(numbered.ballLarus.totalPaths, 4u);
  // Both paths of the first diamond tested (their end needs no check),
  // one of the second's.
  std::vector<uint64_t> first, second;
  for (uint64_t id = 0; id < 4; ++id) {
    const auto path = regeneratePath(numbered.dag, numbered.ballLarus, id);
    (numbered.dag.edges[path.back()].src == 7 ? first : second).push_back(id);
  }
  ASSERT_EQ(first.size(), 2u);
  ASSERT_EQ(second.size(), 2u);
  const std::vector<uint64_t> tested = {first[0], first[1], second[0]};
  ResidualLimits arrays;
  arrays.bytemapPaths = 0;
  ResidualLimits hashes = arrays;
  hashes.tableEntries = 1;
  for (const ResidualLimits &limits : {arrays, hashes}) {
    const ResidualPlan plan = planResidual(
        numbered, cfg.checksum(), hex64(cfg.checksum()), tested, limits);
    const std::string what = residualPolicyName(plan.policy);
    EXPECT_EQ(plan.checkedEnds, 1u);
    EXPECT_EQ(plan.uncheckedEnds, 1u);
    EXPECT_EQ(plan.tested, tested);
    std::vector<uint64_t> held;
    for (uint64_t k = 0; k < plan.tableSize; ++k)
      if (plan.table[k] != kNoPath && plan.table[k] != UINT32_MAX)
        held.push_back(plan.table[k]);
    EXPECT_EQ(held, std::vector<uint64_t>{second[0]}) << what;
    if (plan.policy == ResidualPolicy::Array) {
      EXPECT_EQ(plan.ppp.intervalSize, 1u);
      EXPECT_EQ(plan.tableSize, 1u);
    } else {
      EXPECT_EQ(plan.policy, ResidualPolicy::Hashed);
    }
    for (uint64_t id = 0; id < 4; ++id) {
      std::string problem;
      EXPECT_EQ(checkAtPathEnd(numbered, plan, id, problem),
                std::count(tested.begin(), tested.end(), id) == 1)
          << what << ", path " << id;
      EXPECT_EQ(problem, "");
    }
  }
}
