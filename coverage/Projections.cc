#include "Projections.h"

#include "PathText.h"

#include "pathcov/core/Paths.h"

#include <algorithm>
#include <set>

namespace pathcov {

namespace {

bool isDecision(EdgeKind kind) {
  return kind == EdgeKind::True || kind == EdgeKind::False ||
         kind == EdgeKind::SwitchCase;
}


} // namespace

FunctionProjection projectFunction(const CorpusFunction &f, DecisionCount decisions) {
  const FunctionMetadata &m = f.metadata;
  const Cfg &cfg = *m.cfg;
  const NumberedDag numbered = m.number();
  const Dag &dag = numbered.dag;
  FunctionProjection projection;
  projection.function = &f;

  const auto lineOf = [&](BlockId b, int line) {
    const std::string &file = m.blocks[b].file;
    return SourceLine{file.empty() ? m.file : file, line};
  };

  // Block and CFG edge counts from the tested paths.
  std::vector<uint64_t> blockCount(cfg.numBlocks(), 0);
  std::vector<uint64_t> edgeCount(cfg.edges().size(), 0);
  std::vector<std::vector<bool>> testedBlocks; // per tested path
  for (const auto &[id, tested] : f.paths) {
    std::vector<bool> on(cfg.numBlocks(), false);
    for (DagEdgeId e : regeneratePath(dag, numbered.ballLarus, id)) {
      const DagEdge &edge = dag.edges[e];
      if (edge.src != dag.entry && edge.src != dag.exit) {
        on[edge.src] = true;
        blockCount[edge.src] = saturatingAdd(blockCount[edge.src], tested.count);
      }
      if (edge.role == DagEdgeRole::Cfg) {
        edgeCount[edge.cfgEdge] =
            saturatingAdd(edgeCount[edge.cfgEdge], tested.count);
      } else if (edge.role == DagEdgeRole::PathEnd) {
        // The path left the DAG at edge.src through a back edge, a cut,
        // an abnormal or a fake edge: credit it if only one could be it.
        EdgeId left = kNoId;
        unsigned candidates = 0;
        for (EdgeId out : cfg.succs(edge.src)) {
          const CfgEdgeRole role = dag.cfgEdgeRole[out];
          if (role != CfgEdgeRole::InDag && role != CfgEdgeRole::Unreachable) {
            left = out;
            ++candidates;
          }
        }
        if (candidates == 1)
          edgeCount[left] = saturatingAdd(edgeCount[left], tested.count);
      }
    }
    testedBlocks.push_back(std::move(on));
  }

  // Lines: the largest count of their blocks.
  std::map<SourceLine, std::vector<BlockId>> blocksOfLine;
  for (BlockId b = 0; b < cfg.numBlocks() && b < m.blocks.size(); ++b)
    for (int line : m.blocks[b].lines) {
      const SourceLine key = lineOf(b, line);
      uint64_t &count = projection.lines[key];
      count = std::max(count, blockCount[b]);
      std::vector<BlockId> &blocks = blocksOfLine[key];
      if (std::find(blocks.begin(), blocks.end(), b) == blocks.end())
        blocks.push_back(b);
    }

  // Branches and decision lines.
  for (BlockId b = 0; b < cfg.numBlocks() && b < m.blocks.size(); ++b) {
    std::vector<EdgeId> branches;
    for (EdgeId e : cfg.succs(b))
      if (isDecision(cfg.edge(e).kind))
        branches.push_back(e);
    if (branches.size() < 2 || m.blocks[b].lines.empty())
      continue;
    const SourceLine line = lineOf(b, m.blocks[b].lines.back());
    for (unsigned i = 0; i < branches.size(); ++i)
      projection.branches.push_back(
          {line, b, i, blockCount[b] > 0, edgeCount[branches[i]]});
    if (decisions == DecisionCount::Outcomes) {
      DecisionProjection &d = projection.decisions[line];
      for (const EdgeId e : branches) {
        ++d.paths;
        d.tested += edgeCount[e] > 0;
      }
      continue;
    }
    if (projection.decisions.count(line))
      continue;
    std::vector<bool> onLine(cfg.numBlocks(), false);
    for (BlockId other : blocksOfLine[line])
      onLine[other] = true;
    DecisionProjection &d = projection.decisions[line];
    d.paths = numbered.ballLarus.totalPaths - countPathsAvoiding(dag, onLine);
    for (const std::vector<bool> &on : testedBlocks)
      for (BlockId other : blocksOfLine[line])
        if (on[other]) {
          ++d.tested;
          break;
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
    for (const BranchProjection &b : p.branches)
      result.files[b.line.first].branches.push_back(&b);
    for (const auto &[line, d] : p.decisions) {
      DecisionProjection &total = result.files[line.first].decisions[line.second];
      total.paths = saturatingAdd(total.paths, d.paths);
      total.tested = saturatingAdd(total.tested, d.tested);
    }
  }
  for (auto &[name, file] : result.files)
    std::stable_sort(file.branches.begin(), file.branches.end(),
                     [](const BranchProjection *a, const BranchProjection *b) {
                       return a->line.second < b->line.second;
                     });
  return result;
}

} // namespace pathcov
