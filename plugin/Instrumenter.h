// Puts Ball-Larus path profiling code into one function's GIMPLE.
#pragma once

#include "PluginOptions.h"
#include "pathcov/core/Chords.h"
#include "pathcov/core/Dag.h"

#include "GimpleCfg.h"

#include <string>

namespace pathcov {

// Where the counters of a function live (see runtime/include/pathcov/abi.h).
struct FunctionTables {
  tree descriptor; // struct pathcov_function
  tree counters;   // uint64_t[num_paths + 1], or NULL_TREE when hashed
};

// The reason the function's abnormal edges cannot be instrumented, or "".
std::string checkAbnormalEdges(const GimpleCfg &g, const Dag &dag);

// Inserts the path register updates on the chords, the counting code at
// every path end, and the call count at entry. Only after the whole
// numbering succeeded: nothing here can fail half-way.
void instrumentPaths(const GimpleCfg &g, const NumberedDag &numbered,
                     const ChordPlacement &chords,
                     const FunctionTables &tables,
                     const PluginOptions &options);

} // namespace pathcov
