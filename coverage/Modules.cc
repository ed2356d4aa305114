#include "Modules.h"

#include "ElfMetadata.h"

#include "pathcov/format/InputError.h"
#include "pathcov/format/JsonFields.h"
#include "pathcov/core/Residual.h"

#include <algorithm>

namespace pathcov {

namespace {

bool isPolicyName(const std::string &name) {
  for (int p = 0; p < kResidualPolicies; ++p)
    if (name == residualPolicyName(static_cast<ResidualPolicy>(p)))
      return true;
  return false;
}

// The residual-mode fields of a record of `f`, or nullopt for a record-mode
// build ("mode" absent or "record").
std::optional<ResidualMetadata> parseResidual(const nlohmann::json &record,
                                              const FunctionMetadata &f) {
  const JsonPath top;
  const std::string mode = top.optionalField<std::string>(record, "mode", "");
  if (mode.empty() || mode == "record")
    return std::nullopt;
  const auto in = [&f](const std::string &problem) {
    return InputError("function " + f.identity + ": " + problem);
  };
  try {
    if (mode != "residual")
      throw InputError("mode: unknown mode \"" + mode + "\"");
    if (!f.skipped.empty())
      throw InputError("mode: a skipped function has no mode");
    ResidualMetadata r;
    r.policy = top.field<std::string>(record, "policy");
    if (!isPolicyName(r.policy))
      throw InputError("policy: unknown policy \"" + r.policy + "\"");
    r.testedIds = top.field<std::vector<uint64_t>>(record, "tested_ids");
    for (size_t i = 0; i < r.testedIds.size(); ++i) {
      const std::string where = "tested_ids[" + std::to_string(i) + "]";
      if (r.testedIds[i] >= f.numPaths)
        throw InputError(where + ": path id " +
                         std::to_string(r.testedIds[i]) +
                         " is not below num_paths " +
                         std::to_string(f.numPaths));
      if (i > 0 && r.testedIds[i] <= r.testedIds[i - 1])
        throw InputError(where + ": path ids must ascend, each once");
    }
    const bool tested = r.policy != "untested" && r.policy != "stale";
    if (tested == r.testedIds.empty())
      throw InputError("tested_ids: policy " + r.policy +
                       (tested ? " needs tested paths" : " has none"));
    if (r.policy == "stale")
      r.stale = top.field<std::string>(record, "stale");
    return r;
  } catch (const InputError &e) {
    throw in(e.what());
  }
}

} // namespace

void ModuleIndex::add(const std::string &path) {
  load(path);
  ++given_;
}

void ModuleIndex::load(const std::string &path) {
  ModuleMetadata module = readModuleMetadata(path);
  const std::string key = moduleKey(module.buildId, module.path);
  if (modules_.count(key))
    return;
  LoadedModule loaded{{module.path, module.buildId}, {}, {}};
  for (const std::string &text : module.records) {
    try {
      const nlohmann::json record = nlohmann::json::parse(text);
      checkFormat(record, "pathcov-function", 1);
      loaded.functions.push_back(parseFunctionMetadata(record));
      loaded.residual.push_back(parseResidual(record, loaded.functions.back()));
    } catch (const nlohmann::json::exception &e) {
      throw InputError(module.path + ": section pathcov_meta: " +
                       jsonErrorText(e));
    } catch (const InputError &e) {
      throw InputError(module.path + ": section pathcov_meta: " + e.what());
    }
  }
  modules_.emplace(key, std::move(loaded));
}

const LoadedModule &ModuleIndex::moduleFor(const std::string &path,
                                           const std::string &buildId,
                                           const std::string &writer) {
  const std::string key = moduleKey(buildId, path);
  const auto spell = [](const std::string &id) {
    return id.empty() ? std::string("none") : id;
  };
  auto it = modules_.find(key);
  if (it == modules_.end()) {
    ModuleMetadata atPath;
    try {
      atPath = readModuleMetadata(path);
    } catch (const InputError &e) {
      throw InputError(
          std::string(e.what()) + " (the module this " + writer +
          " was written by" +
          (given_ ? ", build-id " + spell(buildId) + ": no --binary has it)"
                  : "; pass it with --binary if it moved)"));
    }
    if (atPath.buildId != buildId)
      throw InputError("written by " + path + " with build-id " +
                       spell(buildId) + ", but that file now has build-id " +
                       spell(atPath.buildId) +
                       (given_ ? ", and no --binary has build-id " +
                                     spell(buildId)
                               : ": pass the right build with --binary"));
    load(path);
    it = modules_.find(key);
  }
  return it->second;
}

void ModuleIndex::addTo(Corpus &corpus) const {
  for (const auto &[key, loaded] : modules_) {
    corpus.modules.push_back(loaded.module);
    for (const FunctionMetadata &f : loaded.functions)
      corpus.functions.emplace(keyOf(f), CorpusFunction{f, 0, 0, 0, 0, 0, {}});
  }
}

std::string ModuleIndex::moduleKey(const std::string &buildId,
                                   const std::string &path) {
  return buildId.empty() ? "path:" + path : "build-id:" + buildId;
}

} // namespace pathcov
