// pathcov_fuzz READER FILE...: runs one reader of untrusted input on each
// FILE (docs/testing.md). Built with afl-clang-fast++ it is an AFL++
// persistent-mode target (one FILE, rewritten by afl-fuzz between runs);
// built plainly it reproduces a crash and smoke-tests the seeds.
//
// A reader rejecting its input the way its user expects (the tools:
// InputError, exit 3; the plugin: also nlohmann's exceptions, a warning) is
// no finding. Anything else escapes main and aborts: a crash to AFL.
#include "CfgJson.h"
#include "CorpusStream.h"
#include "FieldStore.h"
#include "FileIo.h"
#include "Modules.h"
#include "Profile.h"
#include "Report.h"

#include "pathcov/format/Corpus.h"
#include "pathcov/format/InputError.h"
#include "pathcov/format/TestedPathCache.h"

#include "TestedPathScan.h"

#include <cstdint>
#include <optional>
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

// merge reads a corpus file as it streams (CorpusStream.h), every other
// tool reads it whole (readCorpus): both must refuse it, or accept it with
// the same functions, reports and sightings. The one refusal of the
// streamed reader alone: an array it hands out, named twice (a document
// read whole keeps the last).
void readCorpusBothWays(const std::string &file) {
  const auto disagree = [&file](const std::string &what) {
    std::fprintf(stderr, "%s: the streamed corpus reader %s\n", file.c_str(),
                 what.c_str());
    std::abort();
  };
  FieldStore store;
  std::optional<Corpus> streamed;
  std::string refusal;
  try {
    Corpus read = streamCorpus(file, store);
    store.commitStaged(FieldStore::Staged::Corpus);
    streamed = std::move(read);
  } catch (const InputError &e) {
    refusal = e.what();
  }
  Corpus whole;
  try {
    whole = readCorpus(readJsonFile(file));
  } catch (const InputError &) {
    if (streamed)
      disagree("accepted what readCorpus refuses");
    throw;
  }
  if (!streamed) {
    if (refusal.find("a member named twice") == std::string::npos)
      disagree("refused what readCorpus accepts: " + refusal);
    return;
  }
  if (streamed->profiles != whole.profiles ||
      streamed->profileIds != whole.profileIds ||
      streamed->functions.size() != whole.functions.size())
    disagree("read another header or other functions");
  for (const auto &[key, f] : whole.functions) {
    const auto it = streamed->functions.find(key);
    if (it == streamed->functions.end() || it->second.calls != f.calls ||
        it->second.interrupted != f.interrupted)
      disagree("read function " + key.first + " otherwise");
    if (it->second.paths != f.paths)
      disagree("read the paths of " + key.first + " otherwise");
    if (it->second.metadata.k != f.metadata.k || it->second.kDropped != f.kDropped ||
        it->second.kPaths != f.kPaths)
      disagree("read the windows of " + key.first + " otherwise");
  }
  size_t reports = 0;
  store.forEachReport([&](const std::string &id, const MergedReport &r) {
    const auto it = whole.reports.find(id);
    if (it == whole.reports.end() || it->second.module != r.module ||
        it->second.pid != r.pid || it->second.droppedPaths != r.droppedPaths)
      disagree("read report " + id + " otherwise");
    ++reports;
  });
  size_t sightings = 0, wholeSightings = 0;
  for (const auto &[path, seen] : whole.field)
    wholeSightings += seen.size();
  store.forEachSighting(nullptr, [&](const FieldKey &path, const std::string &report,
                                     const std::string &, const FieldSighting &s) {
    const auto it = whole.field.find(path);
    const FieldSighting *w = nullptr;
    if (it != whole.field.end()) {
      const auto r = it->second.find(report);
      w = r == it->second.end() ? nullptr : &r->second;
    }
    if (!w || w->count != s.count || w->firstSeenNs != s.firstSeenNs)
      disagree("read a sighting of " + std::get<0>(path) + " otherwise");
    ++sightings;
  });
  if (reports != whole.reports.size() || sightings != wholeSightings)
    disagree("read another number of reports or sightings");
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
    {"corpus", readCorpusBothWays},
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
