#include "Report.h"

#include "FileIo.h"

#include <algorithm>

#include "pathcov/format/InputError.h"
#include "pathcov/format/JsonFields.h"

namespace pathcov {

namespace {

// A path's key in a report (`at`).
ReportPathKey readPathKey(const JsonPath &at, const nlohmann::json &p) {
  ReportPathKey path;
  path.identity = at.field<std::string>(p, "identity");
  if (path.identity.empty())
    throw InputError(at.name("identity") + ": expected a function identity");
  path.checksum = at.field<std::string>(p, "checksum");
  if (path.checksum.size() != 16 || !isLowerHex(path.checksum))
    throw InputError(at.name("checksum") + ": expected 16 lowercase hex digits");
  path.id = at.field<uint64_t>(p, "id");
  return path;
}

std::vector<int64_t> readSymbols(const JsonPath &at, const nlohmann::json &j) {
  if (!j.is_array())
    throw InputError(at.where() + ": expected an array of integers");
  std::vector<int64_t> symbols;
  symbols.reserve(j.size());
  for (size_t i = 0; i < j.size(); ++i) {
    if (!j[i].is_number_integer())
      throw InputError(at.index(i).where() + ": expected an integer");
    symbols.push_back(j[i].get<int64_t>());
  }
  return symbols;
}

// A report's "history" (its `at`).
std::vector<ThreadHistory> readHistory(const JsonPath &at,
                                       const nlohmann::json &j) {
  if (!j.is_array())
    throw InputError(at.where() + ": expected an array of threads");
  std::vector<ThreadHistory> threads;
  for (size_t i = 0; i < j.size(); ++i) {
    const nlohmann::json &t = j[i];
    const JsonPath here = at.index(i);
    ThreadHistory h;
    h.thread = here.field<uint64_t>(t, "thread");
    h.current = here.field<bool>(t, "current");
    h.exited = here.field<bool>(t, "exited");
    h.size = here.field<uint64_t>(t, "size");
    if (h.size < 2 || h.size > kHistoryMax || (h.size & (h.size - 1)))
      throw InputError(here.name("size") +
                       ": expected a power of two from 2 to 65536");
    h.completed = here.field<uint64_t>(t, "completed");
    const nlohmann::json &paths = here.field<const nlohmann::json &>(t, "paths");
    if (!paths.is_array())
      throw InputError(here.name("paths") + ": expected an array");
    for (size_t k = 0; k < paths.size(); ++k)
      h.paths.push_back(readPathKey(here.at("paths").index(k), paths[k]));
    const nlohmann::json &rules = here.field<const nlohmann::json &>(t, "rules");
    if (!rules.is_array())
      throw InputError(here.name("rules") + ": expected an array of rules");
    for (size_t k = 0; k < rules.size(); ++k)
      h.grammar.rules.push_back(readSymbols(here.at("rules").index(k), rules[k]));
    h.grammar.sequence = readSymbols(
        here.at("sequence"), here.field<const nlohmann::json &>(t, "sequence"));
    const std::string problem =
        checkPathGrammar(h.grammar, h.paths.size(), std::min(h.size, h.completed));
    if (!problem.empty())
      throw InputError(here.where() + "." + problem);
    threads.push_back(std::move(h));
  }
  return threads;
}

} // namespace

Report readReport(const std::string &file) {
  return readReport(readJsonFile(file), file);
}

Report readReport(const nlohmann::json &doc, const std::string &file) {
  try {
    checkFormat(doc, "pathcov-report", 2);
    const JsonPath top;
    Report report;
    report.file = file;
    report.module = top.field<std::string>(doc, "module");
    report.buildId = readBuildId(top, doc);
    report.pid = top.field<uint64_t>(doc, "pid");
    report.startedNs = top.field<uint64_t>(doc, "started_ns");
    report.writtenNs = top.field<uint64_t>(doc, "written_ns");
    report.reason = top.field<std::string>(doc, "reason");
    if (report.reason != "exit" && report.reason != "signal" &&
        report.reason != "request" && report.reason != "exec")
      throw InputError("reason: unknown reason \"" + report.reason + "\"");
    if (report.reason == "signal")
      report.signal = top.field<uint64_t>(doc, "signal");
    else if (doc.contains("signal"))
      throw InputError("signal: only for reason \"signal\"");
    if (doc.contains("test"))
      report.test = top.field<std::string>(doc, "test");
    if (doc.contains("context_modules"))
      report.contextModules =
          readContextModules(top.at("context_modules"), doc["context_modules"]);
    const nlohmann::json &paths =
        top.field<const nlohmann::json &>(doc, "residual_paths");
    if (!paths.is_array())
      throw InputError("residual_paths: expected an array");
    for (size_t i = 0; i < paths.size(); ++i) {
      const nlohmann::json &p = paths[i];
      const JsonPath at = top.at("residual_paths").index(i);
      ReportPath path;
      static_cast<ReportPathKey &>(path) = readPathKey(at, p);
      path.count = at.field<uint64_t>(p, "count");
      if (path.count == 0)
        throw InputError(at.name("count") +
                         ": a listed path has a count of at least 1");
      path.firstSeenNs = at.field<uint64_t>(p, "first_seen_ns");
      path.thread = at.field<uint64_t>(p, "thread");
      if (p.contains("first_test"))
        path.firstTest = at.field<std::string>(p, "first_test");
      if (p.contains("contexts"))
        path.contexts = readCallingContexts(at.at("contexts"), p["contexts"],
                                            report.contextModules.size());
      report.residualPaths.push_back(std::move(path));
    }
    report.droppedPaths = top.field<uint64_t>(doc, "dropped_paths");
    if (doc.contains("history"))
      report.history = readHistory(top.at("history"), doc["history"]);
    return report;
  } catch (const InputError &e) {
    throw InputError(displayName(file) + ": " + e.what());
  }
}

std::variant<Report, Corpus> readReportOrCorpus(const nlohmann::json &doc,
                                                const std::string &file) {
  const auto format = doc.is_object() ? doc.find("format") : doc.end();
  if (format != doc.end() && *format == "pathcov-report")
    return readReport(doc, file);
  try {
    if (format != doc.end() && *format == "pathcov-profile")
      throw InputError("a profile, not a corpus: turn profiles into a "
                       "corpus with pathcov collect, then merge that");
    if (format != doc.end() && format->is_string() && *format != "pathcov-corpus")
      throw InputError("format: " + format->dump() +
                       " is neither \"pathcov-corpus\" nor \"pathcov-report\"");
    return readCorpus(doc);
  } catch (const InputError &e) {
    throw InputError(displayName(file) + ": " + e.what());
  }
}

MergedReport provenanceOf(const Report &r) {
  return {r.module,    r.buildId, r.pid,          r.startedNs,
          r.writtenNs, r.reason,  r.droppedPaths, r.contextModules};
}

} // namespace pathcov
