#include "pathcov/core/Residual.h"

#include <algorithm>
#include <cstdio>

namespace pathcov {

const char *residualPolicyName(ResidualPolicy policy) {
  switch (policy) {
  case ResidualPolicy::Array:
    return "array";
  case ResidualPolicy::Sorted:
    return "sorted";
  case ResidualPolicy::Untested:
    return "untested";
  case ResidualPolicy::Stale:
    return "stale";
  }
  return "?";
}

namespace {

std::string hex(uint64_t v) {
  char text[17];
  snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
  return text;
}

// Every path residual: the Ball-Larus register alone, no table.
ResidualPlan everyPathResidual(const NumberedDag &numbered,
                               ResidualPolicy policy, std::string why) {
  ResidualPlan plan;
  plan.policy = policy;
  plan.why = std::move(why);
  plan.chords = computeChordIncrements(numbered.dag, numbered.ballLarus, {});
  return plan;
}

} // namespace

ResidualPlan planResidual(const NumberedDag &numbered, uint64_t cfgChecksum,
                          const std::string &corpusChecksum,
                          const std::vector<uint64_t> &testedIds,
                          const ResidualLimits &limits) {
  if (corpusChecksum.empty())
    return everyPathResidual(numbered, ResidualPolicy::Untested, "");
  if (corpusChecksum != hex(cfgChecksum))
    return everyPathResidual(numbered, ResidualPolicy::Stale,
                             "the corpus has CFG checksum " + corpusChecksum +
                                 ", this build " + hex(cfgChecksum));
  std::vector<uint64_t> tested = testedIds;
  std::sort(tested.begin(), tested.end());
  tested.erase(std::unique(tested.begin(), tested.end()), tested.end());
  if (!tested.empty() && tested.back() >= numbered.ballLarus.totalPaths)
    return everyPathResidual(
        numbered, ResidualPolicy::Stale,
        "the corpus names path " + std::to_string(tested.back()) + " of " +
            std::to_string(numbered.ballLarus.totalPaths));
  if (tested.empty())
    return everyPathResidual(numbered, ResidualPolicy::Untested, "");

  ResidualPlan plan;
  plan.tested = tested;
  bool array = false;
  try {
    plan.ppp = computePPPIncrements(numbered.dag, numbered.ballLarus, tested);
    array = plan.ppp.intervalSize <= limits.tableEntries &&
            plan.ppp.delta <= limits.delta;
  } catch (const NumberingOverflow &) {
    // A PPP weight past 64 bits: the sorted table needs no PPP numbering.
  }
  if (array) {
    plan.policy = ResidualPolicy::Array;
    plan.tableSize = plan.ppp.intervalSize;
    std::vector<uint64_t> byPpp(plan.tableSize, kNoPath);
    for (size_t i = 0; i < tested.size(); ++i)
      byPpp[static_cast<uint64_t>(plan.ppp.ids[i])] = tested[i];
    plan.table = byPpp;
  } else {
    plan.policy = ResidualPolicy::Sorted;
    plan.ppp = PppNumbering();
    plan.tableSize = tested.size();
    plan.table = tested;
  }
  plan.table.push_back(kNoPath);
  plan.table.resize(2 * (plan.tableSize + 1), 0); // the counts
  plan.chords = computeChordIncrements(
      numbered.dag, numbered.ballLarus,
      array ? plan.ppp.weight : std::vector<int64_t>{});
  return plan;
}

} // namespace pathcov
