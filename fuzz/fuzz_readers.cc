// pathcov_fuzz READER FILE...: runs one reader of untrusted input on each
// FILE (docs/testing.md). Built with afl-clang-fast++ it is an AFL++
// persistent-mode target (one FILE, rewritten by afl-fuzz between runs);
// built plainly it reproduces a crash and smoke-tests the seeds.
//
// A reader rejecting its input the way its user expects (the tools:
// InputError, exit 3; the plugin: also nlohmann's exceptions, a warning) is
// no finding. Anything else escapes main and aborts: a crash to AFL.
#include "CfgJson.h"
#include "FileIo.h"
#include "Modules.h"
#include "Profile.h"
#include "Report.h"

#include "pathcov/format/Corpus.h"
#include "pathcov/format/InputError.h"
#include "pathcov/format/TestedPathCache.h"

#include "TestedPathScan.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

namespace {

using namespace pathcov;

// The plugin's corpus reader (core/src/CachedCorpus.cc, CorpusLookup,
// without the index beside it): it turns both kinds of exception into an
// error line. Its fast reader must give the reference reader's index or
// give up (TestedPathScan.h): both run on every input, the fast one read
// in one go and streamed a few bytes a read into a small buffer, so that
// pieces and keys are cut across reads and the buffer grows.
void readTestedPathsAsPlugin(const std::string &file) {
  const std::string json = readInput(file);
  const std::optional<TestedPathIndex> fast = scanTestedPaths(json);
  const auto disagree = [&file](const char *what) {
    std::fprintf(stderr, "%s: the fast reader %s\n", file.c_str(), what);
    std::abort();
  };
  if (scanTestedPaths(readingFrom(json, 3), 16) != fast)
    disagree("reads it otherwise streamed");
  TestedPathIndex reference;
  try {
    reference = readTestedPathsReference(json);
  } catch (const InputError &) {
    if (fast)
      disagree("accepted what the reference refuses");
    throw;
  } catch (const nlohmann::json::exception &e) {
    if (fast)
      disagree("accepted what the reference refuses");
    throw InputError(e.what());
  }
  if (fast && *fast != reference)
    disagree("gave another index");
}

// The plugin's index reader. An index is only used when its stamp matches
// the corpus, so the fuzzer is given the stamp the input names, and the
// header's and buckets' checksums are made right, or every mutation would
// stop there; whatever is accepted must be what readTestedPaths promises,
// as the plugin trusts it, and a lookup must agree with the whole.
void decodeCacheAsPlugin(const std::string &file) {
  std::string bytes = readInput(file);
  const std::optional<CorpusStamp> stamp = resealTestedPathCache(bytes);
  if (!stamp)
    throw InputError("not an index");
  const auto cache = TestedPathCache::open(bytes, *stamp);
  if (!cache)
    throw InputError("not an index");
  const auto index = cache->decodeAll();
  if (!index)
    throw InputError("a bucket is malformed");
  for (const auto &[identity, versions] : *index) {
    const auto found = cache->find(identity);
    if (!found || found->size() != versions.size()) {
      std::fprintf(stderr, "%s: a lookup disagrees with the whole\n", file.c_str());
      std::abort();
    }
    for (const TestedPaths &tested : versions) {
      if (tested.counts.size() != tested.ids.size()) {
        std::fprintf(stderr, "%s: accepted ids without their counts\n",
                     file.c_str());
        std::abort();
      }
      for (size_t i = 1; i < tested.ids.size(); ++i)
        if (tested.ids[i] <= tested.ids[i - 1]) {
          std::fprintf(stderr, "%s: accepted ids out of order\n", file.c_str());
          std::abort();
        }
    }
  }
}

struct Reader {
  const char *name;
  void (*read)(const std::string &file);
};

// The entry points the tools and the plugin call on their input files.
const Reader kReaders[] = {
    {"cfg", [](const std::string &f) { readCfgJson(readJsonFile(f)); }},
    {"profile", [](const std::string &f) { readProfile(f); }},
    {"report", [](const std::string &f) { readReport(f); }},
    {"corpus", [](const std::string &f) { readCorpus(readJsonFile(f)); }},
    {"module", [](const std::string &f) { ModuleIndex().add(f); }},
    {"tested-paths", readTestedPathsAsPlugin},
    {"path-cache", decodeCacheAsPlugin},
};

// Quiet under AFL; a plain build says what became of each file.
void readOne(const Reader &reader, const char *file) {
  try {
    reader.read(file);
#ifndef __AFL_LOOP
    std::fprintf(stderr, "%s: accepted\n", file);
#endif
  } catch (const InputError &e) {
#ifndef __AFL_LOOP
    std::fprintf(stderr, "%s: rejected: %s\n", file, e.what());
#endif
  }
}

} // namespace

int main(int argc, char **argv) {
  const Reader *reader = nullptr;
  for (const Reader &r : kReaders)
    if (argc > 1 && std::strcmp(argv[1], r.name) == 0)
      reader = &r;
  if (!reader || argc < 3) {
    std::fprintf(stderr, "usage: pathcov_fuzz READER FILE...\nreaders:");
    for (const Reader &r : kReaders)
      std::fprintf(stderr, " %s", r.name);
    std::fprintf(stderr, "\n");
    return 2;
  }
#ifdef __AFL_LOOP
  // afl-fuzz rewrites the one FILE (@@) before each turn of the loop.
  while (__AFL_LOOP(10000))
    readOne(*reader, argv[2]);
#else
  for (int i = 2; i < argc; ++i)
    readOne(*reader, argv[i]);
#endif
  return 0;
}
