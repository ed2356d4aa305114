// The binary copy of a corpus's tested paths: it round-trips, and anything
// else - another corpus's, a truncated or damaged file - is refused.
#include "pathcov/format/TestedPathCache.h"

#include <gtest/gtest.h>

using namespace pathcov;

namespace {

TestedPathIndex sample() {
  TestedPathIndex index;
  index["main"] = {{"00000000000000aa", {0, 3, 7}}};
  index["lib.c:parse"] = {{"00000000000000bb", {}},
                          {"00000000000000cc", {1, uint64_t(1) << 60}}};
  return index;
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
  EXPECT_EQ(decoded->at("main")[0].ids, (std::vector<uint64_t>{0, 3, 7}));
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
  EXPECT_FALSE(decodeTestedPathCache(huge, 42).has_value());
}

// The plugin trusts a cache as it trusts readTestedPaths: ids ascending,
// each once (a damaged cache found by fuzzing repeated an id).
TEST(TestedPathCache, RefusesIdsOutOfOrder) {
  for (const std::vector<uint64_t> &ids :
       {std::vector<uint64_t>{3, 3}, std::vector<uint64_t>{7, 0}}) {
    TestedPathIndex index;
    index["main"] = {{"00000000000000aa", ids}};
    EXPECT_FALSE(decodeTestedPathCache(encodeTestedPathCache(index, 42), 42)
                     .has_value());
  }
}

TEST(TestedPathCache, HashIsFnv1a) {
  EXPECT_EQ(hashBytes(""), 0xcbf29ce484222325ull);
  EXPECT_EQ(hashBytes("a"), 0xaf63dc4c8601ec8cull);
}
