#include "PathText.h"

#include <cstdio>

#include "pathcov/core/Paths.h"

#include <set>

namespace pathcov {

namespace {

bool isForcedCut(const FunctionMetadata &f, BlockId b) {
  return std::find(f.forcedCuts.begin(), f.forcedCuts.end(), b) !=
         f.forcedCuts.end();
}

// Why paths start at w or end at v: the roles of the CFG edges into w, or
// out of v, that left the DAG. `unwinding`: the path came to v, which
// nothing follows, by an exception edge (a cleanup's or a handler's end,
// where the exception leaves the function): "throw", not "noreturn", though
// the block ends in a noreturn call (_Unwind_Resume).
std::string reasons(const FunctionMetadata &f, const Dag &dag, BlockId block,
                    bool into, bool unwinding = false) {
  std::set<std::string> why;
  for (EdgeId id = 0; id < f.cfg->edges().size(); ++id) {
    const CfgEdge &e = f.cfg->edge(id);
    if ((into ? e.dst : e.src) != block)
      continue;
    switch (dag.cfgEdgeRole[id]) {
    case CfgEdgeRole::BackEdge:
      why.insert("loop");
      break;
    case CfgEdgeRole::Cut:
      why.insert(isForcedCut(f, e.src) ? "setjmp" : "cut");
      break;
    case CfgEdgeRole::Abnormal:
      why.insert("abnormal");
      break;
    case CfgEdgeRole::Fake:
      why.insert("fake");
      break;
    case CfgEdgeRole::InDag:
    case CfgEdgeRole::Unreachable:
      break;
    }
  }
  if (!into && f.cfg->succs(block).empty())
    why.insert(unwinding ? "throw" : "noreturn");
  if (into && isForcedCut(f, block))
    why.insert("setjmp"); // a second return from setjmp
  std::string text;
  for (const std::string &w : why)
    text += (text.empty() ? "" : "/") + w;
  return text;
}

bool isBranch(EdgeKind kind) {
  return kind == EdgeKind::True || kind == EdgeKind::False ||
         kind == EdgeKind::SwitchCase || kind == EdgeKind::Eh;
}

} // namespace

PathDescription describePath(const FunctionMetadata &f,
                             const NumberedDag &numbered, uint64_t id) {
  const Dag &dag = numbered.dag;
  const std::vector<DagEdgeId> path =
      regeneratePath(dag, numbered.ballLarus, id);
  PathDescription p;
  p.id = id;
  const DagEdge &first = dag.edges[path.front()];
  const DagEdge &last = dag.edges[path.back()];
  p.start = first.role == DagEdgeRole::PathStart
                ? reasons(f, dag, first.dst, true)
                : "entry";
  const auto intoLast = path.size() < 2 ? nullptr : &dag.edges[path[path.size() - 2]];
  const bool unwinding = intoLast && intoLast->role == DagEdgeRole::Cfg &&
                         f.cfg->edge(intoLast->cfgEdge).kind == EdgeKind::Eh;
  p.end = last.role == DagEdgeRole::PathEnd
              ? reasons(f, dag, last.src, false, unwinding)
              : "return";
  for (DagEdgeId e : path) {
    const DagEdge &edge = dag.edges[e];
    if (edge.role == DagEdgeRole::PathStart || edge.src == dag.entry)
      continue;
    const EdgeKind kind = edge.role == DagEdgeRole::Cfg
                              ? f.cfg->edge(edge.cfgEdge).kind
                              : EdgeKind::Fallthru;
    p.steps.push_back({edge.src, isBranch(kind) ? edgeKindName(kind) : ""});
  }
  return p;
}

namespace {

// "switch to 17": which case a switch took, by the first line of the step
// it went to (a case label's own line is not in the CFG), as decode says it.
std::string exitText(const FunctionMetadata &f, const PathDescription &p,
                     size_t step) {
  const std::string &exit = p.steps[step].exit;
  if (exit != edgeKindName(EdgeKind::SwitchCase) || step + 1 == p.steps.size())
    return exit;
  const SourceBlock &to = f.blocks[p.steps[step + 1].block];
  if (to.lines.empty())
    return exit;
  return exit + " to " + (to.file.empty() ? "" : to.file + ":") +
         std::to_string(to.lines.front());
}

} // namespace

std::string pathLinesText(const FunctionMetadata &f, const PathDescription &p) {
  std::string text;
  for (size_t step = 0; step < p.steps.size(); ++step) {
    const SourceBlock &source = f.blocks[p.steps[step].block];
    const std::string prefix = source.file.empty() ? "" : source.file + ":";
    for (size_t i = 0; i < source.lines.size(); ++i) {
      text += (text.empty() ? "" : " ") + prefix +
              std::to_string(source.lines[i]);
      if (i + 1 == source.lines.size() && !p.steps[step].exit.empty())
        text += "(" + exitText(f, p, step) + ")";
    }
  }
  return text;
}

std::string functionHeading(const FunctionMetadata &f) {
  std::string heading = f.file + ":" + std::to_string(f.line) + " " + f.name;
  const std::string unit = f.tu + ":";
  if (!f.tu.empty() && f.tu != f.file &&
      f.identity.compare(0, unit.size(), unit) == 0)
    heading += " (compiled in " + f.tu + ")";
  return heading;
}

std::string variantNote(const Corpus &corpus, const FunctionMetadata &f) {
  auto variant = corpus.functions.lower_bound({f.identity, ""});
  size_t variants = 0;
  for (; variant != corpus.functions.end() &&
         variant->first.first == f.identity && variants < 2;
       ++variant)
    ++variants;
  return variants > 1 ? cfgNote(f) : "";
}

std::string cfgNote(const FunctionMetadata &f) {
  // A header's static built otherwise in some unit (lz4.c's statics in
  // lz4hc.c with another LZ4_DEBUG): which unit built this CFG tells the
  // versions apart better than the checksum. One unit: the corpus keeps
  // the first that built it. (A unit-named function's heading names its
  // unit already.)
  if (!f.tu.empty() && f.tu != f.file &&
      f.identity.compare(0, f.tu.size() + 1, f.tu + ":") != 0)
    return " (CFG " + f.checksum + ", as compiled in " + f.tu + ")";
  return " (CFG " + f.checksum + ")";
}

std::string functionHeading(const Corpus &corpus, const FunctionMetadata &f) {
  return functionHeading(f) + variantNote(corpus, f);
}

std::string pathText(const FunctionMetadata &f, const PathDescription &p) {
  std::string text = pathLinesText(f, p);
  if (p.start != "entry" || p.end != "return")
    text += "  [" + p.start + " -> " + p.end + "]";
  return text;
}

std::string pathSourceText(const FunctionMetadata &f, const PathDescription &p,
                           const SourceFiles &sources, const std::string &indent) {
  std::string text;
  std::string lastFile;
  int lastLine = 0;
  for (size_t step = 0; step < p.steps.size(); ++step) {
    const SourceBlock &source = f.blocks[p.steps[step].block];
    const std::string &file = source.file.empty() ? f.file : source.file;
    for (size_t i = 0; i < source.lines.size(); ++i) {
      const int line = source.lines[i];
      if (file != lastFile || line != lastLine) {
        const std::vector<std::string> *lines = sources.lines(file, f.sourceRoot);
        char number[16];
        std::snprintf(number, sizeof number, "%5d", line);
        text += (text.empty() ? "" : "\n") + indent +
                (file == f.file ? "" : file + ":") + number + " |";
        if (lines && line >= 1 && static_cast<size_t>(line) <= lines->size())
          text += " " + (*lines)[line - 1];
        lastFile = file;
        lastLine = line;
      }
      if (i + 1 == source.lines.size() && !p.steps[step].exit.empty())
        text += "  (" + exitText(f, p, step) + ")";
    }
  }
  return text.empty() ? text : text + "\n";
}

nlohmann::json toJson(const FunctionMetadata &f, const PathDescription &p) {
  nlohmann::json steps = nlohmann::json::array();
  nlohmann::json lines = nlohmann::json::array();
  for (const PathStep &step : p.steps) {
    const SourceBlock &source = f.blocks[step.block];
    nlohmann::json s{{"block", step.block}, {"lines", source.lines}};
    if (!source.file.empty())
      s["file"] = source.file;
    if (!step.exit.empty())
      s["exit"] = step.exit;
    steps.push_back(std::move(s));
    for (int line : source.lines)
      lines.push_back(line);
  }
  return {{"id", p.id},
          {"start", p.start},
          {"end", p.end},
          {"steps", std::move(steps)},
          {"lines", std::move(lines)}};
}

} // namespace pathcov
