// The plugin's arguments: -fplugin-arg-pathcov-KEY[=VALUE].
#pragma once

#include "pathcov/core/Residual.h"

#include <cstdint>
#include <string>
#include <vector>

namespace pathcov {

enum class PluginMode { Record, Residual };

struct PluginOptions {
  PluginMode mode = PluginMode::Record;
  // The tested-path corpus: residual mode's tested paths; in record mode
  // (optional) its counts place the chords (profile-guided placement).
  std::string corpus;
  std::string sourceRoot;         // recorded paths below it are relative
  ResidualLimits residualLimits;  // when a function's table is an array
  bool warnStale = true;
  bool stats = false;             // residual mode: print policy statistics
  std::string statsFile;          // ... appended as JSON lines, not on stderr
  // Functions with at most this many paths count them in an inline array;
  // larger ones call the runtime, which keeps a hash table.
  // Up to 2^20 counters, 8 MiB of zero-initialised address space: only the
  // pages a run writes cost memory, and a profile reads only those
  // (record.c); a seen slot's test per path end costs more.
  uint64_t arrayThreshold = 524288;
  uint64_t pathLimit = uint64_t(1) << 61;
  // Residual mode: peel loops (core ResidualPlan::peel) whose body GCC
  // estimates at most this many instructions.
  unsigned peelInsns = 400;
  // Residual mode: copy at most this many statements where routes meet
  // before a check, per tested route (TestedRoutes.h); 0: never.
  unsigned threadStmts = 16;
  bool atomic = false;
  // Residual mode: log2 of each thread's path history ring (history=N);
  // 0: no history.
  unsigned historyLog2 = 0;
  // Record mode: count windows of up to k consecutive paths of an
  // activation (k=N, k-BLPP); 1: paths alone.
  unsigned k = 1;
  bool warnSkipped = true;
  // Instrument functions defined in system headers (the C++ library's
  // templates, gtest's when installed): off, as in clang's source-based
  // coverage, since they are not the project's code and cost the most.
  bool systemHeaders = false;
  // fnmatch(3) patterns, matched against the source file and against both
  // the assembler and the printable name of each function.
  std::vector<std::string> includeFiles, excludeFiles;
  std::vector<std::string> includeFunctions, excludeFunctions;

  bool wantsFile(const char *file) const;
  bool wantsFunction(const char *assemblerName, const char *name) const;
};

struct PluginArgument {
  std::string key;
  std::string value; // empty when the argument has no '='
};

// Fills `options`. Returns an error message naming the bad argument, or "".
// `help` is set when the help argument was given.
std::string parsePluginArguments(const std::vector<PluginArgument> &args,
                                 PluginOptions &options, bool &help);

extern const char *const kPluginHelp;

} // namespace pathcov
