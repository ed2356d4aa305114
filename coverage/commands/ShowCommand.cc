#include "ShowCommand.h"

#include "pathcov/core/Checked.h"
#include "pathcov/format/Corpus.h"
#include "ExitCodes.h"
#include "FileFilter.h"
#include "FileIo.h"
#include "PathText.h"
#include "CorpusWriter.h"
#include "Percent.h"

#include "pathcov/format/InputError.h"

#include <CLI/CLI.hpp>

#include <fnmatch.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <sstream>

namespace pathcov {

namespace {

enum class Which { Tested, Untested, All };

struct ShowOptions {
  std::string corpus;
  std::vector<std::string> functions; // fnmatch patterns
  FileFilter files;
  std::vector<uint64_t> paths;
  Which which = Which::Tested;
  bool json = false;
  bool summary = false;
  bool byFunction = false; // --summary: a line per function, not per file

  // --summary's lines are files' (fileSummaryText), not functions'.
  bool summarizesFiles() const { return summary && !byFunction; }
  uint64_t maxPaths = 100;
  bool source = false;                  // each path's source text too
  std::vector<std::string> sourceRoots; // --source-root, in order
  std::string output = "-";
};

// A C++ function's name as people write it: "void YAML::Scanner::Scan(int)"
// is "YAML::Scanner::Scan", without its return type and parameters (a C
// function's name is that already). An operator's symbol may hold any of
// the brackets: its parameters start after it.
std::string writtenName(const std::string &printable) {
  size_t op = printable.find("operator");
  if (op != std::string::npos && op > 0 && printable[op - 1] != ' ' &&
      printable[op - 1] != ':')
    op = std::string::npos;
  size_t end = printable.size();
  if (op != std::string::npos) {
    const size_t symbol = op + 8 + (printable.compare(op + 8, 2, "()") == 0 ? 2 : 0);
    end = std::min(end, printable.find('(', symbol));
  }
  int depth = 0;
  size_t start = 0;
  const size_t scan = op == std::string::npos ? end : op;
  for (size_t i = 0; i < scan; ++i) {
    const char c = printable[i];
    if (c == '<')
      ++depth;
    else if (c == '>' && depth > 0)
      --depth;
    else if (c == ' ' && depth == 0)
      start = i + 1;
    else if (c == '(' && depth == 0 && op == std::string::npos && i > start) {
      end = i;
      break;
    }
  }
  return printable.substr(start, end - start);
}

bool selected(const ShowOptions &options, const FunctionMetadata &f) {
  if (options.functions.empty())
    return true;
  const std::string written = writtenName(f.name);
  const size_t scope = written.rfind("::");
  const std::string unqualified =
      scope == std::string::npos ? written : written.substr(scope + 2);
  for (const std::string &glob : options.functions)
    for (const std::string *name :
         {&f.identity, &f.name, &f.assemblerName, &written, &unqualified})
      if (fnmatch(glob.c_str(), name->c_str(), 0) == 0)
        return true;
  return false;
}

// The ids to show, at most maxPaths of them: the ones asked for that the
// function has (runShow checks that some function has each), else in
// order the paths that ran (tested, or untested but field-observed: a
// field path merge brought in ran as surely as a test's), the untested
// or all.
std::vector<uint64_t> pathIds(const ShowOptions &options,
                              const CorpusFunction &f,
                              const std::map<uint64_t, uint64_t> *fieldRuns,
                              bool &truncated) {
  truncated = false;
  if (!options.paths.empty()) {
    std::vector<uint64_t> ids;
    for (uint64_t id : options.paths)
      if (id < f.metadata.numPaths)
        ids.push_back(id);
    return ids;
  }
  std::vector<uint64_t> ids;
  const auto add = [&](uint64_t id) {
    if (ids.size() == options.maxPaths) {
      truncated = true;
      return false;
    }
    ids.push_back(id);
    return true;
  };
  if (options.which == Which::Tested) {
    std::set<uint64_t> ran;
    for (const auto &[id, path] : f.paths)
      ran.insert(id);
    if (fieldRuns)
      for (const auto &[id, runs] : *fieldRuns)
        if (id < f.metadata.numPaths)
          ran.insert(id);
    for (uint64_t id : ran)
      if (!add(id))
        break;
    return ids;
  }
  for (uint64_t id = 0; id < f.metadata.numPaths; ++id)
    if ((options.which == Which::All || !f.paths.count(id)) && !add(id))
      break;
  return ids;
}

// "3 runs; tests: a, b, c and 2 more"
std::string runsText(const TestedPath &path) {
  std::string text =
      std::to_string(path.count) + (path.count == 1 ? " run" : " runs");
  size_t listed = 0;
  for (const std::string &test : path.tests) {
    if (listed == 3) {
      text += " and " + std::to_string(path.tests.size() - listed) + " more";
      break;
    }
    text += (listed++ ? ", " : "; tests: ") + test;
  }
  return text;
}

// "untested; field-observed, 12 runs" for a path merge brought in from
// field reports, "untested" for the others.
std::string untestedText(const std::map<uint64_t, uint64_t> *fieldRuns,
                         uint64_t id) {
  if (fieldRuns) {
    const auto observed = fieldRuns->find(id);
    if (observed != fieldRuns->end())
      return "untested; field-observed, " + std::to_string(observed->second) +
             (observed->second == 1 ? " run" : " runs");
  }
  return "untested";
}

// The windows of several paths to show (k=N), at most maxPaths: with
// --path, those that run any of the ids asked for.
std::vector<const std::pair<const std::vector<uint64_t>, TestedPath> *>
kPathsShown(const ShowOptions &options, const CorpusFunction &f,
            bool &truncated) {
  truncated = false;
  std::vector<const std::pair<const std::vector<uint64_t>, TestedPath> *> shown;
  for (const auto &window : f.kPaths) {
    if (!options.paths.empty() &&
        std::none_of(window.first.begin(), window.first.end(), [&](uint64_t id) {
          return std::count(options.paths.begin(), options.paths.end(), id) > 0;
        }))
      continue;
    if (shown.size() == options.maxPaths) {
      truncated = true;
      break;
    }
    shown.push_back(&window);
  }
  return shown;
}

// "paths 4, 5 (2 runs; tests: a)", then each iteration's path on a line.
void showKPathsText(const ShowOptions &options, const CorpusFunction &f,
                    const NumberedDag &numbered, const SourceFiles &sources,
                    std::ostream &out) {
  if (f.metadata.k <= 1)
    return;
  const FunctionMetadata &m = f.metadata;
  out << "  " << f.kPaths.size() << " windows of up to " << f.metadata.k
      << " paths across iterations (k=" << f.metadata.k << ")";
  if (f.kDropped)
    out << " (" << f.kDropped << " paths dropped: the runtime's arena was full)";
  out << "\n";
  bool truncated;
  for (const auto *window : kPathsShown(options, f, truncated)) {
    out << "  paths";
    for (size_t i = 0; i < window->first.size(); ++i)
      out << (i ? ", " : " ") << window->first[i];
    out << " (" << runsText(window->second) << "):\n";
    for (size_t i = 0; i < window->first.size(); ++i) {
      const PathDescription p = describePath(m, numbered, window->first[i]);
      out << "    iteration " << i + 1 << ", path " << window->first[i] << ": "
          << pathText(m, p) << "\n";
      if (options.source)
        out << pathSourceText(m, p, sources, "      ");
    }
  }
  if (truncated)
    out << "  ... (more than " << options.maxPaths
        << " windows; see --max-paths)\n";
}

void showText(const ShowOptions &options, const Corpus &corpus,
              const CorpusFunction &f, const FieldRuns &field,
              const SourceFiles &sources, std::ostream &out) {
  if (options.summarizesFiles())
    return; // the files' lines come after
  const FunctionMetadata &m = f.metadata;
  out << functionHeading(corpus, m) << ": ";
  if (!m.skipped.empty()) {
    out << "not instrumented: " << m.skipped << "\n";
    return;
  }
  out << f.paths.size() << " of " << m.numPaths << " paths tested ("
      << percentText(f.paths.size(), m.numPaths) << "), " << f.calls << " calls";
  if (f.interrupted)
    out << ", " << f.interrupted
        << " interrupted (exception, longjmp, nonlocal goto or exit)";
  const std::map<uint64_t, uint64_t> *fieldRuns = fieldRunsOf(field, f);
  if (const uint64_t residual = untestedFieldPaths(f, fieldRuns))
    out << ", " << residual << " untested but field-observed";
  if (f.invalidIds || f.dropped)
    out << ", " << f.invalidIds << " invalid ids, " << f.dropped
        << " paths dropped";
  out << "\n";
  if (options.summary)
    return;
  bool truncated;
  const NumberedDag numbered = m.number();
  for (uint64_t id : pathIds(options, f, fieldRuns, truncated)) {
    const PathDescription p = describePath(m, numbered, id);
    const auto tested = f.paths.find(id);
    out << "  path " << id << " ("
        << (tested == f.paths.end() ? untestedText(fieldRuns, id)
                                    : runsText(tested->second))
        << "): " << pathText(m, p) << "\n";
    if (options.source)
      out << pathSourceText(m, p, sources, "    ");
  }
  if (truncated)
    out << "  ... (more than " << options.maxPaths << "; see --max-paths)\n";
  showKPathsText(options, f, numbered, sources, out);
}

nlohmann::json showJson(const ShowOptions &options, const CorpusFunction &f,
                        const FieldRuns &field) {
  const FunctionMetadata &m = f.metadata;
  nlohmann::json j{{"identity", m.identity}, {"name", m.name},
                   {"file", m.file},         {"line", m.line}};
  if (!m.skipped.empty()) {
    j["skipped"] = m.skipped;
    return j;
  }
  bool truncated;
  const NumberedDag numbered = m.number();
  const std::map<uint64_t, uint64_t> *fieldRuns = fieldRunsOf(field, f);
  nlohmann::json paths = nlohmann::json::array();
  for (uint64_t id : pathIds(options, f, fieldRuns, truncated)) {
    nlohmann::json p = toJson(m, describePath(m, numbered, id));
    const auto tested = f.paths.find(id);
    p["count"] = tested == f.paths.end() ? 0 : tested->second.count;
    p["tests"] = tested == f.paths.end() ? std::set<std::string>{}
                                         : tested->second.tests;
    if (fieldRuns && fieldRuns->count(id))
      p["field_runs"] = fieldRuns->at(id);
    paths.push_back(std::move(p));
  }
  j["num_paths"] = m.numPaths;
  j["tested_paths"] = f.paths.size();
  addFunctionCounts(j, f);
  j["paths"] = std::move(paths);
  j["truncated"] = truncated;
  if (f.metadata.k > 1) {
    j["k"] = f.metadata.k;
    j["k_dropped"] = f.kDropped;
    nlohmann::json windows = nlohmann::json::array();
    for (const auto *window : kPathsShown(options, f, truncated))
      windows.push_back({{"ids", window->first},
                         {"count", window->second.count},
                         {"tests", window->second.tests}});
    j["k_paths"] = std::move(windows);
    j["k_truncated"] = truncated;
  }
  return j;
}

// gcovr's TOTAL line: the selected functions' paths added up. Functions
// with more paths than gate's default bound are counted apart, as gate
// does: jq's jvp_strtod (1.4e16 paths) made every ratio 0.0%.
struct ShowTotals {
  uint64_t functions = 0;
  uint64_t skipped = 0;
  uint64_t paths = 0; // within the bound
  uint64_t tested = 0;
  uint64_t fieldObserved = 0;
  // The functions above the bound, their paths (saturated) and tested ones.
  uint64_t aboveBound = 0, pathsAbove = 0, testedAbove = 0;
};

void addToTotals(ShowTotals &totals, const CorpusFunction &f,
                 const FieldRuns &field) {
  ++totals.functions;
  if (!f.metadata.skipped.empty()) {
    ++totals.skipped;
    return;
  }
  if (f.metadata.numPaths > kDefaultPathBound) {
    ++totals.aboveBound;
    totals.pathsAbove = saturatingAdd(totals.pathsAbove, f.metadata.numPaths);
    totals.testedAbove += f.paths.size();
  } else {
    totals.paths += f.metadata.numPaths;
    totals.tested += f.paths.size();
  }
  totals.fieldObserved += untestedFieldPaths(f, fieldRunsOf(field, f));
}

// "1 function above the path bound of 1000 (5 of 2048 paths tested), not
// in the ratio"
std::string aboveBoundText(const ShowTotals &t) {
  return std::to_string(t.aboveBound) +
         (t.aboveBound == 1 ? " function" : " functions") +
         " above the path bound of " + std::to_string(kDefaultPathBound) +
         " (" + std::to_string(t.testedAbove) + " of " +
         std::to_string(t.pathsAbove) + " paths tested), not in the ratio";
}

// The ratio within the path bound; "-" where no path is within it (a file
// whose functions are all above it): nothing to be a percentage of.
std::string coverText(const ShowTotals &t) {
  return t.paths ? percentText(t.tested, t.paths) : "-";
}

// --summary: a line per file (as gcovr's and llvm-cov report's are), the
// files in order, then TOTAL. A large project has thousands of functions.
std::string fileSummaryText(const std::map<std::string, ShowTotals> &files) {
  size_t width = 4;
  for (const auto &[file, totals] : files)
    width = std::max(width, file.size());
  std::ostringstream out;
  const auto row = [&](const std::string &file, const std::string &functions,
                       const std::string &paths, const std::string &tested,
                       const std::string &cover) {
    out << file << std::string(width - file.size() + 2, ' ');
    for (const std::string *column : {&functions, &paths, &tested})
      out << std::string(column->size() < 10 ? 10 - column->size() : 1, ' ')
          << *column;
    out << std::string(cover.size() < 8 ? 8 - cover.size() : 1, ' ') << cover;
  };
  row("FILE", "FUNCTIONS", "PATHS", "TESTED", "COVER");
  out << "\n";
  for (const auto &[file, t] : files) {
    row(file, std::to_string(t.functions), std::to_string(t.paths),
        std::to_string(t.tested), coverText(t));
    if (t.aboveBound)
      out << "  (" << t.aboveBound << " of them above the path bound: "
          << t.testedAbove << " of " << t.pathsAbove
          << " paths tested, not in the ratio)";
    if (t.skipped)
      out << "  (" << t.skipped << " not instrumented)";
    if (t.fieldObserved)
      out << "  (" << t.fieldObserved << " untested but field-observed)";
    out << "\n";
  }
  return out.str();
}

std::string totalText(const ShowTotals &t) {
  std::string text = "TOTAL: " + std::to_string(t.tested) + " of " +
                     std::to_string(t.paths) + " paths tested (" +
                     coverText(t) + ") in " + countOf(t.functions, "function");
  if (t.skipped)
    text += " (" + std::to_string(t.skipped) + " not instrumented)";
  if (t.aboveBound)
    text += "; " + aboveBoundText(t);
  if (t.fieldObserved)
    text += "; " + std::to_string(t.fieldObserved) +
            " untested but field-observed";
  return text + "\n";
}

bool hasPath(const CorpusFunction &f, uint64_t id) {
  return f.metadata.skipped.empty() && id < f.metadata.numPaths;
}

// The functions to show: those selected by --function and, with --path,
// having one of the ids. Every pattern and id asked for must find
// something: an empty answer to a mistyped name would read as "nothing to
// show".
std::vector<const CorpusFunction *> functionsToShow(const ShowOptions &options,
                                                    const Corpus &corpus) {
  std::vector<const CorpusFunction *> shown;
  for (const CorpusFunction *f : inSourceOrder(corpus))
    if (selected(options, f->metadata))
      shown.push_back(f);
  if (shown.empty() && !options.functions.empty())
    throw UsageError("no function matches --function " + options.functions[0] +
                     (options.functions.size() > 1 ? " (or the others)" : ""));
  if (options.paths.empty())
    return shown;
  for (uint64_t id : options.paths)
    if (std::none_of(shown.begin(), shown.end(),
                     [id](const CorpusFunction *f) { return hasPath(*f, id); }))
      throw UsageError("--path " + std::to_string(id) +
                       ": no selected function has such a path");
  shown.erase(std::remove_if(shown.begin(), shown.end(),
                             [&](const CorpusFunction *f) {
                               return std::none_of(
                                   options.paths.begin(), options.paths.end(),
                                   [f](uint64_t id) { return hasPath(*f, id); });
                             }),
              shown.end());
  return shown;
}

int runShow(const ShowOptions &options) {
  std::ostringstream text;
  nlohmann::json functions = nlohmann::json::array();
  try {
    // The file is named once, by reportError below.
    Corpus corpus = readCorpus(readJson(options.corpus));
    keepWantedFiles(corpus, options.files, "show");
    const FieldRuns field = fieldRunsByFunction(corpus);
    const SourceFiles sources(options.sourceRoots);
    ShowTotals totals;
    const bool byFile = options.summarizesFiles() && !options.json;
    std::map<std::string, ShowTotals> files; // with byFile
    for (const CorpusFunction *f : functionsToShow(options, corpus)) {
      if (options.json)
        functions.push_back(showJson(options, *f, field));
      else
        showText(options, corpus, *f, field, sources, text);
      addToTotals(totals, *f, field);
      if (byFile)
        addToTotals(files[f->metadata.file], *f, field);
    }
    if (byFile)
      text << fileSummaryText(files);
    if (options.summary && !options.json) {
      text << totalText(totals);
      // Not in the totals above, which count the corpus's functions only.
      const SetAsideSummary setAside = summarizeSetAside(corpus);
      if (setAside.paths)
        text << "field: " << setAsideText(setAside) << "\n";
    }
    sources.reportUnread("show");
  } catch (const InputError &e) {
    return reportError("show", displayName(options.corpus), e.what(),
                       kExitBadInput);
  } catch (const UsageError &e) {
    std::cerr << "pathcov show: " << e.what() << '\n';
    return kExitUsage;
  }
  if (!options.json)
    return writeOutput("show", options.output, text.str());
  const nlohmann::json doc{{"format", "pathcov-show"},
                           {"format_version", "1.0"},
                           {"functions", std::move(functions)}};
  return writeOutput("show", options.output, doc.dump(1) + "\n");
}

} // namespace

void addShowCommand(CLI::App &app, int &exitCode) {
  const auto options = std::make_shared<ShowOptions>();
  CLI::App *show = app.add_subcommand(
      "show", "Show a corpus's paths as source lines with branch outcomes");
  show->add_option("CORPUS", options->corpus, "A corpus from pathcov collect")
      ->required();
  show->add_option("-f,--function", options->functions,
                   "Only functions whose identity, name (with or without "
                   "its scope, return type and parameters) or assembler "
                   "name matches this fnmatch(3) pattern; repeatable");
  show->add_option("-p,--path", options->paths,
                   "Show these Ball-Larus path ids; repeatable");
  auto *untested = show->add_flag_callback(
      "--untested", [options] { options->which = Which::Untested; },
      "Show the paths the tests did not run (default: those that ran, "
      "tested or, after pathcov merge, field-observed)");
  show->add_flag_callback(
          "--all", [options] { options->which = Which::All; },
          "Show every path")
      ->excludes(untested);
  show->add_option("--max-paths", options->maxPaths,
                   "At most this many paths per function")
      ->capture_default_str();
  auto *summary = show->add_flag("--summary", options->summary,
                 "No paths: each file's totals and a TOTAL line (text "
                 "output)");
  show->add_flag("--by-function", options->byFunction,
                 "With --summary: each function's totals, not each file's")
      ->needs(summary);
  addFileFilterOptions(*show, options->files);
  addSourceOptions(*show, options->source, options->sourceRoots,
                   "the corpus's source_root");
  show->add_flag("--json", options->json, "JSON output");
  show->add_option("-o,--output", options->output,
                   "Write here; - is standard output")
      ->capture_default_str();
  show->callback([options, &exitCode] { exitCode = runShow(*options); });
}

} // namespace pathcov
