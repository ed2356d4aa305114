// The instrumented modules (executables, shared libraries) whose metadata
// the tools read: found by the build-id of the profile or report that names
// them, read once each, by collect and decode. A module whose metadata was detached (stripped, or gone) is read from
// DIR/.build-id/xx/rest.debug under a debug directory, as debuggers find
// debug info.
#pragma once

#include "ElfMetadata.h"

#include "pathcov/format/Corpus.h"
#include "pathcov/format/FunctionMetadata.h"
#include "pathcov/format/FunctionRecord.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace pathcov {

struct LoadedModule {
  CorpusModule module; // its path and build-id
  std::vector<FunctionMetadata> functions;
  // Per function, in the same order: its residual-mode fields, or nullopt
  // for a record-mode (or skipped) function's record.
  std::vector<std::optional<ResidualMetadata>> residual;
};

// gdb's default debug directory.
constexpr const char *kDefaultDebugDir = "/usr/lib/debug";

class ModuleIndex {
public:
  // Where detached metadata is looked for, in this order.
  explicit ModuleIndex(std::vector<std::string> debugDirs = {kDefaultDebugDir})
      : debugDirs_(std::move(debugDirs)) {}

  // Reads the module at `path` (given with --binary); modules with the
  // same build-id are read once. Throws InputError naming the file.
  void add(const std::string &path);

  // The module a profile or report (`writer`: "profile", "report") was
  // written by: added already (--binary) with that build-id, or at the path
  // it names if its build-id matches, its metadata there or detached. When
  // the path is gone or has another build, the detached metadata with that
  // build-id still serves. Throws InputError saying which it looked for
  // and where.
  const LoadedModule &moduleFor(const std::string &path,
                                const std::string &buildId,
                                const std::string &writer);

  // Every module's functions, with no counts yet.
  void addTo(Corpus &corpus) const;

private:
  // Adds `module`'s records as the module at `path` (the records may come
  // from its detached metadata).
  void load(const std::string &path, const ModuleMetadata &module);
  // `module` if it has its metadata, else the detached metadata of its
  // build-id. Throws InputError naming the paths it tried.
  ModuleMetadata withMetadata(ModuleMetadata module) const;
  // The detached metadata of `buildId` (its path is the file read), or
  // nullopt with `tried` saying which paths were looked at and what was
  // wrong with each.
  std::optional<ModuleMetadata> detached(const std::string &buildId,
                                         std::string &tried) const;
  static std::string moduleKey(const std::string &buildId,
                               const std::string &path);

  std::vector<std::string> debugDirs_;
  std::map<std::string, LoadedModule> modules_;
  size_t given_ = 0; // modules given with add()
};

} // namespace pathcov
