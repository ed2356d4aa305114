#include "Corpus.h"

#include "JsonFields.h"

#include "pathcov/core/Paths.h"

#include <algorithm>
#include <tuple>

namespace pathcov {

FunctionKey keyOf(const FunctionMetadata &f) { return {f.identity, f.checksum}; }

uint64_t interruptedCalls(const FunctionMetadata &f, const NumberedDag &numbered,
                          uint64_t calls,
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
  return calls > finished ? calls - finished : 0;
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

Corpus readCorpus(const nlohmann::json &doc) {
  checkFormat(doc, "pathcov-corpus", 1);
  Corpus corpus;
  for (const nlohmann::json &m : field<const nlohmann::json &>(doc, "modules"))
    corpus.modules.push_back({field<std::string>(m, "path"),
                              optionalString(m, "build_id")});
  corpus.profiles = field<uint64_t>(doc, "profiles");
  const nlohmann::json &functions = field<const nlohmann::json &>(doc, "functions");
  for (size_t i = 0; i < functions.size(); ++i) {
    const nlohmann::json &j = functions[i];
    const std::string where = "functions[" + std::to_string(i) + "]";
    const JsonPath at(where);
    try {
      CorpusFunction f;
      f.metadata = parseFunctionMetadata(j);
      if (f.metadata.skipped.empty()) {
        f.calls = at.field<uint64_t>(j, "calls");
        f.interrupted = at.field<uint64_t>(j, "interrupted");
        f.invalidIds = at.field<uint64_t>(j, "invalid_ids");
        f.dropped = at.field<uint64_t>(j, "dropped");
        for (const nlohmann::json &p : at.field<const nlohmann::json &>(j, "paths")) {
          const uint64_t id = at.field<uint64_t>(p, "id");
          if (id >= f.metadata.numPaths)
            throw InputError(at.name("paths") + ": path id " +
                             std::to_string(id) + " is not a path");
          f.paths[id] = {at.field<uint64_t>(p, "count"),
                         at.field<std::set<std::string>>(p, "tests")};
        }
      }
      const FunctionKey key = keyOf(f.metadata);
      if (!corpus.functions.emplace(key, std::move(f)).second)
        throw InputError("function " + key.first + " is listed twice");
    } catch (const InputError &e) {
      throw InputError(where + ": " + e.what());
    }
  }
  return corpus;
}

} // namespace pathcov
