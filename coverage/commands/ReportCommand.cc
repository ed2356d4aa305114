#include "ReportCommand.h"

#include "ExitCodes.h"
#include "FileFilter.h"
#include "FileIo.h"
#include "Modules.h"
#include "formats/ReportFormats.h"

#include "pathcov/format/Corpus.h"
#include "pathcov/format/InputError.h"

#include <CLI/CLI.hpp>

#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <memory>
#include <optional>

namespace pathcov {

namespace {

struct ReportOptions {
  std::string format;
  std::string corpus;
  std::string output = "-";
  std::string branches = "paths"; // cobertura, sonarqube: or outcomes
  std::vector<std::string> sourceRoots; // --source-root, in order
  // Debug info of the objects calling contexts name (Symbolizer.h).
  std::vector<std::string> debugDirs{kDefaultDebugDir};
  FileFilter files;
  ReportSettings settings;
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

int runReport(const ReportOptions &options) {
  // --format took only names of the table.
  const ReportFormat &format = *findReportFormat(options.format);
  if (format.writeDirectory && options.output == "-") {
    std::cerr << "pathcov report: --format " << format.name
              << " needs -o DIR\n";
    return kExitUsage;
  }
  ReportSettings settings = options.settings;
  const std::optional<std::time_t> made = reportTime();
  if (!made) {
    std::cerr << "pathcov report: SOURCE_DATE_EPOCH=" << std::getenv("SOURCE_DATE_EPOCH")
              << " is not a number of seconds since 1970\n";
    return kExitUsage;
  }
  settings.made = *made;
  settings.decisions = options.branches == "outcomes" ? DecisionCount::Outcomes
                                                      : DecisionCount::Paths;
  std::string text;
  try {
    Corpus corpus = readCorpus(readJson(options.corpus));
    keepWantedFiles(corpus, options.files, "report");
    const CorpusProjection projection = projectCorpus(corpus, settings.decisions);
    const FieldRuns field = fieldRunsByFunction(corpus);
    const SourceFiles sources(options.sourceRoots);
    Symbolizer symbolizer(options.debugDirs);
    const std::map<FieldKey, SourceContexts> contexts =
        fieldContexts(corpus, symbolizer);
    const ReportInput input{corpus, projection, field, sources, settings, contexts};
    if (format.writeDirectory) {
      const int status = format.writeDirectory(input, options.output);
      if (status == kExitSuccess)
        sources.reportUnread("report");
      return status;
    }
    text = format.writeFile(input);
    sources.reportUnread("report");
  } catch (const InputError &e) {
    return reportError("report", displayName(options.corpus), e.what(),
                       kExitBadInput);
  } catch (const UsageError &e) {
    std::cerr << "pathcov report: " << e.what() << '\n';
    return kExitUsage;
  }
  return writeOutput("report", options.output, text);
}

// "a, b or c"
std::string listOfNames(const std::vector<std::string> &names) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i)
    text += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return text;
}

constexpr const char *kProjectionHelp =
    "The line and branch formats are PROJECTIONS of path coverage onto "
    "lines and branches, for dashboards that know nothing else. A line's "
    "count is the largest count of its blocks, a block's count the runs of "
    "tested paths through it; an LCOV branch (BRDA) counts the runs of "
    "tested paths that take that edge; Cobertura condition-coverage and "
    "SonarQube branchesToCover/coveredBranches count, on a line that "
    "decides a branch, the paths through the line (tested/all, capped at "
    "2^31-1). What they lose: a path is a sequence, and lines and branches "
    "cannot tell which combination of them ran, so 100% line and branch "
    "coverage can hide untested paths. See docs/report.md.";

std::string reportHelp() {
  std::string text = std::string(kProjectionHelp) + "\n\nFormats:\n";
  for (const ReportFormat &format : reportFormats())
    text += "  " + std::string(format.name) + ": " + format.description + "\n";
  return text + "\n" + kExitCodeHelp;
}

} // namespace

void addReportCommand(CLI::App &app, int &exitCode,
                      const std::string &commandLine) {
  const auto options = std::make_shared<ReportOptions>();
  options->settings.command = commandLine;
  std::vector<std::string> formatNames;
  for (const ReportFormat &format : reportFormats())
    formatNames.push_back(format.name);
  CLI::App *report = app.add_subcommand(
      "report", "Project a corpus into a report for dashboards, code review "
                "or a browser (--format)");
  report->add_option("--format", options->format, listOfNames(formatNames))
      ->required()
      ->check(CLI::IsMember(formatNames));
  report->add_option("CORPUS", options->corpus,
                     "A corpus from pathcov collect (- for standard input)")
      ->required();
  report->add_option("-o,--output", options->output,
                     "Write here; - is standard output (html: a directory)")
      ->capture_default_str();
  report
      ->add_option("--max-results", options->settings.maxResults,
                   "sarif: at most this many results")
      ->capture_default_str();
  report
      ->add_option("--max-function-paths", options->settings.maxFunctionPaths,
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
  report->add_option(
      "--debug-dir", options->debugDirs,
      "html, sarif: where to look for the debug info of the objects the field "
      "paths' calling contexts name, as DIR/.build-id/xx/rest.debug by "
      "build-id; repeatable (default, and always: /usr/lib/debug)");
  addFileFilterOptions(*report, options->files);
  report->add_option("--title", options->settings.title, "html: the report's title")
      ->capture_default_str();
  report->footer(reportHelp());
  report->callback([options, &exitCode] { exitCode = runReport(*options); });
}

} // namespace pathcov
