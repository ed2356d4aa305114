// --include-file and --exclude-file, --include-function and
// --exclude-function: which functions a command looks at, as the plugin's
// arguments of the same names decide which it instruments (docs/report.md,
// "Choosing files").
#pragma once

#include "pathcov/format/Corpus.h"

#include <string>
#include <vector>

namespace CLI {
class App;
class Option;
}

namespace pathcov {

struct FileFilter {
  // fnmatch(3) patterns matched against a function's recorded source file
  // (relative to the source root, absolute outside it); `*` also matches
  // `/`, as in the plugin's.
  std::vector<std::string> include, exclude;
  // Matched against a function's assembler name and its printable name, as
  // the plugin's include-function and exclude-function (a test-only copy
  // of a library in another namespace: pugixml's tests' `pugih::*`).
  std::vector<std::string> includeFunctions, excludeFunctions;

  bool wants(const FunctionMetadata &function) const;
};

// The options, for a command that also reads them from a file (gate's
// config) and must know whether the command line set them.
struct FileFilterFlags {
  CLI::Option *include, *exclude, *includeFunctions, *excludeFunctions;
};
FileFilterFlags addFileFilterOptions(CLI::App &command, FileFilter &filter);

// Leaves in `corpus` only the functions `filter` wants, and the field paths
// of those it kept. Throws UsageError when an --include-file or
// --include-function pattern matches no function: an empty report from a
// mistyped pattern would read as nothing tested. An --exclude-file or
// --exclude-function pattern that matches none changes nothing, but was
// meant to: `command` warns on stderr (a new user's '*/tests/*' for the
// top-level tests/, recorded as tests/main.cpp). Neither for a corpus
// that need not have them (gate's baseline: `checkPatterns` false).
void keepWantedFiles(Corpus &corpus, const FileFilter &filter, const char *command,
                     bool checkPatterns = true);

} // namespace pathcov
