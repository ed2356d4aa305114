#include "ReportCommand.h"

#include "Markup.h"

#include "ExitCodes.h"
#include "FileIo.h"
#include "HtmlReport.h"
#include "PathText.h"
#include "Projections.h"

#include "pathcov/format/Corpus.h"
#include "pathcov/format/InputError.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

namespace pathcov {

namespace {

struct ReportOptions {
  std::string format;
  std::string corpus;
  std::string output = "-";
  std::string branches = "paths";      // cobertura, sonarqube: or outcomes
  std::string title = "Path coverage"; // html
  std::string command;                 // html: the command line, quoted
  uint64_t maxResults = 1000;
  uint64_t maxFunctionPaths = 64;
  std::vector<std::string> sourceRoots; // --source-root, in order
};

// When the report was made: SOURCE_DATE_EPOCH if set, as reproducible
// builds ask (reproducible-builds.org/specs/source-date-epoch), else now;
// none if the variable is not a number of seconds.
std::optional<std::time_t> reportTime() {
  const char *epoch = std::getenv("SOURCE_DATE_EPOCH");
  if (!epoch || !*epoch)
    return std::time(nullptr);
  uint64_t seconds = 0;
  for (const char *c = epoch; *c; ++c)
    if (!std::isdigit(static_cast<unsigned char>(*c)) ||
        __builtin_mul_overflow(seconds, 10, &seconds) ||
        __builtin_add_overflow(seconds, uint64_t(*c - '0'), &seconds) ||
        seconds > uint64_t(INT64_MAX))
      return std::nullopt;
  return static_cast<std::time_t>(seconds);
}

std::string utcText(std::time_t when) {
  std::tm tm{};
  char text[64];
  if (!gmtime_r(&when, &tm) ||
      !std::strftime(text, sizeof text, "%Y-%m-%d %H:%M UTC", &tm))
    return std::to_string(when) + " s since 1970";
  return text;
}

// Java readers (Cobertura plugins, SonarQube) keep these counts in an int.
constexpr uint64_t kMaxJavaInt = 2147483647;

uint64_t capped(uint64_t n) { return std::min(n, kMaxJavaInt); }


std::string rate(uint64_t part, uint64_t whole) {
  std::ostringstream os;
  os.precision(4);
  os << std::fixed << (whole ? static_cast<double>(part) / whole : 1.0);
  return os.str();
}

std::string lcovName(const FunctionMetadata &m) {
  std::string name = m.assemblerName.empty() ? m.name : m.assemblerName;
  // lcov splits FN records at commas.
  std::replace(name.begin(), name.end(), ',', '_');
  return name;
}

// ---------------------------------------------------------------- LCOV

// SF names a file genhtml can read: where the sources are found.
std::string lcov(const CorpusProjection &p, const SourceFiles &sources) {
  std::ostringstream out;
  for (const auto &[name, file] : p.files) {
    out << "TN:\nSF:" << sources.locate(name, file.sourceRoot) << "\n";
    uint64_t fnHit = 0;
    for (const FunctionProjection *f : file.functions)
      out << "FN:" << f->function->metadata.line << ","
          << lcovName(f->function->metadata) << "\n";
    for (const FunctionProjection *f : file.functions) {
      out << "FNDA:" << f->function->calls << ","
          << lcovName(f->function->metadata) << "\n";
      fnHit += f->function->calls > 0;
    }
    out << "FNF:" << file.functions.size() << "\nFNH:" << fnHit << "\n";
    uint64_t brHit = 0;
    for (const BranchProjection *b : file.branches) {
      out << "BRDA:" << b->line.second << "," << b->block << "," << b->index
          << ",";
      if (b->blockRan)
        out << b->taken;
      else
        out << "-";
      out << "\n";
      brHit += b->taken > 0;
    }
    out << "BRF:" << file.branches.size() << "\nBRH:" << brHit << "\n";
    uint64_t lineHit = 0;
    for (const auto &[line, count] : file.lines) {
      out << "DA:" << line << "," << count << "\n";
      lineHit += count > 0;
    }
    out << "LF:" << file.lines.size() << "\nLH:" << lineHit
        << "\nend_of_record\n";
  }
  return out.str();
}

// ------------------------------------------------------- gcovr JSON
// gcovr reads no LCOV; its own JSON tracefiles (format 0.3, what Debian's
// gcovr 5.2 writes) it combines with -a/--add-tracefile. The same
// projection as LCOV: line counts, and a branch list per deciding line.
nlohmann::json gcovrJson(const CorpusProjection &p) {
  nlohmann::json files = nlohmann::json::array();
  for (const auto &[name, file] : p.files) {
    std::map<int, nlohmann::json> branches;
    for (const BranchProjection *b : file.branches)
      branches[b->line.second].push_back(
          {{"count", b->taken}, {"fallthrough", false}, {"throw", false}});
    nlohmann::json lines = nlohmann::json::array();
    for (const auto &[line, count] : file.lines)
      lines.push_back({{"line_number", line},
                       {"count", count},
                       {"branches", branches.count(line)
                                        ? branches[line]
                                        : nlohmann::json::array()},
                       {"gcovr/excluded", false},
                       {"gcovr/noncode", false}});
    nlohmann::json functions = nlohmann::json::array();
    for (const FunctionProjection *f : file.functions)
      functions.push_back({{"name", f->function->metadata.name},
                           {"lineno", f->function->metadata.line},
                           {"execution_count", f->function->calls}});
    files.push_back({{"file", name}, {"lines", std::move(lines)},
                     {"functions", std::move(functions)}});
  }
  return {{"gcovr/format_version", "0.3"}, {"files", std::move(files)}};
}

// ----------------------------------------------------------- Cobertura

struct Totals {
  uint64_t lines = 0, linesHit = 0, conditions = 0, conditionsHit = 0;
  void add(const Totals &o) {
    lines += o.lines;
    linesHit += o.linesHit;
    conditions += o.conditions;
    conditionsHit += o.conditionsHit;
  }
};

// "k% (covered/total)" with k rounded down: 100% only when all are covered.
// What a decision line's "branches" are, for the XML formats' readers (no
// "--" in an XML comment: no option names).
const char *decisionMeaning(DecisionCount counting) {
  return counting == DecisionCount::Paths
             ? "the paths through a decision line, not its branch outcomes"
             : "the branch outcomes of a decision line, as LCOV's branches";
}

std::string conditionCoverage(const DecisionProjection &d) {
  const uint64_t total = capped(d.paths);
  const uint64_t covered = std::min(d.tested, total);
  return std::to_string(total ? covered * 100 / total : 100) + "% (" +
         std::to_string(covered) + "/" + std::to_string(total) + ")";
}

Totals totalsOf(const std::map<int, uint64_t> &lines,
                const std::map<int, DecisionProjection> &decisions) {
  Totals t;
  for (const auto &[line, count] : lines) {
    ++t.lines;
    t.linesHit += count > 0;
  }
  for (const auto &[line, d] : decisions) {
    t.conditions += capped(d.paths);
    t.conditionsHit += std::min(d.tested, capped(d.paths));
  }
  return t;
}

void coberturaLines(std::ostream &out, const std::string &indent,
                    const std::map<int, uint64_t> &lines,
                    const std::map<int, DecisionProjection> &decisions) {
  out << indent << "<lines>\n";
  for (const auto &[line, count] : lines) {
    out << indent << " <line number=\"" << line << "\" hits=\"" << count
        << "\"";
    const auto d = decisions.find(line);
    if (d == decisions.end())
      out << " branch=\"false\"/>\n";
    else
      out << " branch=\"true\" condition-coverage=\""
          << conditionCoverage(d->second) << "\"/>\n";
  }
  out << indent << "</lines>\n";
}

std::string directoryOf(const std::string &file) {
  const size_t slash = file.rfind('/');
  return slash == std::string::npos ? "" : file.substr(0, slash);
}

// Cobertura's <sources>: the directories its relative file names are
// relative to, the working directory when there are none.
std::string coberturaSources(const CorpusProjection &p, const SourceFiles &sources) {
  std::vector<std::string> recordRoots;
  for (const FunctionProjection &f : p.functions)
    recordRoots.push_back(f.function->metadata.sourceRoot);
  std::vector<std::string> dirs = sources.searchPath(recordRoots);
  if (dirs.empty())
    dirs.push_back(".");
  std::string text = " <sources>\n";
  for (const std::string &dir : dirs)
    text += "  <source>" + escapeMarkup(dir) + "</source>\n";
  return text + " </sources>\n";
}

std::string cobertura(const CorpusProjection &p, const SourceFiles &sources,
                      DecisionCount counting, std::time_t made) {
  // Packages are directories, classes files, as gcovr writes them.
  std::map<std::string, std::vector<const FileProjection *>> packages;
  for (const auto &[name, file] : p.files)
    packages[directoryOf(name)].push_back(&file);
  Totals all;
  std::map<const FileProjection *, Totals> fileTotals;
  std::map<std::string, Totals> packageTotals;
  for (const auto &[package, files] : packages)
    for (const FileProjection *file : files) {
      fileTotals[file] = totalsOf(file->lines, file->decisions);
      packageTotals[package].add(fileTotals[file]);
      all.add(fileTotals[file]);
    }
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<!DOCTYPE coverage SYSTEM "
         "\"http://cobertura.sourceforge.net/xml/coverage-04.dtd\">\n"
      << "<!-- pathcov: path coverage projected onto lines; "
         "condition-coverage counts "
      << decisionMeaning(counting) << " (docs/report.md) -->\n"
      << "<coverage line-rate=\"" << rate(all.linesHit, all.lines)
      << "\" branch-rate=\"" << rate(all.conditionsHit, all.conditions)
      << "\" lines-covered=\"" << all.linesHit << "\" lines-valid=\""
      << all.lines << "\" branches-covered=\"" << all.conditionsHit
      << "\" branches-valid=\"" << all.conditions
      << "\" complexity=\"0\" version=\"pathcov " PATHCOV_VERSION
         "\" timestamp=\""
      << made << "\">\n"
      << coberturaSources(p, sources) << " <packages>\n";
  for (const auto &[package, files] : packages) {
    const Totals &t = packageTotals[package];
    out << "  <package name=\"" << escapeMarkup(package.empty() ? "." : package)
        << "\" line-rate=\"" << rate(t.linesHit, t.lines)
        << "\" branch-rate=\"" << rate(t.conditionsHit, t.conditions)
        << "\" complexity=\"0\">\n   <classes>\n";
    for (const FileProjection *file : files) {
      const Totals &ft = fileTotals[file];
      out << "    <class name=\"" << escapeMarkup(file->file) << "\" filename=\""
          << escapeMarkup(file->file) << "\" line-rate=\""
          << rate(ft.linesHit, ft.lines) << "\" branch-rate=\""
          << rate(ft.conditionsHit, ft.conditions)
          << "\" complexity=\"0\">\n     <methods>\n";
      for (const FunctionProjection *f : file->functions) {
        std::map<int, uint64_t> lines;
        std::map<int, DecisionProjection> decisions;
        for (const auto &[line, count] : f->lines)
          if (line.first == file->file)
            lines[line.second] = count;
        for (const auto &[line, d] : f->decisions)
          if (line.first == file->file)
            decisions[line.second] = d;
        const Totals mt = totalsOf(lines, decisions);
        out << "      <method name=\"" << escapeMarkup(f->function->metadata.name)
            << "\" signature=\"\" line-rate=\""
            << rate(mt.linesHit, mt.lines) << "\" branch-rate=\""
            << rate(mt.conditionsHit, mt.conditions)
            << "\" complexity=\"0\">\n";
        coberturaLines(out, "       ", lines, decisions);
        out << "      </method>\n";
      }
      out << "     </methods>\n";
      coberturaLines(out, "     ", file->lines, file->decisions);
      out << "    </class>\n";
    }
    out << "   </classes>\n  </package>\n";
  }
  out << " </packages>\n</coverage>\n";
  return out.str();
}

// ----------------------------------------------------------- SonarQube

std::string sonarqube(const CorpusProjection &p, DecisionCount counting) {
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<!-- pathcov: path coverage projected onto lines; branchesToCover "
         "counts "
      << decisionMeaning(counting) << " (docs/report.md) -->\n"
      << "<coverage version=\"1\">\n";
  for (const auto &[name, file] : p.files) {
    if (file.lines.empty())
      continue;
    out << " <file path=\"" << escapeMarkup(name) << "\">\n";
    for (const auto &[line, count] : file.lines) {
      out << "  <lineToCover lineNumber=\"" << line << "\" covered=\""
          << (count > 0 ? "true" : "false") << "\"";
      const auto d = file.decisions.find(line);
      if (d != file.decisions.end() && d->second.paths > 0) {
        const uint64_t total = capped(d->second.paths);
        out << " branchesToCover=\"" << total << "\" coveredBranches=\""
            << std::min(d->second.tested, total) << "\"";
      }
      out << "/>\n";
    }
    out << " </file>\n";
  }
  out << "</coverage>\n";
  return out.str();
}

// --------------------------------------------------------------- JSON

nlohmann::json summary(const CorpusProjection &p) {
  nlohmann::json files = nlohmann::json::array();
  uint64_t numPaths = 0, tested = 0, lines = 0, linesHit = 0;
  uint64_t functionsTotal = 0;
  for (const auto &[name, file] : p.files) {
    nlohmann::json functions = nlohmann::json::array();
    uint64_t fileNumPaths = 0, fileTested = 0, fileLinesHit = 0;
    for (const FunctionProjection *f : file.functions) {
      const CorpusFunction &c = *f->function;
      uint64_t hit = 0;
      for (const auto &[line, count] : f->lines)
        hit += count > 0;
      functions.push_back({{"identity", c.metadata.identity},
                           {"name", c.metadata.name},
                           {"line", c.metadata.line},
                           {"checksum", c.metadata.checksum},
                           {"num_paths", c.metadata.numPaths},
                           {"tested_paths", c.paths.size()},
                           {"calls", c.calls},
                           {"interrupted", c.interrupted},
                           {"lines", f->lines.size()},
                           {"lines_hit", hit}});
      fileNumPaths += c.metadata.numPaths;
      fileTested += c.paths.size();
    }
    for (const auto &[line, count] : file.lines)
      fileLinesHit += count > 0;
    files.push_back({{"file", name},
                     {"num_paths", fileNumPaths},
                     {"tested_paths", fileTested},
                     {"lines", file.lines.size()},
                     {"lines_hit", fileLinesHit},
                     {"functions", std::move(functions)}});
    numPaths += fileNumPaths;
    tested += fileTested;
    lines += file.lines.size();
    linesHit += fileLinesHit;
    functionsTotal += file.functions.size();
  }
  nlohmann::json skipped = nlohmann::json::array();
  for (const CorpusFunction *f : p.skipped)
    skipped.push_back({{"identity", f->metadata.identity},
                       {"file", f->metadata.file},
                       {"line", f->metadata.line},
                       {"skipped", f->metadata.skipped}});
  return {{"format", "pathcov-summary"},
          {"format_version", "1.0"},
          {"totals",
           {{"functions", functionsTotal},
            {"num_paths", numPaths},
            {"tested_paths", tested},
            {"lines", lines},
            {"lines_hit", linesHit}}},
          {"files", std::move(files)},
          {"not_instrumented", std::move(skipped)}};
}

// -------------------------------------------------------------- SARIF

// Stable across runs, machines and pathcov versions (Fnv1a.h).
std::string fingerprint(const FunctionMetadata &m, uint64_t id) {
  return hex64(
      fnv1a64(m.identity + '\n' + m.checksum + '\n' + std::to_string(id)));
}

// A file name as a URI reference: absolute names become file:// URIs,
// relative ones stay relative (to the directory the build ran in).
std::string uriOf(const std::string &file) {
  static const char *hex = "0123456789ABCDEF";
  std::string uri = !file.empty() && file[0] == '/' ? "file://" : "";
  for (unsigned char c : file) {
    if (isalnum(c) || std::strchr("-._~/!$&'()*+,;=:@", c))
      uri += static_cast<char>(c);
    else {
      uri += '%';
      uri += hex[c >> 4];
      uri += hex[c & 15];
    }
  }
  return uri;
}

nlohmann::json location(const std::string &file, int line,
                        const std::string &message = "") {
  nlohmann::json l{
      {"physicalLocation",
       {{"artifactLocation", {{"uri", uriOf(file)}}},
        {"region", {{"startLine", line}}}}}};
  if (!message.empty())
    l["message"] = {{"text", message}};
  return l;
}

nlohmann::json sarifResult(const CorpusFunction &f, const NumberedDag &numbered,
                           uint64_t id, bool residual, uint64_t fieldCount) {
  const FunctionMetadata &m = f.metadata;
  const PathDescription p = describePath(m, numbered, id);
  nlohmann::json flow = nlohmann::json::array();
  int firstLine = m.line;
  std::string firstFile = m.file;
  for (const PathStep &step : p.steps) {
    const SourceBlock &source = m.blocks[step.block];
    const std::string &file = source.file.empty() ? m.file : source.file;
    for (size_t i = 0; i < source.lines.size(); ++i) {
      const bool decides = i + 1 == source.lines.size() && !step.exit.empty();
      if (flow.empty()) {
        firstLine = source.lines[i];
        firstFile = file;
      }
      flow.push_back(
          {{"location",
            location(file, source.lines[i], decides ? step.exit : "")}});
    }
  }
  const std::string text =
      (residual ? "Path " + std::to_string(id) + " of " + m.name +
                      " ran in the field" +
                      (fieldCount ? " (" + std::to_string(fieldCount) +
                                        " runs)"
                                  : "") +
                      " but never in the tests: "
                : "Path " + std::to_string(id) + " of " + m.name +
                      " is never run by the tests: ") +
      pathText(m, p);
  return {{"ruleId", residual ? "pathcov/residual-path" : "pathcov/untested-path"},
          {"level", residual ? "warning" : "note"},
          {"message", {{"text", text}}},
          {"locations", {location(firstFile, firstLine)}},
          {"codeFlows",
           {{{"threadFlows", {{{"locations", std::move(flow)}}}}}}},
          {"partialFingerprints", {{"pathcov/v1", fingerprint(m, id)}}},
          {"properties",
           {{"identity", m.identity},
            {"checksum", m.checksum},
            {"path_id", id},
            {"num_paths", m.numPaths}}}};
}

nlohmann::json sarif(const ReportOptions &options, const Corpus &corpus,
                     const FieldRuns &field) {
  const bool residual = !field.empty();
  nlohmann::json results = nlohmann::json::array();
  bool truncated = false;
  for (const CorpusFunction *f : inSourceOrder(corpus)) {
    const FunctionMetadata &m = f->metadata;
    if (!m.skipped.empty())
      continue;
    std::vector<std::pair<uint64_t, uint64_t>> ids; // id, field count
    if (residual) {
      const auto found = field.find(keyOf(m));
      if (found == field.end())
        continue;
      for (const auto &[id, count] : found->second)
        if (!f->paths.count(id))
          ids.emplace_back(id, count);
    } else {
      if (f->calls == 0 || m.numPaths > options.maxFunctionPaths)
        continue;
      for (uint64_t id = 0; id < m.numPaths; ++id)
        if (!f->paths.count(id))
          ids.emplace_back(id, 0);
    }
    if (ids.empty())
      continue;
    const NumberedDag numbered = m.number();
    for (const auto &[id, count] : ids) {
      if (results.size() == options.maxResults) {
        truncated = true;
        break;
      }
      results.push_back(sarifResult(*f, numbered, id, residual, count));
    }
    if (truncated)
      break;
  }
  const nlohmann::json rules = nlohmann::json::array(
      {{{"id", "pathcov/residual-path"},
        {"name", "ResidualPath"},
        {"shortDescription",
         {{"text", "A path that ran in the field but never in the tests"}}},
        {"defaultConfiguration", {{"level", "warning"}}}},
       {{"id", "pathcov/untested-path"},
        {"name", "UntestedPath"},
        {"shortDescription",
         {{"text", "A path of a tested function that no test runs"}}},
        {"defaultConfiguration", {{"level", "note"}}}}});
  return {
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs",
       {{{"tool",
          {{"driver",
            {{"name", "pathcov"},
             {"version", PATHCOV_VERSION},
             {"informationUri", "https://github.com/pathcov/pathcov"},
             {"rules", rules}}}}},
         {"results", std::move(results)},
         {"properties",
          {{"mode", residual ? "residual" : "untested"},
           {"truncated", truncated},
           {"max_results", options.maxResults}}}}}}};
}

// ---------------------------------------------------------------------

int runReport(const ReportOptions &options) {
  if (options.format == "html" && options.output == "-") {
    std::cerr << "pathcov report: --format html needs -o DIR\n";
    return kExitUsage;
  }
  const std::optional<std::time_t> made = reportTime();
  if (!made) {
    std::cerr << "pathcov report: SOURCE_DATE_EPOCH=" << std::getenv("SOURCE_DATE_EPOCH")
              << " is not a number of seconds since 1970\n";
    return kExitUsage;
  }
  std::string text;
  try {
    const nlohmann::json doc = readJson(options.corpus);
    const Corpus corpus = readCorpus(doc);
    const SourceFiles sources(options.sourceRoots);
    if (options.format == "html") {
      HtmlOptions html;
      html.sources = sources;
      html.title = options.title;
      html.date = utcText(*made);
      html.command = options.command;
      return writeHtmlReport(corpus, projectCorpus(corpus), fieldRunsByFunction(corpus),
                             options.output, html);
    }
    if (options.format == "sarif") {
      text = sarif(options, corpus, fieldRunsByFunction(corpus)).dump(1) + "\n";
    } else {
      const DecisionCount counting = options.branches == "outcomes"
                                         ? DecisionCount::Outcomes
                                         : DecisionCount::Paths;
      const CorpusProjection projection = projectCorpus(corpus, counting);
      if (options.format == "lcov")
        text = lcov(projection, sources);
      else if (options.format == "gcovr")
        text = gcovrJson(projection).dump(1) + "\n";
      else if (options.format == "cobertura")
        text = cobertura(projection, sources, counting, *made);
      else if (options.format == "sonarqube")
        text = sonarqube(projection, counting);
      else
        text = summary(projection).dump(1) + "\n";
    }
  } catch (const InputError &e) {
    return reportError("report", displayName(options.corpus), e.what(),
                       kExitBadInput);
  }
  return writeOutput("report", options.output, text);
}

constexpr const char *kReportHelp =
    "Formats: lcov, gcovr (gcovr's JSON tracefile, for gcovr -a), cobertura "
    "and sonarqube are PROJECTIONS of path coverage "
    "onto lines and branches, for dashboards that know nothing else. A "
    "line's count is the largest count of its blocks, a block's count the "
    "runs of tested paths through it; an LCOV branch (BRDA) counts the runs "
    "of tested paths that take that edge; Cobertura condition-coverage and "
    "SonarQube branchesToCover/coveredBranches count, on a line that "
    "decides a branch, the paths through the line (tested/all, capped at "
    "2^31-1). What they lose: a path is a sequence, and lines and branches "
    "cannot tell which combination of them ran, so 100% line and branch "
    "coverage can hide untested paths. sarif: one result per residual path "
    "(field-observed, never tested) when the corpus has field_paths, else "
    "one per untested path of called functions with at most "
    "--max-function-paths paths. json: a pathcov-summary of tested and total "
    "paths per file and function. html: a directory (-o DIR) with "
    "index.html and a page per source file: each function's tested, untested "
    "and field-observed paths over the source, and its CFG. See "
    "docs/report.md.";

} // namespace

void addReportCommand(CLI::App &app, int &exitCode,
                      const std::string &commandLine) {
  const auto options = std::make_shared<ReportOptions>();
  options->command = commandLine;
  CLI::App *report = app.add_subcommand(
      "report", "Project a corpus into LCOV, Cobertura, SonarQube, SARIF, "
                "a JSON summary or an HTML report");
  report->add_option("--format", options->format, "lcov, gcovr, cobertura, "
                     "sonarqube, sarif, json or html")
      ->required()
      ->check(CLI::IsMember(
          {"lcov", "gcovr", "cobertura", "sonarqube", "sarif", "json", "html"}));
  report->add_option("CORPUS", options->corpus,
                     "A corpus from pathcov collect (- for standard input)")
      ->required();
  report->add_option("-o,--output", options->output,
                     "Write here; - is standard output (html: a directory)")
      ->capture_default_str();
  report
      ->add_option("--max-results", options->maxResults,
                   "sarif: at most this many results")
      ->capture_default_str();
  report
      ->add_option("--max-function-paths", options->maxFunctionPaths,
                   "sarif without field_paths: report the untested paths of "
                   "functions with at most this many paths")
      ->capture_default_str();
  report->add_option("--source-root", options->sourceRoots,
                     "html, cobertura: look for sources recorded with relative "
                     "paths here first (repeatable; then the corpus's "
                     "source_root, then the working directory)");
  report
      ->add_option("--branches", options->branches,
                   "cobertura, sonarqube: a decision line's branches are the "
                   "paths through it (paths) or its branch outcomes as LCOV "
                   "counts them (outcomes)")
      ->check(CLI::IsMember({"paths", "outcomes"}))
      ->capture_default_str();
  report->add_option("--title", options->title, "html: the report's title")
      ->capture_default_str();
  report->footer(std::string(kReportHelp) + "\n\n" + kExitCodeHelp);
  report->callback([options, &exitCode] { exitCode = runReport(*options); });
}

} // namespace pathcov
