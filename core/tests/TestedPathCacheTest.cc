// The index of a corpus's tested paths: it round-trips, lookups agree with
// the whole, and anything else - another corpus's, a truncated or damaged
// file - is refused, or its damage is found before anything of it is used.
#include "pathcov/format/TestedPathCache.h"

#include "pathcov/core/Cfg.h"
#include "pathcov/core/Fnv1a.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

using namespace pathcov;

namespace {

const CorpusStamp kStamp{2049, 123456, 9000, 1700000000123456789ull,
                         1700000000987654321ull};

TestedPathIndex sample() {
  TestedPathIndex index;
  index["main"] = {{"00000000000000aa", {0, 3, 7}, {5, 1, UINT64_MAX}, "-O2"}};
  index["lib.c:parse"] = {{"00000000000000bb", {}, {}, ""},
                          {"00000000000000cc", {1, uint64_t(1) << 60}, {2, 9}, "-O0"}};
  index["lib.c:emit"] = {{"00000000000000dd", {4}, {1}, "-O2"}};
  return index;
}

// What a damaged index may answer for `identity`: nothing (the damage was
// found) or exactly what the corpus says.
void expectNothingWrong(const TestedPathCache &cache, const TestedPathIndex &index,
                        const std::string &identity, const std::string &what) {
  const auto found = cache.find(identity);
  if (!found)
    return;
  const auto it = index.find(identity);
  const std::vector<TestedPaths> expected =
      it == index.end() ? std::vector<TestedPaths>{} : it->second;
  ASSERT_EQ(found->size(), expected.size()) << what << " " << identity;
  for (size_t v = 0; v < expected.size(); ++v) {
    EXPECT_EQ((*found)[v].checksum, expected[v].checksum) << what;
    EXPECT_EQ((*found)[v].optimization, expected[v].optimization) << what;
    EXPECT_EQ((*found)[v].ids, expected[v].ids) << what;
    EXPECT_EQ((*found)[v].counts, expected[v].counts) << what;
  }
}

void expectSame(const TestedPathIndex &a, const TestedPathIndex &b) {
  ASSERT_EQ(a.size(), b.size());
  for (const auto &[identity, versions] : a) {
    ASSERT_TRUE(b.count(identity)) << identity;
    const std::vector<TestedPaths> &other = b.at(identity);
    ASSERT_EQ(versions.size(), other.size()) << identity;
    for (size_t v = 0; v < versions.size(); ++v) {
      EXPECT_EQ(versions[v].checksum, other[v].checksum);
      EXPECT_EQ(versions[v].optimization, other[v].optimization);
      EXPECT_EQ(versions[v].ids, other[v].ids);
      EXPECT_EQ(versions[v].counts, other[v].counts);
    }
  }
}

std::string resealed(std::string bytes) {
  resealTestedPathCache(bytes);
  return bytes;
}

} // namespace

TEST(TestedPathCache, RoundTrips) {
  const std::string bytes = encodeTestedPathCache(sample(), kStamp);
  const auto cache = TestedPathCache::open(bytes, kStamp);
  ASSERT_TRUE(cache.has_value());
  const auto parse = cache->find("lib.c:parse");
  ASSERT_TRUE(parse.has_value());
  ASSERT_EQ(parse->size(), 2u);
  EXPECT_EQ((*parse)[1].checksum, "00000000000000cc");
  EXPECT_EQ((*parse)[1].ids, (std::vector<uint64_t>{1, uint64_t(1) << 60}));
  EXPECT_EQ((*parse)[1].counts, (std::vector<uint64_t>{2, 9}));
  EXPECT_EQ((*parse)[1].optimization, "-O0");
  EXPECT_EQ((*parse)[0].optimization, "");
  const auto main = cache->find("main");
  ASSERT_TRUE(main.has_value());
  EXPECT_EQ((*main)[0].ids, (std::vector<uint64_t>{0, 3, 7}));
  EXPECT_EQ((*main)[0].counts, (std::vector<uint64_t>{5, 1, UINT64_MAX}));
  const auto missing = cache->find("lib.c:absent");
  ASSERT_TRUE(missing.has_value());
  EXPECT_TRUE(missing->empty());
  const auto all = cache->decodeAll();
  ASSERT_TRUE(all.has_value());
  expectSame(*all, sample());
}

// Thousands of functions spread over buckets: every lookup finds its own.
TEST(TestedPathCache, RoundTripsLargeIndexes) {
  std::mt19937_64 random(11);
  for (const size_t functions : {0, 1, 2, 5, 1000, 20000}) {
    TestedPathIndex index;
    for (size_t f = 0; f < functions; ++f) {
      std::vector<uint64_t> ids, counts;
      for (uint64_t id = random() % 4; ids.size() < random() % 6; id += 1 + random() % 9) {
        ids.push_back(id);
        counts.push_back(random());
      }
      index["unit" + std::to_string(f % 37) + ".c:f" + std::to_string(f)] = {
          {hex64(random()), ids, counts, "-O2"}};
    }
    const std::string bytes = encodeTestedPathCache(index, kStamp);
    const auto cache = TestedPathCache::open(bytes, kStamp);
    ASSERT_TRUE(cache.has_value()) << functions;
    for (const auto &[identity, versions] : index) {
      const auto found = cache->find(identity);
      ASSERT_TRUE(found.has_value()) << identity;
      ASSERT_EQ(found->size(), 1u);
      EXPECT_EQ((*found)[0].ids, versions[0].ids) << identity;
      EXPECT_EQ((*found)[0].counts, versions[0].counts) << identity;
    }
    EXPECT_TRUE(cache->find("unit0.c:nothing")->empty());
    expectSame(*cache->decodeAll(), index);
  }
}

TEST(TestedPathCache, RefusesAnotherCorpusAndTruncation) {
  const std::string bytes = encodeTestedPathCache(sample(), kStamp);
  for (int field = 0; field < 5; ++field) {
    CorpusStamp other = kStamp;
    uint64_t *words[] = {&other.device, &other.inode, &other.size,
                         &other.modifiedNs, &other.changedNs};
    ++*words[field];
    EXPECT_FALSE(TestedPathCache::open(bytes, other).has_value()) << field;
  }
  for (size_t cut = 0; cut < bytes.size(); ++cut)
    EXPECT_FALSE(TestedPathCache::open(bytes.substr(0, cut), kStamp).has_value())
        << cut;
  EXPECT_FALSE(TestedPathCache::open(bytes + "x", kStamp).has_value());
  // Older versions are refused, well formed or not: 5 (one checksum over a
  // whole copy), 6 (an older corpus's header statics not under the header's
  // identity: addTestedPaths).
  for (const char version : {'5', '6'}) {
    std::string older = bytes;
    older[7] = version;
    EXPECT_FALSE(TestedPathCache::open(resealed(older), kStamp).has_value())
        << version;
  }
}

// Any one damaged byte - in the header, a bucket entry, an identity, an id
// or a checksum - is found before it is used: the header is refused, or
// each lookup answers nothing or the truth.
TEST(TestedPathCache, NeverUsesAFlippedByte) {
  const TestedPathIndex index = sample();
  const std::string bytes = encodeTestedPathCache(index, kStamp);
  for (size_t at = 0; at < bytes.size(); ++at)
    for (const unsigned char flip : {0x01, 0x80, 0xff}) {
      std::string damaged = bytes;
      damaged[at] = static_cast<char>(damaged[at] ^ flip);
      const auto cache = TestedPathCache::open(damaged, kStamp);
      if (!cache)
        continue;
      const std::string what = "byte " + std::to_string(at);
      for (const char *identity : {"main", "lib.c:parse", "lib.c:emit", "other"})
        expectNothingWrong(*cache, index, identity, what);
      EXPECT_FALSE(cache->decodeAll().has_value()) << what;
    }
}

// Random damage to several bytes at once: the same.
TEST(TestedPathCache, NeverUsesRandomDamage) {
  const TestedPathIndex index = sample();
  const std::string bytes = encodeTestedPathCache(index, kStamp);
  std::mt19937_64 random(7);
  for (int trial = 0; trial < 20000; ++trial) {
    std::string damaged = bytes;
    const int flips = 2 + static_cast<int>(random() % 8);
    for (int i = 0; i < flips; ++i)
      damaged[random() % damaged.size()] ^= static_cast<char>(1 + random() % 255);
    const auto cache = TestedPathCache::open(damaged, kStamp);
    if (!cache)
      continue;
    for (const char *identity : {"main", "lib.c:parse", "lib.c:emit", "other"})
      expectNothingWrong(*cache, index, identity, std::to_string(trial));
  }
}

// Damage the checksums do not see (a count far beyond the file's size)
// is refused before any allocation.
TEST(TestedPathCache, RefusesImpossibleCounts) {
  TestedPathIndex index;
  index["main"] = {{"00000000000000aa", {1}, {1}, ""}};
  std::string bytes = encodeTestedPathCache(index, kStamp);
  // One bucket: its records start after the header and the one entry; the
  // identity's length (8 + 4 bytes), then the number of versions.
  bytes[72 + 24 + 12 + 7] = 0x7f;
  const std::string damaged = resealed(bytes); // the view outlives no bytes
  const auto cache = TestedPathCache::open(damaged, kStamp);
  ASSERT_TRUE(cache.has_value());
  EXPECT_FALSE(cache->find("main").has_value());
}

// The plugin trusts an index as it trusts readTestedPaths: ids ascending,
// each once (a damaged cache found by fuzzing repeated an id).
TEST(TestedPathCache, RefusesIdsOutOfOrder) {
  for (const std::vector<uint64_t> &ids :
       {std::vector<uint64_t>{3, 3}, std::vector<uint64_t>{7, 0}}) {
    TestedPathIndex index;
    index["main"] = {{"00000000000000aa", ids, {1, 1}, ""}};
    const std::string bytes = encodeTestedPathCache(index, kStamp);
    const auto cache = TestedPathCache::open(bytes, kStamp);
    ASSERT_TRUE(cache.has_value());
    EXPECT_FALSE(cache->find("main").has_value());
    EXPECT_FALSE(cache->decodeAll().has_value());
  }
}

TEST(TestedPathCache, HashIsFnv1a) {
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cull);
}
