#include "pathcov/format/Corpus.h"

#include "pathcov/format/JsonFields.h"

#include "pathcov/core/Paths.h"

#include <algorithm>
#include <tuple>

namespace pathcov {

FunctionKey keyOf(const FunctionMetadata &f) { return {f.identity, f.checksum}; }

uint64_t interruptedPaths(const FunctionMetadata &f, const NumberedDag &numbered,
                          uint64_t callsAndResumes,
                          const std::map<uint64_t, TestedPath> &paths) {
  const Dag &dag = numbered.dag;
  uint64_t finished = 0;
  for (const auto &[id, path] : paths) {
    const DagEdge &last =
        dag.edges[regeneratePath(dag, numbered.ballLarus, id).back()];
    // A path ends its invocation by returning (a CFG edge into EXIT) or at
    // a block with no way on at all (noreturn call, resx out).
    if (last.role == DagEdgeRole::Cfg || f.cfg->succs(last.src).empty())
      finished += path.count;
  }
  return callsAndResumes > finished ? callsAndResumes - finished : 0;
}

std::vector<const CorpusFunction *> inSourceOrder(const Corpus &corpus) {
  std::vector<const CorpusFunction *> ordered;
  for (const auto &[key, f] : corpus.functions)
    ordered.push_back(&f);
  std::sort(ordered.begin(), ordered.end(),
            [](const CorpusFunction *a, const CorpusFunction *b) {
              const FunctionMetadata &x = a->metadata, &y = b->metadata;
              return std::tie(x.file, x.line, x.identity, x.checksum) <
                     std::tie(y.file, y.line, y.identity, y.checksum);
            });
  return ordered;
}

nlohmann::json toJson(const Corpus &corpus) {
  nlohmann::json modules = nlohmann::json::array();
  for (const CorpusModule &m : corpus.modules)
    modules.push_back({{"path", m.path},
                       {"build_id", m.buildId.empty() ? nlohmann::json()
                                                      : nlohmann::json(m.buildId)}});
  nlohmann::json functions = nlohmann::json::array();
  for (const CorpusFunction *f : inSourceOrder(corpus)) {
    nlohmann::json j = toJson(f->metadata);
    if (f->metadata.skipped.empty()) {
      nlohmann::json paths = nlohmann::json::array();
      for (const auto &[id, p] : f->paths)
        paths.push_back({{"id", id}, {"count", p.count}, {"tests", p.tests}});
      j["calls"] = f->calls;
      j["resumes"] = f->resumes;
      j["interrupted"] = f->interrupted;
      j["invalid_ids"] = f->invalidIds;
      j["dropped"] = f->dropped;
      j["paths"] = std::move(paths);
    }
    functions.push_back(std::move(j));
  }
  return {{"format", "pathcov-corpus"},
          {"format_version", "1.0"},
          {"modules", std::move(modules)},
          {"profiles", corpus.profiles},
          {"functions", std::move(functions)}};
}

TestedPathIndex readTestedPaths(const nlohmann::json &doc) {
  checkFormat(doc, "pathcov-corpus", 1);
  const JsonPath top;
  TestedPathIndex index;
  const auto functions = top.field<std::vector<nlohmann::json>>(doc, "functions");
  for (size_t i = 0; i < functions.size(); ++i) {
    const JsonPath at = top.at("functions").index(i);
    const nlohmann::json &f = functions[i];
    if (!at.optionalField<std::string>(f, "skipped", "").empty())
      continue;
    TestedPaths tested{at.field<std::string>(f, "checksum"), {}};
    const auto paths = at.field<std::vector<nlohmann::json>>(f, "paths");
    for (size_t k = 0; k < paths.size(); ++k)
      tested.ids.push_back(at.at("paths").index(k).field<uint64_t>(paths[k], "id"));
    std::sort(tested.ids.begin(), tested.ids.end());
    index[at.field<std::string>(f, "identity")].push_back(std::move(tested));
  }
  return index;
}

Corpus readCorpus(const nlohmann::json &doc) {
  checkFormat(doc, "pathcov-corpus", 1);
  const JsonPath top;
  Corpus corpus;
  for (const nlohmann::json &m :
       top.field<std::vector<nlohmann::json>>(doc, "modules"))
    corpus.modules.push_back(
        {top.at("modules").field<std::string>(m, "path"),
         top.at("modules").optionalField<std::string>(m, "build_id", "")});
  corpus.profiles = top.field<uint64_t>(doc, "profiles");
  const nlohmann::json &functions =
      top.field<const nlohmann::json &>(doc, "functions");
  if (!functions.is_array())
    throw InputError("functions: expected an array");
  for (size_t i = 0; i < functions.size(); ++i) {
    const nlohmann::json &j = functions[i];
    const JsonPath at = top.at("functions").index(i);
    CorpusFunction f;
    try {
      f.metadata = parseFunctionMetadata(j);
    } catch (const InputError &e) {
      throw InputError(at.where() + ": " + e.what());
    }
    if (f.metadata.skipped.empty()) {
      f.calls = at.field<uint64_t>(j, "calls");
      f.resumes = at.optionalField<uint64_t>(j, "resumes", 0);
      f.interrupted = at.field<uint64_t>(j, "interrupted");
      f.invalidIds = at.field<uint64_t>(j, "invalid_ids");
      f.dropped = at.field<uint64_t>(j, "dropped");
      if (f.interrupted > f.calls + f.resumes)
        throw InputError(at.name("interrupted") + ": more than calls and resumes");
      const nlohmann::json &paths = at.field<const nlohmann::json &>(j, "paths");
      if (!paths.is_array())
        throw InputError(at.name("paths") + ": expected an array");
      for (size_t k = 0; k < paths.size(); ++k) {
        const JsonPath p = at.at("paths").index(k);
        const uint64_t id = p.field<uint64_t>(paths[k], "id");
        if (id >= f.metadata.numPaths)
          throw InputError(p.name("id") + ": " + std::to_string(id) +
                           " is not a path of " + f.metadata.identity + " (" +
                           std::to_string(f.metadata.numPaths) + " paths)");
        const TestedPath tested{p.field<uint64_t>(paths[k], "count"),
                                p.field<std::set<std::string>>(paths[k], "tests")};
        if (tested.count == 0)
          throw InputError(p.name("count") + ": a listed path ran at least once");
        if (!f.paths.emplace(id, tested).second)
          throw InputError(p.name("id") + ": path " + std::to_string(id) +
                           " is listed twice");
      }
    }
    const FunctionKey key = keyOf(f.metadata);
    if (!corpus.functions.emplace(key, std::move(f)).second)
      throw InputError(at.where() + ": function " + key.first +
                       " is listed twice");
  }
  return corpus;
}

} // namespace pathcov
