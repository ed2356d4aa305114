// `pathcov gate` (docs/gate.md): checks a corpus against thresholds and,
// optionally, a baseline corpus; the exit status has one bit per failed
// criterion, as gcovr's --fail-under-* do.
#include "GateCommand.h"

#include "ExitCodes.h"
#include "CorpusWriter.h"
#include "FileFilter.h"
#include "FileIo.h"
#include "PathText.h"
#include "Percent.h"

#include "pathcov/core/Checked.h"
#include "pathcov/core/LoopTransitions.h"
#include "pathcov/format/Corpus.h"
#include "pathcov/format/InputError.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

namespace pathcov {

namespace {

// At most this many path ids per function in the listings.
constexpr size_t kMaxIds = 20;
// At most this many functions per listing in the text and Markdown output.
constexpr size_t kMaxListed = 10;

struct GateOptions {
  std::string corpus;
  std::string baseline;
  std::string config;
  double failUnderPaths = 0;
  double failUnderFunctionPaths = 0;
  double failUnderKPaths = 0;
  uint64_t pathBound = kDefaultPathBound;
  uint64_t maxUntestedFunctions = 0;
  bool noNewUntested = false;
  bool noNewResidual = false;
  FileFilter files; // both corpora's
  std::string format = "text";
  std::string output = "-";
  // Which thresholds are set (by a flag or the config file).
  bool hasFailUnderPaths = false;
  bool hasFailUnderFunctionPaths = false;
  bool hasFailUnderKPaths = false;
  bool hasMaxUntestedFunctions = false;
};

// The command-line options a config file may also set.
struct GateFlags {
  CLI::Option *baseline, *failUnderPaths, *failUnderFunctionPaths,
      *failUnderKPaths, *pathBound, *maxUntestedFunctions, *noNewUntested,
      *noNewResidual, *format;
  FileFilterFlags files;
};

std::string trim(const std::string &s) {
  const size_t begin = s.find_first_not_of(" \t\r");
  if (begin == std::string::npos)
    return "";
  return s.substr(begin, s.find_last_not_of(" \t\r") - begin + 1);
}

// "a, b" -> {"a", "b"}: a config file's list (the plugin's GLOBS).
std::vector<std::string> splitList(const std::string &value) {
  std::vector<std::string> items;
  std::istringstream in(value);
  for (std::string item; std::getline(in, item, ',');)
    if (!trim(item).empty())
      items.push_back(trim(item));
  return items;
}

double parsePercent(const std::string &key, const std::string &value) {
  size_t used = 0;
  double pct = -1;
  try {
    pct = std::stod(value, &used);
  } catch (const std::exception &) {
  }
  if (used != value.size() || !(pct >= 0 && pct <= 100))
    throw UsageError(key + ": expected a percentage from 0 to 100, got \"" +
                     value + "\"");
  return pct;
}

uint64_t parseCount(const std::string &key, const std::string &value,
                    uint64_t min) {
  size_t used = 0;
  unsigned long long n = 0;
  try {
    if (!value.empty() && value[0] != '-')
      n = std::stoull(value, &used);
  } catch (const std::exception &) {
    used = 0;
  }
  if (used == 0 || used != value.size() || n < min)
    throw UsageError(key + ": expected an integer of at least " +
                     std::to_string(min) + ", got \"" + value + "\"");
  return n;
}

bool parseBool(const std::string &key, const std::string &value) {
  if (value == "true" || value == "yes" || value == "on" || value == "1")
    return true;
  if (value == "false" || value == "no" || value == "off" || value == "0")
    return false;
  throw UsageError(key + ": expected true or false, got \"" + value + "\"");
}

// Reads `key = value` lines (# comments) into the options that no flag
// set: the command line wins over the file.
void applyConfig(GateOptions &o, const GateFlags &flags) {
  std::istringstream in;
  try {
    in.str(readInput(o.config));
  } catch (const InputError &e) {
    throw UsageError(o.config + ": cannot open the config file: " + e.what());
  }
  std::string directory;
  if (const size_t slash = o.config.rfind('/'); slash != std::string::npos)
    directory = o.config.substr(0, slash + 1);
  std::set<std::string> seen;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const std::string where = o.config + ":" + std::to_string(number) + ": ";
    if (const size_t hash = line.find('#'); hash != std::string::npos)
      line.erase(hash);
    line = trim(line);
    if (line.empty())
      continue;
    const size_t eq = line.find('=');
    if (eq == std::string::npos)
      throw UsageError(where + "expected KEY = VALUE");
    const std::string key = trim(line.substr(0, eq));
    const std::string value = trim(line.substr(eq + 1));
    if (!seen.insert(key).second)
      throw UsageError(where + key + ": set twice");
    try {
      if (key == "baseline") {
        if (value.empty())
          throw UsageError(key + ": expected a file name");
        if (!flags.baseline->count())
          o.baseline = value[0] == '/' ? value : directory + value;
      } else if (key == "fail-under-paths") {
        const double v = parsePercent(key, value);
        if (!flags.failUnderPaths->count())
          o.failUnderPaths = v, o.hasFailUnderPaths = true;
      } else if (key == "fail-under-function-paths") {
        const double v = parsePercent(key, value);
        if (!flags.failUnderFunctionPaths->count())
          o.failUnderFunctionPaths = v, o.hasFailUnderFunctionPaths = true;
      } else if (key == "fail-under-k-paths") {
        const double v = parsePercent(key, value);
        if (!flags.failUnderKPaths->count())
          o.failUnderKPaths = v, o.hasFailUnderKPaths = true;
      } else if (key == "path-bound") {
        const uint64_t v = parseCount(key, value, 1);
        if (!flags.pathBound->count())
          o.pathBound = v;
      } else if (key == "max-untested-functions") {
        const uint64_t v = parseCount(key, value, 0);
        if (!flags.maxUntestedFunctions->count())
          o.maxUntestedFunctions = v, o.hasMaxUntestedFunctions = true;
      } else if (key == "no-new-untested") {
        const bool v = parseBool(key, value);
        if (!flags.noNewUntested->count())
          o.noNewUntested = v;
      } else if (key == "no-new-residual") {
        const bool v = parseBool(key, value);
        if (!flags.noNewResidual->count())
          o.noNewResidual = v;
      } else if (key == "include-file" || key == "exclude-file" ||
                 key == "include-function" || key == "exclude-function") {
        const std::vector<std::string> globs = splitList(value);
        if (globs.empty())
          throw UsageError(key + ": expected fnmatch(3) patterns");
        for (const auto &[name, option, patterns] :
             {std::tuple{"include-file", flags.files.include, &o.files.include},
              std::tuple{"exclude-file", flags.files.exclude, &o.files.exclude},
              std::tuple{"include-function", flags.files.includeFunctions,
                         &o.files.includeFunctions},
              std::tuple{"exclude-function", flags.files.excludeFunctions,
                         &o.files.excludeFunctions}})
          if (key == name && !option->count())
            *patterns = globs;
      } else if (key == "format") {
        if (value != "text" && value != "json" && value != "markdown")
          throw UsageError(key + ": expected text, json or markdown, got \"" +
                           value + "\"");
        if (!flags.format->count())
          o.format = value;
      } else {
        throw UsageError("unknown key \"" + key + "\"");
      }
    } catch (const UsageError &e) {
      throw UsageError(where + e.what());
    }
  }
}

// ---------------------------------------------------------------------------
// The analysis.

struct LoadedCorpus {
  Corpus corpus;
  FieldRuns field;
};

// The patterns are checked against the corpus, not the baseline, which
// may predate a file or function they name.
LoadedCorpus load(const std::string &path, const FileFilter &files, bool baseline) {
  // Not readJsonFile: runGate names the file in every message itself.
  LoadedCorpus loaded{readCorpus(readJson(path)), {}};
  keepWantedFiles(loaded.corpus, files, "gate", !baseline);
  loaded.field = fieldRunsByFunction(loaded.corpus);
  return loaded;
}

// A baseline collected before stop 51 names each unit's copy of a header's
// static function by its unit; a corpus collected now, by the header
// (headerIdentityOf). The copies also stand under the header's identity,
// their paths and field runs together, so that upgrading pathcov makes no
// new function and no regressed path.
void addHeaderIdentities(LoadedCorpus &baseline) {
  std::vector<std::pair<FunctionKey, const CorpusFunction *>> copies;
  for (const auto &[key, f] : baseline.corpus.functions) {
    const std::string header = headerIdentityOf(key.first, f.metadata.file);
    if (!header.empty() && f.metadata.skipped.empty())
      copies.push_back({{header, key.second}, &f});
  }
  for (const auto &[key, copy] : copies) {
    const auto [entry, added] = baseline.corpus.functions.try_emplace(key, *copy);
    CorpusFunction &f = entry->second;
    if (added)
      f.metadata.identity = key.first;
    else
      addPathCounts(f.paths, copy->paths);
    const auto field = baseline.field.find(keyOf(copy->metadata));
    if (field != baseline.field.end())
      for (const auto &[id, runs] : field->second) {
        uint64_t &into = baseline.field[key][id];
        into = saturatingAdd(into, runs);
      }
  }
}

struct FunctionStats {
  const CorpusFunction *f;
  uint64_t tested = 0;
  uint64_t paths = 0;
  bool inBound = false;
};

// A loop of a function recorded with k >= 2 (docs/gate.md, "Loop
// transitions"): its 2-iteration transitions and how many the tests ran.
struct LoopStats {
  const CorpusFunction *f;
  Loop loop;
  uint64_t tested = 0;
  bool inBound = false;
};

// Paths listed for one function: a count and the first few ids.
struct PathList {
  const CorpusFunction *f;
  std::string reason; // "regressed", "new-function" or "residual"
  uint64_t count = 0;
  std::vector<uint64_t> ids;
};

struct Criterion {
  std::string key;   // the flag without its dashes
  std::string title; // for people
  int bit = 0;
  bool enabled = false;
  bool passed = true;
  nlohmann::json threshold; // null when not enabled
  nlohmann::json value;     // what was measured; null when undefined
  std::string actual;       // the value, for people
};

struct GateResult {
  const Corpus *corpus = nullptr;       // the current one, for names
  std::vector<FunctionStats> functions; // instrumented, source order
  uint64_t skipped = 0;
  uint64_t inBound = 0, aboveBound = 0, testedInBound = 0, pathsInBound = 0;
  std::vector<const FunctionStats *> above, belowThreshold, untested, worst;
  // Loop transitions: of the instrumented functions with k-paths (k >= 2).
  uint64_t kFunctions = 0;
  std::vector<LoopStats> loops; // source order, then header block
  uint64_t loopsInBound = 0, loopsAboveBound = 0, testedTransitions = 0,
           transitionsInBound = 0;
  std::vector<const LoopStats *> worstLoops, loopsAbove;
  std::set<const CorpusFunction *> newFunctions; // not in the baseline
  std::vector<PathList> newUntested, newResidual;
  uint64_t newUntestedCount = 0, newResidualCount = 0;
  std::vector<Criterion> criteria;
  int exitCode = kExitSuccess;
};

Criterion criterion(const std::string &key, const std::string &title, int bit) {
  Criterion c;
  c.key = key;
  c.title = title;
  c.bit = bit;
  return c;
}

// Only a function with a loop (or a computed goto, or a handler of its
// own) that ran in a k build has k-paths in the corpus (docs/gate.md).
constexpr const char *kNoKPaths =
    "the corpus has no k-paths: no function in it was built with "
    "-fplugin-arg-pathcov-k=N (N >= 2) and has a loop";

// The first kMaxIds ids below `paths` that `keep` accepts.
template <typename Keep>
std::vector<uint64_t> firstIds(uint64_t paths, Keep keep) {
  std::vector<uint64_t> ids;
  for (uint64_t id = 0; id < paths && ids.size() < kMaxIds; ++id)
    if (keep(id))
      ids.push_back(id);
  return ids;
}

GateResult evaluate(const GateOptions &o, const LoadedCorpus &current,
                    const std::optional<LoadedCorpus> &baseline) {
  GateResult r;
  r.corpus = &current.corpus;
  for (const CorpusFunction *f : inSourceOrder(current.corpus)) {
    if (!f->metadata.skipped.empty()) {
      ++r.skipped;
      continue;
    }
    FunctionStats s{f, f->paths.size(), f->metadata.numPaths,
                    f->metadata.numPaths <= o.pathBound};
    r.functions.push_back(s);
  }
  for (const FunctionStats &s : r.functions) {
    if (s.inBound) {
      ++r.inBound;
      r.testedInBound += s.tested;
      r.pathsInBound += s.paths;
      if (o.hasFailUnderFunctionPaths &&
          100.0 * s.tested < o.failUnderFunctionPaths * s.paths)
        r.belowThreshold.push_back(&s);
      r.worst.push_back(&s);
    } else {
      ++r.aboveBound;
      r.above.push_back(&s);
    }
    if (s.tested == 0)
      r.untested.push_back(&s);
  }
  // Lowest coverage first; ties: more untested paths first, then source
  // order (stable).
  std::stable_sort(r.worst.begin(), r.worst.end(),
                   [](const FunctionStats *a, const FunctionStats *b) {
                     const double ca = percentOf(a->tested, a->paths);
                     const double cb = percentOf(b->tested, b->paths);
                     if (ca != cb)
                       return ca < cb;
                     return a->paths - a->tested > b->paths - b->tested;
                   });

  // Loop transitions: every loop of the functions recorded with k >= 2,
  // its 2-windows sorted into the loops whose transitions they are.
  for (const FunctionStats &s : r.functions) {
    const CorpusFunction &f = *s.f;
    if (f.metadata.k < 2)
      continue;
    ++r.kFunctions;
    // (Its windows' ids were checked when the corpus was read.)
    TransitionCoverage c = loopTransitionsOf(f, f.metadata.number());
    for (LoopCoverage &loop : c.loops) {
      LoopStats l{&f, std::move(loop.loop), loop.tested.size(), false};
      l.inBound = !l.loop.saturated && l.loop.transitions <= o.pathBound;
      r.loops.push_back(std::move(l));
    }
  }
  for (const LoopStats &l : r.loops) {
    if (l.inBound) {
      ++r.loopsInBound;
      // Each at most the bound, but a bound near 2^64 could add up past it.
      r.testedTransitions = saturatingAdd(r.testedTransitions, l.tested);
      r.transitionsInBound =
          saturatingAdd(r.transitionsInBound, l.loop.transitions);
      r.worstLoops.push_back(&l);
    } else {
      ++r.loopsAboveBound;
      r.loopsAbove.push_back(&l);
    }
  }
  std::stable_sort(r.worstLoops.begin(), r.worstLoops.end(),
                   [](const LoopStats *a, const LoopStats *b) {
                     const double ca = percentOf(a->tested, a->loop.transitions);
                     const double cb = percentOf(b->tested, b->loop.transitions);
                     if (ca != cb)
                       return ca < cb;
                     return a->loop.transitions - a->tested >
                            b->loop.transitions - b->tested;
                   });

  if (baseline) {
    for (const FunctionStats &s : r.functions) {
      const CorpusFunction &f = *s.f;
      const FunctionKey key = keyOf(f.metadata);
      const auto b = baseline->corpus.functions.find(key);
      const bool known =
          b != baseline->corpus.functions.end() && b->second.metadata.skipped.empty();
      if (!known)
        r.newFunctions.insert(&f);
      // New untested paths.
      if (known) {
        PathList regressed{&f, "regressed", 0, {}};
        for (const auto &[id, path] : b->second.paths)
          if (!f.paths.count(id)) {
            ++regressed.count;
            if (regressed.ids.size() < kMaxIds)
              regressed.ids.push_back(id);
          }
        if (regressed.count) {
          r.newUntestedCount += regressed.count;
          r.newUntested.push_back(std::move(regressed));
        }
      } else if (s.inBound && s.tested < s.paths) {
        PathList added{&f, "new-function", s.paths - s.tested, {}};
        added.ids = firstIds(s.paths, [&](uint64_t id) { return !f.paths.count(id); });
        r.newUntestedCount += added.count;
        r.newUntested.push_back(std::move(added));
      }
      // New residual paths: observed in the field, not tested, and not
      // already observed in the field as of the baseline.
      const auto field = current.field.find(key);
      if (field == current.field.end())
        continue;
      const auto oldField = baseline->field.find(key);
      PathList residual{&f, "residual", 0, {}};
      for (const auto &observed : field->second) {
        const uint64_t id = observed.first;
        if (f.paths.count(id))
          continue;
        if (oldField != baseline->field.end() && oldField->second.count(id))
          continue;
        ++residual.count;
        if (residual.ids.size() < kMaxIds)
          residual.ids.push_back(id);
      }
      if (residual.count) {
        r.newResidualCount += residual.count;
        r.newResidual.push_back(std::move(residual));
      }
    }
  }

  // The criteria, always in this order.
  const bool hasOverall = r.pathsInBound > 0;
  const double overall = percentOf(r.testedInBound, r.pathsInBound);
  {
    Criterion c = criterion("fail-under-paths", "Overall path coverage", kGateBitOverall);
    c.enabled = o.hasFailUnderPaths;
    c.value = hasOverall ? nlohmann::json(overall) : nlohmann::json();
    std::ostringstream a;
    a.precision(1);
    a << std::fixed;
    if (hasOverall)
      a << overall << "% (" << r.testedInBound << " of " << r.pathsInBound
        << " paths)";
    else
      a << "no paths within the bound";
    c.actual = a.str();
    if (c.enabled) {
      c.threshold = o.failUnderPaths;
      c.passed = !hasOverall || 100.0 * r.testedInBound >= o.failUnderPaths * r.pathsInBound;
    }
    r.criteria.push_back(c);
  }
  {
    Criterion c = criterion("fail-under-function-paths", "Path coverage of every function",
                kGateBitFunction);
    c.enabled = o.hasFailUnderFunctionPaths;
    c.value = r.belowThreshold.size();
    c.actual = c.enabled ? std::to_string(r.belowThreshold.size()) + " of " +
                               std::to_string(r.inBound) + " functions below"
                         : std::to_string(r.inBound) + " functions within the bound";
    if (c.enabled) {
      c.threshold = o.failUnderFunctionPaths;
      c.passed = r.belowThreshold.empty();
    }
    r.criteria.push_back(c);
  }
  {
    Criterion c = criterion("max-untested-functions", "Untested functions",
                kGateBitUntestedFunctions);
    c.enabled = o.hasMaxUntestedFunctions;
    c.value = r.untested.size();
    c.actual = std::to_string(r.untested.size()) + " of " +
               std::to_string(r.functions.size()) + " functions";
    if (c.enabled) {
      c.threshold = o.maxUntestedFunctions;
      c.passed = r.untested.size() <= o.maxUntestedFunctions;
    }
    r.criteria.push_back(c);
  }
  {
    Criterion c = criterion("no-new-untested", "New untested paths", kGateBitBaseline);
    c.enabled = o.noNewUntested;
    c.value = baseline ? nlohmann::json(r.newUntestedCount) : nlohmann::json();
    c.actual = baseline ? std::to_string(r.newUntestedCount) + " in " +
                              countOf(r.newUntested.size(), "function")
                        : "no baseline";
    if (c.enabled) {
      c.threshold = 0;
      c.passed = r.newUntestedCount == 0;
    }
    r.criteria.push_back(c);
  }
  {
    Criterion c = criterion("no-new-residual", "New residual paths", kGateBitBaseline);
    c.enabled = o.noNewResidual;
    c.value = baseline ? nlohmann::json(r.newResidualCount) : nlohmann::json();
    c.actual = baseline ? std::to_string(r.newResidualCount) + " in " +
                              countOf(r.newResidual.size(), "function")
                        : "no baseline";
    // Field paths no function of the corpus takes are not new residual
    // paths of any: said beside the count, lest a pass read as "none ran"
    // (a new user's libyaml: 38 set aside, "0 new residual paths").
    if (const SetAsideSummary setAside = summarizeSetAside(*r.corpus); setAside.paths)
      c.actual += "; " + countOf(setAside.paths, "field path") + " of " +
                  countOf(setAside.functions, "function") +
                  " set aside, not counted (docs/merge.md, \"Attribution\")";
    if (c.enabled) {
      c.threshold = 0;
      c.passed = r.newResidualCount == 0;
    }
    r.criteria.push_back(c);
  }
  {
    Criterion c = criterion("fail-under-k-paths", "Loop transition coverage",
                            kGateBitKPaths);
    c.enabled = o.hasFailUnderKPaths;
    const bool hasK = r.kFunctions > 0;
    const bool hasRatio = r.transitionsInBound > 0;
    c.value = hasRatio ? nlohmann::json(percentOf(r.testedTransitions,
                                                  r.transitionsInBound))
                       : nlohmann::json();
    if (!hasK)
      c.actual = kNoKPaths;
    else if (!hasRatio)
      c.actual = "no loop transitions within the bound (" +
                 countOf(r.loops.size(), "loop") + " in " +
                 countOf(r.kFunctions, "function") + " with k-paths)";
    else
      c.actual = percentText(r.testedTransitions, r.transitionsInBound) +
                 " (" + std::to_string(r.testedTransitions) + " of " +
                 std::to_string(r.transitionsInBound) + " transitions in " +
                 countOf(r.loopsInBound, "loop") + ")";
    if (c.enabled) {
      c.threshold = o.failUnderKPaths;
      // A corpus without k-paths cannot be measured: it fails, never passes
      // unseen.
      c.passed = hasK && (!hasRatio || 100.0 * r.testedTransitions >=
                                           o.failUnderKPaths * r.transitionsInBound);
    }
    r.criteria.push_back(c);
  }
  for (const Criterion &c : r.criteria)
    if (!c.passed)
      r.exitCode |= kExitGateFailed | c.bit;
  return r;
}

// ---------------------------------------------------------------------------
// Output.

std::string where(const GateResult &r, const CorpusFunction &f) {
  return functionHeading(*r.corpus, f.metadata);
}

// The line a loop is named by: its header block's first line, with the
// file if it is not the function's ("hdr.h:12"); "block 7" if it has none.
std::string headerText(const LoopStats &l) {
  const FunctionMetadata &m = l.f->metadata;
  const BlockId h = l.loop.header;
  if (h >= m.blocks.size() || m.blocks[h].lines.empty())
    return "block " + std::to_string(h);
  return (m.blocks[h].file.empty() ? "" : m.blocks[h].file + ":") +
         std::to_string(m.blocks[h].lines.front());
}

int headerLine(const LoopStats &l) {
  const FunctionMetadata &m = l.f->metadata;
  const BlockId h = l.loop.header;
  return h < m.blocks.size() && !m.blocks[h].lines.empty()
             ? m.blocks[h].lines.front()
             : 0;
}

std::string transitionsText(const Loop &loop) {
  return loop.saturated ? "more than 2^64" : std::to_string(loop.transitions);
}

std::string loopStatsText(const LoopStats &l) {
  return std::to_string(l.tested) + " of " + transitionsText(l.loop) +
         " transitions tested (" + percentText(l.tested, l.loop.transitions) +
         ")";
}

std::string thresholdText(const Criterion &c) {
  if (!c.enabled)
    return "-";
  if (c.key.rfind("fail-under-", 0) == 0)
    return ">= " + oneDecimal(c.threshold.get<double>()) + "%";
  return "<= " + std::to_string(c.threshold.get<uint64_t>());
}

std::string idsText(const PathList &p) {
  std::string text;
  for (uint64_t id : p.ids)
    text += (text.empty() ? "" : ", ") + std::to_string(id);
  if (p.count > p.ids.size())
    text += " and " + std::to_string(p.count - p.ids.size()) + " more";
  return text;
}

std::string statsText(const FunctionStats &s) {
  return std::to_string(s.tested) + " of " + std::to_string(s.paths) +
         " paths tested (" + percentText(s.tested, s.paths) + ")";
}

std::string verdict(const GateResult &r) {
  return r.exitCode ? "FAILED (exit code " + std::to_string(r.exitCode) + ")"
                    : "passed";
}

std::string textReport(const GateOptions &o, const GateResult &r) {
  std::ostringstream out;
  out << "pathcov gate: " << verdict(r) << "\n";
  out << "corpus: " << displayName(o.corpus);
  if (!o.baseline.empty())
    out << ", baseline: " << displayName(o.baseline);
  for (const auto &[option, globs] :
       {std::pair{"--include-file", &o.files.include},
        std::pair{"--exclude-file", &o.files.exclude},
        std::pair{"--include-function", &o.files.includeFunctions},
        std::pair{"--exclude-function", &o.files.excludeFunctions}})
    for (const std::string &glob : *globs)
      out << ", " << option << " " << glob;
  out << "\n" << r.functions.size() << " instrumented functions ("
      << r.skipped << " not instrumented), " << r.inBound
      << " within the path bound of " << o.pathBound << ", " << r.aboveBound
      << " above it (counted separately, not in the ratio)\n";
  if (r.kFunctions)
    out << countOf(r.kFunctions, "function") << " with k-paths (k >= 2): "
        << countOf(r.loops.size(), "loop")
        << ", " << r.loopsInBound << " within the path bound, "
        << r.loopsAboveBound << " above it (not in the ratio)\n";
  out << "\n";
  for (const Criterion &c : r.criteria) {
    out << (c.enabled ? (c.passed ? "  PASS  " : "  FAIL  ") : "  ----  ")
        << c.title;
    if (c.enabled)
      out << " " << thresholdText(c);
    out << ": " << c.actual;
    if (!c.enabled)
      out << " (not checked)";
    else if (!c.passed)
      out << " [exit bit " << c.bit << "]";
    out << "\n";
  }
  const auto list = [&](const std::string &title, const auto &items,
                        const auto &line) {
    if (items.empty())
      return;
    out << "\n" << title << " (" << items.size() << "):\n";
    for (size_t i = 0; i < items.size() && i < kMaxListed; ++i)
      out << "  " << line(items[i]) << "\n";
    if (items.size() > kMaxListed)
      out << "  ... and " << items.size() - kMaxListed << " more\n";
  };
  const auto stats = [&r](const FunctionStats *s) {
    return where(r, *s->f) + ": " + statsText(*s);
  };
  list("Functions below " + oneDecimal(o.failUnderFunctionPaths) + "%",
       r.belowThreshold, stats);
  list("Worst functions within the bound", r.worst, stats);
  list("Functions above the path bound (not in the ratio)", r.above,
       [&](const FunctionStats *s) {
         return stats(s) + (r.newFunctions.count(s->f) ? " [new]" : "");
       });
  list("Untested functions", r.untested,
       [&r](const FunctionStats *s) { return where(r, *s->f); });
  const auto loop = [&r](const LoopStats *l) {
    return where(r, *l->f) + ": loop at line " + headerText(*l) + ": " +
           loopStatsText(*l);
  };
  list("Worst loops within the bound", r.worstLoops, loop);
  list("Loops above the path bound (not in the ratio)", r.loopsAbove, loop);
  const auto paths = [&r](const PathList &p) {
    return where(r, *p.f) + ": " + std::to_string(p.count) + " " +
           (p.reason == "regressed"      ? "tested in the baseline, untested now"
            : p.reason == "new-function" ? "untested in a function new since the baseline"
                                         : "observed in the field, not tested") +
           ": " + idsText(p);
  };
  list("New untested paths", r.newUntested, paths);
  list("New residual paths", r.newResidual, paths);
  return out.str();
}

std::string markdownEscape(const std::string &s) {
  std::string out;
  for (char c : s) {
    if (c == '|' || c == '`' || c == '*' || c == '_' || c == '<' || c == '>' ||
        c == '[' || c == ']' || c == '\\')
      out += '\\';
    out += c;
  }
  return out;
}

std::string markdownReport(const GateOptions &o, const GateResult &r) {
  std::ostringstream out;
  out << "## pathcov gate: "
      << (r.exitCode ? "❌ failed (exit code " + std::to_string(r.exitCode) + ")"
                     : "✅ passed")
      << "\n\n";
  out << "| Criterion | Threshold | Actual | Result |\n"
      << "|---|---|---|---|\n";
  for (const Criterion &c : r.criteria)
    out << "| " << c.title << " (`--" << c.key << "`) | " << thresholdText(c)
        << " | " << markdownEscape(c.actual) << " | "
        << (c.enabled ? (c.passed ? "✅ pass" : "❌ fail") : "not checked")
        << " |\n";
  out << "\n" << r.functions.size() << " instrumented functions: "
      << r.inBound << " within the path bound of " << o.pathBound << ", "
      << r.aboveBound
      << " above it (counted separately, not in the ratio).\n";
  if (r.kFunctions)
    out << "\n" << countOf(r.kFunctions, "function") << " with k-paths (k >= 2): "
        << countOf(r.loops.size(), "loop") << ", " << r.loopsInBound
        << " within the path bound, " << r.loopsAboveBound
        << " above it (not in the ratio).\n";
  const auto table = [&](const std::string &title, const auto &items,
                         const std::string &header, const auto &row) {
    if (items.empty())
      return;
    out << "\n<details><summary>" << title << " (" << items.size()
        << ")</summary>\n\n"
        << header;
    for (size_t i = 0; i < items.size() && i < kMaxListed; ++i)
      out << row(items[i]) << "\n";
    if (items.size() > kMaxListed)
      out << "\n... and " << items.size() - kMaxListed << " more\n";
    out << "\n</details>\n";
  };
  const std::string statsHeader =
      "| Function | Location | Tested | Paths | Coverage |\n|---|---|---|---|---|\n";
  // A function's first two cells: its name (and CFG, for a variant) and
  // where it is.
  const auto functionCells = [&r](const CorpusFunction &f) {
    const FunctionMetadata &m = f.metadata;
    return "| " + markdownEscape(m.name + variantNote(*r.corpus, m)) + " | " +
           markdownEscape(m.file) + ":" + std::to_string(m.line) + " | ";
  };
  const auto statsRow = [&](const FunctionStats *s) {
    return functionCells(*s->f) + std::to_string(s->tested) + " | " +
           std::to_string(s->paths) + " | " +
           percentText(s->tested, s->paths) + " |";
  };
  table("Functions below " + oneDecimal(o.failUnderFunctionPaths) + "%",
        r.belowThreshold, statsHeader, statsRow);
  table("Worst functions within the bound", r.worst, statsHeader, statsRow);
  table("Functions above the path bound (not in the ratio)", r.above,
        statsHeader, statsRow);
  const std::string loopsHeader = "| Function | Location | Loop at | Tested | "
                                  "Transitions | Coverage |\n"
                                  "|---|---|---|---|---|---|\n";
  const auto loopsRow = [&](const LoopStats *l) {
    return functionCells(*l->f) + markdownEscape(headerText(*l)) +
           " | " + std::to_string(l->tested) + " | " +
           transitionsText(l->loop) + " | " +
           percentText(l->tested, l->loop.transitions) + " |";
  };
  table("Worst loops within the bound", r.worstLoops, loopsHeader, loopsRow);
  table("Loops above the path bound (not in the ratio)", r.loopsAbove,
        loopsHeader, loopsRow);
  const std::string pathsHeader =
      "| Function | Location | Why | Paths | Path ids |\n|---|---|---|---|---|\n";
  const auto pathsRow = [&](const PathList &p) {
    return functionCells(*p.f) + p.reason + " | " +
           std::to_string(p.count) + " | " + idsText(p) + " |";
  };
  table("New untested paths", r.newUntested, pathsHeader, pathsRow);
  table("New residual paths", r.newResidual, pathsHeader, pathsRow);
  return out.str();
}

nlohmann::json functionJson(const FunctionStats &s) {
  const FunctionMetadata &m = s.f->metadata;
  return {{"identity", m.identity},
          {"name", m.name},
          {"file", m.file},
          {"line", m.line},
          {"num_paths", s.paths},
          {"tested_paths", s.tested},
          {"coverage", percentOf(s.tested, s.paths)}};
}

nlohmann::json jsonReport(const GateOptions &o, const GateResult &r) {
  nlohmann::json criteria = nlohmann::json::array();
  for (const Criterion &c : r.criteria)
    criteria.push_back({{"name", c.key},
                        {"bit", c.bit},
                        {"enabled", c.enabled},
                        {"passed", c.passed},
                        {"threshold", c.threshold},
                        {"value", c.value}});
  const auto functions = [](const std::vector<const FunctionStats *> &list) {
    nlohmann::json a = nlohmann::json::array();
    for (const FunctionStats *s : list)
      a.push_back(functionJson(*s));
    return a;
  };
  nlohmann::json above = nlohmann::json::array();
  for (const FunctionStats *s : r.above) {
    nlohmann::json j = functionJson(*s);
    j["acyclic_paths"] = s->f->metadata.acyclicPaths.count;
    j["acyclic_paths_saturated"] = s->f->metadata.acyclicPaths.saturated;
    if (!o.baseline.empty())
      j["new"] = r.newFunctions.count(s->f) > 0;
    above.push_back(std::move(j));
  }
  const auto pathLists = [](const std::vector<PathList> &lists) {
    nlohmann::json a = nlohmann::json::array();
    for (const PathList &p : lists) {
      const FunctionMetadata &m = p.f->metadata;
      a.push_back({{"identity", m.identity},
                   {"name", m.name},
                   {"file", m.file},
                   {"line", m.line},
                   {"reason", p.reason},
                   {"count", p.count},
                   {"ids", p.ids}});
    }
    return a;
  };
  nlohmann::json loops = nlohmann::json::array();
  for (const LoopStats &l : r.loops) {
    const FunctionMetadata &m = l.f->metadata;
    nlohmann::json j{{"identity", m.identity},
                     {"name", m.name},
                     {"file", m.file},
                     {"line", m.line},
                     {"k", l.f->metadata.k},
                     {"header_block", l.loop.header},
                     {"header_line", headerLine(l)},
                     {"latches", l.loop.latches},
                     {"transitions", l.loop.transitions},
                     {"transitions_saturated", l.loop.saturated},
                     {"tested_transitions", l.tested},
                     {"coverage", percentOf(l.tested, l.loop.transitions)},
                     {"within_bound", l.inBound}};
    if (l.loop.header < m.blocks.size() && !m.blocks[l.loop.header].file.empty())
      j["header_file"] = m.blocks[l.loop.header].file;
    loops.push_back(std::move(j));
  }
  const nlohmann::json doc{
      {"format", "pathcov-gate"},
      {"format_version", "1.1"},
      {"corpus", displayName(o.corpus)},
      {"baseline", o.baseline.empty() ? nlohmann::json()
                                      : nlohmann::json(displayName(o.baseline))},
      {"passed", r.exitCode == 0},
      {"exit_code", r.exitCode},
      {"path_bound", o.pathBound},
      {"totals",
       {{"functions", r.functions.size()},
        {"not_instrumented", r.skipped},
        {"within_bound", r.inBound},
        {"above_bound", r.aboveBound},
        {"tested_paths", r.testedInBound},
        {"paths", r.pathsInBound},
        {"coverage", r.pathsInBound
                         ? nlohmann::json(percentOf(r.testedInBound, r.pathsInBound))
                         : nlohmann::json()},
        {"untested_functions", r.untested.size()},
        {"new_untested_paths", r.newUntestedCount},
        {"new_residual_paths", r.newResidualCount},
        {"k_functions", r.kFunctions},
        {"loops_within_bound", r.loopsInBound},
        {"loops_above_bound", r.loopsAboveBound},
        {"tested_transitions", r.testedTransitions},
        {"transitions", r.transitionsInBound},
        {"transition_coverage",
         r.transitionsInBound
             ? nlohmann::json(percentOf(r.testedTransitions, r.transitionsInBound))
             : nlohmann::json()}}},
      {"criteria", std::move(criteria)},
      {"below_function_threshold", functions(r.belowThreshold)},
      {"above_bound", std::move(above)},
      {"untested_functions", functions(r.untested)},
      {"new_untested", pathLists(r.newUntested)},
      {"new_residual", pathLists(r.newResidual)},
      {"loops", std::move(loops)}};
  return doc;
}

int runGate(GateOptions o, const GateFlags &flags) {
  try {
    if (!o.config.empty())
      applyConfig(o, flags);
    if ((o.noNewUntested || o.noNewResidual) && o.baseline.empty())
      throw UsageError(std::string(o.noNewUntested ? "--no-new-untested"
                                                   : "--no-new-residual") +
                       " needs a --baseline corpus");
  } catch (const UsageError &e) {
    std::cerr << "pathcov gate: " << e.what() << '\n';
    return kExitUsage;
  }
  std::string reading = o.corpus;
  // The result points into the corpora: they outlive it.
  LoadedCorpus current;
  std::optional<LoadedCorpus> baseline;
  GateResult result;
  try {
    current = load(o.corpus, o.files, false);
    if (!o.baseline.empty()) {
      reading = o.baseline;
      baseline = load(o.baseline, o.files, true);
      addHeaderIdentities(*baseline);
    }
    result = evaluate(o, current, baseline);
  } catch (const InputError &e) {
    return reportError("gate", displayName(reading), e.what(), kExitBadInput);
  } catch (const UsageError &e) {
    std::cerr << "pathcov gate: " << displayName(reading) << ": " << e.what()
              << '\n';
    return kExitUsage;
  }
  std::string text;
  if (o.format == "json")
    text = jsonReport(o, result).dump(1) + "\n";
  else if (o.format == "markdown")
    text = markdownReport(o, result);
  else
    text = textReport(o, result);
  if (o.hasFailUnderKPaths && result.kFunctions == 0)
    std::cerr << "pathcov gate: --fail-under-k-paths: " << kNoKPaths
              << " (docs/record-mode.md)\n";
  if (const int written = writeOutput("gate", o.output, text))
    return written;
  return result.exitCode;
}

} // namespace

void addGateCommand(CLI::App &app, int &exitCode) {
  const auto options = std::make_shared<GateOptions>();
  const auto flags = std::make_shared<GateFlags>();
  CLI::App *gate = app.add_subcommand(
      "gate", "Fail a CI job when path coverage is below thresholds or a "
              "baseline corpus had fewer untested or residual paths");
  gate->add_option("CORPUS", options->corpus,
                   "The corpus to check (pathcov collect); - is standard input")
      ->required();
  flags->baseline = gate->add_option(
      "--baseline", options->baseline,
      "The corpus to compare with for --no-new-untested and --no-new-residual");
  gate->add_option("--config", options->config,
                   "Read KEY = VALUE lines (KEY: a long option without --); "
                   "options given here win");
  flags->failUnderPaths =
      gate->add_option_function<double>(
              "--fail-under-paths",
              [options](double v) {
                options->failUnderPaths = v;
                options->hasFailUnderPaths = true;
              },
              "Fail (exit bit 8) when the path coverage of the functions "
              "within the path bound is below PCT")
          ->type_name("PCT")
          ->check(CLI::Range(0.0, 100.0));
  flags->failUnderFunctionPaths =
      gate->add_option_function<double>(
              "--fail-under-function-paths",
              [options](double v) {
                options->failUnderFunctionPaths = v;
                options->hasFailUnderFunctionPaths = true;
              },
              "Fail (exit bit 16) when a function within the path bound has "
              "a path coverage below PCT")
          ->type_name("PCT")
          ->check(CLI::Range(0.0, 100.0));
  flags->failUnderKPaths =
      gate->add_option_function<double>(
              "--fail-under-k-paths",
              [options](double v) {
                options->failUnderKPaths = v;
                options->hasFailUnderKPaths = true;
              },
              "Fail (exit bit 8) when the 2-iteration transitions the tests "
              "ran are below PCT of those of the loops within the path bound, "
              "over the functions recorded with k >= 2; and when the corpus "
              "has no k-paths")
          ->type_name("PCT")
          ->check(CLI::Range(0.0, 100.0));
  flags->pathBound =
      gate->add_option("--path-bound", options->pathBound,
                       "Functions with more paths (loops with more "
                       "transitions) than this are listed separately, not in "
                       "the coverage ratios")
          ->type_name("N")
          ->check(CLI::PositiveNumber)
          ->capture_default_str();
  flags->maxUntestedFunctions =
      gate->add_option_function<uint64_t>(
              "--max-untested-functions",
              [options](uint64_t v) {
                options->maxUntestedFunctions = v;
                options->hasMaxUntestedFunctions = true;
              },
              "Fail (exit bit 32) when more than N functions have no tested "
              "path")
          ->type_name("N");
  flags->noNewUntested = gate->add_flag(
      "--no-new-untested", options->noNewUntested,
      "Fail (exit bit 64) on paths tested in the baseline but not now, or "
      "untested in functions new since the baseline");
  flags->noNewResidual = gate->add_flag(
      "--no-new-residual", options->noNewResidual,
      "Fail (exit bit 64) on field-observed paths that are not tested and "
      "were not field-observed in the baseline");
  flags->files = addFileFilterOptions(*gate, options->files);
  flags->format = gate->add_option("--format", options->format, "Output format")
                      ->check(CLI::IsMember({"text", "json", "markdown"}))
                      ->capture_default_str();
  gate->add_option("-o,--output", options->output,
                   "Write here; - is standard output")
      ->capture_default_str();
  gate->footer("Exit codes: 0 every criterion passed; 1 + 8 (overall paths "
               "or loop transitions), 16 "
               "(a function), 32 (untested functions), 64 (new untested or new "
               "residual) per failed criterion; 2 usage error, 3 bad "
               "input data, 4 cannot write the output, 70 internal error.");
  gate->callback([options, flags, &exitCode] {
    exitCode = runGate(*options, *flags);
  });
}

} // namespace pathcov
