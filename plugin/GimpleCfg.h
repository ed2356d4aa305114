// GCC's CFG of one function, translated into the core's model.
#pragma once

// The JSON library (through FunctionMetadata.h) before GCC's headers,
// whose poisoned identifiers it uses.
#include "pathcov/format/FunctionMetadata.h"

#include "pathcov/core/Cfg.h"
#include "pathcov/format/ProjectPath.h"

#include "GccIncludes.h"

#include <functional>
#include <string>
#include <vector>

namespace pathcov {

// How a block takes part in abnormal control flow, which decides where a
// path can be ended or started without code on an abnormal edge.
enum class AbnormalRole : uint8_t {
  None,
  Dispatcher,      // .ABNORMAL_DISPATCHER: never runs, no code
  SetjmpReceiver,  // starts with a returns-twice call
  NoNormalSuccessor, // every way out is abnormal, or there is none
};

struct GimpleCfg {
  Cfg cfg;
  std::vector<basic_block> blockOf;   // per BlockId
  std::vector<edge> edgeOf;           // per EdgeId
  std::vector<AbnormalRole> abnormalRole; // per BlockId
  std::vector<SourceBlock> sources;   // per BlockId
  std::vector<BlockId> setjmpBlocks;  // forced cuts

  BlockId idOf(basic_block bb) const { return blockIndex.at(bb->index); }
  std::vector<BlockId> blockIndex;    // bb->index -> BlockId
};

// ENTRY is block 0 and EXIT block 1, the rest follow in bb->index order;
// each block's successors keep GCC's order, so the same function always
// gives the same Cfg. Block files are recorded as `paths` makes them.
GimpleCfg translateCfg(function *fun, const ProjectPaths &paths);

// The project paths of the unit being compiled: GCC's working directory,
// source-root= and prefix maps (docs/record-mode.md).
ProjectPaths unitProjectPaths(const std::string &sourceRoot);

// The function's identity fields of its metadata (docs/record-formats.md).
FunctionMetadata identifyFunction(function *fun, const ProjectPaths &paths);

// Removes the statements of `bb` that `which` picks (none that defines a
// value still used: ends of scope, counts).
void removeStatements(basic_block bb, const std::function<bool(const gimple *)> &which);

// True if every way into the block is an abnormal edge.
bool enteredOnlyAbnormally(basic_block bb);

// True if the block asks __builtin_constant_p, which GCC decides only
// after the code is copied and inlined: a copy of the block, where a value
// became a constant (a peeled iteration's counter), may decide otherwise
// than the original, and take a path the test build never could (glibc's
// toupper in a loop over i: a new user's sed). The plugin copies no such
// block (LoopPeeling.h, TestedRoutes.h).
bool asksBuiltinConstantP(basic_block bb);

// True if nothing in the function can leave it but a return: no call but
// to builtins, internal functions and functions known to be const or pure
// and to finish (not looping), that return and do not throw, no statement
// that can throw (-fnon-call-exceptions).
bool onlyReturns(function *fun);

} // namespace pathcov
