#include "pathcov/core/Chords.h"

#include <algorithm>
#include <numeric>
#include <tuple>
#include <string>

namespace pathcov {

namespace {

class UnionFind {
public:
  explicit UnionFind(uint32_t n) : parent_(n) {
    std::iota(parent_.begin(), parent_.end(), 0);
  }
  uint32_t find(uint32_t x) {
    while (parent_[x] != x)
      x = parent_[x] = parent_[parent_[x]];
    return x;
  }
  // False if a and b were already joined (the edge would close a cycle).
  bool unite(uint32_t a, uint32_t b) {
    a = find(a);
    b = find(b);
    if (a == b)
      return false;
    parent_[b] = a;
    return true;
  }

private:
  std::vector<uint32_t> parent_;
};

// Kruskal's algorithm, as gcov's find_spanning_tree: EXIT->ENTRY first,
// then the path starts of blocks entered abnormally (a star around ENTRY,
// so they always fit), then the most frequent edges, so the code lands on
// the coldest ones (Chords.h: path starts last, then by measured counts,
// then by the estimates).
std::vector<bool> maximumSpanningTree(const Dag &dag,
                                      const std::vector<uint64_t> &edgeCounts) {
  const auto rank = [&](DagEdgeId e) {
    const DagEdge &edge = dag.edges[e];
    return std::make_tuple(edge.role != DagEdgeRole::PathStart,
                           edgeCounts.empty() ? 0 : edgeCounts[e],
                           edge.frequency);
  };
  std::vector<DagEdgeId> byRank(dag.edges.size());
  std::iota(byRank.begin(), byRank.end(), 0);
  std::stable_sort(byRank.begin(), byRank.end(),
                   [&rank](DagEdgeId a, DagEdgeId b) { return rank(a) > rank(b); });
  UnionFind components(dag.numNodes());
  components.unite(dag.exit, dag.entry);
  std::vector<bool> inTree(dag.edges.size(), false);
  for (BlockId v = 0; v < dag.numNodes(); ++v)
    if (dag.enteredAbnormally[v] && dag.pathStart[v] != kNoId)
      inTree[dag.pathStart[v]] = components.unite(dag.entry, v);
  for (DagEdgeId e : byRank)
    if (!inTree[e])
      inTree[e] = components.unite(dag.edges[e].src, dag.edges[e].dst);
  return inTree;
}

// Potentials phi with phi(dst) = phi(src) + W(e) on every tree edge and
// phi(ENTRY) = phi(EXIT) = 0 (the tree edge EXIT->ENTRY has weight 0).
// A chord's increment is then phi(src) + W(c) - phi(dst): the sum of W
// around its fundamental cycle, as event counting [Ball 94] requires. All
// of it modulo 2^64, like the registers (see RegisterIncrement).
struct Potentials {
  std::vector<uint64_t> ballLarus, ppp;
};

Potentials treePotentials(const Dag &dag, const std::vector<bool> &inTree,
                          const std::vector<uint64_t> &blWeight,
                          const std::vector<uint64_t> &pppWeight) {
  struct Link {
    BlockId to;
    DagEdgeId edge; // kNoId for EXIT->ENTRY
    bool forward;
  };
  std::vector<std::vector<Link>> links(dag.numNodes());
  for (DagEdgeId e = 0; e < dag.edges.size(); ++e) {
    if (!inTree[e])
      continue;
    links[dag.edges[e].src].push_back({dag.edges[e].dst, e, true});
    links[dag.edges[e].dst].push_back({dag.edges[e].src, e, false});
  }
  links[dag.entry].push_back({dag.exit, kNoId, false});

  Potentials phi{std::vector<uint64_t>(dag.numNodes(), 0),
                 std::vector<uint64_t>(dag.numNodes(), 0)};
  std::vector<bool> seen(dag.numNodes(), false);
  std::vector<BlockId> work{dag.entry};
  seen[dag.entry] = true;
  while (!work.empty()) {
    const BlockId v = work.back();
    work.pop_back();
    for (const Link &l : links[v]) {
      if (seen[l.to])
        continue;
      seen[l.to] = true;
      work.push_back(l.to);
      const uint64_t bl = l.edge == kNoId ? 0 : blWeight[l.edge];
      const uint64_t pp = l.edge == kNoId ? 0 : pppWeight[l.edge];
      phi.ballLarus[l.to] = l.forward ? phi.ballLarus[v] + bl : phi.ballLarus[v] - bl;
      phi.ppp[l.to] = l.forward ? phi.ppp[v] + pp : phi.ppp[v] - pp;
    }
  }
  return phi;
}

int64_t chordIncrement(const std::vector<uint64_t> &phi, const DagEdge &e,
                       uint64_t weight) {
  return static_cast<int64_t>(phi[e.src] + weight - phi[e.dst]);
}

} // namespace

ChordPlacement computeChordIncrements(const Dag &dag,
                                      const BallLarusNumbering &bl,
                                      const std::vector<int64_t> &pppWeights,
                                      const std::vector<uint64_t> &edgeCounts) {
  const size_t numEdges = dag.edges.size();
  if (!pppWeights.empty() && pppWeights.size() != numEdges)
    throw std::invalid_argument("PPP weights do not match the DAG");
  if (!edgeCounts.empty() && edgeCounts.size() != numEdges)
    throw std::invalid_argument("edge counts do not match the DAG");
  const std::vector<uint64_t> &blWeight = bl.value;
  std::vector<uint64_t> pppWeight(numEdges, 0);
  for (DagEdgeId e = 0; e < pppWeights.size(); ++e)
    pppWeight[e] = static_cast<uint64_t>(pppWeights[e]);

  ChordPlacement placement;
  placement.inTree = maximumSpanningTree(dag, edgeCounts);
  placement.increment.resize(numEdges);
  const Potentials phi =
      treePotentials(dag, placement.inTree, blWeight, pppWeight);
  for (DagEdgeId e = 0; e < numEdges; ++e) {
    if (placement.inTree[e])
      continue;
    placement.chords.push_back(e);
    placement.increment[e] = {
        chordIncrement(phi.ballLarus, dag.edges[e], blWeight[e]),
        chordIncrement(phi.ppp, dag.edges[e], pppWeight[e])};
  }
  return placement;
}

PathBoundary pathBoundaryCode(const Dag &dag, const ChordPlacement &chords,
                              BlockId src, BlockId dst) {
  if (src >= dag.numNodes() || dst >= dag.numNodes() ||
      dag.pathEnd[src] == kNoId || dag.pathStart[dst] == kNoId)
    throw GraphError("no path boundary between blocks " + std::to_string(src) +
                     " and " + std::to_string(dst));
  return {chords.increment[dag.pathEnd[src]],
          chords.increment[dag.pathStart[dst]]};
}

} // namespace pathcov
