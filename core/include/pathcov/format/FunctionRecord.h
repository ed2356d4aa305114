// The records the plugin embeds for each function (.debug.pathcov,
// docs/record-formats.md), written and read here, in one place: a record
// mode's, a residual mode's and a skipped function's. The description they
// share is FunctionMetadata's.
#pragma once

#include "pathcov/core/Residual.h"
#include "pathcov/format/FunctionMetadata.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pathcov {

// Record mode: the description plus how its paths are counted.
// `function.k` above 1 goes in as "k" (its windows of paths).
std::string recordModeRecord(const FunctionMetadata &function, bool hashed,
                             uint64_t arrayThreshold, bool atomic);

// Residual mode: the description plus the table policy and what the tools
// need to tell paths apart (the tested ids, the PPP interval).
std::string residualModeRecord(const FunctionMetadata &function,
                               const ResidualPlan &plan, bool atomic);

// A function left uninstrumented: its identity and the reason only.
std::string skippedRecord(const FunctionMetadata &function);

// What a residual-mode record adds to the function's description.
struct ResidualMetadata {
  std::string policy;              // residualPolicyName
  std::vector<uint64_t> testedIds; // ascending; empty for untested, stale
  std::string stale;               // for stale: what did not match
  // For untested: the function's other CFGs that the tests ran
  // (ResidualPlan::testedVersions).
  std::vector<OtherVersion> testedVersions;
};

// `versions` as records and decode's JSON write them:
// [{"checksum": ..., "tested_paths": N}, ...].
nlohmann::json testedVersionsJson(const std::vector<OtherVersion> &versions);

// The residual-mode fields of a record of `f` (parsed from it by
// parseFunctionMetadata), or nullopt for a record-mode one ("mode" absent
// or "record"). Throws InputError naming the function and the field.
std::optional<ResidualMetadata>
parseResidualMetadata(const nlohmann::json &record, const FunctionMetadata &f);

} // namespace pathcov
