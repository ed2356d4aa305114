// SARIF 2.1.0 for code review: one result per residual path (field-
// observed, never tested) or per untested path, with its lines as a code
// flow and a fingerprint stable across runs and machines.
#include "ReportFormats.h"

#include "PathText.h"

#include <nlohmann/json.hpp>

#include <cctype>
#include <cstring>

namespace pathcov {

namespace {

// Stable across runs, machines and pathcov versions (Fnv1a.h).
std::string fingerprint(const FunctionMetadata &m, uint64_t id) {
  return hex64(
      fnv1a64(m.identity + '\n' + m.checksum + '\n' + std::to_string(id)));
}

// A file name as a URI reference: absolute names become file:// URIs,
// relative ones stay relative (to the directory the build ran in).
std::string uriOf(const std::string &file) {
  static const char *hex = "0123456789ABCDEF";
  std::string uri = !file.empty() && file[0] == '/' ? "file://" : "";
  for (unsigned char c : file) {
    if (isalnum(c) || std::strchr("-._~/!$&'()*+,;=:@", c))
      uri += static_cast<char>(c);
    else {
      uri += '%';
      uri += hex[c >> 4];
      uri += hex[c & 15];
    }
  }
  return uri;
}

nlohmann::json location(const std::string &file, int line,
                        const std::string &message = "") {
  nlohmann::json l{
      {"physicalLocation",
       {{"artifactLocation", {{"uri", uriOf(file)}}},
        {"region", {{"startLine", line}}}}}};
  if (!message.empty())
    l["message"] = {{"text", message}};
  return l;
}

// SARIF's stacks of a result: a field path's calling contexts, each a
// stack of frames, innermost first (where the path's code is, then its
// callers' calls).
nlohmann::json contextStacks(const SourceContexts &contexts,
                             const std::string &function) {
  nlohmann::json stacks = nlohmann::json::array();
  for (const SourceContext &c : contexts.kept) {
    nlohmann::json frames = nlohmann::json::array();
    for (const SourceFrame &f : c.frames) {
      nlohmann::json frame = {
          {"location",
           {{"logicalLocations", {{{"fullyQualifiedName", f.function}}}}}}};
      if (!f.file.empty() && f.line > 0)
        frame["location"]["physicalLocation"] =
            location(f.file, f.line)["physicalLocation"];
      frames.push_back(std::move(frame));
    }
    stacks.push_back(
        {{"message",
          {{"text", "Sampled " + countText(c) + " of " +
                        std::to_string(contexts.samples) +
                        " times: " + contextText(c, function)}}},
         {"frames", std::move(frames)}});
  }
  return stacks;
}

nlohmann::json sarifResult(const FunctionProjection &projection, uint64_t id,
                           bool residual, uint64_t fieldCount,
                           const SourceContexts *contexts) {
  const FunctionMetadata &m = projection.function->metadata;
  const PathDescription p = describePath(m, projection.numbered, id);
  nlohmann::json flow = nlohmann::json::array();
  int firstLine = m.line;
  std::string firstFile = m.file;
  for (const PathStep &step : p.steps) {
    const SourceBlock &source = m.blocks[step.block];
    const std::string &file = blockFile(m, step.block);
    for (size_t i = 0; i < source.lines.size(); ++i) {
      const bool decides = i + 1 == source.lines.size() && !step.exit.empty();
      if (flow.empty()) {
        firstLine = source.lines[i];
        firstFile = file;
      }
      flow.push_back(
          {{"location",
            location(file, source.lines[i], decides ? step.exit : "")}});
    }
  }
  const std::string text =
      (residual ? "Path " + std::to_string(id) + " of " + m.name +
                      " ran in the field" +
                      (fieldCount ? " (" + std::to_string(fieldCount) +
                                        " runs)"
                                  : "") +
                      " but never in the tests: "
                : "Path " + std::to_string(id) + " of " + m.name +
                      " is never run by the tests: ") +
      pathText(m, p);
  nlohmann::json result = {{"ruleId", residual ? "pathcov/residual-path" : "pathcov/untested-path"},
          {"level", residual ? "warning" : "note"},
          {"message", {{"text", text}}},
          {"locations", {location(firstFile, firstLine)}},
          {"codeFlows",
           {{{"threadFlows", {{{"locations", std::move(flow)}}}}}}},
          {"partialFingerprints", {{"pathcov/v1", fingerprint(m, id)}}},
          {"properties",
           {{"identity", m.identity},
            {"checksum", m.checksum},
            {"path_id", id},
            {"num_paths", m.numPaths}}}};
  if (contexts && !contexts->kept.empty())
    result["stacks"] = contextStacks(*contexts, m.name);
  return result;
}

} // namespace

std::string writeSarif(const ReportInput &input) {
  const ReportSettings &settings = input.settings;
  const bool residual = !input.field.empty();
  nlohmann::json results = nlohmann::json::array();
  bool truncated = false;
  for (const FunctionProjection &projection : input.projection.functions) {
    const CorpusFunction &f = *projection.function;
    const FunctionMetadata &m = f.metadata;
    std::vector<std::pair<uint64_t, uint64_t>> ids; // id, field count
    if (residual) {
      const auto found = input.field.find(keyOf(m));
      if (found == input.field.end())
        continue;
      for (const auto &[id, count] : found->second)
        if (!f.paths.count(id))
          ids.emplace_back(id, count);
    } else {
      if (f.calls == 0 || m.numPaths > settings.maxFunctionPaths)
        continue;
      for (uint64_t id = 0; id < m.numPaths; ++id)
        if (!f.paths.count(id))
          ids.emplace_back(id, 0);
    }
    for (const auto &[id, count] : ids) {
      if (results.size() == settings.maxResults) {
        truncated = true;
        break;
      }
      const auto contexts = input.contexts.find({m.identity, m.checksum, id});
      results.push_back(sarifResult(
          projection, id, residual, count,
          contexts == input.contexts.end() ? nullptr : &contexts->second));
    }
    if (truncated)
      break;
  }
  const nlohmann::json rules = nlohmann::json::array(
      {{{"id", "pathcov/residual-path"},
        {"name", "ResidualPath"},
        {"shortDescription",
         {{"text", "A path that ran in the field but never in the tests"}}},
        {"defaultConfiguration", {{"level", "warning"}}}},
       {{"id", "pathcov/untested-path"},
        {"name", "UntestedPath"},
        {"shortDescription",
         {{"text", "A path of a tested function that no test runs"}}},
        {"defaultConfiguration", {{"level", "note"}}}}});
  const nlohmann::json doc{
      {"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
      {"version", "2.1.0"},
      {"runs",
       {{{"tool",
          {{"driver",
            {{"name", "pathcov"},
             {"version", PATHCOV_VERSION},
             {"informationUri", "https://github.com/pathcov/pathcov"},
             {"rules", rules}}}}},
         {"results", std::move(results)},
         {"properties",
          {{"mode", residual ? "residual" : "untested"},
           {"truncated", truncated},
           {"max_results", settings.maxResults}}}}}}};
  return doc.dump(1) + "\n";
}

} // namespace pathcov
