#include "Modules.h"

#include "ElfMetadata.h"

#include "pathcov/format/InputError.h"
#include "pathcov/format/JsonFields.h"

#include <algorithm>
#include <filesystem>

namespace pathcov {

void ModuleIndex::add(const std::string &path) {
  load(path, withMetadata(readModuleMetadata(path)));
  ++given_;
}

ModuleMetadata ModuleIndex::withMetadata(ModuleMetadata module) const {
  if (module.hasMetadata)
    return module;
  std::string tried;
  if (std::optional<ModuleMetadata> found =
          detached(module.buildId, tried))
    return std::move(*found);
  throw InputError(module.path + ": no section " + kMetadataSection +
                   " (stripped?), and " + tried);
}

std::optional<ModuleMetadata>
ModuleIndex::detached(const std::string &buildId, std::string &tried) const {
  if (buildId.size() < 3) {
    tried = "no build-id to find its detached metadata by";
    return std::nullopt;
  }
  tried = "no detached metadata for build-id " + buildId + ": ";
  bool first = true;
  for (const std::string &dir : debugDirs_) {
    // The layout of debug info under gdb's debug-file-directory.
    const std::string file = dir + "/.build-id/" + buildId.substr(0, 2) +
                             "/" + buildId.substr(2) + ".debug";
    tried += first ? "" : ", ";
    first = false;
    std::error_code error;
    if (!std::filesystem::exists(file, error)) {
      tried += file + " is missing";
      continue;
    }
    try {
      ModuleMetadata found = readModuleMetadata(file);
      if (found.buildId != buildId)
        tried += file + " has build-id " +
                 (found.buildId.empty() ? "none" : found.buildId);
      else if (!found.hasMetadata)
        tried += file + " has no section " + kMetadataSection;
      else
        return found;
    } catch (const InputError &e) {
      tried += e.what();
    }
  }
  if (first)
    tried += "no --debug-dir";
  else
    tried += " (--debug-dir DIR: DIR/.build-id/xx/rest.debug)";
  return std::nullopt;
}

void ModuleIndex::load(const std::string &path, const ModuleMetadata &module) {
  const std::string key = moduleKey(module.buildId, path);
  if (modules_.count(key))
    return;
  // Errors name the file the records are in: the module, or its detached
  // metadata.
  const std::string where =
      module.path + ": section " + kMetadataSection + ": ";
  LoadedModule loaded{{path, module.buildId}, {}, {}};
  for (const std::string &text : module.records) {
    try {
      const nlohmann::json record = nlohmann::json::parse(text);
      checkFormat(record, "pathcov-function", 2);
      loaded.functions.push_back(parseFunctionMetadata(record));
      loaded.residual.push_back(parseResidualMetadata(record, loaded.functions.back()));
    } catch (const nlohmann::json::exception &e) {
      throw InputError(where + jsonErrorText(e));
    } catch (const InputError &e) {
      throw InputError(where + e.what());
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
  if (it != modules_.end())
    return it->second;
  std::optional<ModuleMetadata> atPath;
  std::string problem;
  try {
    atPath = readModuleMetadata(path);
    if (atPath->buildId != buildId)
      problem = "written by " + path + " with build-id " + spell(buildId) +
                ", but that file now has build-id " + spell(atPath->buildId) +
                (given_ ? ", and no --binary has build-id " + spell(buildId)
                        : ": pass the right build with --binary");
  } catch (const InputError &e) {
    problem = std::string(e.what()) + " (the module this " + writer +
              " was written by" +
              (given_ ? ", build-id " + spell(buildId) + ": no --binary has it)"
                      : "; pass it with --binary if it moved)");
  }
  if (problem.empty()) {
    load(path, withMetadata(std::move(*atPath)));
  } else {
    // The module is gone or rebuilt, but its detached metadata may still
    // be where debuggers look.
    std::string tried;
    std::optional<ModuleMetadata> found = detached(buildId, tried);
    if (!found)
      throw InputError(problem + "; " + tried);
    load(path, *found);
  }
  return modules_.find(key)->second;
}

void ModuleIndex::addTo(Corpus &corpus) const {
  for (const auto &[key, loaded] : modules_) {
    corpus.modules.push_back(loaded.module);
    for (const FunctionMetadata &f : loaded.functions)
      if (const auto [it, added] = corpus.functions.try_emplace(keyOf(f)); added)
        it->second.metadata = f;
  }
}

std::string ModuleIndex::moduleKey(const std::string &buildId,
                                   const std::string &path) {
  return buildId.empty() ? "path:" + path : "build-id:" + buildId;
}

} // namespace pathcov
