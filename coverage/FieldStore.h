// What `pathcov merge` folds out of memory: the reports a corpus holds and
// every report's sightings (docs/merge.md, "Memory"), which grow with the
// field, not with the program. They live in a private temporary SQLite
// database (its pages on disk, a bounded cache in memory): merging keeps
// them as sets (a report by id, a sighting by path and report) and writes
// them back in the corpus's order by walking the database's keys.
#pragma once

#include "pathcov/format/Corpus.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>

struct sqlite3;
struct sqlite3_stmt;

namespace pathcov {

class FieldStore {
public:
  FieldStore(); // throws std::runtime_error if no database can be made
  ~FieldStore();
  FieldStore(const FieldStore &) = delete;
  FieldStore &operator=(const FieldStore &) = delete;

  // A report file or a report of rows: added with its sightings unless its
  // id is in already (the same report: it changes nothing). False if it was.
  bool addReport(const std::string &id, const MergedReport &report);
  void addSighting(const FieldKey &path, const std::string &report,
                   const FieldSighting &sighting);

  // An input being read (a corpus, a file of rows): its reports and
  // sightings are staged, and folded in by commitStaged (a merge stops at
  // its first bad input, so nothing staged needs undoing). Staging returns
  // what was staged under the same key before, if anything, and stages
  // nothing then; `place` names the entry in the caller's errors (a JSON
  // path, a line).
  std::optional<MergedReport> stageReport(const std::string &id,
                                          const MergedReport &report);
  std::optional<std::pair<FieldSighting, std::string>>
  stageSighting(const std::string &place, const FieldKey &path,
                const std::string &report, const FieldSighting &sighting);
  // A sighting in functions[function].field_paths[k].seen before the
  // function's identity is known (a document's members come in any
  // order); placeSeen stages them with their path (InputError: one listed
  // twice).
  void stageSeen(const std::string &place, uint64_t function, uint64_t k,
                 const std::string &report, const FieldSighting &sighting);
  void placeSeen(uint64_t function, uint64_t k, const FieldKey &path);
  // A corpus: its sightings must be of its reports (else InputError, as
  // readCorpus words it); reports are folded in by id, sightings by path
  // and report, the first one kept. Reports (rows): a report already in
  // changes nothing, its sightings included.
  enum class Staged { Corpus, Reports };
  void commitStaged(Staged what);

  // The inputs of a merge, kept here rather than in memory (a directory
  // of a fleet's reports holds millions): each with its rank (the order
  // given; the files of a directory share theirs), visited by rank, then
  // name.
  void addInput(uint64_t rank, const std::string &path);
  uint64_t inputs() const;
  void forEachInput(const std::function<void(const std::string &path)> &visit) const;

  uint64_t reports() const;
  // In the corpus's order: reports by id; sightings by path (identity,
  // checksum, id), then report. `only` limits the sightings to one
  // function's (identity, checksum) when not null. Not reentrant.
  void forEachReport(
      const std::function<void(const std::string &id, const MergedReport &)> &visit) const;
  // With each sighting, its report's build-id ("": none).
  void forEachSighting(
      const FunctionKey *only,
      const std::function<void(const FieldKey &, const std::string &report,
                               const std::string &buildId,
                               const FieldSighting &)> &visit) const;

private:
  sqlite3_stmt *prepare(const char *sql) const;
  void exec(const char *sql) const;

  sqlite3 *db_ = nullptr;
  mutable std::unordered_map<const char *, sqlite3_stmt *> statements_;
  uint64_t stagedSightings_ = 0; // their order, for the first error
};

} // namespace pathcov
