#include "SourceFiles.h"

#include <algorithm>
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

std::vector<std::string>
SourceFiles::searchPath(const std::vector<std::string> &recordRoots) const {
  std::vector<std::string> dirs = roots_;
  for (const std::string &root : recordRoots)
    if (!root.empty() && std::find(dirs.begin(), dirs.end(), root) == dirs.end())
      dirs.push_back(root);
  return dirs;
}

} // namespace pathcov
