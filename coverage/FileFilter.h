// --include-file and --exclude-file: which source files' functions a
// command looks at, as the plugin's include-file and exclude-file
// arguments decide which it instruments (docs/report.md, "Choosing
// files").
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

  bool wants(const std::string &file) const;
};

// The two options, for a command that also reads them from a file (gate's
// config) and must know whether the command line set them.
struct FileFilterFlags {
  CLI::Option *include, *exclude;
};
FileFilterFlags addFileFilterOptions(CLI::App &command, FileFilter &filter);

// Leaves in `corpus` only the functions of the files `filter` wants, and the
// field paths of those it kept. Throws UsageError when an --include-file
// pattern matches no function's file: an empty report from a mistyped
// pattern would read as nothing tested. An --exclude-file pattern that
// matches none changes nothing, but was meant to: `command` warns on
// stderr (a new user's '*/tests/*' for the top-level tests/, recorded as
// tests/main.cpp).
void keepWantedFiles(Corpus &corpus, const FileFilter &filter, const char *command);

} // namespace pathcov
