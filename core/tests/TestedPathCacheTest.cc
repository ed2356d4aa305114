// The binary copy of a corpus's tested paths: it round-trips, and anything
// else - another corpus's, a truncated or damaged file - is refused.
#include "pathcov/format/TestedPathCache.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

using namespace pathcov;

namespace {

TestedPathIndex sample() {
  TestedPathIndex index;
  index["main"] = {{"00000000000000aa", {0, 3, 7}, {5, 1, UINT64_MAX}, "-O2"}};
  index["lib.c:parse"] = {{"00000000000000bb", {}, {}, ""},
                          {"00000000000000cc", {1, uint64_t(1) << 60}, {2, 9}, "-O0"}};
  return index;
}

// `bytes` with its trailing checksum made right again: damage the checksum
// does not see.
std::string resealed(std::string bytes) {
  const uint64_t checksum = fnv1a64(std::string_view(bytes).substr(0, bytes.size() - 8));
  std::memcpy(&bytes[bytes.size() - 8], &checksum, 8);
  return bytes;
}

} // namespace

TEST(TestedPathCache, RoundTrips) {
  const std::string bytes = encodeTestedPathCache(sample(), 42);
  const auto decoded = decodeTestedPathCache(bytes, 42);
  ASSERT_TRUE(decoded.has_value());
  ASSERT_EQ(decoded->size(), 2u);
  const std::vector<TestedPaths> &parse = decoded->at("lib.c:parse");
  ASSERT_EQ(parse.size(), 2u);
  EXPECT_EQ(parse[1].checksum, "00000000000000cc");
  EXPECT_EQ(parse[1].ids, (std::vector<uint64_t>{1, uint64_t(1) << 60}));
  EXPECT_EQ(parse[1].counts, (std::vector<uint64_t>{2, 9}));
  EXPECT_EQ(decoded->at("main")[0].ids, (std::vector<uint64_t>{0, 3, 7}));
  EXPECT_EQ(decoded->at("main")[0].optimization, "-O2");
  EXPECT_EQ(parse[0].optimization, "");
  EXPECT_EQ(decoded->at("main")[0].counts,
            (std::vector<uint64_t>{5, 1, UINT64_MAX}));
}

TEST(TestedPathCache, RefusesAnotherCorpusAndDamage) {
  const std::string bytes = encodeTestedPathCache(sample(), 42);
  EXPECT_FALSE(decodeTestedPathCache(bytes, 43).has_value());
  for (size_t cut = 0; cut < bytes.size(); ++cut)
    EXPECT_FALSE(decodeTestedPathCache(bytes.substr(0, cut), 42).has_value())
        << cut;
  EXPECT_FALSE(decodeTestedPathCache(bytes + "x", 42).has_value());
  std::string damaged = bytes;
  damaged[0] = 'P';
  EXPECT_FALSE(decodeTestedPathCache(damaged, 42).has_value());
  // A count far beyond the file's size is refused before any allocation.
  std::string huge = bytes;
  huge[16 + 7] = 0x7f;
  EXPECT_FALSE(decodeTestedPathCache(resealed(huge), 42).has_value());
  // The format before the checksum (version 1) is refused.
  std::string version1 = bytes.substr(0, bytes.size() - 8);
  version1[7] = '1';
  EXPECT_FALSE(decodeTestedPathCache(version1, 42).has_value());
  // Version 3 (no counts) is refused, checksum right or not.
  std::string version3 = bytes;
  version3[7] = '3';
  EXPECT_FALSE(decodeTestedPathCache(resealed(version3), 42).has_value());
}

// Any one damaged byte - in the magic, the corpus hash, an identity, an id
// or the checksum itself - is refused.
TEST(TestedPathCache, RefusesEveryFlippedByte) {
  const std::string bytes = encodeTestedPathCache(sample(), 42);
  for (size_t at = 0; at < bytes.size(); ++at)
    for (const unsigned char flip : {0x01, 0x80, 0xff}) {
      std::string damaged = bytes;
      damaged[at] = static_cast<char>(damaged[at] ^ flip);
      EXPECT_FALSE(decodeTestedPathCache(damaged, 42).has_value())
          << "byte " << at << " ^ " << int(flip);
    }
}

// Random damage to several bytes at once: refused, or (never seen, but the
// only acceptable alternative) the index as it was.
TEST(TestedPathCache, RefusesRandomDamage) {
  const std::string bytes = encodeTestedPathCache(sample(), 42);
  std::mt19937_64 random(7);
  for (int trial = 0; trial < 20000; ++trial) {
    std::string damaged = bytes;
    const int flips = 2 + static_cast<int>(random() % 8);
    for (int i = 0; i < flips; ++i)
      damaged[random() % damaged.size()] ^= static_cast<char>(1 + random() % 255);
    if (damaged == bytes)
      continue;
    // The encoding is one-to-one: the same bytes, the same index.
    if (const auto decoded = decodeTestedPathCache(damaged, 42)) {
      EXPECT_EQ(encodeTestedPathCache(*decoded, 42), bytes) << trial;
    }
  }
}

// The plugin trusts a cache as it trusts readTestedPaths: ids ascending,
// each once (a damaged cache found by fuzzing repeated an id).
TEST(TestedPathCache, RefusesIdsOutOfOrder) {
  for (const std::vector<uint64_t> &ids :
       {std::vector<uint64_t>{3, 3}, std::vector<uint64_t>{7, 0}}) {
    TestedPathIndex index;
    index["main"] = {{"00000000000000aa", ids, {1, 1}, ""}};
    EXPECT_FALSE(decodeTestedPathCache(encodeTestedPathCache(index, 42), 42)
                     .has_value());
  }
}

TEST(TestedPathCache, HashIsFnv1a) {
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cull);
}
