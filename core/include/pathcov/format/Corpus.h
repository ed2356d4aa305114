// The tested-path corpus (schemas/corpus.schema.json): per function, its
// metadata and which paths the tests ran, how often, and in which tests.
#pragma once

#include "pathcov/core/Fnv1a.h"
#include "pathcov/core/LoopTransitions.h"
#include "pathcov/format/FunctionMetadata.h"
#include "pathcov/format/JsonFields.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

namespace pathcov {

struct TestedPath {
  uint64_t count = 0;
  std::set<std::string> tests; // names from PATHCOV_TEST
};
inline bool operator==(const TestedPath &a, const TestedPath &b) {
  return a.count == b.count && a.tests == b.tests;
}

struct CorpusFunction {
  FunctionMetadata metadata;
  uint64_t calls = 0;
  uint64_t resumes = 0; // second returns from setjmp (a longjmp came back)
  // Paths abandoned before they ended, never counted: calls whose last
  // path never ended (an exception passing through, a longjmp out, exit in
  // a callee), and paths a longjmp back to this function's setjmp cut
  // short (one per resume).
  uint64_t interrupted = 0;
  uint64_t invalidIds = 0; // reported by the runtime: a pathcov bug
  uint64_t dropped = 0;    // paths a full runtime table could not keep
  std::map<uint64_t, TestedPath> paths;
  // Record mode's k=N (metadata.k; docs/record-mode.md, "Paths across
  // iterations"): every window of 2..k consecutive paths of one call the
  // tests ran, by its paths' ids.
  uint64_t kDropped = 0; // ids a full runtime arena could not place
  std::map<std::vector<uint64_t>, TestedPath> kPaths;
};

// Adds `from`'s paths into `into`: counts added (saturating), test names
// joined. A function's paths, by id, or its k-paths, by their ids.
void addPathCounts(std::map<uint64_t, TestedPath> &into,
                   const std::map<uint64_t, TestedPath> &from);
void addPathCounts(std::map<std::vector<uint64_t>, TestedPath> &into,
                   const std::map<std::vector<uint64_t>, TestedPath> &from);

// Adds k-paths counted with `k` to f's. A function keeps one k: windows
// counted with another k would give the longer windows' counts over only
// some of the runs. Throws InputError naming `where` if f was built with
// another k above 1 (a function listed with k 1, by a build or corpus
// without windows, takes k).
void addKPaths(CorpusFunction &f, unsigned k,
               const std::map<std::vector<uint64_t>, TestedPath> &kPaths,
               uint64_t dropped, const std::string &where);

struct CorpusModule {
  std::string path;
  std::string buildId;
};

// Functions are keyed by identity and checksum: a function recompiled into
// another shape is another function.
using FunctionKey = std::pair<std::string, std::string>;

// A calling context of a residual path (docs/residual-mode.md, "Calling
// contexts"), as its report gives it: the start of the function the path
// end's code is in, then the return addresses of its callers, innermost
// first. A frame's address is as in the file of the object its report's
// context_modules[module] names; without a module, as the process saw it.
struct ContextFrame {
  std::optional<size_t> module;
  uint64_t address = 0;
};
// Kept by Space Saving: `count` overestimates its samples by at most
// `error`.
struct CallingContext {
  uint64_t count = 0;
  uint64_t error = 0;
  std::vector<ContextFrame> frames;
};
struct CallingContexts {
  uint64_t samples = 0; // 0: none sampled (and none kept)
  std::vector<CallingContext> kept;
};

inline bool operator==(const CorpusModule &a, const CorpusModule &b) {
  return a.path == b.path && a.buildId == b.buildId;
}
inline bool operator==(const ContextFrame &a, const ContextFrame &b) {
  return a.module == b.module && a.address == b.address;
}
inline bool operator==(const CallingContext &a, const CallingContext &b) {
  return a.count == b.count && a.error == b.error && a.frames == b.frames;
}
inline bool operator==(const CallingContexts &a, const CallingContexts &b) {
  return a.samples == b.samples && a.kept == b.kept;
}
inline bool operator!=(const CallingContexts &a, const CallingContexts &b) {
  return !(a == b);
}

// Field observations (`pathcov merge`, docs/merge.md): one report's view of
// one residual path (its counts added up over comdat copies).
struct FieldSighting {
  uint64_t count = 0;
  uint64_t firstSeenNs = 0;
  CallingContexts contexts; // their frames' modules are the report's
};

// A field path keeps the calling contexts of at most this many reports'
// sightings (docs/merge.md, "What the corpus keeps"): a corpus grows with
// its reports by their counts, not by their contexts.
constexpr size_t kContextReportsPerPath = 8;

// A report folded into the corpus: its provenance record.
struct MergedReport {
  std::string module;
  std::string buildId; // empty: none
  uint64_t pid = 0;
  uint64_t startedNs = 0;
  uint64_t writtenNs = 0;
  std::string reason;
  uint64_t droppedPaths = 0;
  std::vector<CorpusModule> contextModules; // what its contexts' frames name
};

// Only the digits 0-9 and a-f (a build-id, a checksum).
bool isLowerHex(const std::string &text);
// A build-id member `key` of `object`: lowercase hex digits of whole bytes,
// or null ("": none); InputError naming `at` otherwise or when missing.
std::string readBuildId(const JsonPath &at, const nlohmann::json &object,
                        const char *key = "build_id");
// A report's context_modules (its `at`).
std::vector<CorpusModule> readContextModules(const JsonPath &at,
                                             const nlohmann::json &modules);
nlohmann::json contextModulesJson(const std::vector<CorpusModule> &modules);
// A residual path's `contexts` at `at`, checked: counts at least 1 and
// above their errors, the kept contexts' certain samples (count - error)
// within `samples`, frames' modules below numModules.
CallingContexts readCallingContexts(const JsonPath &at, const nlohmann::json &c,
                                    size_t numModules);
nlohmann::json toJson(const CallingContexts &contexts);
// How many of its report's context_modules the contexts' frames need (the
// largest index named, plus one), and the error of a sighting at `at`
// whose report has fewer.
size_t modulesNeeded(const CallingContexts &contexts);
std::string contextsBeyondReport(const JsonPath &at, const std::string &report);
// The contexts of two listings of one path (a comdat function's copies, a
// report's sightings): samples added up, every kept context kept.
void addContexts(CallingContexts &into, const CallingContexts &more);

// A field path: (identity, checksum, Ball-Larus id).
using FieldKey = std::tuple<std::string, std::string, uint64_t>;

struct Corpus {
  std::vector<CorpusModule> modules;
  uint64_t profiles = 0;
  std::map<FunctionKey, CorpusFunction> functions;
  // The profiles whose counts the corpus holds (see profileId); empty in a
  // corpus written before format 1.1.
  std::set<std::string> profileIds;
  // The reports merged in, by report id (see reportId).
  std::map<std::string, MergedReport> reports;
  // Every merged report's residual paths, attributed to a function or set
  // aside (toJson decides, from `functions`): path -> report id -> sighting.
  std::map<FieldKey, std::map<std::string, FieldSighting>> field;
};

// "BUILD_ID:FILE_NAME:CONTENT_HASH" ("-" for no build-id): a profile's id.
std::string profileId(const std::string &buildId, const std::string &file,
                      const std::string &content);
// "BUILD_ID:PID:STARTED_NS:WRITTEN_NS" ("-" for no build-id): a report's id.
std::string reportId(const std::string &buildId, uint64_t pid,
                     uint64_t startedNs, uint64_t writtenNs);

// Why a field path cannot be attributed to a function of the corpus, or ""
// if it can (same identity and checksum, instrumented, id in range).
std::string whySetAside(const Corpus &corpus, const FieldKey &path);

FunctionKey keyOf(const FunctionMetadata &f);

// Per function (identity, checksum): its field-observed paths (the
// corpus's field_paths, from pathcov merge: docs/merge.md) and their runs
// added up over the reports. Paths set aside are left out. What every tool
// that shows field paths reads.
using FieldRuns = std::map<FunctionKey, std::map<uint64_t, uint64_t>>;
FieldRuns fieldRunsByFunction(const Corpus &corpus);
// The field runs of f's paths, or null if the field never ran any.
const std::map<uint64_t, uint64_t> *fieldRunsOf(const FieldRuns &field,
                                                const CorpusFunction &f);
// How many of the paths the field ran (fieldRunsOf) the tests did not.
uint64_t untestedFieldPaths(const CorpusFunction &f,
                            const std::map<uint64_t, uint64_t> *fieldRuns);

// Abandoned paths: calls plus resumes (each starts a path that should end
// the invocation) minus the runs of paths that end the invocation.
uint64_t interruptedPaths(const FunctionMetadata &f, const NumberedDag &numbered,
                          uint64_t callsAndResumes,
                          const std::map<uint64_t, TestedPath> &paths);

// A function's counts as the corpus and `pathcov show` write them (calls,
// resumes, interrupted, invalid_ids, dropped), into the object j.
void addFunctionCounts(nlohmann::json &j, const CorpusFunction &f);
// f's loops and the transitions its 2-windows ran (LoopTransitions.h;
// `numbered` is f's numbering); no loop for a function built with k 1.
TransitionCoverage loopTransitionsOf(const CorpusFunction &f,
                                     const NumberedDag &numbered);

// "k_dropped", "k_paths" when f was built with k above 1 (its metadata
// gives "k").
void addKPathsJson(nlohmann::json &j, const CorpusFunction &f);

// The functions ordered by file, line and identity: a stable order people
// can read.
std::vector<const CorpusFunction *> inSourceOrder(const Corpus &corpus);

// The corpus format: its name, and the major version written and read
// ("format_version": "2.0").
constexpr const char *kCorpusFormat = "pathcov-corpus";
constexpr int kCorpusMajorVersion = 2;

// What a residual-mode build needs of a corpus, read without rebuilding
// each function's graph: per identity, each CFG checksum it was recorded
// with and the Ball-Larus ids of its interesting paths (ascending, no
// duplicates): interesting = tested (paths) and field-observed
// (field_paths, from `pathcov merge`), so a release build does not flag
// again what the field already reported. Their counts (tests' and field's,
// saturating) place the release build's chords where they rarely run.
struct TestedPaths {
  std::string checksum;

  std::vector<uint64_t> ids;
  std::vector<uint64_t> counts; // parallel to ids
  std::string optimization;     // FunctionMetadata::optimization

  bool operator==(const TestedPaths &o) const {
    return checksum == o.checksum && ids == o.ids && counts == o.counts &&
           optimization == o.optimization;
  }
};
using TestedPathIndex = std::map<std::string, std::vector<TestedPaths>>;
// From the corpus's text. A corpus is mostly metadata this does not need
// (blocks, edges, lines, tests): the parser drops it as it reads, so only
// identities, checksums and ids are ever held. Throws InputError naming
// the place of the problem: the JSON path, or the line and column of a
// syntax error. The plugin streams the corpus file through the same
// readers (CachedCorpus.cc, core/src/TestedPathScan.h).
TestedPathIndex readTestedPaths(std::string_view json);
// Throws InputError naming the place of the problem.
Corpus readCorpus(const nlohmann::json &doc);

// The pieces of a corpus document, each read and checked on its own: what
// readCorpus is made of, and what a reader that streams the document
// (pathcov merge) reads one at a time. Each throws InputError naming the
// place of the problem; what takes more than one piece to check (a report
// listed twice, a sighting of a report not in `reports`) is the caller's.
//
// The format and the document's top-level fields but functions, reports
// and set_aside (into corpus).
void readCorpusHeader(const nlohmann::json &doc, Corpus &corpus);
// reports[i]: the report's id (member `idKey`, checked against its
// fields) and record; a sightings row (docs/fleet.md) has the same fields,
// its id as "report".
std::pair<std::string, MergedReport> readCorpusReport(const JsonPath &at,
                                                      const nlohmann::json &r,
                                                      const char *idKey = "id");
// functions[i].field_paths[k].seen[n] or set_aside[i]: the report that
// saw the path, and its sighting.
std::pair<std::string, FieldSighting> readCorpusSighting(const JsonPath &at,
                                                         const nlohmann::json &s);
// set_aside[i]: the path it saw.
FieldKey readSetAsidePath(const JsonPath &at, const nlohmann::json &e);
// functions[i], but for its field paths' sightings (`seen`, which must be
// there): the function, and in fieldPathIds the id of each field path in
// order (checked against the function's paths).
CorpusFunction readCorpusFunction(const JsonPath &at, const nlohmann::json &j,
                                  std::vector<uint64_t> &fieldPathIds);
// The errors of a sighting at `at` that cannot be checked on its own.
std::string listedTwice(const JsonPath &at, const FieldKey &path,
                        const std::string &report);
// (contextsBeyondReport, above, is the third.)
std::string notInReports(const JsonPath &at, const std::string &report);

} // namespace pathcov
