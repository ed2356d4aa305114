#include "pathcov/core/Ppp.h"

#include "pathcov/core/Checked.h"
#include "pathcov/core/Paths.h"

#include <algorithm>
#include <string>
#include <unordered_map>

namespace pathcov {

int64_t PppNumbering::idOf(uint64_t ballLarusId) const {
  const auto it = std::lower_bound(interestingBallLarusIds.begin(),
                                   interestingBallLarusIds.end(), ballLarusId);
  if (it == interestingBallLarusIds.end() || *it != ballLarusId)
    return -1;
  return ids[it - interestingBallLarusIds.begin()];
}

namespace {
// One interesting path crossing an edge, with its prefix up to the edge's
// source, named by the prefix's Ball-Larus partial sum.
struct Crossing {
  uint64_t prefix;
  uint32_t path;
  bool operator<(const Crossing &o) const {
    return prefix != o.prefix ? prefix < o.prefix : path < o.path;
  }
};
} // namespace

PppNumbering computePPPIncrements(const Dag &dag, const BallLarusNumbering &bl,
                                  std::vector<uint64_t> interestingIds) {
  std::sort(interestingIds.begin(), interestingIds.end());
  interestingIds.erase(std::unique(interestingIds.begin(), interestingIds.end()),
                       interestingIds.end());

  PppNumbering ppp;
  ppp.weight.assign(dag.edges.size(), 0);
  ppp.defined.assign(dag.edges.size(), false);
  ppp.interestingBallLarusIds = interestingIds;

  // paths_I(e) with prefix(p, e) for every edge.
  std::vector<std::vector<Crossing>> crossings(dag.edges.size());
  for (uint32_t p = 0; p < interestingIds.size(); ++p) {
    uint64_t prefix = 0;
    for (DagEdgeId e : regeneratePath(dag, bl, interestingIds[p])) {
      crossings[e].push_back({prefix, p});
      prefix += bl.value[e]; // bounded by the path's id: cannot overflow
    }
  }

  std::vector<int64_t> pid(interestingIds.size(), 0);
  for (BlockId v : dag.reverseTopologicalOrder()) {
    // cis(q) for the prefixes q that reach v.
    std::unordered_map<uint64_t, int64_t> cis;
    for (DagEdgeId e : dag.out[v]) {
      std::vector<Crossing> &through = crossings[e];
      if (through.empty())
        continue;
      std::sort(through.begin(), through.end());
      // Figure 10, lines 3-12: the weight each prefix asks for, joined by max.
      int64_t w = INT64_MIN;
      for (size_t i = 0; i < through.size();) {
        const uint64_t q = through[i].prefix;
        int64_t minPid = INT64_MAX;
        for (; i < through.size() && through[i].prefix == q; ++i)
          minPid = std::min(minPid, pid[through[i].path]);
        w = std::max(w, checkedSub(cis[q], minPid, "PPP edge weight"));
      }
      ppp.weight[e] = w;
      ppp.defined[e] = true;
      // Lines 14-20: move the paths, then grow each prefix's interval.
      for (const Crossing &c : through)
        pid[c.path] = checkedAdd(pid[c.path], w, "PPP path id");
      for (const Crossing &c : through)
        cis[c.prefix] = std::max(cis[c.prefix],
                                 checkedAdd(pid[c.path], int64_t(1),
                                            "PPP interval size"));
    }
  }

  ppp.ids = pid;
  if (!pid.empty()) {
    const auto [lo, hi] = std::minmax_element(pid.begin(), pid.end());
    // The first interesting edge out of ENTRY starts its interval at 0 and
    // later ones above it, so the interval always begins at 0.
    if (*lo != 0)
      throw std::logic_error("PPP interval does not start at 0");
    ppp.intervalSize = static_cast<uint64_t>(*hi) + 1;
    ppp.delta = static_cast<double>(ppp.intervalSize) /
                static_cast<double>(pid.size());
  }
  return ppp;
}

} // namespace pathcov
