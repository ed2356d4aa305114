// The trees that mirror runtime/include/pathcov/abi.h: types, the runtime's
// entry point, and each function's descriptor and counters.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "Abi.h"
#include "GccIncludes.h"

namespace pathcov {

// The path register: uint64_t, wrapping like the core's increments
// (core/include/pathcov/core/Chords.h); a path id is its final value.
tree pathType();
tree counterType(); // uint64_t

// struct pathcov_function (Abi.h's fields); built once per compilation.
tree descriptorType();
tree descriptorField(tree type, DescriptorField which);

// The runtime's entry points, all void (struct pathcov_function *, uint64_t).
tree recordPathDecl();     // __pathcov_record_path
tree residualPathDecl();   // __pathcov_residual_path
tree residualLookupDecl(); // __pathcov_residual_lookup
// void __pathcov_kpath(struct pathcov_kpaths *, uint64_t *, uint64_t)
tree kpathDecl();

// Keeps the trees above alive across garbage collections.
void registerGcRoots(const char *pluginName);

struct FunctionTableSpec {
  std::string identity;
  std::string metadata; // the JSON record
  uint64_t cfgChecksum = 0;
  uint64_t numPaths = 0;
  uint64_t flags = 0;     // kFlag*
  uint64_t tableSize = 0; // abi.h: residual mode's table_size
  // The counters array: this many uint64_t, zero, or `initialCounters`
  // when given (residual tables); none when 0.
  uint64_t numCounters = 0;
  std::vector<uint64_t> initialCounters;
  // A residual bytemap, emitted instead of the counters when not empty:
  // constant bytes.
  std::vector<uint8_t> bytemap;
  // Nothing writes the table (a residual table without counts): a
  // constant, which the optimizers may read at compile time.
  bool readOnly = false;
  // Residual mode: this many seen slots (abi.h; a power of two), or none;
  // a word each with kFlagSeenWords, else a tag and a count.
  uint64_t seenSlots = 0;
  // Record mode: the function counts its entries (abi.h's `calls`).
  bool countsCalls = false;

  uint64_t seenArrayWords() const {
    return (flags & kFlagSeenWords) ? seenSlots : 2 * seenSlots;
  }
};

// What emitFunctionTables made (NULL_TREE: none).
struct FunctionTableTrees {
  tree descriptor;
  tree counters;
  tree seen;  // residual mode's seen slots
  tree calls; // record mode's entry count
};

// Sets `add` and clears `remove` in an emitted descriptor's flags (before
// the unit is output).
void setDescriptorFlags(tree descriptor, uint64_t add, uint64_t remove);

// Emits the counters, the seen slots, the metadata record in section
// kMetadataSection (not loaded; the tools read it), the descriptor and its
// pointer in section pathcov_functions.
FunctionTableTrees emitFunctionTables(const FunctionTableSpec &spec);

// Record mode, k=N: the function's struct pathcov_kpaths (abi.h), for
// `descriptor`.
tree emitKPaths(tree descriptor, unsigned k);

// A metadata record with no descriptor (a skipped function).
void emitMetadataOnly(const std::string &metadata);

} // namespace pathcov
