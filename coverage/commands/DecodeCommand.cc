#include "DecodeCommand.h"

#include "ExitCodes.h"
#include "FileIo.h"
#include "Modules.h"
#include "PathText.h"
#include "Percent.h"
#include "Report.h"
#include "Contexts.h"

#include "pathcov/core/PathGrammar.h"
#include "pathcov/core/Paths.h"
#include "pathcov/format/InputError.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <tuple>

namespace pathcov {

namespace {

struct DecodeOptions {
  std::vector<std::string> reports;
  std::vector<std::string> binaries;
  // Detached metadata (Modules.h); default gdb's.
  std::vector<std::string> debugDirs{kDefaultDebugDir};
  bool json = false;
  bool details = false; // build-id, times to the nanosecond, threads
  bool source = false;                  // each path's source text too
  std::vector<std::string> sourceRoots; // --source-root, in order
  std::string output = "-";
};

// One residual path of a report, its listings (one per descriptor of the
// function: comdat) added up, and its calling contexts too: those whose
// addresses differ but are the same source (a copy of a call, an inlined
// one) add up as one.
struct Residual {
  uint64_t id = 0;
  uint64_t count = 0;
  uint64_t firstSeenNs = 0;
  uint64_t thread = 0;
  std::string firstTest; // the harness test it first ran in, if any
  SourceContexts contexts;
};

// How a path goes on from the block where it parts from the tested paths:
// one DAG edge out of it, as people read it.
struct Outcome {
  std::string exit;   // the branch outcome (true, false, switch, throw), if any
  BlockId to = kNoId; // the next block; kNoId: the path ends at the block
  std::string ends;   // why the path ends there (PathText's end reasons)
  std::string starts; // at a path's start: entry, or PathText's start reasons
  std::string text;
};

// Where the residual path left the tested ground: the end of the longest
// prefix it shares with a tested path, and what it did there that none of
// the tested paths with that prefix did.
struct Divergence {
  bool atStart = false; // no tested path starts the way it starts
  BlockId block = 0;    // the block where the shared prefix ends (atStart:
                        // the residual path's first block)
  std::string file;
  int line = 0; // 0: the block has no source line
  Outcome took;
  std::vector<Outcome> testsTook; // distinct, in text order
  std::string text;
};

struct DecodedPath {
  Residual residual;
  PathDescription path;
  std::optional<PathDescription> nearest;
  std::optional<Divergence> divergence;
};

struct DecodedFunction {
  const FunctionMetadata *metadata = nullptr;
  const ResidualMetadata *residual = nullptr;
  std::vector<DecodedPath> paths; // by first seen, then id
};

// A path of a thread's history, against the module's metadata.
struct HistoryStep {
  const FunctionMetadata *function = nullptr;
  PathDescription path;
  bool residual = false; // not among the function's tested paths
};

// A thread's history: its paths (the report's, decoded), the sequence
// expanded (indices into paths), and its hot subpaths.
struct DecodedHistory {
  size_t thread = 0; // in the report's history
  std::vector<HistoryStep> paths;
  std::vector<uint64_t> sequence;
  struct Hot {
    HotSubpath rule;
    std::vector<uint64_t> paths; // the rule's expansion
  };
  std::vector<Hot> hot;
};

struct DecodedReport {
  Report report;
  std::string binary; // the file the metadata was read from
  uint64_t distinctPaths = 0;
  std::vector<DecodedFunction> functions; // in source order
  std::vector<DecodedHistory> history;
};

// How many hot subpaths decode shows per thread.
constexpr size_t kHotSubpathsShown = 5;

// The shortest prefix of `paths` that, repeated, makes all of it.
std::vector<uint64_t> primitivePeriod(const std::vector<uint64_t> &paths) {
  const size_t n = paths.size();
  for (size_t p = 1; p < n; ++p)
    if (n % p == 0 && std::equal(paths.begin() + p, paths.end(), paths.begin()))
      return {paths.begin(), paths.begin() + p};
  return paths;
}

// The hottest subpaths, heaviest first, but of each that is another
// repeated (SEQUITUR's rules for two iterations, for four...) only the
// shortest, and none that is one path repeated (the history's own lines
// show a run of one path): a run of 126 of one path read as four nested
// hot subpaths.
std::vector<DecodedHistory::Hot> distinctHotSubpaths(const PathGrammar &g) {
  std::vector<DecodedHistory::Hot> candidates;
  std::map<std::vector<uint64_t>, size_t> shortest; // period -> candidate
  for (const HotSubpath &hot : hotSubpaths(g, 16 * kHotSubpathsShown)) {
    std::vector<uint64_t> paths = expandRule(g, hot.rule);
    std::vector<uint64_t> period = primitivePeriod(paths);
    if (period.size() == 1)
      continue;
    const auto [known, added] =
        shortest.emplace(std::move(period), candidates.size());
    if (!added && candidates[known->second].paths.size() <= paths.size())
      continue;
    known->second = candidates.size();
    candidates.push_back({hot, std::move(paths)});
  }
  std::vector<bool> kept(candidates.size(), false);
  for (const auto &[period, candidate] : shortest)
    kept[candidate] = true;
  std::vector<DecodedHistory::Hot> hot;
  for (size_t i = 0; i < candidates.size() && hot.size() < kHotSubpathsShown; ++i)
    if (kept[i])
      hot.push_back(std::move(candidates[i]));
  return hot;
}

// The nearest tested path and the divergence of a function's residual
// paths, against its tested paths regenerated once.
class FunctionDecoder {
public:
  FunctionDecoder(const FunctionMetadata &f, const ResidualMetadata &r)
      : f_(f), numbered_(f.number()) {
    for (uint64_t id : r.testedIds)
      tested_.push_back({id, edges(id), {}});
    for (Tested &t : tested_)
      t.description = describePath(f_, numbered_, t.id);
  }

  DecodedPath decode(const Residual &residual) const {
    DecodedPath d{residual, describePath(f_, numbered_, residual.id), {}, {}};
    if (tested_.empty())
      return d;
    const std::vector<DagEdgeId> path = edges(residual.id);
    std::vector<size_t> shared(tested_.size());
    size_t longest = 0;
    const Tested *nearest = nullptr;
    for (size_t i = 0; i < tested_.size(); ++i) {
      const std::vector<DagEdgeId> &t = tested_[i].edges;
      shared[i] = static_cast<size_t>(
          std::mismatch(path.begin(), path.end(), t.begin(), t.end()).first -
          path.begin());
      if (!nearest || shared[i] > longest) { // ties: the smallest id
        longest = shared[i];
        nearest = &tested_[i];
      }
    }
    d.nearest = nearest->description;
    // Two distinct ENTRY->EXIT paths part before either ends: both have an
    // edge after the shared prefix.
    if (longest >= path.size())
      return d;
    Divergence &v = d.divergence.emplace();
    const DagEdge &edge = numbered_.dag.edges[path[longest]];
    v.atStart = longest == 0;
    v.block = v.atStart ? edge.dst : edge.src;
    const SourceBlock &source = f_.blocks[v.block];
    v.file = source.file.empty() ? f_.file : source.file;
    if (!source.lines.empty())
      v.line = v.atStart ? source.lines.front() : source.lines.back();
    v.took = outcome(path[longest], d.path, true);
    std::map<std::string, Outcome> others;
    for (size_t i = 0; i < tested_.size(); ++i)
      if (shared[i] == longest && longest < tested_[i].edges.size()) {
        Outcome o = outcome(tested_[i].edges[longest], tested_[i].description,
                            false);
        others.emplace(o.text, std::move(o));
      }
    std::string list;
    size_t n = 0;
    for (auto &[text, o] : others) {
      list += (n == 0 ? "" : n + 1 == others.size() ? " or " : ", ") + text;
      ++n;
      v.testsTook.push_back(std::move(o));
    }
    // Only the tested paths that came the same way count: another tested
    // path may take this outcome after another prefix.
    v.text = place(v) + ": " + (v.atStart ? "" : "took ") + v.took.text +
             (v.atStart ? ", the tests " : ", the tests that came this way ") +
             (others.size() == 1 ? "always " : "only ") +
             (v.atStart ? "started " : "took ") + list;
    return d;
  }

private:
  struct Tested {
    uint64_t id;
    std::vector<DagEdgeId> edges;
    PathDescription description;
  };

  std::vector<DagEdgeId> edges(uint64_t id) const {
    return regeneratePath(numbered_.dag, numbered_.ballLarus, id);
  }

  // "line 12", "hdr.h:12" (another file), or "block 7" (no line).
  std::string lineOf(BlockId b) const {
    const SourceBlock &source = f_.blocks[b];
    if (source.lines.empty())
      return "block " + std::to_string(b);
    return (source.file.empty() ? "line " : source.file + ":") +
           std::to_string(source.lines.front());
  }

  std::string place(const Divergence &v) const {
    return v.file + ":" +
           (v.line ? std::to_string(v.line)
                   : " block " + std::to_string(v.block) + " (no line)");
  }

  // Whether `block` ends in a call that may throw (it has an exception
  // edge).
  bool mayThrow(BlockId block) const {
    for (EdgeId id : f_.cfg->succs(block))
      if (f_.cfg->edge(id).kind == EdgeKind::Eh)
        return true;
    return false;
  }

  // The DAG edge e of a path p (described): for the residual path itself
  // (`own`) at its start, "started here".
  Outcome outcome(DagEdgeId e, const PathDescription &p, bool own) const {
    const Dag &dag = numbered_.dag;
    const DagEdge &edge = dag.edges[e];
    Outcome o;
    if (edge.role == DagEdgeRole::PathStart || edge.src == dag.entry) {
      o.to = edge.dst;
      o.starts = p.start;
      if (own)
        o.text = "started here" +
                 (p.start == "entry" ? std::string(" (function entry)")
                                     : " (" + p.start + ")");
      else
        o.text = p.start == "entry" ? "at function entry"
                                    : "at " + lineOf(edge.dst) + " (" +
                                          p.start + ")";
      return o;
    }
    if (edge.role == DagEdgeRole::Cfg) {
      const EdgeKind kind = f_.cfg->edge(edge.cfgEdge).kind;
      o.to = edge.dst;
      switch (kind) {
      case EdgeKind::True:
      case EdgeKind::False:
      case EdgeKind::Eh:
        o.exit = edgeKindName(kind);
        o.text = o.exit;
        break;
      case EdgeKind::SwitchCase:
        o.exit = edgeKindName(kind);
        o.text = "switch to " + lineOf(edge.dst);
        break;
      default:
        o.text = edge.dst == dag.exit ? "return" : "on to " + lineOf(edge.dst);
        // Beside a call's exception edge: the call returned (a path that
        // took the throw would read "took throw, the tests always took on
        // to line 10", the call's own line).
        if (mayThrow(edge.src))
          o.text = "no throw, " + o.text;
        break;
      }
      return o;
    }
    // PathEnd: the path ends at the block (back edge, cut, noreturn...);
    // which branch that was when a single out-edge of it ends paths.
    o.ends = p.end;
    std::vector<EdgeKind> ending;
    for (EdgeId id : f_.cfg->succs(edge.src)) {
      const CfgEdgeRole role = dag.cfgEdgeRole[id];
      if (role != CfgEdgeRole::InDag && role != CfgEdgeRole::Unreachable)
        ending.push_back(f_.cfg->edge(id).kind);
    }
    if (ending.size() == 1 &&
        (ending[0] == EdgeKind::True || ending[0] == EdgeKind::False ||
         ending[0] == EdgeKind::Eh || ending[0] == EdgeKind::SwitchCase))
      o.exit = edgeKindName(ending[0]);
    o.text = (o.exit.empty() ? "" : o.exit + ", ") + "ending the path (" +
             p.end + ")";
    return o;
  }

  const FunctionMetadata &f_;
  NumberedDag numbered_;
  std::vector<Tested> tested_;
};

// "2025-06-01T12:00:00.000001234Z"
std::string utcTime(uint64_t ns) {
  const std::time_t seconds = static_cast<std::time_t>(ns / 1000000000u);
  std::tm tm{};
  char text[64];
  if (!gmtime_r(&seconds, &tm) ||
      !std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &tm))
    return std::to_string(ns) + " ns";
  char fraction[16];
  std::snprintf(fraction, sizeof fraction, ".%09llu",
                static_cast<unsigned long long>(ns % 1000000000u));
  return std::string(text) + fraction + "Z";
}

// "0.000123 s after start" (or before: a path run by an earlier constructor).
std::string sinceStart(uint64_t ns, uint64_t startedNs) {
  const bool before = ns < startedNs;
  const uint64_t d = before ? startedNs - ns : ns - startedNs;
  char text[64];
  std::snprintf(text, sizeof text, "%llu.%06llu s %s start",
                static_cast<unsigned long long>(d / 1000000000u),
                static_cast<unsigned long long>(d % 1000000000u / 1000u),
                before ? "before" : "after");
  return text;
}

std::string signalName(uint64_t signal) {
  const char *abbrev =
      signal < 65 ? sigabbrev_np(static_cast<int>(signal)) : nullptr;
  return abbrev ? std::string("SIG") + abbrev : "";
}

// The function a report names at `where` (a residual path, a path of a
// history), as an index into the module's functions: one built in residual
// mode, with a path `id`. Throws InputError naming the place otherwise.
size_t residualFunction(const std::map<FunctionKey, size_t> &byKey,
                        const LoadedModule &module, const std::string &identity,
                        const std::string &checksum, uint64_t id,
                        const std::string &where) {
  const auto known = byKey.find({identity, checksum});
  if (known == byKey.end())
    throw InputError(where + ": function " + identity + " (checksum " +
                     checksum + ") is not in " + module.module.path);
  const FunctionMetadata &f = module.functions[known->second];
  if (!f.skipped.empty())
    throw InputError(where + ": function " + identity + " is not "
                     "instrumented in " + module.module.path + ": " +
                     f.skipped);
  if (!module.residual[known->second])
    throw InputError(where + ": function " + identity + " of " +
                     module.module.path + " was not built in residual "
                     "mode (its metadata has no tested_ids)");
  f.requirePath(id, where + ".id");
  return known->second;
}

// The report's residual paths against its module's metadata. Throws
// InputError naming the place in the report.
DecodedReport decodeReport(const Report &report, const LoadedModule &module,
                           Symbolizer &symbolizer) {
  DecodedReport decoded{report, module.module.path, 0, {}, {}};
  std::map<FunctionKey, size_t> byKey; // first record of each (comdat)
  for (size_t i = 0; i < module.functions.size(); ++i)
    byKey.emplace(keyOf(module.functions[i]), i);

  // Per function, per id: the listings added up.
  std::map<size_t, std::map<uint64_t, Residual>> found;
  for (size_t i = 0; i < report.residualPaths.size(); ++i) {
    const ReportPath &p = report.residualPaths[i];
    const std::string where = "residual_paths[" + std::to_string(i) + "]";
    const size_t index =
        residualFunction(byKey, module, p.identity, p.checksum, p.id, where);
    const FunctionMetadata &f = module.functions[index];
    const auto &r = module.residual[index];
    if (std::binary_search(r->testedIds.begin(), r->testedIds.end(), p.id))
      throw InputError(where + ".id: path " + std::to_string(p.id) + " of " +
                       f.name + " is a tested path in the metadata of " +
                       module.module.path + ", not a residual one");
    auto [it, added] = found[index].try_emplace(p.id);
    Residual &residual = it->second;
    if (added || p.firstSeenNs < residual.firstSeenNs) {
      residual.firstSeenNs = p.firstSeenNs;
      residual.thread = p.thread;
      residual.firstTest = p.firstTest;
    }
    residual.id = p.id;
    if (__builtin_add_overflow(residual.count, p.count, &residual.count))
      throw InputError(where + ".count: the listings of path " +
                       std::to_string(p.id) + " of " + f.name +
                       " add up past 2^64 - 1 runs");
    addSourceContexts(residual.contexts, p.contexts, report.contextModules,
                      symbolizer, f.sourceRoot);
  }

  for (auto &[index, paths] : found) {
    const FunctionMetadata &f = module.functions[index];
    const ResidualMetadata &r = *module.residual[index];
    const FunctionDecoder decoder(f, r);
    DecodedFunction function{&f, &r, {}};
    std::vector<Residual> ordered;
    for (const auto &[id, residual] : paths)
      ordered.push_back(residual);
    std::stable_sort(ordered.begin(), ordered.end(),
                     [](const Residual &a, const Residual &b) {
                       return a.firstSeenNs < b.firstSeenNs;
                     });
    for (const Residual &residual : ordered)
      function.paths.push_back(decoder.decode(residual));
    decoded.distinctPaths += ordered.size();
    decoded.functions.push_back(std::move(function));
  }
  std::sort(decoded.functions.begin(), decoded.functions.end(),
            [](const DecodedFunction &a, const DecodedFunction &b) {
              const FunctionMetadata &x = *a.metadata, &y = *b.metadata;
              return std::tie(x.file, x.line, x.identity, x.checksum) <
                     std::tie(y.file, y.line, y.identity, y.checksum);
            });

  std::map<size_t, NumberedDag> numbered; // of the functions histories name
  for (size_t t = 0; t < report.history.size(); ++t) {
    const ThreadHistory &thread = report.history[t];
    DecodedHistory h;
    h.thread = t;
    for (size_t k = 0; k < thread.paths.size(); ++k) {
      const ReportPathKey &p = thread.paths[k];
      const std::string where =
          "history[" + std::to_string(t) + "].paths[" + std::to_string(k) + "]";
      const size_t index =
          residualFunction(byKey, module, p.identity, p.checksum, p.id, where);
      const FunctionMetadata &f = module.functions[index];
      const auto &r = module.residual[index];
      auto dag = numbered.find(index);
      if (dag == numbered.end())
        dag = numbered.emplace(index, f.number()).first;
      h.paths.push_back(
          {&f, describePath(f, dag->second, p.id),
           !std::binary_search(r->testedIds.begin(), r->testedIds.end(), p.id)});
    }
    h.sequence = expandPathGrammar(thread.grammar);
    h.hot = distinctHotSubpaths(thread.grammar);
    decoded.history.push_back(std::move(h));
  }
  return decoded;
}

// "2025-06-01 12:00:00 UTC"
std::string utcSeconds(uint64_t ns) {
  const std::string precise = utcTime(ns);
  return precise.size() > 19 && precise[10] == 'T'
             ? precise.substr(0, 10) + " " + precise.substr(11, 8) + " UTC"
             : precise;
}

// "calling contexts (N samples):" then each kept one, most counted first:
// "  COUNT [(up to ERROR fewer)] in G <- F (file:line) <- ...", the first
// function named only where the path's code is not its own function's
// (it was inlined there).
void showContexts(const FunctionMetadata &f, const Residual &x,
                  std::ostream &out) {
  if (x.contexts.kept.empty())
    return;
  out << "    calling contexts ("
      << countOf(x.contexts.samples, "sample") << "):\n";
  for (const SourceContext &c : x.contexts.kept)
    out << "      " << countText(c) << ": " << contextText(c, f.name) << "\n";
}

// " (the main thread)" for the thread whose id is the process's.
const char *mainThreadText(uint64_t thread, const Report &r) {
  return thread == r.pid ? " (the main thread)" : "";
}

// "f path 3", and " (residual)" for a residual one.
std::string stepName(const HistoryStep &step) {
  return step.function->name + " path " + std::to_string(step.path.id) +
         (step.residual ? " (residual)" : "");
}

// A thread's history: who it is, its hot subpaths, then its paths oldest
// first, a run of the same path as one line; without --details, only the
// last kHistoryRunsShown runs.
constexpr size_t kHistoryRunsShown = 40;

void showHistory(const DecodedHistory &h, const Report &r,
                 const DecodeOptions &options, std::ostream &out) {
  const ThreadHistory &t = r.history[h.thread];
  out << "\npath history of thread " << t.thread
      << mainThreadText(t.thread, r)
      << (t.current ? ", which wrote the report" : "")
      << (t.exited ? ", exited" : "") << ": the last "
      << countOf(h.sequence.size(), "path") << " of " << t.completed
      << " it completed, oldest first\n";
  if (!h.hot.empty()) {
    out << "  hot subpaths (repeated sequences):\n";
    for (const DecodedHistory::Hot &hot : h.hot) {
      out << "    " << countOf(hot.rule.occurrences, "time") << ": ";
      // A run of one path as one item: "f path 3 (5 in a row)".
      for (size_t i = 0, run; i < hot.paths.size(); i += run) {
        for (run = 1; i + run < hot.paths.size() &&
                      hot.paths[i + run] == hot.paths[i];
             ++run) {
        }
        out << (i ? ", " : "") << stepName(h.paths[hot.paths[i]])
            << (run > 1 ? " (" + std::to_string(run) + " in a row)" : "");
      }
      out << "\n";
    }
  }
  // Runs of one path: [first, last] positions in the sequence.
  std::vector<std::pair<size_t, size_t>> runs;
  for (size_t i = 0; i < h.sequence.size(); ++i)
    if (!runs.empty() && h.sequence[runs.back().second] == h.sequence[i])
      runs.back().second = i;
    else
      runs.push_back({i, i});
  size_t first = 0;
  if (!options.details && runs.size() > kHistoryRunsShown) {
    first = runs.size() - kHistoryRunsShown;
    out << "  (" << countOf(runs[first].first, "earlier path")
        << " not shown: --details shows them)\n";
  }
  // Positions ("7", "8-17") in a column as wide as the widest.
  std::vector<std::string> positions;
  size_t width = 0;
  for (size_t i = first; i < runs.size(); ++i) {
    const auto [from, to] = runs[i];
    positions.push_back(std::to_string(from + 1) +
                        (to > from ? "-" + std::to_string(to + 1) : ""));
    width = std::max(width, positions.back().size());
  }
  for (size_t i = first; i < runs.size(); ++i) {
    const auto [from, to] = runs[i];
    const HistoryStep &step = h.paths[h.sequence[from]];
    const std::string &position = positions[i - first];
    out << "  " << position << std::string(width - position.size() + 2, ' ')
        << stepName(step);
    if (to > from)
      out << " " << countOf(to - from + 1, "time");
    out << ": " << pathText(*step.function, step.path) << "\n";
  }
}

// "checksum 0123456789abcdef: 3 tested paths; ...": the other CFGs of an
// untested function that the tests ran.
std::string testedVersionsText(const std::vector<OtherVersion> &versions) {
  std::string text;
  for (const OtherVersion &v : versions)
    text += (text.empty() ? "checksum " : "; checksum ") + v.checksum + ": " +
            countOf(v.testedPaths, "tested path");
  return text;
}

void showText(const DecodedReport &d, const DecodeOptions &options,
              const SourceFiles &sources, std::ostream &out) {
  const bool details = options.details;
  const Report &r = d.report;
  out << displayName(r.file) << ": " << r.module;
  if (details)
    out << " (build-id " << (r.buildId.empty() ? "none" : r.buildId) << ")";
  out << ", pid " << r.pid;
  if (!r.test.empty())
    out << ", test " << r.test;
  out << ", written ";
  if (r.reason == "signal") {
    const std::string name = signalName(r.signal);
    out << "on signal " << r.signal << (name.empty() ? "" : " (" + name + ")");
  } else {
    out << (r.reason == "exit"   ? "at exit"
            : r.reason == "exec" ? "before exec"
                                 : "on request");
  }
  if (details)
    out << " " << utcTime(r.writtenNs) << " ("
        << sinceStart(r.writtenNs, r.startedNs) << ")\n";
  else
    out << " " << utcSeconds(r.writtenNs) << "\n";
  if (d.binary != r.module)
    out << "  metadata from " << d.binary << "\n";
  out << "  " << countOf(d.distinctPaths, "residual path")
      << " in " << countOf(d.functions.size(), "function")
      << "\n";
  // Stale functions report every path they run: say how much of the
  // report that is, lest it read as untested ground (a new user's
  // memcached: 182 of 186 paths, its tests running a debug build).
  uint64_t staleFunctions = 0, stalePaths = 0;
  for (const DecodedFunction &fn : d.functions)
    if (fn.residual->policy == "stale") {
      ++staleFunctions;
      stalePaths += fn.paths.size();
    }
  if (staleFunctions)
    out << "  " << stalePaths << " of them in "
        << countOf(staleFunctions, "function")
        << " the corpus has only with another CFG (built otherwise for the "
           "tests, or changed since): every path of those is reported\n";
  if (r.droppedPaths)
    out << "  warning: " << r.droppedPaths << " more residual path runs "
        << "were dropped (the runtime's table of residual paths was full)\n";
  // A function built several ways (several CFGs in one module) reads
  // apart by its CFG's checksum.
  std::map<std::string, size_t> variants;
  for (const DecodedFunction &fn : d.functions)
    ++variants[fn.metadata->identity];
  for (const DecodedFunction &fn : d.functions) {
    const FunctionMetadata &f = *fn.metadata;
    out << "\n" << functionHeading(f)
        << (variants[f.identity] > 1 ? cfgNote(f) : "") << ": "
        << countOf(fn.paths.size(), "residual path") << "; ";
    if (fn.residual->policy == "untested" && !fn.residual->testedVersions.empty())
      out << "the tests ran it only with another CFG ("
          << testedVersionsText(fn.residual->testedVersions)
          << "), never this one: all its paths are reported\n";
    else if (fn.residual->policy == "untested")
      out << "the tests never ran this function\n";
    else if (fn.residual->policy == "stale")
      out << "the corpus has this function only with another CFG ("
          << fn.residual->stale << "): all its paths are reported\n";
    else
      out << countOf(fn.residual->testedIds.size(), "tested path")
          << " of " << f.numPaths << "\n";
    for (const DecodedPath &p : fn.paths) {
      const Residual &x = p.residual;
      out << "  residual path " << x.id << ": " << pathText(f, p.path) << "\n";
      if (options.source)
        out << pathSourceText(f, p.path, sources, "    ");
      out << "    " << countOf(x.count, "run");
      if (!x.firstTest.empty())
        out << "; first in test " << x.firstTest;
      if (details)
        out << "; first seen " << utcTime(x.firstSeenNs) << " ("
            << sinceStart(x.firstSeenNs, r.startedNs) << ") by thread "
            << x.thread << mainThreadText(x.thread, r);
      out << "\n";
      showContexts(f, x, out);
      if (p.nearest)
        out << "    nearest tested path " << p.nearest->id << ": "
            << pathText(f, *p.nearest) << "\n";
      if (p.divergence)
        out << "    left the tested ground at " << p.divergence->text << "\n";
    }
  }
  for (const DecodedHistory &h : d.history)
    showHistory(h, r, options, out);
}

nlohmann::json outcomeJson(const FunctionMetadata &f, const Outcome &o) {
  nlohmann::json j{{"text", o.text}};
  if (!o.starts.empty())
    j["starts"] = o.starts;
  if (!o.exit.empty())
    j["exit"] = o.exit;
  if (o.to != kNoId) {
    j["to_block"] = o.to;
    j["to_lines"] = f.blocks[o.to].lines;
    if (!f.blocks[o.to].file.empty())
      j["to_file"] = f.blocks[o.to].file;
  }
  if (!o.ends.empty())
    j["ends"] = o.ends;
  return j;
}

nlohmann::json historyJson(const DecodedReport &d) {
  nlohmann::json threads = nlohmann::json::array();
  for (const DecodedHistory &h : d.history) {
    const ThreadHistory &t = d.report.history[h.thread];
    nlohmann::json paths = nlohmann::json::array();
    for (const HistoryStep &step : h.paths) {
      nlohmann::json j = toJson(*step.function, step.path);
      j["identity"] = step.function->identity;
      j["name"] = step.function->name;
      j["residual"] = step.residual;
      paths.push_back(std::move(j));
    }
    nlohmann::json hot = nlohmann::json::array();
    for (const DecodedHistory::Hot &x : h.hot)
      hot.push_back({{"paths", x.paths}, {"occurrences", x.rule.occurrences}});
    threads.push_back({{"thread", t.thread},
                       {"current", t.current},
                       {"exited", t.exited},
                       {"size", t.size},
                       {"completed", t.completed},
                       {"paths", std::move(paths)},
                       {"sequence", h.sequence},
                       {"hot_subpaths", std::move(hot)}});
  }
  return threads;
}

nlohmann::json reportJson(const DecodedReport &d) {
  const Report &r = d.report;
  nlohmann::json functions = nlohmann::json::array();
  for (const DecodedFunction &fn : d.functions) {
    const FunctionMetadata &f = *fn.metadata;
    nlohmann::json paths = nlohmann::json::array();
    for (const DecodedPath &p : fn.paths) {
      nlohmann::json j = toJson(f, p.path);
      j["count"] = p.residual.count;
      j["first_seen_ns"] = p.residual.firstSeenNs;
      j["first_seen"] = utcTime(p.residual.firstSeenNs);
      j["thread"] = p.residual.thread;
      if (!p.residual.firstTest.empty())
        j["first_test"] = p.residual.firstTest;
      if (p.residual.contexts.samples)
        j["contexts"] = toJson(p.residual.contexts);
      j["nearest_tested"] =
          p.nearest ? toJson(f, *p.nearest) : nlohmann::json(nullptr);
      nlohmann::json divergence = nullptr;
      if (p.divergence) {
        const Divergence &v = *p.divergence;
        nlohmann::json tests = nlohmann::json::array();
        for (const Outcome &o : v.testsTook)
          tests.push_back(outcomeJson(f, o));
        divergence = {{"at", v.atStart ? "start" : "branch"},
                      {"block", v.block},
                      {"file", v.file},
                      {"line", v.line ? nlohmann::json(v.line)
                                      : nlohmann::json(nullptr)},
                      {"took", outcomeJson(f, v.took)},
                      {"tests_took", std::move(tests)},
                      {"text", v.text}};
      }
      j["divergence"] = std::move(divergence);
      paths.push_back(std::move(j));
    }
    nlohmann::json j{{"identity", f.identity},
                     {"name", f.name},
                     {"file", f.file},
                     {"line", f.line},
                     {"checksum", f.checksum},
                     {"num_paths", f.numPaths},
                     {"policy", fn.residual->policy},
                     {"tested_paths", fn.residual->testedIds.size()}};
    if (fn.residual->policy == "stale")
      j["stale"] = fn.residual->stale;
    if (!fn.residual->testedVersions.empty())
      j["tested_versions"] = testedVersionsJson(fn.residual->testedVersions);
    j["paths"] = std::move(paths);
    functions.push_back(std::move(j));
  }
  nlohmann::json j{
      {"file", displayName(r.file)},
      {"module", r.module},
      {"build_id",
       r.buildId.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.buildId)},
      {"binary", d.binary},
      {"pid", r.pid},
      {"started_ns", r.startedNs},
      {"written_ns", r.writtenNs},
      {"reason", r.reason}};
  if (r.reason == "signal")
    j["signal"] = r.signal;
  if (!r.test.empty())
    j["test"] = r.test;
  j["residual_paths"] = d.distinctPaths;
  j["dropped_paths"] = r.droppedPaths;
  j["functions"] = std::move(functions);
  if (!d.history.empty())
    j["history"] = historyJson(d);
  return j;
}

int runDecode(const DecodeOptions &options) {
  ModuleIndex modules(options.debugDirs); // the decoded reports point into it
  Symbolizer symbolizer(options.debugDirs, options.binaries);
  std::vector<DecodedReport> decoded;
  std::vector<std::string> withoutReports; // directories
  try {
    std::vector<Report> reports;
    // A directory's reports, as the runtime names them: PATHCOV_REPORT_DIR.
    // One with none is no error: a run writes a report only when it took
    // an untested path, so CI's release tests leave none (pugixml trial).
    for (const std::string &file : inputFiles(
             "decode", options.reports,
             [](const std::string &name) {
               return name.rfind("pathcov-report-", 0) == 0 &&
                      std::filesystem::path(name).extension() == ".json";
             },
             "", &withoutReports))
      reports.push_back(readReport(file));
    for (const std::string &binary : options.binaries)
      modules.add(binary);
    for (const Report &report : reports) {
      try {
        const LoadedModule &module =
            modules.moduleFor(report.module, report.buildId, "report");
        decoded.push_back(decodeReport(report, module, symbolizer));
      } catch (const InputError &e) {
        throw InputError(displayName(report.file) + ": " + e.what());
      }
    }
  } catch (const InputError &e) {
    // Messages start with the file they are about.
    std::cerr << "pathcov decode: " << e.what() << '\n';
    return kExitBadInput;
  }
  if (!options.json) {
    const SourceFiles sources(options.sourceRoots);
    std::ostringstream text;
    for (const std::string &directory : withoutReports)
      text << displayName(directory)
           << ": no residual report (pathcov-report-*.json): no run that "
              "writes here took an untested path, or none wrote here\n";
    for (size_t i = 0; i < decoded.size(); ++i) {
      if (i || !withoutReports.empty())
        text << "\n";
      showText(decoded[i], options, sources, text);
    }
    sources.reportUnread("decode");
    return writeOutput("decode", options.output, text.str());
  }
  nlohmann::json reports = nlohmann::json::array();
  for (const DecodedReport &d : decoded)
    reports.push_back(reportJson(d));
  const nlohmann::json doc{{"format", "pathcov-decode"},
                           {"format_version", "1.0"},
                           {"reports", std::move(reports)}};
  return writeOutput("decode", options.output, doc.dump(1) + "\n");
}

} // namespace

void addDecodeCommand(CLI::App &app, int &exitCode) {
  const auto options = std::make_shared<DecodeOptions>();
  CLI::App *decode = app.add_subcommand(
      "decode", "Show the residual paths of residual-mode reports as source "
                "lines, each with its nearest tested path and where it left "
                "the tested ground; report by report (all of a fleet's "
                "together, each path once: pathcov merge into the corpus, "
                "then pathcov show)");
  decode
      ->add_option("REPORT", options->reports,
                   "Reports (pathcov-report-*.json) of residual-mode builds, "
                   "or directories of them (one with none says so: exit 0)")
      ->required();
  decode->add_option(
      "--binary", options->binaries,
      "The residual-mode executable or shared library that wrote a report, "
      "found by build-id (default: the module each report names, if its "
      "build-id matches); repeatable. A stripped one's metadata is found "
      "by build-id under --debug-dir");
  decode->add_option(
      "--debug-dir", options->debugDirs,
      "Where to look for metadata detached from stripped modules (objcopy "
      "--only-keep-debug), as DIR/.build-id/xx/rest.debug by build-id, like "
      "debug info; repeatable, looked at in order (default: /usr/lib/debug)");
  addSourceOptions(*decode, options->source, options->sourceRoots,
                   "the metadata's source_root");
  decode->add_flag("--json", options->json, "JSON output");
  decode->add_flag("--details", options->details,
                   "Text: also each report's build-id, and when and by which "
                   "thread each path was first seen, to the nanosecond "
                   "(--json always has them)");
  decode
      ->add_option("-o,--output", options->output,
                   "Write here; - is standard output")
      ->capture_default_str();
  decode->callback([options, &exitCode] { exitCode = runDecode(*options); });
}

} // namespace pathcov
