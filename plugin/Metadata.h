// The per-function metadata record (docs/record-formats.md). No GCC
// headers here: the JSON library and GCC's poisoned identifiers do not mix.
#pragma once

#include "PluginOptions.h"

#include "pathcov/core/Dag.h"

#include <string>
#include <vector>

namespace pathcov {

struct FunctionIdentity {
  std::string identity; // assembler name, "TU:name" when local
  std::string assemblerName;
  std::string name; // printable, demangled
  std::string tu;
  std::string file;
  int line = 0;
  bool isPublic = true;
};

struct BlockSource {
  std::string file; // empty: the function's own file
  std::vector<int> lines;
};

struct FunctionRecord {
  const Cfg &cfg;
  const std::vector<BlockSource> &sources; // per block
  const std::vector<BlockId> &forcedCuts;
  const NumberedDag &numbered;
  PathCount acyclicPaths;
  bool hashed;
};

std::string metadataRecord(const FunctionIdentity &id,
                           const FunctionRecord &function,
                           const PluginOptions &options);

std::string skippedRecord(const FunctionIdentity &id,
                          const std::string &reason);

} // namespace pathcov
