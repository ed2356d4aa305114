#include "pathcov/format/ProjectPath.h"

#include <filesystem>

namespace pathcov {

namespace fs = std::filesystem;

namespace {
bool isMadeUpName(const std::string &path) {
  return path.empty() || path[0] == '<';
}
} // namespace

std::string absoluteNormal(const std::string &path, const std::string &cwd) {
  if (isMadeUpName(path))
    return path;
  std::string normal = (fs::path(cwd) / path).lexically_normal().string();
  // "dir/" and "dir" name the same directory.
  if (normal.size() > 1 && normal.back() == '/')
    normal.pop_back();
  return normal;
}

std::optional<std::string> relativeUnder(const std::string &path,
                                         const std::string &root) {
  if (root.empty())
    return std::nullopt;
  const std::string prefix = root.back() == '/' ? root : root + "/";
  if (path.size() <= prefix.size() || path.compare(0, prefix.size(), prefix) != 0)
    return std::nullopt;
  return path.substr(prefix.size());
}

std::string normalRelative(const std::string &path) {
  const std::string normal = fs::path(path).lexically_normal().string();
  return normal.rfind("./", 0) == 0 ? normal.substr(2) : normal;
}

std::string projectSpelling(const std::string &file,
                            const std::string &sourceRoot,
                            const std::string &compDir) {
  if (isMadeUpName(file))
    return file;
  std::string absolute = file;
  if (file[0] != '/') {
    const std::string normal = normalRelative(file);
    // Only a name that climbs out of the compilation directory: a prefix
    // map makes names relative to its own "." whatever the compilation
    // directory was (which it may leave as it was).
    if (normal.rfind("../", 0) != 0 || compDir.empty() || compDir[0] != '/')
      return normal;
    absolute = absoluteNormal(normal, compDir);
  }
  const std::optional<std::string> relative =
      relativeUnder(absoluteNormal(absolute, "/"), sourceRoot);
  return relative ? *relative : file[0] == '/' ? file : normalRelative(file);
}

std::string findProjectRoot(const std::string &file) {
  static const char *const kMarkers[] = {".git", ".hg", ".svn", ".pathcov-root"};
  for (fs::path dir = fs::path(file).parent_path();; dir = dir.parent_path()) {
    for (const char *marker : kMarkers) {
      std::error_code error;
      if (fs::exists(dir / marker, error))
        return dir.string();
    }
    if (dir == dir.root_path() || dir.empty())
      return "";
  }
}

ProjectPaths::ProjectPaths(const std::string &cwd, const std::string &sourceRoot,
                           const std::string &unitFile, PrefixMap prefixMap)
    : cwd_(cwd), rootGiven_(!sourceRoot.empty()),
      prefixMap_(std::move(prefixMap)) {
  const std::string unit = absoluteNormal(unitFile, cwd);
  if (!isMadeUpName(unit))
    unitDir_ = fs::path(unit).parent_path().string();
  root_ = rootGiven_ ? absoluteNormal(sourceRoot, cwd)
          : isMadeUpName(unit) ? ""
                               : findProjectRoot(unit);
}

std::string ProjectPaths::resolve(const std::string &path) const {
  const std::string fromCwd = absoluteNormal(path, cwd_);
  if (isMadeUpName(path) || unitDir_.empty())
    return fromCwd;
  const auto known = resolved_.find(path);
  if (known != resolved_.end())
    return known->second;
  // Only a #line name can be missing: GCC read every other file. A
  // relative one is looked for beside the unit; an absolute one (bash's
  // y.tab.c names the maintainer's /usr/local/src/.../parse.y) by its
  // file name there.
  const std::string fromUnit =
      path[0] == '/' ? absoluteNormal(fs::path(path).filename().string(), unitDir_)
                     : absoluteNormal(path, unitDir_);
  std::error_code error;
  const bool besideUnit = fromUnit != fromCwd && !fs::exists(fromCwd, error) &&
                          fs::exists(fromUnit, error);
  return resolved_[path] = besideUnit ? fromUnit : fromCwd;
}

std::string ProjectPaths::operator()(const std::string &path) const {
  const std::string absolute = resolve(path);
  if (isMadeUpName(absolute))
    return absolute;
  if (rootGiven_)
    if (auto relative = relativeUnder(absolute, root_))
      return *relative;
  const std::string mapped = prefixMap_(absolute);
  if (mapped != absolute)
    return normalRelative(mapped);
  if (!rootGiven_ && !root_.empty())
    if (auto relative = relativeUnder(absolute, root_))
      return *relative;
  return absolute;
}

bool isBuildProbe(const std::string &path) {
  const fs::path file(path);
  if (file.stem() == "conftest")
    return true;
  fs::path above;
  for (const fs::path &dir : file.parent_path()) {
    if (dir == "meson-private" ||
        (above == "CMakeFiles" && (dir == "CMakeScratch" || dir == "CMakeTmp")))
      return true;
    above = dir;
  }
  return false;
}

bool ProjectPaths::holdsBuild(const std::string &dir) const {
  const auto known = holdsBuild_.find(dir);
  if (known != holdsBuild_.end())
    return known->second;
  static const char *const kBuildState[] = {"CMakeCache.txt", "config.status",
                                            "meson-private"};
  bool holds = false;
  for (const char *state : kBuildState) {
    std::error_code error;
    holds = holds || fs::exists(fs::path(dir) / state, error);
  }
  return holdsBuild_[dir] = holds;
}

bool ProjectPaths::buildIndependent(const std::string &path) const {
  const std::string named = (*this)(path);
  if (isMadeUpName(named) || named[0] == '/')
    return false;
  const std::string unitDir = unitDir_ + "/";
  for (fs::path dir = fs::path(resolve(path)).parent_path();
       !dir.empty() && dir != dir.root_path(); dir = dir.parent_path()) {
    const std::string name = dir.string();
    // A directory above the unit too: an in-tree build's, or the checkout.
    if (unitDir.compare(0, name.size() + 1, name + "/") == 0)
      break;
    if (holdsBuild(name))
      return false;
  }
  return true;
}

} // namespace pathcov
