// Reading a CFG and its interesting paths from a pathcov-cfg JSON document
// (format described in docs/number.md and schemas/cfg.schema.json).
#pragma once

#include "pathcov/core/Cfg.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pathcov {

// An interesting path as the input gives it: by its blocks or by its
// Ball-Larus id. Either way it can only be checked once the CFG is numbered.
struct PathRequest {
  std::string location;                // e.g. "interesting_paths[2]"
  std::vector<BlockId> blocks;         // when given by blocks
  std::optional<uint64_t> ballLarusId; // when given by id
};

struct CfgInput {
  std::optional<std::string> function;
  std::vector<std::string> blockNames; // indexed by BlockId
  Cfg cfg;
  std::vector<PathRequest> interestingPaths;
};

// The major format version this reader understands; any 1.x is accepted
// and fields it does not know are ignored.
inline constexpr const char *kCfgFormat = "pathcov-cfg";
inline constexpr unsigned kCfgFormatMajorVersion = 1;

// Throws InputError, located in the document, for anything that is not a
// valid pathcov-cfg 1.x document describing a valid CFG.
CfgInput readCfgJson(const nlohmann::json &document);

} // namespace pathcov
