// Where the tools find the source file a record names (docs/report.md,
// "Finding the sources"): the plugin records project paths, often relative
// to a source root on the machine that compiled them.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace CLI {
class App;
}

namespace pathcov {

// --source and --source-root, for a command that prints paths (show,
// decode): `source` is set by either; `recordRoot` names where the
// recorded root comes from in the help text ("the corpus's source_root").
void addSourceOptions(CLI::App &command, bool &source,
                      std::vector<std::string> &roots,
                      const std::string &recordRoot);

class SourceFiles {
public:
  // `roots`: the --source-root directories, in the order given.
  explicit SourceFiles(std::vector<std::string> roots) : roots_(std::move(roots)) {}

  // The file to read for `recorded`, a path from a record whose
  // source_root is `recordRoot` ("" if none): an absolute path as it is;
  // a relative one joined with the first of the --source-root
  // directories, the record's root and the working directory under which
  // it is a readable file, else as it is.
  std::string locate(const std::string &recorded, const std::string &recordRoot) const;

  // The directories relative paths are looked up in, before the working
  // directory: the --source-root ones, then `recordRoots` not among them.
  std::vector<std::string> searchPath(const std::vector<std::string> &recordRoots) const;

  // The lines of the file locate() finds, read once and kept; null if it
  // cannot be read (gone, not a regular file, over the tools' input limit).
  const std::vector<std::string> *lines(const std::string &recorded,
                                        const std::string &recordRoot) const;

  // For show and decode --source: one line on standard error naming the
  // files lines() could not read, if any, and what --source-root is for:
  // their rows would otherwise show numbers and no text, unexplained (a
  // build with -ffile-prefix-map records no root to look in).
  void reportUnread(const std::string &command) const;

private:
  std::vector<std::string> roots_;
  // By recorded name and record root, so that a file is located (stat
  // calls per search directory) and read once however many path rows
  // name it; null for a file that could not be read.
  mutable std::map<std::pair<std::string, std::string>,
                   std::shared_ptr<const std::vector<std::string>>>
      read_;
};

} // namespace pathcov
