// Puts path profiling code into one function's GIMPLE: Ball-Larus counting
// (record mode), or the residual check with a parallel PPP register
// (residual mode).
#pragma once

#include "PluginOptions.h"
#include "pathcov/core/Chords.h"
#include "pathcov/core/Dag.h"
#include "pathcov/core/Residual.h"

#include "GimpleCfg.h"
#include "TestedRoutes.h"

#include <string>
#include <vector>

namespace pathcov {

// What a path end does (runtime/include/pathcov/abi.h).
enum class PathEnd {
  CountInline,   // record: counters[min(id, num_paths)]++
  CountHashed,   // record: __pathcov_record_path(fn, id)
  CheckBytemap,  // residual: byte id of the bytemap set ? nothing : miss
  CheckTable,    // residual: table[ppp & size] holds id ? count it
                 // (if counted) : miss
  CheckHashed,   // residual: table[h1(id)] or table[h2(id)] (or
                 // table[h3(id)]) holds id ? count it (if counted) : miss
                 // (cuckoo hash, see hashSlot)
  LookUp,        // residual: __pathcov_residual_lookup(fn, id)
  Residual,      // residual: miss
};
// A residual path end's miss: with seen slots (abi.h), slot
// k = id & (slots - 1) holds tag id + 1 ? its count++ :
// __pathcov_residual_path(fn, id); without, the call alone.

// Where the counters of a function live, and how its paths end.
struct FunctionTables {
  tree descriptor = NULL_TREE; // struct pathcov_function
  tree counters = NULL_TREE;   // its counters, table or bytemap, or none
  PathEnd pathEnd = PathEnd::Residual;
  uint64_t bound = 0;  // CountInline, CheckTable: the table's last index
                       // (its size is a power of two); CheckHashed: the
                       // table size (a power of two)
  bool counted = false;    // CheckTable, CheckHashed: the table has counts
                           // after its ids
  // CountInline: every path's id is below num_paths, as the numbering
  // makes it (no abnormal edge or setjmp to resume a path mid-way): the
  // count indexes the counters with the id, no mask.
  bool idsInRange = false;
  tree calls = NULL_TREE; // record mode: entries, for interrupted paths
  // Per DAG edge into EXIT: whether that path end gets code; nullptr: all.
  const std::vector<bool> *checkedEnd = nullptr;
  // Residual mode: per DAG edge, whether every path through it was tested
  // (ResidualPlan::everyPathTested); nullptr: none is known to be.
  const std::vector<bool> *everyPathTested = nullptr;
  // And of those not starting at the function's entry
  // (ResidualPlan::everyInnerPathTested); nullptr: none.
  const std::vector<bool> *everyInnerPathTested = nullptr;
  // Residual mode: the seen slots (seenSlots tags, then as many counts; or
  // with seenWords a word per path), or NULL_TREE.
  tree seen = NULL_TREE;
  uint64_t seenSlots = 0;
  bool seenWords = false;
  // CheckHashed: the multipliers, one per slot an id may sit in.
  std::vector<uint64_t> multipliers;
  // CheckTable: the table has an entry for every path's PPP id, the
  // least pppBase (ResidualPlan::unmasked): the index needs no mask.
  bool unmasked = false;
  int64_t pppBase = 0;
  // Residual mode's history=N: every path end, checked or not, appends
  // its id to the thread's path history (PathMiss.h, buildHistoryAsm).
  bool history = false;
  // Record mode's k=N: the function's struct pathcov_kpaths, where every
  // path end also goes (abi.h, __pathcov_kpath); NULL_TREE: none.
  tree kpaths = NULL_TREE;
};

// Whether an activation can run a path after another without a break:
// the function has a back edge, or a block that ends its path and jumps
// elsewhere in the function (a computed goto, an exception it catches).
// Only such functions have windows of several paths (k=N).
bool pathsFollowPaths(const GimpleCfg &g, const Dag &dag);

// The reason the function's abnormal edges cannot be instrumented, or "".
std::string checkAbnormalEdges(const GimpleCfg &g, const Dag &dag);

// Inserts the path register updates on the chords (both registers' for
// CheckTable), the path end code at every path end, and the call count at
// entry. Only after the whole numbering succeeded: nothing here can fail
// half-way.
// What instrumentPaths made: the residual checks that test a table
// (TestedRoutes.h), and the routes into a checked path end that need no
// check, every path taking them tested (FunctionTables::everyPathTested).
struct InstrumentedPaths {
  std::vector<CheckSite> checks;
  uint64_t testedRoutes = 0;
};
InstrumentedPaths instrumentPaths(const GimpleCfg &g,
                                       const NumberedDag &numbered,
                                       const ChordPlacement &chords,
                                       const FunctionTables &tables,
                                       const PluginOptions &options);

} // namespace pathcov
