#include "SourceFiles.h"

#include "FileIo.h"

#include "pathcov/format/InputError.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <sstream>
#include <unistd.h>
#include <sys/stat.h>

namespace pathcov {

namespace {
bool isReadableFile(const std::string &path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
         access(path.c_str(), R_OK) == 0;
}
} // namespace

std::string SourceFiles::locate(const std::string &recorded,
                                const std::string &recordRoot) const {
  if (recorded.empty() || recorded[0] == '/')
    return recorded;
  for (const std::string &dir : searchPath({recordRoot})) {
    const std::string candidate =
        dir + (dir.back() == '/' ? "" : "/") + recorded;
    if (isReadableFile(candidate))
      return candidate;
  }
  return recorded; // the working directory's, if anywhere
}

void addSourceOptions(CLI::App &command, bool &source,
                      std::vector<std::string> &roots,
                      const std::string &recordRoot) {
  command.add_flag("--source", source,
                   "Text output: each path's source lines under it");
  command
      .add_option("--source-root", roots,
                  "Look for sources recorded with relative paths here first "
                  "(repeatable; then " + recordRoot +
                      ", then the working directory); implies --source")
      ->each([&source](const std::string &) { source = true; });
}

const std::vector<std::string> *
SourceFiles::lines(const std::string &recorded,
                   const std::string &recordRoot) const {
  const auto key = std::make_pair(recorded, recordRoot);
  const auto known = read_.find(key);
  if (known != read_.end())
    return known->second.get();
  std::shared_ptr<std::vector<std::string>> text;
  try { // records name the file: it may be gone, or a FIFO
    std::istringstream in(readInput(locate(recorded, recordRoot)));
    text = std::make_shared<std::vector<std::string>>();
    for (std::string line; std::getline(in, line);)
      text->push_back(line);
  } catch (const InputError &) {
  }
  read_[key] = text;
  return text.get();
}

void SourceFiles::reportUnread(const std::string &command) const {
  std::string names;
  size_t unread = 0;
  bool relative = false; // --source-root can help only those
  for (const auto &[key, text] : read_)
    if (!text) {
      relative = relative || key.first.empty() || key.first[0] != '/';
      if (++unread <= 3)
        names += (names.empty() ? "" : ", ") + key.first;
    }
  if (!unread)
    return;
  const bool one = unread == 1;
  std::cerr << "pathcov " << command << ": cannot read the source"
            << (one ? " of " : "s of ") << names
            << (unread > 3 ? " and " + std::to_string(unread - 3) + " more" : "")
            << (one ? ": its lines have no text; " : ": their lines have no text; ")
            << (!relative ? (one ? "it was recorded by absolute path and is not there\n"
                                 : "they were recorded by absolute path and are not "
                                   "there\n")
                : one     ? "--source-root DIR names the directory its path is "
                            "relative to\n"
                          : "--source-root DIR names the directory their paths are "
                            "relative to\n");
}

std::vector<std::string>
SourceFiles::searchPath(const std::vector<std::string> &recordRoots) const {
  std::vector<std::string> dirs = roots_;
  for (const std::string &root : recordRoots)
    if (!root.empty() && std::find(dirs.begin(), dirs.end(), root) == dirs.end())
      dirs.push_back(root);
  return dirs;
}

} // namespace pathcov
