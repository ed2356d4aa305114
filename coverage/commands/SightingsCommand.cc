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
  const std::variant<Report, Corpus> input =
      readReportOrCorpus(readJsonFile(file), file);
  if (const Report *r = std::get_if<Report>(&input))
    return sightingRows(reportId(r->buildId, r->pid, r->startedNs, r->writtenNs),
                        provenanceOf(*r), reportSightings(*r));
  const Corpus &corpus = std::get<Corpus>(input);
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
    for (const std::string &file : inputFiles(
             "sightings", options.inputs,
             [](const std::string &name) {
               return std::filesystem::path(name).extension() == ".json";
             },
             "no *.json report or corpus in the directory"))
      rows += rowsOf(file);
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
