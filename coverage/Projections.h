// Path coverage projected onto source lines and branches, for the
// dashboards that only know lines and branches (docs/report.md): what
// `pathcov report` writes as LCOV, Cobertura, SonarQube and JSON.
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

// One branch (an out-edge of a block that decides between true/false or
// switch cases), placed at the block's last line.
struct BranchProjection {
  SourceLine line;
  BlockId block = 0;
  unsigned index = 0;    // the edge's position among the block's branches
  bool blockRan = false; // some tested path runs through the block
  uint64_t taken = 0;    // runs of tested paths that take this edge
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
struct DecisionProjection {
  uint64_t paths = 0;  // with Outcomes: the outcomes
  uint64_t tested = 0; // with Outcomes: those taken
};

struct FunctionProjection {
  const CorpusFunction *function = nullptr;
  // Every line of the function's blocks: the largest execution count of
  // its blocks, a block's count being the runs of tested paths through it.
  std::map<SourceLine, uint64_t> lines;
  std::vector<BranchProjection> branches;
  std::map<SourceLine, DecisionProjection> decisions;
};

// Projects an instrumented function (not for skipped ones).
FunctionProjection projectFunction(const CorpusFunction &f,
                                   DecisionCount decisions = DecisionCount::Paths);

// A function's lines and decisions added up per source line over all
// functions: line counts add up (a line in several functions, a template
// or inline function in several units, ran that many times in all);
// decisions add up their paths and tested paths.
struct FileProjection {
  std::string file;
  // The source_root of the functions with lines here: a relative `file` is
  // relative to it on the machine that compiled it; "" if none.
  std::string sourceRoot;
  std::vector<const FunctionProjection *> functions; // defined in this file
  std::map<int, uint64_t> lines;
  std::vector<const BranchProjection *> branches;
  std::map<int, DecisionProjection> decisions;
};

struct CorpusProjection {
  std::vector<FunctionProjection> functions; // instrumented, source order
  std::vector<const CorpusFunction *> skipped;
  std::map<std::string, FileProjection> files;
};

CorpusProjection projectCorpus(const Corpus &corpus,
                               DecisionCount decisions = DecisionCount::Paths);

} // namespace pathcov
