#include "Projections.h"

#include "pathcov/core/Paths.h"

#include <algorithm>

namespace pathcov {

namespace {

bool isDecision(EdgeKind kind) {
  return kind == EdgeKind::True || kind == EdgeKind::False ||
         kind == EdgeKind::SwitchCase;
}

bool leavesDag(CfgEdgeRole role) {
  return role != CfgEdgeRole::InDag && role != CfgEdgeRole::Unreachable;
}

// The runs along each CFG edge that leaves the DAG (a loop's back edge, a
// cut block's out-edges, abnormal and fake edges: docs/report.md, "Edges
// that leave the DAG"). Such an edge ends a path at its source and starts
// one at its target, and a path records only that it ended or started
// there, not through which edge. So the edge gets the runs of the tested
// paths that end at its source if no other such edge leaves there, else of
// those that start at its target if no other such edge enters there, else
// none: the runs cannot tell.
void creditEdgesLeavingDag(const Cfg &cfg, const Dag &dag,
                           const std::vector<uint64_t> &endRuns,
                           const std::vector<uint64_t> &startRuns,
                           std::vector<uint64_t> &edgeRuns) {
  std::vector<unsigned> leavingFrom(cfg.numBlocks(), 0);
  std::vector<unsigned> leavingInto(cfg.numBlocks(), 0);
  for (EdgeId e = 0; e < cfg.edges().size(); ++e)
    if (leavesDag(dag.cfgEdgeRole[e])) {
      ++leavingFrom[cfg.edge(e).src];
      ++leavingInto[cfg.edge(e).dst];
    }
  // No path ends at ENTRY or starts at EXIT: fake edges from ENTRY are
  // told by their target, those into EXIT by their source.
  for (EdgeId e = 0; e < cfg.edges().size(); ++e) {
    const CfgEdge &edge = cfg.edge(e);
    if (!leavesDag(dag.cfgEdgeRole[e]))
      continue;
    if (edge.src != dag.entry && leavingFrom[edge.src] == 1)
      edgeRuns[e] = endRuns[edge.src];
    else if (edge.dst != dag.exit && leavingInto[edge.dst] == 1)
      edgeRuns[e] = startRuns[edge.dst];
  }
}

void addUp(TestedShare &sum, const TestedShare &share) {
  sum.total = saturatingAdd(sum.total, share.total);
  sum.tested = saturatingAdd(sum.tested, share.tested);
}

} // namespace

const std::string &blockFile(const FunctionMetadata &m, BlockId b) {
  return m.blocks[b].file.empty() ? m.file : m.blocks[b].file;
}

FunctionProjection projectFunction(const CorpusFunction &f, DecisionCount decisions) {
  const FunctionMetadata &m = f.metadata;
  const Cfg &cfg = *m.cfg;
  FunctionProjection projection;
  projection.function = &f;
  projection.numbered = m.number();
  const Dag &dag = projection.numbered.dag;
  const uint32_t numBlocks = cfg.numBlocks();

  // Each line's blocks, and each block's lines' entries in linePaths, so
  // that the lines a path runs through are found from its blocks.
  std::map<SourceLine, std::vector<BlockId>> blocksOfLine;
  std::vector<std::vector<TestedShare *>> linePathsOfBlock(numBlocks);
  for (BlockId b = 0; b < numBlocks && b < m.blocks.size(); ++b)
    for (int line : m.blocks[b].lines) {
      const SourceLine key{blockFile(m, b), line};
      std::vector<BlockId> &blocks = blocksOfLine[key];
      if (std::find(blocks.begin(), blocks.end(), b) != blocks.end())
        continue;
      blocks.push_back(b);
      linePathsOfBlock[b].push_back(&projection.linePaths[key]);
    }

  // Runs through blocks and edges, and where paths end and start.
  projection.blockRuns.assign(numBlocks, 0);
  projection.edgeRuns.assign(cfg.edges().size(), 0);
  std::vector<uint64_t> endRuns(numBlocks, 0), startRuns(numBlocks, 0);
  for (const auto &[id, tested] : f.paths) {
    std::vector<TestedShare *> linesOnPath;
    for (DagEdgeId e : regeneratePath(dag, projection.numbered.ballLarus, id)) {
      const DagEdge &edge = dag.edges[e];
      if (edge.src != dag.entry && edge.src != dag.exit) {
        uint64_t &runs = projection.blockRuns[edge.src];
        runs = saturatingAdd(runs, tested.count);
        linesOnPath.insert(linesOnPath.end(), linePathsOfBlock[edge.src].begin(),
                           linePathsOfBlock[edge.src].end());
      }
      if (edge.role == DagEdgeRole::Cfg) {
        uint64_t &runs = projection.edgeRuns[edge.cfgEdge];
        runs = saturatingAdd(runs, tested.count);
      } else if (edge.role == DagEdgeRole::PathEnd) {
        endRuns[edge.src] = saturatingAdd(endRuns[edge.src], tested.count);
      } else {
        startRuns[edge.dst] = saturatingAdd(startRuns[edge.dst], tested.count);
      }
    }
    // A path through several blocks of a line is one path through it.
    std::sort(linesOnPath.begin(), linesOnPath.end());
    linesOnPath.erase(std::unique(linesOnPath.begin(), linesOnPath.end()),
                      linesOnPath.end());
    for (TestedShare *line : linesOnPath)
      ++line->tested;
  }
  creditEdgesLeavingDag(cfg, dag, endRuns, startRuns, projection.edgeRuns);

  // Lines: the largest runs of their blocks; the paths through them: all
  // paths minus those avoiding their blocks.
  for (const auto &[line, blocks] : blocksOfLine) {
    uint64_t &runs = projection.lines[line];
    std::vector<bool> avoid(numBlocks, false);
    for (BlockId b : blocks) {
      runs = std::max(runs, projection.blockRuns[b]);
      avoid[b] = true;
    }
    projection.linePaths[line].total =
        projection.numbered.ballLarus.totalPaths - countPathsAvoiding(dag, avoid);
  }

  // Branches and decision lines.
  for (BlockId b = 0; b < numBlocks && b < m.blocks.size(); ++b) {
    std::vector<EdgeId> branches;
    for (EdgeId e : cfg.succs(b))
      if (isDecision(cfg.edge(e).kind))
        branches.push_back(e);
    if (branches.size() < 2 || m.blocks[b].lines.empty())
      continue;
    const SourceLine line{blockFile(m, b), m.blocks[b].lines.back()};
    for (unsigned i = 0; i < branches.size(); ++i)
      projection.branches.push_back({line, b, i, projection.blockRuns[b] > 0,
                                     projection.edgeRuns[branches[i]]});
    if (decisions == DecisionCount::Paths) {
      projection.decisions[line] = projection.linePaths[line];
      continue;
    }
    TestedShare &outcomes = projection.decisions[line];
    for (const EdgeId e : branches) {
      ++outcomes.total;
      outcomes.tested += projection.edgeRuns[e] > 0;
    }
  }
  return projection;
}

CorpusProjection projectCorpus(const Corpus &corpus, DecisionCount decisions) {
  CorpusProjection result;
  const std::vector<const CorpusFunction *> ordered = inSourceOrder(corpus);
  for (const CorpusFunction *f : ordered)
    if (f->metadata.skipped.empty())
      result.functions.push_back(projectFunction(*f, decisions));
    else
      result.skipped.push_back(f);
  for (const FunctionProjection &p : result.functions) {
    const FunctionMetadata &m = p.function->metadata;
    FileProjection &own = result.files[m.file];
    own.file = m.file;
    own.functions.push_back(&p);
    for (const auto &[line, count] : p.lines) {
      FileProjection &file = result.files[line.first];
      file.file = line.first;
      if (file.sourceRoot.empty())
        file.sourceRoot = m.sourceRoot;
      uint64_t &total = file.lines[line.second];
      total = saturatingAdd(total, count);
    }
    for (const auto &[line, paths] : p.linePaths)
      addUp(result.files[line.first].linePaths[line.second], paths);
    for (const BranchProjection &b : p.branches)
      result.files[b.line.first].branches.push_back(&b);
    for (const auto &[line, d] : p.decisions)
      addUp(result.files[line.first].decisions[line.second], d);
  }
  for (auto &[name, file] : result.files)
    std::stable_sort(file.branches.begin(), file.branches.end(),
                     [](const BranchProjection *a, const BranchProjection *b) {
                       return a->line.second < b->line.second;
                     });
  return result;
}

} // namespace pathcov
