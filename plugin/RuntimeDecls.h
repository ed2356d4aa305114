// The trees that mirror runtime/include/pathcov/abi.h: types, the runtime's
// entry point, and each function's descriptor and counters.
#pragma once

#include <cstdint>
#include <string>

#include "GccIncludes.h"

namespace pathcov {

// The path register: uint64_t, wrapping like the core's increments
// (core/include/pathcov/core/Chords.h); a path id is its final value.
tree pathType();
tree counterType(); // uint64_t

// struct pathcov_function; built once per compilation.
tree descriptorType();
enum class DescriptorField {
  AbiVersion, Flags, CfgChecksum, NumPaths, Identity, Metadata, Counters,
  Calls, Runtime
};
tree descriptorField(tree type, DescriptorField which);

// void __pathcov_record_path(struct pathcov_function *, uint64_t)
tree recordPathDecl();

// Keeps the trees above alive across garbage collections.
void registerGcRoots(const char *pluginName);

struct FunctionTableSpec {
  std::string identity;
  std::string metadata; // the JSON record
  uint64_t cfgChecksum;
  uint64_t numPaths;
  bool hashed;
  bool atomic;
};

struct FunctionTables;
// Emits the counters, the metadata record in section pathcov_meta, the
// descriptor and its pointer in section pathcov_functions.
FunctionTables emitFunctionTables(const FunctionTableSpec &spec);

// A metadata record with no descriptor (a skipped function).
void emitMetadataOnly(const std::string &metadata);

} // namespace pathcov
