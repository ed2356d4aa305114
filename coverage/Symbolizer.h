// Addresses of a calling context (a report's "contexts", docs/residual-mode.md,
// "Calling contexts") as functions and source lines: DWARF through
// elfutils' libdwfl (Debian's libdw-dev), which reads line tables, inlined
// calls and symbol tables, and finds separate debug info by build-id the
// way debuggers do. The alternative was a DWARF line-program and DIE reader
// written by hand.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace pathcov {

// One function of a frame: the innermost inlined call first, the function
// the code was compiled in last.
struct SourceFrame {
  std::string function; // empty: unknown
  std::string file;     // empty: no line information
  int line = 0;
  int declLine = 0; // the function's own first line
  // The code is GCC's split-off part of `function` (its symbol
  // NAME.part.N), which the function's own head calls.
  bool splitPart = false;
  // The compilation directory of the unit `file` is named in, if known:
  // relative names are relative to it.
  std::string compDir;
};

class Symbolizer {
public:
  // Where separate debug info (DIR/.build-id/xx/rest.debug) is looked for:
  // these directories, then the system's (/usr/lib/debug). `binaries`: the
  // files a user named for modules that moved (decode --binary), taken
  // where their build-id is the one asked for.
  explicit Symbolizer(std::vector<std::string> debugDirs,
                      std::vector<std::string> binaries = {});
  ~Symbolizer();
  Symbolizer(const Symbolizer &) = delete;
  Symbolizer &operator=(const Symbolizer &) = delete;

  // `address` (as in the object's file) of the object at `path` with
  // build-id `buildId` (lowercase hex, or empty): its functions, innermost
  // first, or none when neither the object nor its debug info is found
  // with that build-id. A return address is looked up one byte back (in
  // its call instruction); a function's start (`isReturn` false) as is.
  std::vector<SourceFrame> symbolize(const std::string &path,
                                     const std::string &buildId,
                                     uint64_t address, bool isReturn);

private:
  struct Object;
  Object *objectFor(const std::string &path, const std::string &buildId);

  std::vector<std::string> debugDirs_;
  std::vector<std::string> binaries_;
  // libdwfl's search path for separate debug info: the debug directories
  // (it finds DIR/.build-id/xx/rest.debug in each).
  std::string debugPath_;
  char *debugPathPointer_;
  std::map<std::pair<std::string, std::string>, std::unique_ptr<Object>>
      objects_;
};

} // namespace pathcov
