#include "CollectCommand.h"

#include "pathcov/format/Corpus.h"
#include "CorpusWriter.h"
#include "ExitCodes.h"
#include "FileIo.h"
#include "Modules.h"
#include "pathcov/format/JsonFields.h"
#include "Profile.h"

#include "pathcov/format/InputError.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <memory>

namespace pathcov {

namespace {

struct CollectOptions {
  std::vector<std::string> inputs;
  std::vector<std::string> binaries;
  // Detached metadata (Modules.h); default gdb's.
  std::vector<std::string> debugDirs{kDefaultDebugDir};
  std::string output = "-";
  // --skip-stale: a profile whose module cannot be found or no longer
  // matches is set aside, not an error.
  bool skipStale = false;
};

bool isProfileName(const std::string &name) {
  return name.rfind("pathcov-", 0) == 0 &&
         std::filesystem::path(name).extension() == ".json";
}

// Profiles named directly, and every pathcov-*.json in named directories.
std::vector<std::string> profileFiles(const std::vector<std::string> &inputs) {
  return inputFiles("collect", inputs, isProfileName, "");
}

// Why named directories gave no profile when their subdirectories hold
// some (a profile directory per test, as zstd's user made them): collect
// does not descend, so that a build tree's stray profiles (conftests',
// docs/in-your-build.md) stay out. "" when none does.
std::string profilesBelow(const std::vector<std::string> &inputs) {
  namespace fs = std::filesystem;
  for (const std::string &input : inputs) {
    std::error_code error;
    for (fs::recursive_directory_iterator it(
             input, fs::directory_options::skip_permission_denied, error), end;
         !error && it != end; it.increment(error))
      if (it.depth() > 0 && isProfileName(it->path().filename().string()))
        return ": " + it->path().parent_path().string() +
               " has some; collect reads only the directories it is given "
               "(name them too: " + input + "/*/)";
  }
  return "";
}

// The metadata of a function the profile names, from its module's.
const FunctionMetadata &metadataOf(const Profile &profile,
                                   const std::vector<FunctionMetadata> &functions,
                                   const std::string &identity,
                                   const std::string &checksum) {
  const auto known = std::find_if(
      functions.begin(), functions.end(), [&](const FunctionMetadata &f) {
        return f.identity == identity && f.checksum == checksum;
      });
  if (known == functions.end())
    throw InputError(profile.file + ": function " + identity + " (checksum " +
                     checksum + ") is not in " + profile.module);
  return *known;
}

void addProfile(const Profile &profile,
                const std::vector<FunctionMetadata> &functions, Corpus &corpus) {
  for (const ProfileFunction &pf : profile.functions) {
    const FunctionMetadata &known =
        metadataOf(profile, functions, pf.identity, pf.checksum);
    if (known.numPaths != pf.numPaths)
      throw InputError(profile.file + ": function " + pf.identity + " has " +
                       std::to_string(pf.numPaths) + " paths, its metadata " +
                       std::to_string(known.numPaths));
    CorpusFunction &f = corpus.functions.at(keyOf(known));
    f.calls += pf.calls;
    f.resumes += pf.resumes;
    f.invalidIds += pf.invalidIds;
    f.dropped += pf.dropped;
    for (const auto &[id, count] : pf.paths) {
      TestedPath &path = f.paths[id];
      path.count += count;
      if (!profile.test.empty())
        path.tests.insert(profile.test);
    }
  }
  // Each forest as its k-IPF (KPaths.h): every window of 2..k paths; the
  // single paths are the counts above.
  for (const ProfileKPaths &kp : profile.kPaths) {
    const FunctionMetadata &known =
        metadataOf(profile, functions, kp.identity, kp.checksum);
    std::map<std::vector<uint64_t>, TestedPath> windows;
    for (const auto &[ids, count] : makeKIpf(kp.slab, kp.k)) {
      if (ids.size() < 2)
        continue;
      TestedPath &window = windows[ids];
      window.count = count;
      if (!profile.test.empty())
        window.tests.insert(profile.test);
    }
    addKPaths(corpus.functions.at(keyOf(known)), kp.k, windows, kp.dropped,
              profile.file);
  }
}

int runCollect(const CollectOptions &options) {
  Corpus corpus;
  ModuleIndex modules(options.debugDirs);
  size_t setAside = 0; // profiles --skip-stale left out
  try {
    for (const std::string &binary : options.binaries)
      modules.add(binary);
    const std::vector<std::string> files = profileFiles(options.inputs);
    if (files.empty())
      throw InputError("no pathcov-*.json profile in " + options.inputs[0] +
                       (options.inputs.size() > 1 ? " and the others" : "") +
                       profilesBelow(options.inputs));
    std::vector<std::pair<Profile, const std::vector<FunctionMetadata> *>> read;
    for (const std::string &file : files) {
      Profile profile = readProfile(file);
      const std::vector<FunctionMetadata> *functions;
      try {
        functions =
            &modules.moduleFor(profile.module, profile.buildId, "profile")
                 .functions;
      } catch (const InputError &e) {
        if (!options.skipStale)
          throw InputError(file + ": " + e.what());
        std::cerr << "pathcov collect: set aside " << file << ": " << e.what()
                  << '\n';
        ++setAside;
        continue;
      }
      corpus.profileIds.insert( // for pathcov merge (docs/merge.md)
          profileId(profile.buildId, file, readInput(file)));
      read.emplace_back(std::move(profile), functions);
    }
    if (setAside)
      std::cerr << "pathcov collect: " << setAside << " of " << files.size()
                << " profiles set aside (--skip-stale): the corpus has the "
                   "paths of the other "
                << read.size() << '\n';
    modules.addTo(corpus);
    for (const auto &[profile, functions] : read) {
      addProfile(profile, *functions, corpus);
      if (profile.invalidDescriptors || profile.lostPaths)
        std::cerr << "pathcov collect: warning: " << profile.file << ": the "
                  << "runtime could not use " << profile.invalidDescriptors
                  << " function descriptors and lost " << profile.lostPaths
                  << " paths (see its messages on the program's stderr)\n";
    }
    corpus.profiles = read.size();
    for (auto &[key, f] : corpus.functions)
      if (f.metadata.skipped.empty() && f.calls > 0)
        f.interrupted = interruptedPaths(f.metadata, f.metadata.number(),
                                         f.calls + f.resumes, f.paths);
  } catch (const InputError &e) {
    // Messages from the readers start with the file they are about.
    std::cerr << "pathcov collect: " << e.what() << '\n';
    return kExitBadInput;
  }
  const int written =
      writeOutput("collect", options.output,
                  [&](int fd) { return writeCorpus(fd, corpus, nullptr); });
  return written == kExitSuccess && setAside ? kExitPartial : written;
}

} // namespace

void addCollectCommand(CLI::App &app, int &exitCode) {
  const auto options = std::make_shared<CollectOptions>();
  CLI::App *collect = app.add_subcommand(
      "collect", "Turn profiles of instrumented runs into the tested-path "
                 "corpus (JSON)");
  collect
      ->add_option("PROFILE", options->inputs,
                   "Profiles, or directories of pathcov-*.json profiles")
      ->required();
  collect->add_option(
      "--binary", options->binaries,
      "An instrumented executable or shared library to take metadata from "
      "(default: the module each profile names); repeatable. Its functions "
      "are in the corpus even if no profile ran them. A stripped one's "
      "metadata is found by build-id under --debug-dir.");
  collect->add_option(
      "--debug-dir", options->debugDirs,
      "Where to look for metadata detached from stripped modules (objcopy "
      "--only-keep-debug), as DIR/.build-id/xx/rest.debug by build-id, like "
      "debug info; repeatable, looked at in order (default: /usr/lib/debug)");
  collect->add_flag(
      "--skip-stale", options->skipStale,
      "Set aside, with a line each on stderr naming it and why, every "
      "profile whose module is gone or was rebuilt (no metadata with its "
      "build-id), and write the corpus of the others; exit status 5 when any "
      "was set aside. Without it, such a profile is an error (exit 3) and no "
      "corpus is written");
  collect
      ->add_option("-o,--output", options->output,
                   "Write the corpus here; - is standard output")
      ->capture_default_str();
  collect->footer(std::string(kExitCodeHelp) +
                  " With --skip-stale: 5, the corpus was written without the "
                  "profiles set aside.");
  collect->callback([options, &exitCode] { exitCode = runCollect(*options); });
}

} // namespace pathcov
