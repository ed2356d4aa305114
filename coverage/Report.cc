#include "Report.h"

#include "FileIo.h"

#include "pathcov/format/InputError.h"
#include "pathcov/format/JsonFields.h"

namespace pathcov {

namespace {

bool isLowerHex(const std::string &text) {
  return text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

// A build-id: lowercase hex digits, whole bytes, or null (none).
std::string readBuildId(const nlohmann::json &doc, const JsonPath &at) {
  if (!doc.contains("build_id"))
    throw InputError(at.name("build_id") + ": missing");
  const std::string buildId = at.optionalField<std::string>(doc, "build_id", "");
  if (doc["build_id"].is_string() &&
      (buildId.empty() || buildId.size() % 2 || !isLowerHex(buildId)))
    throw InputError(at.name("build_id") +
                     ": expected lowercase hex digits, or null");
  return buildId;
}

// A path's "contexts" (format 2.1), its frames' modules checked against
// the report's `context_modules` (numModules of them).
void readContexts(const nlohmann::json &p, const JsonPath &at,
                  size_t numModules, ReportPath &path) {
  const auto found = p.find("contexts");
  if (found == p.end())
    return;
  const JsonPath in = at.at("contexts");
  path.contextSamples = in.field<uint64_t>(*found, "samples");
  const nlohmann::json &kept = in.field<const nlohmann::json &>(*found, "kept");
  if (!kept.is_array())
    throw InputError(in.name("kept") + ": expected an array");
  uint64_t counted = 0;
  for (size_t i = 0; i < kept.size(); ++i) {
    const JsonPath c = in.at("kept").index(i);
    ReportContext context;
    context.count = c.field<uint64_t>(kept[i], "count");
    context.error = c.field<uint64_t>(kept[i], "error");
    if (context.count == 0 || context.error >= context.count)
      throw InputError(c.name("count") +
                       ": expected at least 1, and more than its error");
    if (__builtin_add_overflow(counted, context.count - context.error, &counted) ||
        counted > path.contextSamples)
      throw InputError(c.name("count") + ": the contexts kept were sampled "
                       "more often than the path's samples");
    const nlohmann::json &frames =
        c.field<const nlohmann::json &>(kept[i], "frames");
    if (!frames.is_array() || frames.empty())
      throw InputError(c.name("frames") + ": expected a non-empty array");
    for (size_t k = 0; k < frames.size(); ++k) {
      const JsonPath f = c.at("frames").index(k);
      ReportFrame frame;
      frame.address = f.field<uint64_t>(frames[k], "address");
      if (!frames[k].contains("module"))
        throw InputError(f.name("module") + ": missing");
      if (!frames[k]["module"].is_null()) {
        frame.module = f.field<uint64_t>(frames[k], "module");
        if (*frame.module >= numModules)
          throw InputError(f.name("module") + ": no such entry of "
                           "context_modules (it has " +
                           std::to_string(numModules) + ")");
      }
      context.frames.push_back(frame);
    }
    path.contexts.push_back(std::move(context));
  }
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
    report.buildId = readBuildId(doc, top);
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
    if (doc.contains("context_modules")) {
      report.contextDepth = top.field<uint64_t>(doc, "context_depth");
      report.contextPeriod = top.field<uint64_t>(doc, "context_period");
      const nlohmann::json &modules =
          top.field<const nlohmann::json &>(doc, "context_modules");
      if (!modules.is_array())
        throw InputError("context_modules: expected an array");
      for (size_t i = 0; i < modules.size(); ++i) {
        const JsonPath at = top.at("context_modules").index(i);
        report.contextModules.push_back(
            {at.field<std::string>(modules[i], "path"),
             readBuildId(modules[i], at)});
      }
    }
    const nlohmann::json &paths =
        top.field<const nlohmann::json &>(doc, "residual_paths");
    if (!paths.is_array())
      throw InputError("residual_paths: expected an array");
    for (size_t i = 0; i < paths.size(); ++i) {
      const nlohmann::json &p = paths[i];
      const JsonPath at = top.at("residual_paths").index(i);
      ReportPath path;
      path.identity = at.field<std::string>(p, "identity");
      if (path.identity.empty())
        throw InputError(at.name("identity") + ": expected a function identity");
      path.checksum = at.field<std::string>(p, "checksum");
      if (path.checksum.size() != 16 || !isLowerHex(path.checksum))
        throw InputError(at.name("checksum") +
                         ": expected 16 lowercase hex digits");
      path.id = at.field<uint64_t>(p, "id");
      path.count = at.field<uint64_t>(p, "count");
      if (path.count == 0)
        throw InputError(at.name("count") +
                         ": a listed path has a count of at least 1");
      path.firstSeenNs = at.field<uint64_t>(p, "first_seen_ns");
      path.thread = at.field<uint64_t>(p, "thread");
      readContexts(p, at, report.contextModules.size(), path);
      report.residualPaths.push_back(std::move(path));
    }
    report.droppedPaths = top.field<uint64_t>(doc, "dropped_paths");
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
  return {r.module, r.buildId, r.pid, r.startedNs, r.writtenNs, r.reason,
          r.droppedPaths};
}

} // namespace pathcov
