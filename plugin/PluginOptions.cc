#include "PluginOptions.h"

#include "pathcov/core/KPaths.h"

#include <cerrno>
#include <cstdlib>
#include <fnmatch.h>

namespace pathcov {

const char *const kPluginHelp =
    "pathcov GCC plugin: path coverage (Ball-Larus path profiling).\n"
    "Use: gcc -fplugin=PREFIX/lib/pathcov/pathcov.so\n"
    "         [-fplugin-arg-pathcov-KEY=VALUE...]\n"
    "     or: gcc -specs=PREFIX/lib/pathcov/pathcov-record.specs (or\n"
    "     pathcov-residual.specs), which also link the runtime\n"
    "  mode=record            count every acyclic path (test builds)\n"
    "  mode=residual          flag paths the corpus does not have as tested\n"
    "                         (release builds; needs corpus=)\n"
    "  corpus=FILE            the corpus from pathcov collect; residual mode:\n"
    "                         the tested paths; record mode (optional): the\n"
    "                         last run's counts put the counting code where\n"
    "                         the tests ran least (the same profile, faster)\n"
    "  source-root=DIR        record source paths below DIR relative to it\n"
    "                         (default: the checkout holding the unit's\n"
    "                         source, found by .git, .hg, .svn or\n"
    "                         .pathcov-root; prefix maps come first)\n"
    "  table-limit=N          residual mode: PPP-indexed tables of at most N\n"
    "                         entries (4096); larger ones get a hash table\n"
    "  delta-limit=X          residual mode: and only when the PPP interval\n"
    "                         is at most X times the tested paths (16)\n"
    "  two-choice-slots=N     residual mode: hash tables of at most N slots\n"
    "                         have two choices (16384); larger ones three,\n"
    "                         about half the size for a probe more\n"
    "  bytemap-limit=N        residual mode: a byte per path for functions\n"
    "                         with at most N paths (4096), no PPP register;\n"
    "                         0: PPP tables only\n"
    "  count-tested[=0|1]     residual mode: count how often each tested path\n"
    "                         runs, for reports' tested_paths (0): PPP tables\n"
    "                         with counts, slower\n"
    "  peel-iterations=N      residual mode: peel the first iteration of\n"
    "                         loops the tests ran at least N times per entry\n"
    "                         (4), so that hot iterations check nothing;\n"
    "                         0: never\n"
    "  peel-insns=N           residual mode: and whose body is at most N of\n"
    "                         GCC's estimated instructions (400)\n"
    "  thread-stmts=N         residual mode: copy at most N statements where\n"
    "                         routes meet before a check, for each route that\n"
    "                         reaches it with a tested path's id, so that the\n"
    "                         copy's check folds away (16; 0: never)\n"
    "  warn-stale[=0|1]       warn when the corpus has a function with\n"
    "                         another CFG (1)\n"
    "  stats[=FILE]           residual mode: print functions per table\n"
    "                         policy, the PPP delta distribution and the\n"
    "                         path ends checked; with FILE, append them to it\n"
    "                         as one JSON line per unit\n"
    "  array-threshold=N      inline counter arrays for functions with at most\n"
    "                         N paths, a runtime hash table above (524288)\n"
    "  path-limit=N           cut the graph so that ids stay below N (2^61)\n"
    "  atomic[=0|1]           atomic counter updates: exact under threads (0)\n"
    "  history=N              residual mode, x86-64: each thread keeps the\n"
    "                         last N paths it completed (a power of two\n"
    "                         from 2 to 65536; PATHCOV_HISTORY=N changes it\n"
    "                         at run time, 0 turns it off), which reports\n"
    "                         carry\n"
    "  k=N                    record mode: also count every window of 2..N\n"
    "                         consecutive paths one call runs, joined at\n"
    "                         back edges (paths across loop iterations;\n"
    "                         N from 1 to 16) (1)\n"
    "  include-file=GLOBS     instrument only functions in matching files\n"
    "  exclude-file=GLOBS     never instrument functions in matching files\n"
    "  include-function=GLOBS instrument only matching functions (assembler\n"
    "                         or printable name)\n"
    "  exclude-function=GLOBS never instrument matching functions\n"
    "  system-headers[=0|1]   also instrument functions defined in system\n"
    "                         headers (the C++ library's templates) (0)\n"
    "  warn-skipped[=0|1]     warn about functions left uninstrumented (1)\n"
    "  help                   print this text\n"
    "GLOBS is a comma-separated list of fnmatch(3) patterns.\n";

namespace {

bool matchesAny(const std::vector<std::string> &globs, const char *text) {
  for (const std::string &glob : globs)
    if (fnmatch(glob.c_str(), text, 0) == 0)
      return true;
  return false;
}

std::vector<std::string> splitCommas(const std::string &list) {
  std::vector<std::string> items;
  size_t start = 0;
  for (size_t comma; (comma = list.find(',', start)) != std::string::npos;
       start = comma + 1)
    items.push_back(list.substr(start, comma - start));
  items.push_back(list.substr(start));
  return items;
}

bool parseUnsigned(const std::string &text, uint64_t &value) {
  if (text.empty() || text[0] == '-')
    return false;
  char *end = nullptr;
  errno = 0;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 0);
  if (errno != 0 || *end != '\0')
    return false;
  value = v;
  return true;
}

bool parseUnsigned(const std::string &text, unsigned &value) {
  uint64_t wide = 0;
  if (!parseUnsigned(text, wide) || wide > UINT32_MAX)
    return false;
  value = static_cast<unsigned>(wide);
  return true;
}

bool parseRatio(const std::string &text, double &value) {
  char *end = nullptr;
  errno = 0;
  value = std::strtod(text.c_str(), &end);
  return !text.empty() && errno == 0 && *end == '\0' && value >= 1;
}

bool parseFlag(const std::string &text, bool &value) {
  if (text.empty() || text == "1" || text == "yes") {
    value = true;
    return true;
  }
  if (text == "0" || text == "no") {
    value = false;
    return true;
  }
  return false;
}

} // namespace

bool PluginOptions::wantsFile(const char *file) const {
  if (!includeFiles.empty() && !matchesAny(includeFiles, file))
    return false;
  return !matchesAny(excludeFiles, file);
}

bool PluginOptions::wantsFunction(const char *assemblerName,
                                  const char *name) const {
  const auto matches = [&](const std::vector<std::string> &globs) {
    return matchesAny(globs, assemblerName) || matchesAny(globs, name);
  };
  if (!includeFunctions.empty() && !matches(includeFunctions))
    return false;
  return !matches(excludeFunctions);
}

std::string parsePluginArguments(const std::vector<PluginArgument> &args,
                                 PluginOptions &options, bool &help) {
  help = false;
  for (const PluginArgument &arg : args) {
    const std::string bad = "bad argument '" + arg.key + "=" + arg.value + "'";
    if (arg.key == "help") {
      help = true;
    } else if (arg.key == "mode") {
      if (arg.value == "record")
        options.mode = PluginMode::Record;
      else if (arg.value == "residual")
        options.mode = PluginMode::Residual;
      else
        return bad + ": the modes are record and residual";
    } else if (arg.key == "corpus") {
      if (arg.value.empty())
        return bad + ": expected a file";
      options.corpus = arg.value;
    } else if (arg.key == "source-root") {
      if (arg.value.empty())
        return bad + ": expected a directory";
      options.sourceRoot = arg.value;
    } else if (arg.key == "table-limit") {
      if (!parseUnsigned(arg.value, options.residualLimits.tableEntries))
        return bad + ": expected a number";
    } else if (arg.key == "two-choice-slots") {
      if (!parseUnsigned(arg.value, options.residualLimits.twoChoiceSlots))
        return bad + ": expected a number";
    } else if (arg.key == "delta-limit") {
      if (!parseRatio(arg.value, options.residualLimits.delta))
        return bad + ": expected a number of at least 1";
    } else if (arg.key == "warn-stale") {
      if (!parseFlag(arg.value, options.warnStale))
        return bad + ": expected 0 or 1";
    } else if (arg.key == "stats") {
      if (!parseFlag(arg.value, options.stats)) {
        options.stats = true;
        options.statsFile = arg.value;
      }
    } else if (arg.key == "bytemap-limit") {
      if (!parseUnsigned(arg.value, options.residualLimits.bytemapPaths))
        return bad + ": expected a number";
    } else if (arg.key == "count-tested") {
      if (!parseFlag(arg.value, options.residualLimits.countTested))
        return bad + ": expected 0 or 1";
    } else if (arg.key == "peel-iterations") {
      if (!parseUnsigned(arg.value, options.residualLimits.peelIterations))
        return bad + ": expected a number";
    } else if (arg.key == "peel-insns") {
      if (!parseUnsigned(arg.value, options.peelInsns))
        return bad + ": expected a number";
    } else if (arg.key == "thread-stmts") {
      if (!parseUnsigned(arg.value, options.threadStmts))
        return bad + ": expected a number";
    } else if (arg.key == "array-threshold") {
      if (!parseUnsigned(arg.value, options.arrayThreshold))
        return bad + ": expected a number";
    } else if (arg.key == "path-limit") {
      if (!parseUnsigned(arg.value, options.pathLimit) ||
          options.pathLimit < 2 || options.pathLimit > (uint64_t(1) << 61))
        return bad + ": expected a number from 2 to 2^61";
    } else if (arg.key == "atomic") {
      if (!parseFlag(arg.value, options.atomic))
        return bad + ": expected 0 or 1";
    } else if (arg.key == "history") {
      uint64_t size = 0;
      if (!parseUnsigned(arg.value, size) || size < 2 || size > 65536 ||
          (size & (size - 1)))
        return bad + ": expected a power of two from 2 to 65536";
      options.historyLog2 = 0;
      while ((uint64_t(1) << options.historyLog2) < size)
        ++options.historyLog2;
    } else if (arg.key == "k") {
      uint64_t k = 0;
      if (!parseUnsigned(arg.value, k) || k < 1 || k > kKPathMax)
        return bad + ": expected a number from 1 to " + std::to_string(kKPathMax);
      options.k = unsigned(k);
    } else if (arg.key == "warn-skipped") {
      if (!parseFlag(arg.value, options.warnSkipped))
        return bad + ": expected 0 or 1";
    } else if (arg.key == "system-headers") {
      if (!parseFlag(arg.value, options.systemHeaders))
        return bad + ": expected 0 or 1";
    } else if (arg.key == "include-file") {
      options.includeFiles = splitCommas(arg.value);
    } else if (arg.key == "exclude-file") {
      options.excludeFiles = splitCommas(arg.value);
    } else if (arg.key == "include-function") {
      options.includeFunctions = splitCommas(arg.value);
    } else if (arg.key == "exclude-function") {
      options.excludeFunctions = splitCommas(arg.value);
    } else {
      return "unknown argument '" + arg.key + "' (see -fplugin-arg-pathcov-help)";
    }
  }
  if (options.mode == PluginMode::Residual && options.corpus.empty())
    return "mode=residual needs corpus=FILE";
  if (options.mode == PluginMode::Record && options.historyLog2 != 0)
    return "history=N is for residual mode (release builds)";
  if (options.mode == PluginMode::Residual && options.k > 1)
    return "k=N is for record mode (test builds)";
  return "";
}

} // namespace pathcov
