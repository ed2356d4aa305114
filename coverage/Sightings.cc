#include "Sightings.h"

#include "FileIo.h"

#include "pathcov/core/Checked.h"
#include "pathcov/format/InputError.h"
#include "pathcov/format/JsonFields.h"

#include <algorithm>
#include <tuple>

namespace pathcov {

std::map<FieldKey, FieldSighting> reportSightings(const Report &r) {
  std::map<FieldKey, FieldSighting> sightings;
  for (const ReportPath &p : r.residualPaths) {
    const auto [it, added] = sightings.try_emplace(
        FieldKey{p.identity, p.checksum, p.id},
        FieldSighting{p.count, p.firstSeenNs, p.contexts});
    if (!added) {
      it->second.count = saturatingAdd(it->second.count, p.count);
      it->second.firstSeenNs = std::min(it->second.firstSeenNs, p.firstSeenNs);
      addContexts(it->second.contexts, p.contexts);
    }
  }
  return sightings;
}

std::string sightingRows(const std::string &id, const MergedReport &r,
                         const std::map<FieldKey, FieldSighting> &sightings) {
  nlohmann::ordered_json row = {
      {"report", id},
      {"build_id", r.buildId.empty() ? nlohmann::json() : nlohmann::json(r.buildId)},
      {"module", r.module},
      {"pid", r.pid},
      {"started_ns", r.startedNs},
      {"written_ns", r.writtenNs},
      {"reason", r.reason},
      {"dropped_paths", r.droppedPaths},
      {"identity", nullptr},
      {"checksum", nullptr},
      {"id", nullptr},
      {"count", nullptr},
      {"first_seen_ns", nullptr}};
  // Calling contexts (docs/residual-mode.md), where the report has them:
  // each row has its report's modules and its sighting's contexts.
  if (!r.contextModules.empty())
    row["context_modules"] = contextModulesJson(r.contextModules);
  if (sightings.empty())
    return row.dump() + "\n";
  std::string rows;
  for (const auto &[path, s] : sightings) {
    row["identity"] = std::get<0>(path);
    row["checksum"] = std::get<1>(path);
    row["id"] = std::get<2>(path);
    row["count"] = s.count;
    row["first_seen_ns"] = s.firstSeenNs;
    if (s.contexts.samples)
      row["contexts"] = toJson(s.contexts);
    else
      row.erase("contexts");
    rows += row.dump() + "\n";
  }
  return rows;
}

namespace {

// One row's report and (unless its path fields are null) sighting.
struct Row {
  std::string id;
  MergedReport report;
  bool hasPath = false;
  ReportPath path;
};

Row readRow(const nlohmann::json &doc) {
  const JsonPath at;
  Row row;
  std::tie(row.id, row.report) = readCorpusReport(at, doc, "report");
  const char *pathFields[] = {"identity", "checksum", "id", "count", "first_seen_ns"};
  size_t present = 0;
  for (const char *key : pathFields)
    present += doc.contains(key) && !doc.at(key).is_null();
  if (present == 0)
    return row;
  if (present != std::size(pathFields))
    throw InputError("identity, checksum, id, count and first_seen_ns: all "
                     "null (a report that saw no residual path) or none");
  row.hasPath = true;
  row.path.identity = at.field<std::string>(doc, "identity");
  row.path.checksum = at.field<std::string>(doc, "checksum");
  row.path.id = at.field<uint64_t>(doc, "id");
  row.path.count = at.field<uint64_t>(doc, "count");
  row.path.firstSeenNs = at.field<uint64_t>(doc, "first_seen_ns");
  if (row.path.count == 0)
    throw InputError("count: a listed path ran at least once");
  if (doc.contains("contexts"))
    row.path.contexts = readCallingContexts(at.at("contexts"), doc["contexts"],
                                            row.report.contextModules.size());
  return row;
}

bool sameReport(const MergedReport &a, const MergedReport &b) {
  return a.module == b.module && a.reason == b.reason &&
         a.droppedPaths == b.droppedPaths &&
         a.contextModules == b.contextModules;
}

} // namespace

void foldSightingRows(const std::string &file, FieldStore &field) {
  size_t line = 0;
  try {
    forEachLine(file, [&](std::string_view content) {
      ++line;
      if (content.find_first_not_of(" \t\r") == std::string_view::npos)
        return;
      const std::string where = displayName(file) + ":" + std::to_string(line);
      Row row;
      try {
        nlohmann::json doc;
        try {
          doc = nlohmann::json::parse(content);
        } catch (const nlohmann::json::exception &e) {
          throw InputError(jsonErrorText(e));
        }
        if (!doc.is_object())
          throw InputError("expected an object (a row)");
        row = readRow(doc);
      } catch (const InputError &e) {
        throw InputError(where + ": " + e.what());
      }
      const auto earlier = field.stageReport(row.id, row.report);
      if (earlier && !sameReport(*earlier, row.report))
        throw InputError(where + ": report " + row.id +
                         ": its module, reason, dropped_paths or context_modules differ from an "
                         "earlier row's");
      if (!row.hasPath)
        return;
      const ReportPath &p = row.path;
      const FieldSighting s{p.count, p.firstSeenNs, p.contexts};
      const auto seen = field.stageSighting(std::to_string(line),
                                            {p.identity, p.checksum, p.id}, row.id, s);
      if (seen && (seen->first.count != s.count ||
                   seen->first.firstSeenNs != s.firstSeenNs ||
                   seen->first.contexts != s.contexts))
        throw InputError(where + ": report " + row.id + " sighted path " +
                         std::to_string(p.id) + " of " + p.identity +
                         " differently on line " + seen->second);
    });
  } catch (const InputError &e) {
    // The rows' own errors name the file and line; reading's do not.
    const std::string what = e.what();
    throw what.rfind(displayName(file) + ":", 0) == 0
        ? e
        : InputError(displayName(file) + ": " + what);
  }
  field.commitStaged(FieldStore::Staged::Reports);
}

} // namespace pathcov
