#include "FileFilter.h"

#include "ExitCodes.h"

#include <CLI/CLI.hpp>

#include <fnmatch.h>

#include <algorithm>
#include <iostream>

namespace pathcov {

namespace {

bool matches(const std::string &glob, const std::string &file) {
  return fnmatch(glob.c_str(), file.c_str(), 0) == 0;
}

bool matchesAny(const std::vector<std::string> &globs, const std::string &file) {
  return std::any_of(globs.begin(), globs.end(),
                     [&](const std::string &glob) { return matches(glob, file); });
}

bool matchesFunction(const std::string &glob, const FunctionMetadata &f) {
  return matches(glob, f.assemblerName) || matches(glob, f.name);
}

} // namespace

bool FileFilter::wants(const FunctionMetadata &f) const {
  const auto functionMatchesAny = [&](const std::vector<std::string> &globs) {
    return std::any_of(globs.begin(), globs.end(), [&](const std::string &glob) {
      return matchesFunction(glob, f);
    });
  };
  return (include.empty() || matchesAny(include, f.file)) &&
         !matchesAny(exclude, f.file) &&
         (includeFunctions.empty() || functionMatchesAny(includeFunctions)) &&
         !functionMatchesAny(excludeFunctions);
}

FileFilterFlags addFileFilterOptions(CLI::App &command, FileFilter &filter) {
  return {command.add_option(
              "--include-file", filter.include,
              "Only functions of source files matching this fnmatch(3) "
              "pattern, as recorded (relative to the source root); repeatable"),
          command.add_option("--exclude-file", filter.exclude,
                             "No function of source files matching this "
                             "pattern; repeatable, applied after "
                             "--include-file"),
          command.add_option("--include-function", filter.includeFunctions,
                             "Only functions whose assembler or printable "
                             "name matches this pattern; repeatable"),
          command.add_option("--exclude-function", filter.excludeFunctions,
                             "No function whose assembler or printable name "
                             "matches this pattern; repeatable")};
}

void keepWantedFiles(Corpus &corpus, const FileFilter &filter, const char *command,
                     bool checkPatterns) {
  struct Patterns {
    const char *option;
    const std::vector<std::string> &globs;
    bool byFile, including;
  };
  const Patterns options[] = {
      {"--include-file", filter.include, true, true},
      {"--include-function", filter.includeFunctions, false, true},
      {"--exclude-file", filter.exclude, true, false},
      {"--exclude-function", filter.excludeFunctions, false, false}};
  for (const Patterns &p : options)
    for (const std::string &glob : p.globs) {
      if (!checkPatterns ||
          std::any_of(corpus.functions.begin(), corpus.functions.end(),
                      [&](const auto &entry) {
                        const FunctionMetadata &f = entry.second.metadata;
                        return p.byFile ? matches(glob, f.file)
                                        : matchesFunction(glob, f);
                      }))
        continue;
      const std::string problem = std::string(p.option) + " " + glob +
                                  ": no function of the corpus is " +
                                  (p.byFile ? "in a matching file" : "of a matching name");
      if (p.including)
        throw UsageError(problem);
      std::cerr << "pathcov " << command << ": warning: " << problem
                << (p.byFile ? " (files are as recorded, relative to the source "
                               "root: 'tests/*' for a top-level tests/)"
                             : "")
                << "\n";
    }
  for (auto it = corpus.functions.begin(); it != corpus.functions.end();) {
    if (filter.wants(it->second.metadata)) {
      ++it;
      continue;
    }
    const auto &[identity, checksum] = it->first;
    auto path = corpus.field.lower_bound({identity, checksum, 0});
    while (path != corpus.field.end() && std::get<0>(path->first) == identity &&
           std::get<1>(path->first) == checksum)
      path = corpus.field.erase(path);
    it = corpus.functions.erase(it);
  }
}

} // namespace pathcov
