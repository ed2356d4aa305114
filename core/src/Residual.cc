#include "pathcov/core/Residual.h"
#include "pathcov/core/Paths.h"

#include <algorithm>
#include <limits>
#include <map>
#include <cstdio>

namespace pathcov {

const char *residualPolicyName(ResidualPolicy policy) {
  switch (policy) {
  case ResidualPolicy::Bytemap:
    return "bytemap";
  case ResidualPolicy::Array:
    return "array";
  case ResidualPolicy::Hashed:
    return "hashed";
  case ResidualPolicy::Sorted:
    return "sorted";
  case ResidualPolicy::Untested:
    return "untested";
  case ResidualPolicy::Stale:
    return "stale";
  case ResidualPolicy::Complete:
    return "complete";
  }
  return "?";
}

namespace {

uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Puts `id` in the first free one of its slots; false when all are taken.
bool placeInFreeSlot(std::vector<uint64_t> &table, uint64_t id,
                     const std::vector<uint64_t> &k) {
  for (uint64_t multiplier : k) {
    uint64_t &slot = table[hashSlot(id, multiplier, table.size())];
    if (slot == kNoPath) {
      slot = id;
      return true;
    }
  }
  return false;
}

// The least and the greatest PPP id of any path of the DAG, tested or
// not: the sums of the PPP weights along its paths (an edge without a
// weight adds 0), by dynamic programming from EXIT.
std::pair<__int128, __int128> pppIdRange(const Dag &dag, const PppNumbering &ppp) {
  std::vector<__int128> least(dag.out.size(), 0), most(dag.out.size(), 0);
  for (BlockId v : dag.reverseTopologicalOrder()) {
    if (dag.out[v].empty())
      continue;
    least[v] = std::numeric_limits<__int128>::max();
    most[v] = std::numeric_limits<__int128>::min();
    for (DagEdgeId e : dag.out[v]) {
      const BlockId w = dag.edges[e].dst;
      least[v] = std::min(least[v], ppp.weight[e] + least[w]);
      most[v] = std::max(most[v], ppp.weight[e] + most[w]);
    }
  }
  return {least[dag.entry], most[dag.entry]};
}

// An array's table, or none (entries 0). It holds an entry for every PPP
// id any path can end with, when those are few: the check indexes it with
// the PPP register less the least of them (an offset the path end's add
// takes in), and needs no mask. Untested paths' PPP ids turn out to lie
// close to the interval (sqlite3VdbeExec's: -7 to 410, the interval 0 to
// 410); such a table is taken when it has at most twice the entries of the
// masked one. Else it has a power of two of entries above the PPP
// interval, and the check masks the PPP id (ppp & tableSize, one AND; a
// bounds check took a compare and a conditional move). Either way one
// entry more, never indexed, follows (kNoPath); table-limit bounds the
// entries, padding included, and delta-limit the interval.
struct ArrayTable {
  uint64_t entries = 0;
  bool unmasked = false;
  int64_t base = 0;
};

ArrayTable planArrayTable(const Dag &dag, const PppNumbering &ppp,
                          const ResidualLimits &limits) {
  if (ppp.intervalSize == 0 || ppp.delta > limits.delta)
    return {};
  ArrayTable table{powerOfTwoAtLeast(ppp.intervalSize + 1), false, 0};
  if (limits.unmaskedArrays) {
    const auto [least, most] = pppIdRange(dag, ppp);
    const __int128 entries = most - least + 2;
    if (entries <= static_cast<__int128>(2 * table.entries) &&
        entries <= static_cast<__int128>(limits.tableEntries))
      table = {static_cast<uint64_t>(entries), true, static_cast<int64_t>(least)};
  }
  if (table.entries > limits.tableEntries)
    return {};
  return table;
}

} // namespace

std::vector<uint64_t> hashMultipliers(unsigned n, unsigned choices) {
  std::vector<uint64_t> k(choices);
  for (unsigned i = 0; i < choices; ++i)
    k[i] = splitmix64(kMaxHashChoices * uint64_t{n} + i) | 1;
  return k;
}

std::vector<uint64_t> buildCuckooTable(const std::vector<uint64_t> &ids,
                                       uint64_t size, const std::vector<uint64_t> &k,
                                       unsigned kicks) {
  std::vector<uint64_t> table(size, kNoPath);
  uint64_t walk = 0; // the random walk's state: the same table every build
  for (uint64_t id : ids) {
    uint64_t moving = id;
    uint64_t evictedFrom = size; // none yet
    for (unsigned kick = 0; !placeInFreeSlot(table, moving, k); ++kick) {
      if (kick == kicks)
        return {};
      // Evict the id of one of its slots, chosen at random, but not
      // straight back into the slot it was just evicted from.
      walk = splitmix64(walk);
      uint64_t slot = hashSlot(moving, k[walk % k.size()], size);
      if (slot == evictedFrom)
        slot = hashSlot(moving, k[(walk + 1) % k.size()], size);
      std::swap(moving, table[slot]);
      evictedFrom = slot;
    }
  }
  return table;
}

namespace {

// Hashed: the first table that holds every one of `ids`, trying
// limits.hashAttempts (8) sets of multipliers at the smallest size, then
// as many at twice that size; false when none does. Two choices, at least
// twice the ids (two fail beyond half full), while that is at most
// limits.twoChoiceSlots slots: a probe fewer at every check, for a few KiB
// more; else three, at least 9/8 of the ids (three fill a table to about
// 91%): xz's lzma_decode, 54,425 tested paths, takes 65,536 slots instead
// of 131,072, half a MiB less. Deterministic: the same ids always give the
// same table.
bool planHashed(ResidualPlan &plan, const std::vector<uint64_t> &ids,
                const ResidualLimits &limits) {
  uint64_t size = powerOfTwoAtLeast(std::max<uint64_t>(2, 2 * ids.size()));
  unsigned choices = 2;
  if (size > limits.twoChoiceSlots) {
    choices = 3;
    size = powerOfTwoAtLeast(std::max<uint64_t>(2, ids.size() + ids.size() / 8 + 1));
  }
  for (int doubled = 0; doubled < 2; ++doubled, size *= 2)
    for (unsigned n = 0; n < limits.hashAttempts; ++n) {
      std::vector<uint64_t> k = hashMultipliers(n, choices);
      std::vector<uint64_t> table =
          buildCuckooTable(ids, size, k, limits.hashKicks);
      if (table.empty())
        continue;
      plan.tableSize = size;
      plan.table = std::move(table);
      plan.multipliers = std::move(k);
      return true;
    }
  return false;
}

bool isPathEnd(const Dag &dag, DagEdgeId e) {
  return dag.edges[e].dst == dag.exit;
}

// Marks each path end (DAG edge into EXIT) checked or not, as
// `needsCheck(e)` says, and counts both kinds.
template <typename NeedsCheck>
void markEnds(const Dag &dag, ResidualPlan &plan, NeedsCheck needsCheck) {
  plan.checkedEnd.assign(dag.edges.size(), false);
  for (DagEdgeId e = 0; e < dag.edges.size(); ++e) {
    if (!isPathEnd(dag, e))
      continue;
    plan.checkedEnd[e] = needsCheck(e);
    ++(plan.checkedEnd[e] ? plan.checkedEnds : plan.uncheckedEnds);
  }
}

void markEveryEnd(const Dag &dag, ResidualPlan &plan) {
  markEnds(dag, plan, [](DagEdgeId) { return true; });
}

// Every path residual: the Ball-Larus register alone, no table, every path
// end checked.
ResidualPlan everyPathResidual(const NumberedDag &numbered,
                               ResidualPolicy policy, std::string why) {
  ResidualPlan plan;
  plan.policy = policy;
  plan.why = std::move(why);
  plan.chords = computeChordIncrements(numbered.dag, numbered.ballLarus, {});
  markEveryEnd(numbered.dag, plan);
  return plan;
}

// Whether a path starting with DAG edge `first` starts at the function's
// entry, rather than where an earlier path of the same call ended (a loop
// header, a cut's target, a block entered abnormally).
bool startsAtEntry(const Dag &dag, DagEdgeId first) {
  return dag.edges[first].role == DagEdgeRole::Cfg;
}

// What one regeneration of each tested path (Ball-Larus section 3.5) tells
// the plan: per tested path, the edge it ends with (the checks); per DAG
// edge, how many tested paths take it, how many of those do not start at
// the function's entry, and how often the tests ran it (the chords; empty
// without counts).
struct TestedEdges {
  std::vector<DagEdgeId> endOf;
  std::vector<uint64_t> paths;
  std::vector<uint64_t> innerPaths;
  std::vector<uint64_t> runs;
};

// `tested` ascending, each once; `counts` parallel to it, or empty.
TestedEdges walkTestedPaths(const NumberedDag &numbered,
                            const std::vector<uint64_t> &tested,
                            const std::vector<uint64_t> &counts) {
  const Dag &dag = numbered.dag;
  TestedEdges edges;
  edges.endOf.reserve(tested.size());
  edges.paths.assign(dag.edges.size(), 0);
  edges.innerPaths.assign(dag.edges.size(), 0);
  if (!counts.empty())
    edges.runs.assign(dag.edges.size(), 0);
  for (size_t i = 0; i < tested.size(); ++i) {
    const std::vector<DagEdgeId> path =
        regeneratePath(dag, numbered.ballLarus, tested[i]);
    edges.endOf.push_back(path.back());
    const bool inner = !startsAtEntry(dag, path.front());
    for (DagEdgeId e : path) {
      ++edges.paths[e];
      edges.innerPaths[e] += inner;
    }
    if (!counts.empty())
      for (DagEdgeId e : path)
        edges.runs[e] = saturatingAdd(edges.runs[e], counts[i]);
  }
  return edges;
}

// Per block, the paths from ENTRY to it (saturating); with `inner`, only
// those that do not start at the function's entry.
std::vector<uint64_t> pathsInto(const Dag &dag, bool inner) {
  std::vector<uint64_t> into(dag.numNodes(), 0);
  into[dag.entry] = 1;
  const std::vector<BlockId> order = dag.reverseTopologicalOrder();
  for (auto v = order.rbegin(); v != order.rend(); ++v)
    for (DagEdgeId e : dag.out[*v])
      if (!inner || *v != dag.entry || !startsAtEntry(dag, e))
        into[dag.edges[e].dst] = saturatingAdd(into[dag.edges[e].dst], into[*v]);
  return into;
}

// Per DAG edge u->v: whether every path through it (of those `into`
// counts) was tested: as many of `tested` take it as there are paths
// into u times paths from v to EXIT.
std::vector<bool> everyPathThroughTested(const NumberedDag &numbered,
                                         const std::vector<uint64_t> &into,
                                         const std::vector<uint64_t> &tested) {
  const Dag &dag = numbered.dag;
  std::vector<bool> every(dag.edges.size(), false);
  for (DagEdgeId e = 0; e < dag.edges.size(); ++e) {
    const uint64_t through = saturatingMul(
        into[dag.edges[e].src], numbered.ballLarus.numPaths[dag.edges[e].dst]);
    every[e] = through != 0 && tested[e] == through;
  }
  return every;
}

// Which edges have every path through them tested (of all paths, and of
// those not from the function's entry); a path end needs a check unless
// it is one of them: only tested paths end there.
void markCheckedEnds(const NumberedDag &numbered, const TestedEdges &edges,
                     ResidualPlan &plan) {
  const Dag &dag = numbered.dag;
  plan.everyPathTested =
      everyPathThroughTested(numbered, pathsInto(dag, false), edges.paths);
  plan.everyInnerPathTested = everyPathThroughTested(
      numbered, pathsInto(dag, true), edges.innerPaths);
  markEnds(dag, plan, [&](DagEdgeId e) { return !plan.everyPathTested[e]; });
}

} // namespace

std::vector<BlockId> loopsWorthPeeling(const Dag &dag,
                                       const std::vector<uint64_t> &runs,
                                       uint64_t minIterations) {
  std::vector<uint64_t> entries(dag.numNodes(), 0);
  for (DagEdgeId e = 0; e < dag.edges.size(); ++e)
    if (dag.edges[e].role == DagEdgeRole::Cfg)
      entries[dag.edges[e].dst] =
          saturatingAdd(entries[dag.edges[e].dst], runs[e]);
  std::vector<BlockId> headers;
  for (BlockId b = 0; b < dag.numNodes(); ++b) {
    const DagEdgeId start = dag.pathStart[b];
    if (start == kNoId || dag.enteredAbnormally[b] || runs[start] == 0)
      continue;
    const uint64_t once = std::max<uint64_t>(entries[b], 1);
    if (runs[start] / minIterations >= once)
      headers.push_back(b);
  }
  return headers;
}

ResidualPlan planResidual(const NumberedDag &numbered, uint64_t cfgChecksum,
                          const std::string &corpusChecksum,
                          const std::vector<uint64_t> &testedIds,
                          const ResidualLimits &limits,
                          const std::vector<uint64_t> &testedCounts) {
  if (corpusChecksum.empty())
    return everyPathResidual(numbered, ResidualPolicy::Untested, "");
  if (corpusChecksum != hex64(cfgChecksum))
    return everyPathResidual(numbered, ResidualPolicy::Stale,
                             "checksum " + corpusChecksum +
                                 " in the corpus, " + hex64(cfgChecksum) +
                                 " in this build");
  if (!testedCounts.empty() && testedCounts.size() != testedIds.size())
    throw std::invalid_argument("tested counts do not match the tested ids");
  // The ids ascending, each once, with their counts added up.
  std::map<uint64_t, uint64_t> runsOf;
  for (size_t i = 0; i < testedIds.size(); ++i) {
    uint64_t &runs = runsOf[testedIds[i]];
    runs = saturatingAdd(runs, testedCounts.empty() ? 0 : testedCounts[i]);
  }
  std::vector<uint64_t> tested, counts;
  for (const auto &[id, runs] : runsOf) {
    tested.push_back(id);
    if (!testedCounts.empty())
      counts.push_back(runs);
  }
  const uint64_t numPaths = numbered.ballLarus.totalPaths;
  if (!tested.empty() && tested.back() >= numPaths)
    return everyPathResidual(
        numbered, ResidualPolicy::Stale,
        "the corpus names path " + std::to_string(tested.back()) + " of " +
            std::to_string(numPaths));
  if (tested.empty())
    return everyPathResidual(numbered, ResidualPolicy::Untested, "");

  ResidualPlan plan;
  plan.tested = tested;
  const TestedEdges edges = walkTestedPaths(numbered, tested, counts);
  // Counting tested paths needs code at every end: the counts live there.
  if (limits.countTested)
    markEveryEnd(numbered.dag, plan);
  else
    markCheckedEnds(numbered, edges, plan);
  // Only the tested paths that end with a checked end are ever looked up:
  // the tables (and PPP's interval) hold those alone.
  std::vector<uint64_t> probed;
  for (size_t i = 0; i < tested.size(); ++i)
    if (plan.checkedEnd[edges.endOf[i]])
      probed.push_back(tested[i]);
  // An array has more entries than the ids it holds, so with table-limit
  // ids or more no PPP numbering can give one; numbering them would only
  // cost time and memory in proportion to their total length (seconds and
  // hundreds of MB for tens of thousands of long paths).
  if (!probed.empty() && probed.size() < limits.tableEntries) {
    try {
      plan.ppp = computePPPIncrements(numbered.dag, numbered.ballLarus, probed);
    } catch (const NumberingOverflow &) {
      // A PPP weight past 64 bits: no array; the others need no PPP ids.
      plan.ppp = PppNumbering();
    }
  }
  if (plan.checkedEnds == 0) {
    plan.policy = ResidualPolicy::Complete;
  } else if (!limits.countTested && numPaths <= limits.bytemapPaths) {
    plan.policy = ResidualPolicy::Bytemap;
    plan.bytemap.assign(numPaths, 0);
    for (uint64_t id : tested)
      plan.bytemap[id] = 1;
  } else if (const ArrayTable array =
                 planArrayTable(numbered.dag, plan.ppp, limits);
             array.entries != 0) {
    plan.policy = ResidualPolicy::Array;
    plan.unmasked = array.unmasked;
    plan.pppBase = array.base;
    plan.tableSize = array.entries - 1;
    plan.table.assign(plan.tableSize, kNoPath);
    for (size_t i = 0; i < probed.size(); ++i)
      plan.table[static_cast<uint64_t>(plan.ppp.ids[i] - plan.pppBase)] = probed[i];
  } else if (planHashed(plan, probed, limits)) {
    plan.policy = ResidualPolicy::Hashed;
    plan.counted = limits.countTested;
    plan.narrow = !plan.counted && numPaths < UINT32_MAX;
    // abi.h: a 64-bit table's multipliers follow its slots; with
    // countTested, a count per slot after them.
    if (!plan.narrow)
      plan.table.insert(plan.table.end(), plan.multipliers.begin(),
                        plan.multipliers.end());
    if (plan.counted)
      plan.table.resize(2 * plan.tableSize + plan.multipliers.size(), 0);
  } else {
    plan.policy = ResidualPolicy::Sorted;
    plan.tableSize = probed.size();
    plan.table = probed;
  }
  if (plan.policy == ResidualPolicy::Array ||
      plan.policy == ResidualPolicy::Sorted) {
    plan.table.push_back(kNoPath);
    plan.counted = limits.countTested;
    if (plan.counted)
      plan.table.resize(2 * (plan.tableSize + 1), 0);
    plan.narrow = plan.policy == ResidualPolicy::Array && !plan.counted &&
                  numPaths < UINT32_MAX;
  }
  plan.chords = computeChordIncrements(
      numbered.dag, numbered.ballLarus,
      plan.policy == ResidualPolicy::Array ? plan.ppp.weight
                                           : std::vector<int64_t>{},
      edges.runs);
  // An array's check folds too where both registers are constants (they
  // change on the same chords) and its table is constant (no counts).
  if (limits.peelIterations != 0 && !edges.runs.empty() &&
      (plan.policy == ResidualPolicy::Bytemap ||
       plan.policy == ResidualPolicy::Hashed ||
       (plan.policy == ResidualPolicy::Array && !plan.counted)))
    plan.peel = loopsWorthPeeling(numbered.dag, edges.runs, limits.peelIterations);
  return plan;
}

} // namespace pathcov
