#include "MergeCommand.h"

#include "CorpusStream.h"
#include "CorpusWriter.h"
#include "ExitCodes.h"
#include "FieldStore.h"
#include "FileIo.h"
#include "Report.h"
#include "Sightings.h"

#include "pathcov/format/Corpus.h"
#include "pathcov/format/InputError.h"
#include "pathcov/format/JsonFields.h"

#include <CLI/CLI.hpp>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <functional>
#include <iostream>
#include <memory>
#include <set>

namespace pathcov {

namespace {

struct MergeOptions {
  std::vector<std::string> inputs;
  std::string output = "-";
  bool quiet = false;
};

bool hasTestedData(const Corpus &corpus) {
  if (corpus.profiles > 0)
    return true;
  for (const auto &[key, f] : corpus.functions)
    if (f.calls || f.resumes || f.invalidIds || f.dropped || !f.paths.empty())
      return true;
  return false;
}

// Tested counts add up once per profile: an input whose profiles are all in
// already adds nothing, one whose profiles are all new adds its counts, and
// one that shares some (not all) of its profiles cannot be merged without
// counting those twice. A corpus from before format 1.1 has no profile ids
// and counts as one profile, named by a hash of its document (`document`
// gives it: read again, such corpora are small). Modules go into
// `modules`, once each.
void foldCorpus(Corpus &out, const Corpus &in,
                const std::function<nlohmann::json()> &document,
                const std::string &file,
                std::set<std::pair<std::string, std::string>> &modules) {
  for (const CorpusModule &m : in.modules)
    modules.insert({m.path, m.buildId});
  for (const auto &[key, f] : in.functions) {
    const auto [it, added] = out.functions.try_emplace(key);
    if (added)
      it->second.metadata = f.metadata;
  }
  std::set<std::string> ids = in.profileIds;
  if (ids.empty() && hasTestedData(in)) // a corpus from before format 1.1
    ids.insert("corpus:" + hex64(fnv1a64(document().dump())));
  size_t shared = 0;
  for (const std::string &id : ids)
    shared += out.profileIds.count(id);
  if (shared > 0 && shared < ids.size())
    throw InputError(displayName(file) + ": shares " + std::to_string(shared) +
                     " of its " + std::to_string(ids.size()) +
                     " profiles with the inputs before it: merging it would "
                     "count them twice (merge the corpora it was made from)");
  if (shared == 0 && !ids.empty()) {
    out.profileIds.insert(ids.begin(), ids.end());
    out.profiles = saturatingAdd(out.profiles, in.profiles);
    for (const auto &[key, f] : in.functions) {
      CorpusFunction &o = out.functions.at(key);
      o.calls = saturatingAdd(o.calls, f.calls);
      o.resumes = saturatingAdd(o.resumes, f.resumes);
      o.interrupted = saturatingAdd(o.interrupted, f.interrupted);
      o.invalidIds = saturatingAdd(o.invalidIds, f.invalidIds);
      o.dropped = saturatingAdd(o.dropped, f.dropped);
      addPathCounts(o.paths, f.paths);
      addKPaths(o, f.metadata.k, f.kPaths, f.kDropped, displayName(file));
    }
  }
}

// A report's sightings go in with it, unless it was merged already (the
// same id: the same report).
void foldReport(FieldStore &field, const Report &r) {
  const std::string id = reportId(r.buildId, r.pid, r.startedNs, r.writtenNs);
  if (!field.addReport(id, provenanceOf(r)))
    return;
  for (const auto &[path, s] : reportSightings(r))
    field.addSighting(path, id, s);
}

// A corpus file, streamed: its reports and sightings are staged, and folded
// in as sets (the first of each kept) once the whole file is good.
void foldCorpusFile(Corpus &out, FieldStore &field, const std::string &file,
                    std::set<std::pair<std::string, std::string>> &modules) {
  Corpus in;
  try {
    in = streamCorpus(file, field);
    field.commitStaged(FieldStore::Staged::Corpus);
  } catch (const InputError &e) {
    throw InputError(displayName(file) + ": " + e.what());
  }
  foldCorpus(out, in, [&] { return readJsonFile(file); }, file, modules);
}

// A report, or a corpus on standard input (which cannot be read twice, to
// see its format first): read whole.
void foldDocument(Corpus &out, FieldStore &field, const std::string &file,
                  std::set<std::pair<std::string, std::string>> &modules) {
  const nlohmann::json doc = readJsonFile(file);
  std::variant<Report, Corpus> input = readReportOrCorpus(doc, file);
  if (const Report *report = std::get_if<Report>(&input)) {
    foldReport(field, *report);
    return;
  }
  const Corpus &in = std::get<Corpus>(input);
  foldCorpus(out, in, [&] { return doc; }, file, modules);
  for (const auto &[id, report] : in.reports)
    field.addReport(id, report);
  for (const auto &[path, seen] : in.field)
    for (const auto &[report, s] : seen)
      field.addSighting(path, report, s);
}

// Whether `file` says it is a corpus at its top. What does not (a report,
// or what is not JSON) is read whole, by the reader that words its
// problem: a file too large is refused before it is read.
bool isCorpusFile(const std::string &file) {
  if (file == "-")
    return false;
  try {
    const nlohmann::json format = documentFormat(file);
    const auto it = format.find("format");
    return it != format.end() && *it == kCorpusFormat;
  } catch (const InputError &) {
    return false;
  }
}

// The files named, and in each directory named its *.json and *.ndjson
// files, into `field`'s list of inputs. A directory with none is said, not
// refused: a release whose runs took no untested path writes no report,
// the good outcome (brotli trial), as decode says too.
void queueInputs(FieldStore &field, const std::vector<std::string> &inputs,
                 bool quiet) {
  std::vector<std::string> withoutFiles;
  forEachInputFile(
      "merge", inputs,
      [](const std::string &name) {
        const auto extension = std::filesystem::path(name).extension();
        return extension == ".json" || extension == ".ndjson";
      },
      "", [&](size_t rank, const std::string &path) { field.addInput(rank, path); },
      &withoutFiles);
  for (const std::string &directory : withoutFiles)
    if (!quiet)
      std::cerr << "pathcov merge: " << directory
                << ": no *.json corpus or report, nor *.ndjson rows, in the "
                   "directory: nothing from it\n";
}

// A progress bar on standard error, only on a terminal, at most ten
// updates a second.
class Progress {
public:
  Progress(bool enabled, size_t total)
      : enabled_(enabled && isatty(2) && total > 1), total_(total) {}
  void step(size_t done) {
    if (!enabled_)
      return;
    const auto now = std::chrono::steady_clock::now();
    if (done != total_ && now - last_ < std::chrono::milliseconds(100))
      return;
    last_ = now;
    const size_t width = 30, filled = width * done / total_;
    std::cerr << "\rpathcov merge: [" << std::string(filled, '#')
              << std::string(width - filled, ' ') << "] " << done << '/'
              << total_ << " inputs" << std::flush;
    shown_ = true;
  }
  ~Progress() {
    if (shown_)
      std::cerr << "\r\033[K" << std::flush;
  }

private:
  bool enabled_;
  size_t total_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point last_{};
};

int runMerge(const MergeOptions &options) {
  // A whole corpus is no reading matter: on a terminal it is a forgotten -o.
  if (options.output == "-" && isatty(STDOUT_FILENO)) {
    std::cerr << "pathcov merge: will not write a corpus to a terminal: give "
                 "-o FILE, or redirect standard output\n";
    return kExitUsage;
  }
  Corpus out;
  try {
    FieldStore field;
    queueInputs(field, options.inputs, options.quiet);
    Progress progress(!options.quiet, field.inputs());
    std::set<std::pair<std::string, std::string>> modules;
    size_t done = 0;
    field.forEachInput([&](const std::string &file) {
      if (std::filesystem::path(file).extension() == ".ndjson")
        foldSightingRows(file, field);
      else if (isCorpusFile(file))
        foldCorpusFile(out, field, file, modules);
      else
        foldDocument(out, field, file, modules);
      progress.step(++done);
    });
    for (const auto &[path, buildId] : modules)
      out.modules.push_back({path, buildId});
    SetAsideSummary setAside;
    const int status = writeOutput("merge", options.output, [&](int fd) {
      try {
        return writeCorpus(fd, out, &field, &setAside);
      } catch (const std::runtime_error &e) { // the database, while walked
        std::cerr << "pathcov merge: " << e.what() << '\n';
        errno = EIO; // writeOutput then removes what it wrote, and says so
        return false;
      }
    });
    // Not an error (set-aside sightings are kept, and merged again once a
    // corpus has their functions), but no reader of the corpus would guess
    // them from the coverage it shows.
    if (status == kExitSuccess && setAside.paths && !options.quiet)
      std::cerr << "pathcov merge: " << setAsideText(setAside)
                << "; docs/merge.md, \"Attribution\"\n";
    return status;
  } catch (const InputError &e) {
    std::cerr << "pathcov merge: " << e.what() << '\n';
    return kExitBadInput;
  } catch (const std::runtime_error &e) { // the temporary database
    std::cerr << "pathcov merge: " << e.what() << '\n';
    return kExitOutputError;
  }
}

} // namespace

void addMergeCommand(CLI::App &app, int &exitCode) {
  const auto options = std::make_shared<MergeOptions>();
  CLI::App *merge = app.add_subcommand(
      "merge",
      "Fold corpora (from several test jobs) and field reports into one "
      "corpus: tested paths add up, field-observed paths are kept apart with "
      "their provenance; the same input twice counts once (docs/merge.md)");
  merge
      ->add_option("INPUT", options->inputs,
                   "Corpora (pathcov-corpus), reports (pathcov-report), rows of "
                   "sightings (*.ndjson, docs/fleet.md), or directories of "
                   "*.json and *.ndjson files")
      ->required();
  merge
      ->add_option("-o,--output", options->output,
                   "Write the corpus here; - is standard output")
      ->capture_default_str();
  merge->add_flag("-q,--quiet", options->quiet,
                  "No progress bar (shown only on a terminal) and no line "
                  "counting the field paths set aside");
  merge->callback([options, &exitCode] { exitCode = runMerge(*options); });
}

} // namespace pathcov
