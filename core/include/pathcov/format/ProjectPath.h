// Project paths: how the plugin records source file names so that they,
// and the identities of static functions built from them, do not depend
// on where the project is checked out (docs/record-mode.md, "Source paths
// and identities"). GCC-independent; the plugin supplies GCC's prefix maps.
#pragma once

#include <functional>
#include <map>
#include <optional>
#include <string>

namespace pathcov {

// `path` made absolute against the absolute directory `cwd` and lexically
// normalized ("." and ".." resolved, repeated slashes merged; no file
// system access). Names GCC makes up ("<built-in>", "<stdin>") and ""
// are returned unchanged.
std::string absoluteNormal(const std::string &path, const std::string &cwd);

// Absolute normal `path` relative to the absolute normal directory `root`,
// if it lies below it.
std::optional<std::string> relativeUnder(const std::string &path,
                                         const std::string &root);

// A relative path lexically normalized, without a leading "./": how a
// prefix map's result ("./a.c" for "-ffile-prefix-map=DIR=.") is
// recorded.
std::string normalRelative(const std::string &path);

// A file name from debug information (a calling context's frame) spelled
// as the plugin spells the project's own files, so that one file has one
// name in one output: a name below `sourceRoot` (a function's source_root)
// relative to it, where a relative name that climbs out of `compDir` (its
// unit's compilation directory, when absolute: "../bin/main.c" from a Meson
// build directory) is taken against it; another relative name (a
// prefix-mapped build's) as normalRelative makes it; any other unchanged.
std::string projectSpelling(const std::string &file,
                            const std::string &sourceRoot,
                            const std::string &compDir = "");

// The nearest directory above absolute `file` that holds a checkout's
// marker: .git (directory or file, as in worktrees and submodules), .hg,
// .svn or .pathcov-root; "" if none.
std::string findProjectRoot(const std::string &file);

// Whether absolute normal `path` is a file a build system compiles to probe
// the compiler: configure's conftest.c (conftest.cpp, ...), a CMake
// try_compile's (in CMakeFiles/CMakeScratch or, before CMake 3.25,
// CMakeFiles/CMakeTmp), a Meson check's (in meson-private). Some of them
// take any compiler output as the probe's failure.
bool isBuildProbe(const std::string &path);

// Computes the project path of every file name recorded for one unit.
class ProjectPaths {
public:
  // Returns the path a prefix map makes of an absolute path, or the path
  // itself when no map applies.
  using PrefixMap = std::function<std::string(const std::string &)>;

  // `cwd`: the compiler's working directory (absolute). `sourceRoot`: the
  // source-root= setting, "" if not given (relative to `cwd`). `unitFile`:
  // the unit's main source file, whose checkout marker is the root when no
  // source-root is given.
  ProjectPaths(const std::string &cwd, const std::string &sourceRoot,
               const std::string &unitFile, PrefixMap prefixMap);

  // A relative `path` is relative to the compiler's directory; a name
  // that is not there but is beside the unit is taken from there (resolve:
  // a generated parser's #line names). Then:
  // below source-root: relative to it; else, if a prefix map changes it:
  // the mapped path; else, below the unit's checkout root: relative to it;
  // else absolute.
  std::string operator()(const std::string &path) const;

  // The absolute directory relative paths are relative to; "" if none.
  const std::string &root() const { return root_; }

  // Whether another build names `path` alike: its project path is relative
  // (operator()), and the file is not one a build generated, that is, no
  // directory above it holds a build's state (CMakeCache.txt, config.status,
  // meson-private) but one above the unit too (an in-tree build's). A
  // header gnulib generates into an out-of-tree build directory is named
  // by that directory, which the tests' build and the release's differ in.
  bool buildIndependent(const std::string &path) const;

private:
  // A name as GCC opened it, a relative one against the compiler's
  // directory. One that is not there can only be a #line name: a relative
  // one (a `#line "parse.y"` that bison wrote in the source tree, compiled
  // from a build directory) is taken against the unit's own directory, an
  // absolute one (the maintainer's machine's) by its file name there,
  // where such a file is.
  std::string resolve(const std::string &path) const;

  // Whether `dir` holds a build's state (buildIndependent).
  bool holdsBuild(const std::string &dir) const;

  std::string cwd_;
  std::string unitDir_;
  mutable std::map<std::string, bool> holdsBuild_; // by directory
  // resolve's answers (a unit names a file from many blocks).
  mutable std::map<std::string, std::string> resolved_;
  std::string root_;
  bool rootGiven_; // root_ is source-root=, which comes before prefix maps
  PrefixMap prefixMap_;
};

} // namespace pathcov
