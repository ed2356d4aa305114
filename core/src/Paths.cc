#include "pathcov/core/Paths.h"

#include "pathcov/core/Checked.h"

#include <algorithm>
#include <string>

namespace pathcov {

std::vector<DagEdgeId> regeneratePath(const Dag &dag,
                                      const BallLarusNumbering &bl,
                                      uint64_t id) {
  if (id >= bl.totalPaths)
    throw std::out_of_range("path id " + std::to_string(id) +
                            " is not below the path count " +
                            std::to_string(bl.totalPaths));
  // Ball-Larus section 3.5: at each block follow the out-edge with the
  // largest value not above what is left of the id. Values rise along a
  // block's out-edges, so that edge is found by binary search.
  std::vector<DagEdgeId> path;
  uint64_t rest = id;
  for (BlockId v = dag.entry; v != dag.exit;) {
    const std::vector<DagEdgeId> &out = dag.out[v];
    const auto next = std::upper_bound(
        out.begin(), out.end(), rest,
        [&bl](uint64_t r, DagEdgeId e) { return r < bl.value[e]; });
    const DagEdgeId e = *std::prev(next);
    rest -= bl.value[e];
    path.push_back(e);
    v = dag.edges[e].dst;
  }
  return path;
}

std::vector<uint64_t> edgeRunsOfPaths(const Dag &dag,
                                      const BallLarusNumbering &bl,
                                      const std::vector<uint64_t> &ids,
                                      const std::vector<uint64_t> &counts) {
  if (counts.size() != ids.size())
    throw std::invalid_argument("path counts do not match the path ids");
  std::vector<uint64_t> runs(dag.edges.size(), 0);
  for (size_t i = 0; i < ids.size(); ++i)
    for (DagEdgeId e : regeneratePath(dag, bl, ids[i]))
      runs[e] = saturatingAdd(runs[e], counts[i]);
  return runs;
}

namespace {
void checkIsPath(const Dag &dag, const std::vector<DagEdgeId> &path) {
  BlockId at = dag.entry;
  for (DagEdgeId e : path) {
    if (e >= dag.edges.size())
      throw GraphError("DAG edge " + std::to_string(e) + " does not exist");
    if (dag.edges[e].src != at)
      throw GraphError("DAG edge " + std::to_string(e) + " does not leave block " +
                       std::to_string(at));
    at = dag.edges[e].dst;
  }
  if (at != dag.exit)
    throw GraphError("the path does not end at the exit block");
}
} // namespace

uint64_t ballLarusIdOf(const Dag &dag, const BallLarusNumbering &bl,
                       const std::vector<DagEdgeId> &path) {
  checkIsPath(dag, path);
  uint64_t id = 0;
  for (DagEdgeId e : path)
    id = checkedAdd(id, bl.value[e], "path id");
  return id;
}

std::vector<BlockId> pathBlocks(const Dag &dag,
                                const std::vector<DagEdgeId> &path) {
  std::vector<BlockId> blocks;
  for (size_t k = 0; k < path.size(); ++k) {
    const DagEdge &e = dag.edges[path[k]];
    if (k == 0 && e.role != DagEdgeRole::PathStart)
      blocks.push_back(e.src);
    if (e.role != DagEdgeRole::PathEnd)
      blocks.push_back(e.dst);
  }
  return blocks;
}

uint64_t countPathsAvoiding(const Dag &dag, const std::vector<bool> &avoid) {
  std::vector<uint64_t> count(dag.numNodes(), 0);
  bool saturated = false;
  for (BlockId v : dag.reverseTopologicalOrder()) {
    if (avoid[v])
      continue;
    if (v == dag.exit) {
      count[v] = 1;
      continue;
    }
    for (DagEdgeId e : dag.out[v])
      count[v] = saturatingAdd(count[v], count[dag.edges[e].dst], saturated);
  }
  return count[dag.entry];
}

std::vector<DagEdgeId> pathFromBlocks(const Dag &dag,
                                      const std::vector<BlockId> &blocks) {
  if (blocks.empty())
    throw GraphError("an empty block sequence is not a path");
  for (BlockId b : blocks)
    if (b >= dag.numNodes() || !dag.reachable[b])
      throw GraphError("block " + std::to_string(b) +
                       " is not a reachable block of the function");

  std::vector<DagEdgeId> path;
  if (blocks.front() != dag.entry) {
    const DagEdgeId start = dag.pathStart[blocks.front()];
    if (start == kNoId)
      throw GraphError("no path starts at block " +
                       std::to_string(blocks.front()) +
                       " (it is neither the entry block nor the target of a "
                       "back edge, abnormal edge or cut)");
    path.push_back(start);
  }
  for (size_t k = 0; k + 1 < blocks.size(); ++k) {
    DagEdgeId found = kNoId;
    for (DagEdgeId e : dag.out[blocks[k]]) {
      const DagEdge &edge = dag.edges[e];
      if (edge.role != DagEdgeRole::Cfg || edge.dst != blocks[k + 1])
        continue;
      if (found != kNoId)
        throw GraphError("blocks " + std::to_string(blocks[k]) + " and " +
                         std::to_string(blocks[k + 1]) +
                         " are joined by parallel edges: give the path by id");
      found = e;
    }
    if (found == kNoId)
      throw GraphError("no DAG edge from block " + std::to_string(blocks[k]) +
                       " to block " + std::to_string(blocks[k + 1]));
    path.push_back(found);
  }
  if (blocks.back() != dag.exit) {
    const DagEdgeId end = dag.pathEnd[blocks.back()];
    if (end == kNoId)
      throw GraphError("no path ends at block " +
                       std::to_string(blocks.back()) +
                       " (it is neither the exit block nor the source of a "
                       "back edge, abnormal edge or cut)");
    path.push_back(end);
  }
  return path;
}

} // namespace pathcov
