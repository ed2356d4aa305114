#include "ShowCommand.h"

#include "pathcov/format/Corpus.h"
#include "ExitCodes.h"
#include "FileIo.h"
#include "PathText.h"

#include "pathcov/format/InputError.h"

#include <CLI/CLI.hpp>

#include <fnmatch.h>

#include <memory>
#include <sstream>

namespace pathcov {

namespace {

enum class Which { Tested, Untested, All };

// A command line that asks for something the corpus does not have.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct ShowOptions {
  std::string corpus;
  std::vector<std::string> functions; // fnmatch patterns
  std::vector<uint64_t> paths;
  Which which = Which::Tested;
  bool json = false;
  bool summary = false;
  uint64_t maxPaths = 100;
  std::string output = "-";
};

bool selected(const ShowOptions &options, const FunctionMetadata &f) {
  if (options.functions.empty())
    return true;
  for (const std::string &glob : options.functions)
    for (const std::string *name : {&f.identity, &f.name, &f.assemblerName})
      if (fnmatch(glob.c_str(), name->c_str(), 0) == 0)
        return true;
  return false;
}

// The ids to show, at most maxPaths of them: the ones asked for, else the
// tested, untested or all ids in order.
std::vector<uint64_t> pathIds(const ShowOptions &options,
                              const CorpusFunction &f, bool &truncated) {
  truncated = false;
  if (!options.paths.empty()) {
    for (uint64_t id : options.paths)
      if (id >= f.metadata.numPaths)
        throw UsageError("--path " + std::to_string(id) + ": function " +
                         f.metadata.name + " has " +
                         std::to_string(f.metadata.numPaths) + " paths");
    return options.paths;
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
    for (const auto &[id, path] : f.paths)
      if (!add(id))
        break;
    return ids;
  }
  for (uint64_t id = 0; id < f.metadata.numPaths; ++id)
    if ((options.which == Which::All || !f.paths.count(id)) && !add(id))
      break;
  return ids;
}

std::string percent(uint64_t part, uint64_t whole) {
  std::ostringstream os;
  os.precision(1);
  os << std::fixed << (whole ? 100.0 * part / whole : 0.0) << "%";
  return os.str();
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

void showText(const ShowOptions &options, const CorpusFunction &f,
              std::ostream &out) {
  const FunctionMetadata &m = f.metadata;
  out << m.file << ":" << m.line << " " << m.name << ": ";
  if (!m.skipped.empty()) {
    out << "not instrumented: " << m.skipped << "\n";
    return;
  }
  out << f.paths.size() << " of " << m.numPaths << " paths tested ("
      << percent(f.paths.size(), m.numPaths) << "), " << f.calls << " calls";
  if (f.interrupted)
    out << ", " << f.interrupted
        << " interrupted (exception, longjmp, nonlocal goto or exit)";
  if (f.invalidIds || f.dropped)
    out << ", " << f.invalidIds << " invalid ids, " << f.dropped
        << " paths dropped";
  out << "\n";
  if (options.summary)
    return;
  bool truncated;
  const NumberedDag numbered = m.number();
  for (uint64_t id : pathIds(options, f, truncated)) {
    const PathDescription p = describePath(m, numbered, id);
    const auto tested = f.paths.find(id);
    out << "  path " << id << " ("
        << (tested == f.paths.end() ? "untested" : runsText(tested->second))
        << "): " << pathLinesText(m, p);
    if (p.start != "entry" || p.end != "return")
      out << "  [" << p.start << " -> " << p.end << "]";
    out << "\n";
  }
  if (truncated)
    out << "  ... (more than " << options.maxPaths << "; see --max-paths)\n";
}

nlohmann::json showJson(const ShowOptions &options, const CorpusFunction &f) {
  const FunctionMetadata &m = f.metadata;
  nlohmann::json j{{"identity", m.identity}, {"name", m.name},
                   {"file", m.file},         {"line", m.line}};
  if (!m.skipped.empty()) {
    j["skipped"] = m.skipped;
    return j;
  }
  bool truncated;
  const NumberedDag numbered = m.number();
  nlohmann::json paths = nlohmann::json::array();
  for (uint64_t id : pathIds(options, f, truncated)) {
    nlohmann::json p = toJson(m, describePath(m, numbered, id));
    const auto tested = f.paths.find(id);
    p["count"] = tested == f.paths.end() ? 0 : tested->second.count;
    p["tests"] = tested == f.paths.end() ? std::set<std::string>{}
                                         : tested->second.tests;
    paths.push_back(std::move(p));
  }
  j["num_paths"] = m.numPaths;
  j["tested_paths"] = f.paths.size();
  j["calls"] = f.calls;
  j["resumes"] = f.resumes;
  j["interrupted"] = f.interrupted;
  j["invalid_ids"] = f.invalidIds;
  j["dropped"] = f.dropped;
  j["paths"] = std::move(paths);
  j["truncated"] = truncated;
  return j;
}

int runShow(const ShowOptions &options) {
  std::ostringstream text;
  nlohmann::json functions = nlohmann::json::array();
  try {
    // The file is named once, by reportError below.
    const Corpus corpus = readCorpus(readJson(options.corpus));
    for (const CorpusFunction *f : inSourceOrder(corpus)) {
      if (!selected(options, f->metadata))
        continue;
      if (options.json)
        functions.push_back(showJson(options, *f));
      else
        showText(options, *f, text);
    }
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
                   "Only functions whose identity, name or assembler name "
                   "matches this fnmatch(3) pattern; repeatable");
  show->add_option("-p,--path", options->paths,
                   "Show these Ball-Larus path ids; repeatable");
  auto *untested = show->add_flag_callback(
      "--untested", [options] { options->which = Which::Untested; },
      "Show the paths the tests did not run (default: the tested ones)");
  show->add_flag_callback(
          "--all", [options] { options->which = Which::All; },
          "Show every path")
      ->excludes(untested);
  show->add_option("--max-paths", options->maxPaths,
                   "At most this many paths per function")
      ->capture_default_str();
  show->add_flag("--summary", options->summary,
                 "Only each function's totals, no paths (text output)");
  show->add_flag("--json", options->json, "JSON output");
  show->add_option("-o,--output", options->output,
                   "Write here; - is standard output")
      ->capture_default_str();
  show->callback([options, &exitCode] { exitCode = runShow(*options); });
}

} // namespace pathcov
