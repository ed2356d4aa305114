#include "FieldStore.h"

#include "pathcov/format/InputError.h"

#include <sqlite3.h>

#include <stdexcept>

namespace pathcov {

namespace {

// SQLite's integers are signed: a uint64_t is stored with its top bit
// flipped, which keeps its order (ids sort as numbers) and every value.
int64_t toSql(uint64_t v) { return static_cast<int64_t>(v ^ (uint64_t(1) << 63)); }
uint64_t fromSql(int64_t v) { return static_cast<uint64_t>(v) ^ (uint64_t(1) << 63); }

// A prepared statement, reset for its next use when it goes out of scope.
class Query {
public:
  explicit Query(sqlite3 *db, sqlite3_stmt *stmt) : db_(db), stmt_(stmt) {}
  Query(const Query &) = delete;
  Query &operator=(const Query &) = delete;
  ~Query() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
  }
  Query &text(int i, const std::string &value) {
    sqlite3_bind_text(stmt_, i, value.data(), static_cast<int>(value.size()),
                      SQLITE_TRANSIENT);
    return *this;
  }
  Query &number(int i, uint64_t value) {
    sqlite3_bind_int64(stmt_, i, toSql(value));
    return *this;
  }
  // A small count, compared in SQL as it is (not as a stored number).
  Query &count(int i, size_t value) {
    sqlite3_bind_int64(stmt_, i, static_cast<int64_t>(value));
    return *this;
  }
  // SQLITE_DONE, SQLITE_ROW or SQLITE_CONSTRAINT; anything else throws.
  int step() {
    const int rc = sqlite3_step(stmt_);
    if (rc != SQLITE_DONE && rc != SQLITE_ROW && rc != SQLITE_CONSTRAINT)
      throw std::runtime_error(std::string("the merge's temporary database: ") +
                               sqlite3_errmsg(db_));
    return rc;
  }
  std::string textAt(int i) const {
    const auto *p = reinterpret_cast<const char *>(sqlite3_column_text(stmt_, i));
    return p ? std::string(p, sqlite3_column_bytes(stmt_, i)) : std::string();
  }
  uint64_t numberAt(int i) const { return fromSql(sqlite3_column_int64(stmt_, i)); }
  uint64_t countAt(int i) const { return sqlite3_column_int64(stmt_, i); }

private:
  sqlite3 *db_;
  sqlite3_stmt *stmt_;
};

// Reports and sightings, then the same for the input being read (staged,
// with the place of each entry for errors). WITHOUT ROWID: the key is the
// order they are written in. Calling contexts are JSON text ("": none): a
// report's context_modules and how many (`modules`), a sighting's contexts
// and how many modules they name (`needs`).
constexpr const char *kSchema = R"(
CREATE TABLE report(id TEXT PRIMARY KEY, module TEXT, build_id TEXT,
  pid INTEGER, started INTEGER, written INTEGER, reason TEXT,
  dropped INTEGER, context_modules TEXT, modules INTEGER) WITHOUT ROWID;
CREATE TABLE sighting(identity TEXT, checksum TEXT, id INTEGER, report TEXT,
  count INTEGER, first INTEGER, contexts TEXT,
  PRIMARY KEY(identity, checksum, id, report)) WITHOUT ROWID;
CREATE TABLE staged_report(id TEXT PRIMARY KEY, module TEXT, build_id TEXT,
  pid INTEGER, started INTEGER, written INTEGER, reason TEXT,
  dropped INTEGER, context_modules TEXT, modules INTEGER) WITHOUT ROWID;
CREATE TABLE staged_sighting(identity TEXT, checksum TEXT, id INTEGER,
  report TEXT, count INTEGER, first INTEGER, contexts TEXT, needs INTEGER,
  place TEXT, seq INTEGER,
  PRIMARY KEY(identity, checksum, id, report)) WITHOUT ROWID;
CREATE TABLE staged_seen(function INTEGER, k INTEGER, report TEXT,
  count INTEGER, first INTEGER, contexts TEXT, place TEXT);
CREATE INDEX staged_seen_by_path ON staged_seen(function, k);
CREATE TABLE input(rank INTEGER, path TEXT, PRIMARY KEY(rank, path)) WITHOUT ROWID;
)";

void bindReport(Query &q, const std::string &id, const MergedReport &r) {
  q.text(1, id).text(2, r.module).text(3, r.buildId).number(4, r.pid);
  q.number(5, r.startedNs).number(6, r.writtenNs).text(7, r.reason);
  q.number(8, r.droppedPaths);
  q.text(9, r.contextModules.empty() ? ""
                                     : contextModulesJson(r.contextModules).dump());
  q.number(10, r.contextModules.size());
}

std::string contextsText(const CallingContexts &c) {
  return c.samples ? toJson(c).dump() : "";
}

// Text stored by contextsText or bindReport, read back (checked then).
CallingContexts contextsOf(const std::string &text) {
  return text.empty() ? CallingContexts{}
                      : readCallingContexts(JsonPath(), nlohmann::json::parse(text),
                                            SIZE_MAX);
}
std::vector<CorpusModule> modulesOf(const std::string &text) {
  return text.empty() ? std::vector<CorpusModule>{}
                      : readContextModules(JsonPath(), nlohmann::json::parse(text));
}

// A report row (the columns bindReport binds, from `first` on: module...).
MergedReport reportAt(const Query &q, int first) {
  return {q.textAt(first),          q.textAt(first + 1),
          q.numberAt(first + 2),    q.numberAt(first + 3),
          q.numberAt(first + 4),    q.textAt(first + 5),
          q.numberAt(first + 6),    modulesOf(q.textAt(first + 7))};
}

} // namespace

FieldStore::FieldStore() {
  // "": a private database in a temporary file, deleted when closed; its
  // pages beyond the cache go there, not to memory.
  if (sqlite3_open_v2("", &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE,
                      nullptr) != SQLITE_OK) {
    const std::string why = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    throw std::runtime_error("the merge's temporary database: " + why);
  }
  // Nothing to recover after a crash (the corpus is written elsewhere):
  // no journal, no syncs; 64 MiB of cache.
  exec("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
       "PRAGMA cache_size = -65536; PRAGMA temp_store = FILE;");
  exec(kSchema);
  exec("BEGIN");
}

FieldStore::~FieldStore() {
  for (const auto &[sql, stmt] : statements_)
    sqlite3_finalize(stmt);
  sqlite3_close(db_);
}

void FieldStore::exec(const char *sql) const {
  char *error = nullptr;
  if (sqlite3_exec(db_, sql, nullptr, nullptr, &error) != SQLITE_OK) {
    const std::string why = error ? error : sqlite3_errmsg(db_);
    sqlite3_free(error);
    throw std::runtime_error("the merge's temporary database: " + why);
  }
}

// Statements are prepared once and kept (finalized in the destructor),
// found again by their text's address: every caller passes a literal.
sqlite3_stmt *FieldStore::prepare(const char *sql) const {
  sqlite3_stmt *&stmt = statements_[sql];
  if (!stmt && sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT, &stmt,
                                  nullptr) != SQLITE_OK)
    throw std::runtime_error(std::string("the merge's temporary database: ") +
                             sqlite3_errmsg(db_));
  return stmt;
}

bool FieldStore::addReport(const std::string &id, const MergedReport &report) {
  Query q(db_, prepare("INSERT OR IGNORE INTO report VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
  bindReport(q, id, report);
  q.step();
  return sqlite3_changes(db_) == 1;
}

void FieldStore::addSighting(const FieldKey &path, const std::string &report,
                             const FieldSighting &s) {
  Query q(db_, prepare("INSERT OR IGNORE INTO sighting VALUES (?, ?, ?, ?, ?, ?, ?)"));
  q.text(1, std::get<0>(path)).text(2, std::get<1>(path)).number(3, std::get<2>(path));
  q.text(4, report).number(5, s.count).number(6, s.firstSeenNs);
  q.text(7, contextsText(s.contexts));
  q.step();
}

std::optional<MergedReport> FieldStore::stageReport(const std::string &id,
                                                   const MergedReport &report) {
  Query q(db_, prepare("INSERT INTO staged_report VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
  bindReport(q, id, report);
  if (q.step() != SQLITE_CONSTRAINT)
    return std::nullopt;
  Query earlier(db_, prepare("SELECT module, build_id, pid, started, written, "
                             "reason, dropped, context_modules FROM staged_report "
                             "WHERE id = ?"));
  earlier.text(1, id).step();
  return reportAt(earlier, 0);
}

std::optional<std::pair<FieldSighting, std::string>>
FieldStore::stageSighting(const std::string &place, const FieldKey &path,
                          const std::string &report, const FieldSighting &s) {
  Query q(db_, prepare("INSERT INTO staged_sighting VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"));
  q.text(1, std::get<0>(path)).text(2, std::get<1>(path)).number(3, std::get<2>(path));
  q.text(4, report).number(5, s.count).number(6, s.firstSeenNs);
  q.text(7, contextsText(s.contexts)).number(8, modulesNeeded(s.contexts));
  q.text(9, place).number(10, stagedSightings_++);
  if (q.step() != SQLITE_CONSTRAINT)
    return std::nullopt;
  Query earlier(db_, prepare("SELECT count, first, contexts, place FROM staged_sighting "
                             "WHERE identity = ? AND checksum = ? AND id = ? AND "
                             "report = ?"));
  earlier.text(1, std::get<0>(path)).text(2, std::get<1>(path));
  earlier.number(3, std::get<2>(path)).text(4, report).step();
  return std::make_pair(FieldSighting{earlier.numberAt(0), earlier.numberAt(1),
                                      contextsOf(earlier.textAt(2))},
                        earlier.textAt(3));
}

void FieldStore::stageSeen(const std::string &place, uint64_t function, uint64_t k,
                           const std::string &report, const FieldSighting &s) {
  Query q(db_, prepare("INSERT INTO staged_seen VALUES (?, ?, ?, ?, ?, ?, ?)"));
  q.number(1, function).number(2, k).text(3, report).number(4, s.count);
  q.number(5, s.firstSeenNs).text(6, contextsText(s.contexts)).text(7, place);
  q.step();
}

void FieldStore::placeSeen(uint64_t function, uint64_t k, const FieldKey &path) {
  Query q(db_, prepare("SELECT report, count, first, contexts, place FROM "
                       "staged_seen WHERE function = ? AND k = ? ORDER BY rowid"));
  q.number(1, function).number(2, k);
  while (q.step() == SQLITE_ROW) {
    const std::string place = q.textAt(4);
    if (stageSighting(place, path, q.textAt(0),
                      {q.numberAt(1), q.numberAt(2), contextsOf(q.textAt(3))}))
      throw InputError(listedTwice(JsonPath(place), path, q.textAt(0)));
  }
  Query drop(db_, prepare("DELETE FROM staged_seen WHERE function = ? AND k = ?"));
  drop.number(1, function).number(2, k);
  drop.step();
}

void FieldStore::commitStaged(Staged what) {
  if (what == Staged::Corpus) {
    Query orphan(db_, prepare("SELECT place, report FROM staged_sighting WHERE "
                              "report NOT IN (SELECT id FROM staged_report) "
                              "ORDER BY seq LIMIT 1"));
    if (orphan.step() == SQLITE_ROW)
      throw InputError(notInReports(JsonPath(orphan.textAt(0)), orphan.textAt(1)));
    Query beyond(db_, prepare("SELECT s.place, s.report FROM staged_sighting s JOIN "
                              "staged_report r ON r.id = s.report WHERE s.needs > "
                              "r.modules ORDER BY s.seq LIMIT 1"));
    if (beyond.step() == SQLITE_ROW)
      throw InputError(
          contextsBeyondReport(JsonPath(beyond.textAt(0)), beyond.textAt(1)));
    exec("INSERT OR IGNORE INTO sighting SELECT identity, checksum, id, report, "
         "count, first, contexts FROM staged_sighting;");
  } else {
    exec("INSERT OR IGNORE INTO sighting SELECT identity, checksum, id, report, "
         "count, first, contexts FROM staged_sighting WHERE report NOT IN "
         "(SELECT id FROM report);");
  }
  exec("INSERT OR IGNORE INTO report SELECT * FROM staged_report;"
       "DELETE FROM staged_report; DELETE FROM staged_sighting;"
       "DELETE FROM staged_seen;");
  stagedSightings_ = 0;
}


void FieldStore::addInput(uint64_t rank, const std::string &path) {
  Query q(db_, prepare("INSERT OR IGNORE INTO input VALUES (?, ?)"));
  q.number(1, rank).text(2, path).step();
}

uint64_t FieldStore::inputs() const {
  Query q(db_, prepare("SELECT count(*) FROM input"));
  q.step();
  return q.countAt(0);
}

void FieldStore::forEachInput(const std::function<void(const std::string &)> &visit) const {
  Query q(db_, prepare("SELECT path FROM input ORDER BY rank, path"));
  while (q.step() == SQLITE_ROW)
    visit(q.textAt(0));
}

uint64_t FieldStore::reports() const {
  Query q(db_, prepare("SELECT count(*) FROM report"));
  q.step();
  return q.countAt(0);
}

void FieldStore::forEachReport(
    const std::function<void(const std::string &, const MergedReport &)> &visit) const {
  Query q(db_, prepare("SELECT id, module, build_id, pid, started, written, "
                       "reason, dropped, context_modules FROM report ORDER BY id"));
  while (q.step() == SQLITE_ROW)
    visit(q.textAt(0), reportAt(q, 1));
}

// A sighting keeps its calling contexts only if it is one of its path's
// kContextReportsPerPath sightings with contexts sampled most often (then
// by report id). A set's first few by a fixed order are those of its
// parts' first few: merges in any order or grouping agree.
#define PATHCOV_SIGHTINGS(WHERE)                                               \
  "SELECT identity, checksum, id, report, count, first, build_id, contexts, "  \
  "kept > 0 AND ROW_NUMBER() OVER (PARTITION BY identity, checksum, id "       \
  "ORDER BY kept > 0 DESC, samples DESC, report) <= ?1 FROM (SELECT s.*, "      \
  "r.build_id, CASE s.contexts WHEN '' THEN 0 ELSE "                           \
  "json_array_length(s.contexts, '$.kept') END AS kept, CASE s.contexts WHEN " \
  "'' THEN 0 ELSE json_extract(s.contexts, '$.samples') END AS samples FROM "  \
  "sighting s JOIN report r ON r.id = s.report" WHERE ") ORDER BY identity, "  \
  "checksum, id, report"

void FieldStore::forEachSighting(
    const FunctionKey *only,
    const std::function<void(const FieldKey &, const std::string &,
                             const std::string &, const FieldSighting &)> &visit) const {
  Query q(db_, prepare(only ? PATHCOV_SIGHTINGS(" WHERE s.identity = ?2 AND s.checksum = ?3")
                            : PATHCOV_SIGHTINGS("")));
  q.count(1, kContextReportsPerPath);
  if (only)
    q.text(2, only->first).text(3, only->second);
  while (q.step() == SQLITE_ROW) {
    visit({q.textAt(0), q.textAt(1), q.numberAt(2)}, q.textAt(3), q.textAt(6),
          {q.numberAt(4), q.numberAt(5),
           q.countAt(8) ? contextsOf(q.textAt(7)) : CallingContexts{}});
  }
}

#undef PATHCOV_SIGHTINGS

} // namespace pathcov
