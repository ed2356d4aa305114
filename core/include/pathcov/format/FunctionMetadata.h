// One function as the plugin described it (docs/record-formats.md): its
// identity, its CFG with source lines, and how it was numbered. Read from
// metadata records and carried along in corpora, so tools can always
// rebuild the exact DAG the instrumentation used.
#pragma once

#include "pathcov/core/Cfg.h"
#include "pathcov/core/Dag.h"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace pathcov {

struct SourceBlock {
  std::string file; // empty: the function's file
  std::vector<int> lines;
};

struct FunctionMetadata {
  std::string identity;
  std::string assemblerName;
  std::string name;
  std::string tu;
  std::string file;
  // The absolute directory on the compiling machine that the relative
  // paths above are relative to; empty if none (docs/record-mode.md).
  std::string sourceRoot;
  int line = 0;
  // The -O option the function was compiled with ("-O0", "-Og", "-O2",
  // "-Os", ...); empty in records from before it was recorded. GCC's CFGs
  // differ between -O0 and the optimizing levels (docs/in-your-build.md).
  std::string optimization;
  std::string skipped; // why the plugin left it alone; empty if instrumented

  // The rest only for instrumented functions.
  std::string checksum; // 16 hex digits
  // Record mode's k=N: the function counts windows of up to k of its
  // paths (docs/record-mode.md, "Paths across iterations"); 1: none (and
  // every function without a back edge, computed goto or handler of its
  // own, whose calls run one path).
  unsigned k = 1;
  std::optional<Cfg> cfg;
  std::vector<SourceBlock> blocks;
  uint64_t pathLimit = 0;
  std::vector<BlockId> forcedCuts;
  std::vector<BlockId> cuts;
  uint64_t numPaths = 0;
  PathCount acyclicPaths;

  // The DAG and Ball-Larus numbering the instrumentation used, rebuilt.
  NumberedDag number() const;

  // Throws InputError "WHERE: ID is not a path of IDENTITY (N paths)"
  // unless `id` is one of this function's path ids.
  void requirePath(uint64_t id, const std::string &where) const;
};

// Parses and checks a record: the CFG must have the recorded checksum and
// number to the recorded cuts and path count. Throws InputError.
FunctionMetadata parseFunctionMetadata(const nlohmann::json &record);
nlohmann::json toJson(const FunctionMetadata &function);

// False if one of two FunctionMetadata::optimization options is -O0 and
// the other an optimizing level (-Og, -O1 and above): GCC's CFGs of a
// function then differ (from -O1 on, `a && b` folds into one condition),
// so tested paths recorded at one cannot serve the other. True if either
// is unknown.
bool sameCfgOptimizationClass(const std::string &a, const std::string &b);

// A function's identity (docs/record-mode.md, "Source paths and
// identities"): its assembler name alone if the linker keeps one copy of
// it (comdat, one-only, weak); its file's and name if it is a static
// function of a file other than its unit's that every build names alike
// (`headerStatic`: a header's, whose every unit's copy is then one
// function, as the copies of an inline one are); else its unit's and name
// (each program's `main`).
std::string functionIdentity(bool linkerMerged, bool headerStatic,
                             const std::string &tu, const std::string &file,
                             const std::string &assemblerName);

// Before stop 51, a header's static function was its unit's: "unit.c:name".
// For such an identity of a corpus and the function's file, the identity
// the function has now ("clamp.h:name"); "" if it is the same or the
// identity is of another kind. Residual mode (addTestedPaths) and gate's
// baseline read an older corpus's copies under it too, so they still count.
std::string headerIdentityOf(const std::string &identity, const std::string &file);

// `bytes` with every byte that is not part of well-formed UTF-8 replaced by
// the code point U+00XX of the same value: how the runtime writes such
// bytes in profiles, so names from both sides compare equal.
std::string wellFormedUtf8(const std::string &bytes);

} // namespace pathcov
