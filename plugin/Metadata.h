// The metadata record the plugin embeds for each function
// (docs/record-formats.md). No GCC headers here: the JSON library and
// GCC's poisoned identifiers do not mix.
#pragma once

#include "PluginOptions.h"

#include "pathcov/core/Residual.h"
#include "pathcov/format/Corpus.h"
#include "pathcov/format/FunctionMetadata.h"

#include <string>

namespace pathcov {

// The function's description plus how its paths are counted.
std::string metadataRecord(const FunctionMetadata &function, bool hashed,
                           const PluginOptions &options);

// Residual mode: the description plus the table policy and what the
// tools need to tell paths apart (the tested ids, the PPP interval).
std::string residualRecord(const FunctionMetadata &function,
                           const ResidualPlan &plan,
                           const PluginOptions &options);

// A function left uninstrumented: identity and reason only.
std::string skippedRecord(const FunctionMetadata &function);

} // namespace pathcov
