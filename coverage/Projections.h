// What the tested paths of each function cover, computed once for every
// `pathcov report` format (docs/report.md): the runs through each block,
// edge and line and the paths through each line, and from them the
// projections onto lines and branches for the dashboards that only know
// those (LCOV, gcovr, Cobertura, SonarQube, the JSON summary), the HTML
// report's counts and colours, and the DAG that SARIF's paths are read on.
//
// A projection loses what makes paths paths: it counts how often each line
// and branch ran on tested paths, not which combinations of them ran.
#pragma once

#include "pathcov/format/Corpus.h"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace pathcov {

// A source line: the file as the corpus names it, and the line number.
using SourceLine = std::pair<std::string, int>;

// The file of block `b`'s lines: its own, else the function's.
const std::string &blockFile(const FunctionMetadata &m, BlockId b);

// One branch (an out-edge of a block that decides between true/false or
// switch cases), placed at the block's last line.
struct BranchProjection {
  SourceLine line;
  BlockId block = 0;
  unsigned index = 0;    // the edge's position among the block's branches
  bool blockRan = false; // some tested path runs through the block
  uint64_t taken = 0;    // runs of tested paths that take this edge
};

// Some things and how many of them the tests ran: the paths through a
// line, or a decision line's "branches" (DecisionCount).
struct TestedShare {
  uint64_t total = 0;
  uint64_t tested = 0;
};

// A decision line: the last line of a block with branches, and what its
// "branches" are for Cobertura's condition-coverage and SonarQube's
// branchesToCover (docs/report.md):
enum class DecisionCount {
  // the function's paths that run through any block on the line, those of
  // them the tests ran: path coverage, the default;
  Paths,
  // the line's branch outcomes (LCOV's BRDA on it), those a tested path
  // takes: gcov's, gcovr's and LCOV's branch coverage.
  Outcomes,
};

struct FunctionProjection {
  const CorpusFunction *function = nullptr;
  NumberedDag numbered; // the DAG the path ids number
  // Runs of tested paths through each block, and along each CFG edge (an
  // edge that leaves the DAG: docs/report.md, "Edges that leave the DAG").
  std::vector<uint64_t> blockRuns;
  std::vector<uint64_t> edgeRuns;
  // Every line of the function's blocks: the largest runs of its blocks.
  std::map<SourceLine, uint64_t> lines;
  // Every line of the function's blocks: the paths through any of them.
  std::map<SourceLine, TestedShare> linePaths;
  std::vector<BranchProjection> branches;
  std::map<SourceLine, TestedShare> decisions;
};

// Projects an instrumented function (not for skipped ones).
FunctionProjection projectFunction(const CorpusFunction &f,
                                   DecisionCount decisions = DecisionCount::Paths);

// A function's lines, paths and decisions added up per source line over
// all functions: line counts add up (a line in several functions, a
// template or inline function in several units, ran that many times in
// all); paths through lines and decisions add up their paths and tested
// paths.
struct FileProjection {
  std::string file;
  // The source_root of the functions with lines here: a relative `file` is
  // relative to it on the machine that compiled it; "" if none.
  std::string sourceRoot;
  std::vector<const FunctionProjection *> functions; // defined in this file
  std::map<int, uint64_t> lines;
  std::map<int, TestedShare> linePaths;
  std::vector<const BranchProjection *> branches;
  std::map<int, TestedShare> decisions;
};

struct CorpusProjection {
  std::vector<FunctionProjection> functions; // instrumented, source order
  std::vector<const CorpusFunction *> skipped;
  std::map<std::string, FileProjection> files;
};

CorpusProjection projectCorpus(const Corpus &corpus,
                               DecisionCount decisions = DecisionCount::Paths);

} // namespace pathcov
