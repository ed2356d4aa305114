#include "pathcov/core/LoopTransitions.h"

#include "pathcov/core/Checked.h"
#include "pathcov/core/Paths.h"

#include <algorithm>
#include <map>

namespace pathcov {

namespace {

// Multiplication that sticks at UINT64_MAX, as saturatingAdd (Checked.h).
uint64_t saturatingMul(uint64_t a, uint64_t b, bool &saturated) {
  uint64_t r;
  if (__builtin_mul_overflow(a, b, &r)) {
    saturated = true;
    return UINT64_MAX;
  }
  return r;
}

} // namespace

PathEnds pathEnds(const Dag &dag, const BallLarusNumbering &bl, uint64_t id) {
  const std::vector<DagEdgeId> path = regeneratePath(dag, bl, id);
  PathEnds ends;
  const DagEdge &first = dag.edges[path.front()];
  const DagEdge &last = dag.edges[path.back()];
  if (first.role == DagEdgeRole::PathStart)
    ends.start = first.dst;
  if (last.role == DagEdgeRole::PathEnd)
    ends.end = last.src;
  return ends;
}

std::vector<uint64_t> pathsToBlocks(const Dag &dag) {
  std::vector<uint64_t> paths(dag.numNodes(), 0);
  std::vector<BlockId> order = dag.reverseTopologicalOrder();
  std::reverse(order.begin(), order.end());
  paths[dag.entry] = 1;
  for (BlockId v : order)
    for (DagEdgeId e : dag.out[v]) {
      uint64_t &to = paths[dag.edges[e].dst];
      to = saturatingAdd(to, paths[v]);
    }
  return paths;
}

std::vector<Loop> findLoops(const Cfg &cfg, const Dag &dag,
                            const BallLarusNumbering &bl) {
  std::map<BlockId, std::vector<BlockId>> latches;
  for (EdgeId id = 0; id < cfg.edges().size(); ++id)
    if (dag.cfgEdgeRole.at(id) == CfgEdgeRole::BackEdge)
      latches[cfg.edge(id).dst].push_back(cfg.edge(id).src);
  const std::vector<uint64_t> pathsTo = pathsToBlocks(dag);
  std::vector<Loop> loops;
  for (auto &[header, sources] : latches) {
    std::sort(sources.begin(), sources.end());
    sources.erase(std::unique(sources.begin(), sources.end()), sources.end());
    Loop loop;
    loop.header = header;
    loop.latches = sources;
    for (BlockId v : sources)
      loop.pathsToLatches =
          saturatingAdd(loop.pathsToLatches, pathsTo[v], loop.saturated);
    loop.pathsFromHeader = bl.numPaths[header];
    loop.transitions = saturatingMul(loop.pathsToLatches, loop.pathsFromHeader,
                                     loop.saturated);
    loops.push_back(std::move(loop));
  }
  return loops;
}

TransitionCoverage loopTransitions(const Cfg &cfg, const NumberedDag &numbered,
                                   const std::vector<PathPair> &windows) {
  const Dag &dag = numbered.dag;
  const BallLarusNumbering &bl = numbered.ballLarus;
  TransitionCoverage coverage;
  std::vector<size_t> loopOfHeader(dag.numNodes(), SIZE_MAX);
  for (Loop &loop : findLoops(cfg, dag, bl)) {
    loopOfHeader[loop.header] = coverage.loops.size();
    coverage.loops.push_back({std::move(loop), {}});
  }
  // Each path's ends once: windows share their paths.
  std::map<uint64_t, PathEnds> ends;
  const auto endsOf = [&](uint64_t id) -> const PathEnds & {
    auto found = ends.find(id);
    if (found == ends.end())
      found = ends.emplace(id, pathEnds(dag, bl, id)).first;
    return found->second;
  };
  for (const PathPair &window : windows) {
    const BlockId end = endsOf(window.first).end;
    const BlockId start = endsOf(window.second).start;
    const size_t loop = start == kNoId ? SIZE_MAX : loopOfHeader[start];
    if (end != kNoId && loop != SIZE_MAX) {
      LoopCoverage &c = coverage.loops[loop];
      if (std::binary_search(c.loop.latches.begin(), c.loop.latches.end(), end)) {
        c.tested.push_back(window);
        continue;
      }
    }
    coverage.other.push_back(window);
  }
  return coverage;
}

} // namespace pathcov
