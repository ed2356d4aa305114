// `pathcov report`'s formats (docs/report.md): one table names each format
// and its writer, one file per writer (formats/<Format>.cc), and every
// writer reads the same coverage computation (Projections.h). A new format
// is a writer in a file of its own, declared here, and a row of the table
// in ReportFormats.cc.
#pragma once

#include "Contexts.h"
#include "Projections.h"
#include "SourceFiles.h"

#include "pathcov/format/Corpus.h"

#include <cstdint>
#include <ctime>
#include <string>
#include <vector>

namespace pathcov {

// What the command line says a report holds (not where it goes).
struct ReportSettings {
  DecisionCount decisions = DecisionCount::Paths; // --branches
  std::string title = "Path coverage";            // html: --title
  std::string command; // html: the command that made it, as a shell takes it
  std::time_t made = 0; // when it was made (SOURCE_DATE_EPOCH or now)
  uint64_t maxResults = 1000;     // sarif
  uint64_t maxFunctionPaths = 64; // sarif without field_paths
};

// What every writer reads: the corpus, its coverage computed once, its
// field paths, where its sources are and the settings, and the field
// paths' calling contexts (html, sarif).
struct ReportInput {
  const Corpus &corpus;
  const CorpusProjection &projection;
  const FieldRuns &field;
  const SourceFiles &sources;
  const ReportSettings &settings;
  const std::map<FieldKey, SourceContexts> &contexts;
};

// The writers, one file each: a file's text, or (html) a directory of
// pages, written by the writer, which returns an exit code.
std::string writeLcov(const ReportInput &input);
std::string writeGcovrJson(const ReportInput &input);
std::string writeCobertura(const ReportInput &input);
std::string writeSonarQube(const ReportInput &input);
std::string writeSarif(const ReportInput &input);
std::string writeSummary(const ReportInput &input);
int writeHtml(const ReportInput &input, const std::string &dir);

struct ReportFormat {
  const char *name;        // --format's value
  const char *description; // what it writes, for --help
  // One of the two: the writer of one file (-o FILE, or - for standard
  // output), or of a directory (-o DIR, required).
  std::string (*writeFile)(const ReportInput &input);
  int (*writeDirectory)(const ReportInput &input, const std::string &dir);
};

// Every format once, in the order --help lists them.
const std::vector<ReportFormat> &reportFormats();

// The format named `name`, or null.
const ReportFormat *findReportFormat(const std::string &name);

} // namespace pathcov
