// The tested-path corpus (schemas/corpus.schema.json): per function, its
// metadata and which paths the tests ran, how often, and in which tests.
#pragma once

#include "pathcov/format/FunctionMetadata.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace pathcov {

struct TestedPath {
  uint64_t count = 0;
  std::set<std::string> tests; // names from PATHCOV_TEST
};

struct CorpusFunction {
  FunctionMetadata metadata;
  uint64_t calls = 0;
  uint64_t resumes = 0; // second returns from setjmp (a longjmp came back)
  // Paths abandoned before they ended, never counted: calls whose last
  // path never ended (an exception passing through, a longjmp out, exit in
  // a callee), and paths a longjmp back to this function's setjmp cut
  // short (one per resume).
  uint64_t interrupted = 0;
  uint64_t invalidIds = 0; // reported by the runtime: a pathcov bug
  uint64_t dropped = 0;    // paths a full runtime table could not keep
  std::map<uint64_t, TestedPath> paths;
};

struct CorpusModule {
  std::string path;
  std::string buildId;
};

// Functions are keyed by identity and checksum: a function recompiled into
// another shape is another function.
using FunctionKey = std::pair<std::string, std::string>;

struct Corpus {
  std::vector<CorpusModule> modules;
  uint64_t profiles = 0;
  std::map<FunctionKey, CorpusFunction> functions;
};

FunctionKey keyOf(const FunctionMetadata &f);

// Abandoned paths: calls plus resumes (each starts a path that should end
// the invocation) minus the runs of paths that end the invocation.
uint64_t interruptedPaths(const FunctionMetadata &f, const NumberedDag &numbered,
                          uint64_t callsAndResumes,
                          const std::map<uint64_t, TestedPath> &paths);

// The functions ordered by file, line and identity: a stable order people
// can read.
std::vector<const CorpusFunction *> inSourceOrder(const Corpus &corpus);

nlohmann::json toJson(const Corpus &corpus);

// What a residual-mode build needs of a corpus, read without rebuilding
// each function's graph: per identity, each CFG checksum it was recorded
// with and the Ball-Larus ids of its tested paths (ascending).
struct TestedPaths {
  std::string checksum;
  std::vector<uint64_t> ids;
};
using TestedPathIndex = std::map<std::string, std::vector<TestedPaths>>;
// Throws InputError naming the place of the problem.
TestedPathIndex readTestedPaths(const nlohmann::json &doc);
// Throws InputError naming the place of the problem.
Corpus readCorpus(const nlohmann::json &doc);

} // namespace pathcov
