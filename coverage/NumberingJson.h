// The pathcov-numbering JSON document that `pathcov number` prints
// (format described in docs/number.md and schemas/numbering.schema.json).
#pragma once

#include "CfgJson.h"
#include "Numbering.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>

namespace pathcov {

inline constexpr const char *kNumberingFormat = "pathcov-numbering";
inline constexpr const char *kNumberingFormatVersion = "1.0";

// --all-paths lists paths one by one: refused above this many.
inline constexpr uint64_t kMaxListedPaths = 10000;

// Throws InputError if `listAllPaths` and the function has more than
// kMaxListedPaths paths.
nlohmann::ordered_json numberingJson(const CfgInput &input,
                                     const FunctionNumbering &numbering,
                                     bool listAllPaths);

} // namespace pathcov
