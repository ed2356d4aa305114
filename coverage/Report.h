// A residual-mode report written by the runtime (docs/residual-mode.md,
// "Reports"; schemas/report.schema.json).
#pragma once

#include "pathcov/core/PathGrammar.h"
#include "pathcov/format/Corpus.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace pathcov {

// A path as a report names it: a function (by identity and CFG checksum)
// and its Ball-Larus id.
struct ReportPathKey {
  std::string identity;
  std::string checksum;
  uint64_t id = 0;
};

struct ReportPath : ReportPathKey {
  uint64_t count = 0;
  uint64_t firstSeenNs = 0; // CLOCK_REALTIME
  uint64_t thread = 0;      // the thread that first ran it (gettid)
  std::string firstTest;    // the harness test it first ran in (format 2.4)
  CallingContexts contexts; // most counted first
};

// One thread's path history (format 2.2; history=N builds): its last paths,
// oldest first, as a grammar over `paths`.
struct ThreadHistory {
  uint64_t thread = 0;   // gettid
  bool current = false;  // the thread that wrote the report
  bool exited = false;   // its ring outlived it
  uint64_t size = 0;     // the ring's
  uint64_t completed = 0; // paths it completed in all
  std::vector<ReportPathKey> paths;
  PathGrammar grammar;
};

struct Report {
  std::string file;   // where it was read from
  std::string module; // the module's path as the process saw it
  std::string buildId; // empty: the module has none
  uint64_t pid = 0;
  uint64_t startedNs = 0;
  uint64_t writtenNs = 0;
  std::string reason; // exit, signal or request
  uint64_t signal = 0; // for reason signal
  std::string test;    // the test the process ran (format 2.3), or empty
  // As listed (first seen first). A function emitted by several units has
  // a descriptor per unit: the same path can be listed more than once.
  std::vector<ReportPath> residualPaths;
  uint64_t droppedPaths = 0;
  // What its calling contexts' frames name (format 2.1; none before, or
  // with contexts off).
  std::vector<CorpusModule> contextModules;
  std::vector<ThreadHistory> history;
};

// Throws InputError naming the file and the problem.
Report readReport(const std::string &file);

// The same, from `file`'s document read already.
Report readReport(const nlohmann::json &doc, const std::string &file);

// What `merge` and `sightings` take from `file`'s document: a report, or a
// corpus (with the reports merged into it). Throws InputError naming the
// file: a profile (with what to do instead), another format, a broken
// report or corpus.
std::variant<Report, Corpus> readReportOrCorpus(const nlohmann::json &doc,
                                                const std::string &file);

// The report as a corpus records it (its id: reportId of these fields).
MergedReport provenanceOf(const Report &report);

} // namespace pathcov
