#include "SightingsCommand.h"

#include "ExitCodes.h"
#include "FileIo.h"
#include "Report.h"
#include "Sightings.h"

#include "pathcov/format/Corpus.h"
#include "pathcov/format/InputError.h"

#include <CLI/CLI.hpp>

#include <filesystem>
#include <iostream>
#include <memory>

namespace pathcov {

namespace {

struct SightingsOptions {
  std::vector<std::string> inputs;
  std::string output = "-";
};

// A report's rows, or a corpus's: one report at a time, each with the
// sightings the corpus keeps for it.
std::string rowsOf(const std::string &file) {
  const nlohmann::json doc = readJsonFile(file);
  const auto format = doc.is_object() ? doc.find("format") : doc.end();
  if (format != doc.end() && *format == "pathcov-report") {
    const Report r = readReport(doc, file);
    return sightingRows(reportId(r.buildId, r.pid, r.startedNs, r.writtenNs),
                        {r.module, r.buildId, r.pid, r.startedNs, r.writtenNs,
                         r.reason, r.droppedPaths},
                        reportSightings(r));
  }
  Corpus corpus;
  try {
    if (format != doc.end() && *format != "pathcov-corpus")
      throw InputError("format: " + format->dump() +
                       " is neither \"pathcov-corpus\" nor \"pathcov-report\"");
    corpus = readCorpus(doc);
  } catch (const InputError &e) {
    throw InputError(displayName(file) + ": " + e.what());
  }
  std::map<std::string, std::map<FieldKey, FieldSighting>> byReport;
  for (const auto &[path, seen] : corpus.field)
    for (const auto &[report, s] : seen)
      byReport[report][path] = s;
  std::string rows;
  for (const auto &[id, report] : corpus.reports)
    rows += sightingRows(id, report, byReport[id]);
  return rows;
}

int runSightings(const SightingsOptions &options) {
  std::string rows;
  try {
    for (const std::string &input : options.inputs) {
      std::error_code error;
      if (!std::filesystem::is_directory(input, error)) {
        rows += rowsOf(input);
        continue;
      }
      for (const std::string &file :
           regularFilesIn("sightings", input, [](const std::string &name) {
             return std::filesystem::path(name).extension() == ".json";
           }))
        rows += rowsOf(file);
    }
  } catch (const InputError &e) {
    std::cerr << "pathcov sightings: " << e.what() << '\n';
    return kExitBadInput;
  }
  return writeOutput("sightings", options.output, rows);
}

} // namespace

void addSightingsCommand(CLI::App &app, int &exitCode) {
  const auto options = std::make_shared<SightingsOptions>();
  CLI::App *sightings = app.add_subcommand(
      "sightings",
      "Write the residual sightings of field reports (or of the reports a "
      "corpus holds) as newline-delimited JSON, one row per report and path, "
      "for SQLite, DuckDB or BigQuery to aggregate; pathcov merge reads the "
      "rows back (docs/fleet.md)");
  sightings
      ->add_option("INPUT", options->inputs,
                   "Reports (pathcov-report), corpora (pathcov-corpus), or "
                   "directories of *.json files")
      ->required();
  sightings
      ->add_option("-o,--output", options->output,
                   "Write the rows here; - is standard output")
      ->capture_default_str();
  sightings->callback([options, &exitCode] { exitCode = runSightings(*options); });
}

} // namespace pathcov
