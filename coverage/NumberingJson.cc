#include "NumberingJson.h"

#include "pathcov/format/InputError.h"

#include "pathcov/core/Checked.h"
#include "pathcov/core/Paths.h"

#include <nlohmann/json.hpp>

namespace pathcov {

using nlohmann::ordered_json;

namespace {

// Field order is kept as written (ordered_json) so that the output reads in
// the order docs/number.md explains it.
class NumberingWriter {
public:
  NumberingWriter(const CfgInput &input, const FunctionNumbering &numbering)
      : input_(input), numbering_(numbering), dag_(numbering.numbered.dag),
        bl_(numbering.numbered.ballLarus) {}

  ordered_json dagJson() const {
    ordered_json nodes = ordered_json::array();
    for (BlockId b = 0; b < dag_.numNodes(); ++b)
      nodes.push_back({{"name", name(b)},
                       {"reachable", bool(dag_.reachable[b])},
                       {"num_paths", bl_.numPaths[b]}});
    ordered_json edges = ordered_json::array();
    for (DagEdgeId e = 0; e < dag_.edges.size(); ++e)
      edges.push_back(dagEdgeJson(e));
    return {{"entry", name(dag_.entry)},
            {"exit", name(dag_.exit)},
            {"nodes", std::move(nodes)},
            {"edges", std::move(edges)}};
  }

  ordered_json cfgEdgesJson() const {
    ordered_json edges = ordered_json::array();
    for (EdgeId id = 0; id < input_.cfg.edges().size(); ++id) {
      const CfgEdge &edge = input_.cfg.edge(id);
      edges.push_back({{"id", id},
                       {"from", name(edge.src)},
                       {"to", name(edge.dst)},
                       {"kind", edgeKindName(edge.kind)},
                       {"frequency", edge.frequency},
                       {"role", cfgEdgeRoleName(dag_.cfgEdgeRole[id])},
                       {"dag_edge", idOrNull(dag_.dagEdgeOfCfgEdge[id])}});
    }
    return edges;
  }

  ordered_json cutsJson() const { return blockNames(dag_.cuts); }

  ordered_json pppJson() const {
    const PppNumbering &ppp = numbering_.ppp;
    if (ppp.ids.empty())
      return {{"interval_size", nullptr}, {"delta", nullptr}};
    return {{"interval_size", ppp.intervalSize}, {"delta", ppp.delta}};
  }

  ordered_json spanningTreeJson() const {
    ordered_json tree = ordered_json::array();
    for (DagEdgeId e = 0; e < dag_.edges.size(); ++e)
      if (numbering_.chords.inTree[e])
        tree.push_back(e);
    return tree;
  }

  ordered_json chordsJson() const {
    ordered_json chords = ordered_json::array();
    for (DagEdgeId e : numbering_.chords.chords)
      chords.push_back({{"dag_edge", e},
                        {"from", name(dag_.edges[e].src)},
                        {"to", name(dag_.edges[e].dst)},
                        {"increment", incrementJson(increment(e))}});
    return chords;
  }

  ordered_json pathBoundariesJson() const {
    ordered_json boundaries = ordered_json::array();
    for (EdgeId id = 0; id < input_.cfg.edges().size(); ++id) {
      const CfgEdgeRole role = dag_.cfgEdgeRole[id];
      if (role == CfgEdgeRole::InDag || role == CfgEdgeRole::Unreachable)
        continue;
      const CfgEdge &edge = input_.cfg.edge(id);
      // A fake or abnormal edge from ENTRY ends no path and one into EXIT
      // starts none: only the side inside the function has code.
      const bool endsPath = edge.src != dag_.entry;
      const bool startsPath = edge.dst != dag_.exit;
      ordered_json pathEnd = nullptr;
      ordered_json pathStart = nullptr;
      if (endsPath && startsPath) {
        const PathBoundary code =
            pathBoundaryCode(dag_, numbering_.chords, edge.src, edge.dst);
        pathEnd = incrementJson(code.pathEnd);
        pathStart = incrementJson(code.pathStart);
      } else if (endsPath) {
        pathEnd = incrementJson(increment(dag_.pathEnd[edge.src]));
      } else if (startsPath) {
        pathStart = incrementJson(increment(dag_.pathStart[edge.dst]));
      }
      boundaries.push_back({{"cfg_edge", id},
                            {"from", name(edge.src)},
                            {"to", name(edge.dst)},
                            {"role", cfgEdgeRoleName(role)},
                            {"path_end", std::move(pathEnd)},
                            {"path_start", std::move(pathStart)}});
    }
    return boundaries;
  }

  ordered_json interestingPathsJson() const {
    ordered_json paths = ordered_json::array();
    for (const InterestingPath &path : numbering_.interestingPaths)
      paths.push_back({{"blocks", blockNames(pathBlocks(dag_, path.edges))},
                       {"ball_larus_id", path.ballLarusId},
                       {"ppp_id", numbering_.ppp.idOf(path.ballLarusId)}});
    return paths;
  }

  ordered_json allPathsJson() const {
    if (bl_.totalPaths > kMaxListedPaths)
      throw InputError("--all-paths: the function has " +
                       std::to_string(bl_.totalPaths) +
                       " paths, more than the " +
                       std::to_string(kMaxListedPaths) + " it can list");
    ordered_json paths = ordered_json::array();
    for (uint64_t id = 0; id < bl_.totalPaths; ++id) {
      const std::vector<DagEdgeId> edges = regeneratePath(dag_, bl_, id);
      paths.push_back({{"blocks", blockNames(pathBlocks(dag_, edges))},
                       {"ball_larus_id", id},
                       {"ppp_id", pppSum(edges)},
                       {"interesting", numbering_.ppp.idOf(id) >= 0}});
    }
    return paths;
  }

private:
  const std::string &name(BlockId b) const { return input_.blockNames[b]; }

  ordered_json blockNames(const std::vector<BlockId> &blocks) const {
    ordered_json names = ordered_json::array();
    for (BlockId b : blocks)
      names.push_back(name(b));
    return names;
  }

  static ordered_json idOrNull(uint32_t id) {
    return id == kNoId ? ordered_json(nullptr) : ordered_json(id);
  }

  static ordered_json incrementJson(const RegisterIncrement &increment) {
    return {{"ball_larus", increment.ballLarus}, {"ppp", increment.ppp}};
  }

  const RegisterIncrement &increment(DagEdgeId e) const {
    return numbering_.chords.increment[e];
  }

  ordered_json dagEdgeJson(DagEdgeId e) const {
    const DagEdge &edge = dag_.edges[e];
    const bool isCfgEdge = edge.role == DagEdgeRole::Cfg;
    const ordered_json kind =
        isCfgEdge
            ? ordered_json(edgeKindName(input_.cfg.edge(edge.cfgEdge).kind))
            : ordered_json(nullptr);
    const ordered_json pppWeight = numbering_.ppp.defined[e]
                                       ? ordered_json(numbering_.ppp.weight[e])
                                       : ordered_json(nullptr);
    return {{"id", e},
            {"from", name(edge.src)},
            {"to", name(edge.dst)},
            {"role", dagEdgeRoleName(edge.role)},
            {"cfg_edge", idOrNull(edge.cfgEdge)},
            {"kind", kind},
            {"frequency", edge.frequency},
            {"ball_larus_value", bl_.value[e]},
            {"ppp_weight", pppWeight}};
  }

  // What the PPP register holds at the end of the path: the sum of the
  // weights along it, an interesting path's id or an alias.
  int64_t pppSum(const std::vector<DagEdgeId> &edges) const {
    int64_t sum = 0;
    for (DagEdgeId e : edges)
      sum = checkedAdd(sum, numbering_.ppp.weight[e], "PPP path id");
    return sum;
  }

  const CfgInput &input_;
  const FunctionNumbering &numbering_;
  const Dag &dag_;
  const BallLarusNumbering &bl_;
};

} // namespace

ordered_json numberingJson(const CfgInput &input,
                           const FunctionNumbering &numbering,
                           bool listAllPaths) {
  const NumberingWriter writer(input, numbering);
  ordered_json document = {
      {"format", kNumberingFormat},
      {"format_version", kNumberingFormatVersion},
      {"function",
       input.function ? ordered_json(*input.function) : ordered_json(nullptr)},
      {"path_limit", numbering.pathLimit},
      {"dag", writer.dagJson()},
      {"cfg_edges", writer.cfgEdgesJson()},
      {"cuts", writer.cutsJson()},
      {"total_paths", numbering.numbered.ballLarus.totalPaths},
      {"acyclic_paths",
       {{"count", numbering.acyclicPaths.count},
        {"saturated", numbering.acyclicPaths.saturated}}},
      {"ppp", writer.pppJson()},
      {"spanning_tree", writer.spanningTreeJson()},
      {"chords", writer.chordsJson()},
      {"path_boundaries", writer.pathBoundariesJson()},
      {"interesting_paths", writer.interestingPathsJson()},
  };
  if (listAllPaths)
    document["all_paths"] = writer.allPathsJson();
  return document;
}

} // namespace pathcov
