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

} // namespace

bool FileFilter::wants(const std::string &file) const {
  return (include.empty() || matchesAny(include, file)) &&
         !matchesAny(exclude, file);
}

FileFilterFlags addFileFilterOptions(CLI::App &command, FileFilter &filter) {
  return {command.add_option(
              "--include-file", filter.include,
              "Only functions of source files matching this fnmatch(3) "
              "pattern, as recorded (relative to the source root); repeatable"),
          command.add_option("--exclude-file", filter.exclude,
                             "No function of source files matching this "
                             "pattern; repeatable, applied after "
                             "--include-file")};
}

void keepWantedFiles(Corpus &corpus, const FileFilter &filter, const char *command) {
  const auto matchesNone = [&](const std::string &glob) {
    return std::none_of(corpus.functions.begin(), corpus.functions.end(),
                        [&](const auto &entry) {
                          return matches(glob, entry.second.metadata.file);
                        });
  };
  for (const std::string &glob : filter.include)
    if (matchesNone(glob))
      throw UsageError("--include-file " + glob +
                       ": no function of the corpus is in a matching file");
  for (const std::string &glob : filter.exclude)
    if (matchesNone(glob))
      std::cerr << "pathcov " << command << ": warning: --exclude-file " << glob
                << ": no function of the corpus is in a matching file (files "
                   "are as recorded, relative to the source root: 'tests/*' "
                   "for a top-level tests/)\n";
  for (auto it = corpus.functions.begin(); it != corpus.functions.end();) {
    if (filter.wants(it->second.metadata.file)) {
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
