// k-iteration path profiling: the k-slab forest the runtime keeps (built
// here by the reference KSlabBuilder), the checks a profile's forest must
// pass, and the k-IPF the tools make of it, against the thesis chapter's
// example and against brute-force n-gram counts.
#include "pathcov/core/KPaths.h"

#include <gtest/gtest.h>

#include <numeric>
#include <random>
#include <stdexcept>
#include <tuple>

namespace pathcov {
namespace {

using Counts = std::map<std::vector<uint64_t>, uint64_t>;

constexpr uint64_t kStar = kStreamStart;

std::vector<KSlabNode> buildKSlabForest(const std::vector<uint64_t> &stream,
                                        unsigned k) {
  KSlabBuilder builder(k);
  for (uint64_t r : stream)
    builder.processBlPathId(r);
  return builder.nodes();
}

uint64_t totalCount(const std::vector<KSlabNode> &nodes) {
  return std::accumulate(
      nodes.begin(), nodes.end(), uint64_t{0},
      [](uint64_t sum, const KSlabNode &node) { return sum + node.count; });
}

// The nodes as (parent, id, count) rows, which gtest compares and prints.
using Row = std::tuple<int64_t, uint64_t, uint64_t>;
std::vector<Row> rows(const std::vector<KSlabNode> &nodes) {
  std::vector<Row> out;
  for (const KSlabNode &node : nodes)
    out.emplace_back(node.parent, node.id, node.count);
  return out;
}

// The chapter's example: one invocation of its CFG, chunks (k = 4)
// <6,2,0> <0,2,2> <0,0,2> <2,0,0> <2,3>.
const std::vector<uint64_t> kThesisStream{kStar, 6, 2, 0, 0, 2, 2, 0,
                                          0,     2, 2, 0, 0, 2, 3};

TEST(KPathsTest, ThesisExampleSlabForest) {
  const std::vector<KSlabNode> nodes = buildKSlabForest(kThesisStream, 4);
  ASSERT_EQ(checkKSlabForest(nodes, 4, 8), "");
  // By hand from process_bl_path_id; the forest's long paths are the
  // chapter's list L: <6,2,0,0,2,2>, <0,2,2,0,0,2>, <0,0,2,2,0,0>,
  // <2,0,0,2,3>, and the upper-slab paths <0,0,2> and <2,3>. The nodes
  // each id makes, in order:
  const std::vector<Row> expected{
      {-1, 6, 1},            // 6: c1, a sequence's first chunk: upper slab only
      {0, 2, 1},             // 2
      {1, 0, 1},             // 0
      {-1, 0, 0}, {2, 0, 1}, // 0: c2, a new tree, and c1's path goes on
      {3, 2, 0},  {4, 2, 1}, // 2
      {5, 2, 0},  {6, 2, 1}, // 2
      {7, 0, 1},             // 0: c3, root 0 is there already
      {3, 0, 0},  {9, 0, 1}, // 0
      {10, 2, 0}, {11, 2, 1}, // 2
      {-1, 2, 0}, {12, 2, 1}, // 2: c4
      {14, 0, 0}, {15, 0, 1}, // 0
      {16, 0, 0}, {17, 0, 1}, // 0
      {18, 2, 1},             // 2: c5, root 2 is there already
      {14, 3, 0}, {20, 3, 1}, // 3
  };
  EXPECT_EQ(rows(nodes), expected);

  // One tree per chunk-starting id: 6, 0, 2.
  std::vector<uint64_t> roots;
  for (const KSlabNode &node : nodes)
    if (node.parent < 0)
      roots.push_back(node.id);
  EXPECT_EQ(roots, (std::vector<uint64_t>{6, 0, 2}));
  EXPECT_EQ(totalCount(nodes), 14u);

  // <0,0> occurs three times in the stream and five times in the 4-SF;
  // only the three that end in the bottom slab are counted.
  unsigned edges = 0;
  uint64_t counted = 0;
  for (const KSlabNode &node : nodes)
    if (node.parent >= 0 && nodes[node.parent].id == 0 && node.id == 0) {
      ++edges;
      counted += node.count;
    }
  EXPECT_EQ(edges, 5u);
  EXPECT_EQ(counted, 3u);
}

TEST(KPathsTest, ThesisExampleIterationPathForest) {
  const Counts ipf = makeKIpf(buildKSlabForest(kThesisStream, 4), 4);
  // By hand from the stream 6 2 0 0 2 2 0 0 2 2 0 0 2 3: 14 ids, 13
  // 2-grams, 12 3-grams, 11 4-grams.
  const Counts expected{
      // 1-grams, the first level: plain Ball-Larus counts.
      {{0}, 6},
      {{2}, 6},
      {{3}, 1},
      {{6}, 1},
      // 2-grams.
      {{0, 0}, 3},
      {{0, 2}, 3},
      {{2, 0}, 3},
      {{2, 2}, 2},
      {{2, 3}, 1},
      {{6, 2}, 1},
      // 3-grams.
      {{0, 0, 2}, 3},
      {{0, 2, 2}, 2},
      {{0, 2, 3}, 1},
      {{2, 0, 0}, 3},
      {{2, 2, 0}, 2},
      {{6, 2, 0}, 1},
      // 4-grams; <2,0,0,2> is the chapter's B C E B D E B D E B C E.
      {{0, 0, 2, 2}, 2},
      {{0, 0, 2, 3}, 1},
      {{0, 2, 2, 0}, 2},
      {{2, 0, 0, 2}, 3},
      {{2, 2, 0, 0}, 2},
      {{6, 2, 0, 0}, 1},
  };
  EXPECT_EQ(ipf, expected);
  EXPECT_EQ(ipf, countNGrams(kThesisStream, 4));
  // A 4-SF holds the smaller k's forests too (Property 2); k = 1 is
  // Ball-Larus profiling.
  EXPECT_EQ(makeKIpf(buildKSlabForest(kThesisStream, 4), 1),
            (Counts{{{0}, 6}, {{2}, 6}, {{3}, 1}, {{6}, 1}}));
}

TEST(KPathsTest, NoSequenceCrossesAStreamStart) {
  // Without its markers the stream would have <1,1>, <0,1,1>, ...
  const std::vector<uint64_t> stream{kStar, 0, 1, kStar, 1, 0, kStar};
  const std::vector<KSlabNode> nodes = buildKSlabForest(stream, 2);
  ASSERT_EQ(checkKSlabForest(nodes, 2, 2), "");
  // With k = 2 every id is a chunk: a root, and a child of the id
  // before it unless a marker came between. Root 1 counts the 1 after the
  // second marker, the first id of its sequence.
  EXPECT_EQ(rows(nodes), (std::vector<Row>{
                             {-1, 0, 1}, // 0
                             {-1, 1, 1}, // 1: a root, and <0,1> below 0
                             {0, 1, 1},
                             {1, 0, 1}, // * 1 0: <1,0> below root 1
                         }));

  EXPECT_EQ(totalCount(nodes), 4u);
  const Counts expected{{{0}, 2}, {{1}, 2}, {{0, 1}, 1}, {{1, 0}, 1}};
  EXPECT_EQ(makeKIpf(nodes, 2), expected);
  EXPECT_EQ(countNGrams(stream, 2), expected);
  // A stream need not start with a marker.
  EXPECT_EQ(rows(buildKSlabForest({0, 1, kStar, 1, 0}, 2)), rows(nodes));
}

TEST(KPathsTest, EmptyStreams) {
  for (const std::vector<uint64_t> &stream :
       {std::vector<uint64_t>{}, std::vector<uint64_t>{kStar, kStar}}) {
    const std::vector<KSlabNode> nodes = buildKSlabForest(stream, 3);
    EXPECT_TRUE(nodes.empty());
    EXPECT_EQ(checkKSlabForest(nodes, 3, 0), "");
    EXPECT_TRUE(makeKIpf(nodes, 3).empty());
    EXPECT_TRUE(countNGrams(stream, 3).empty());
  }
}

TEST(KPathsTest, RefusesKOutOfRange) {
  EXPECT_THROW(KSlabBuilder{1}, std::invalid_argument);
  EXPECT_THROW(KSlabBuilder{kKPathMax + 1}, std::invalid_argument);
  EXPECT_NO_THROW(KSlabBuilder{kKPathMax});
  EXPECT_THROW(makeKIpf({}, 0), std::invalid_argument);
  EXPECT_THROW(makeKIpf({}, kKPathMax + 1), std::invalid_argument);
  EXPECT_EQ(checkKSlabForest({}, 1, 1), "k = 1 is not in 2..16");
  EXPECT_EQ(checkKSlabForest({}, 17, 1), "k = 17 is not in 2..16");
}

TEST(KPathsTest, MatchesNGramCountsOnRandomStreams) {
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    std::mt19937_64 random(seed);
    const auto below = [&](uint64_t n) {
      return std::uniform_int_distribution<uint64_t>(0, n - 1)(random);
    };
    const uint64_t length = below(301);
    const uint64_t alphabet = 1 + below(6);
    // From no markers to one item in three.
    const uint64_t markerOdds = below(4) == 0 ? 0 : 3 + below(20);
    std::vector<uint64_t> stream;
    uint64_t ids = 0;
    for (uint64_t i = 0; i < length; ++i) {
      if (markerOdds && below(markerOdds) == 0) {
        stream.push_back(kStar);
      } else {
        stream.push_back(below(alphabet));
        ++ids;
      }
    }
    for (unsigned k = 2; k <= 6; ++k) {
      SCOPED_TRACE("seed " + std::to_string(seed) + ", k = " +
                   std::to_string(k) + ", " + std::to_string(length) +
                   " items, " + std::to_string(alphabet) + " ids");
      const std::vector<KSlabNode> nodes = buildKSlabForest(stream, k);
      ASSERT_EQ(checkKSlabForest(nodes, k, alphabet), "");
      EXPECT_EQ(totalCount(nodes), ids);
      // At most two nodes an id (top and bottom), and no more than a
      // full forest of 2k-2 levels over the alphabet.
      EXPECT_LE(nodes.size(), 2 * ids);
      uint64_t fullForest = 0, level = 1;
      for (unsigned depth = 0; depth <= 2 * k - 3; ++depth)
        fullForest += level *= alphabet;
      EXPECT_LE(nodes.size(), fullForest);
      for (unsigned j = 1; j <= k; ++j)
        ASSERT_EQ(makeKIpf(nodes, j), countNGrams(stream, j)) << "j = " << j;
    }
  }
}

// Node 0 a root labelled 0 with children 1 and 2 (labels 1, 2); node 3
// below node 1: a well-formed 3-SF (depth up to 3) for 3 paths.
std::vector<KSlabNode> smallForest() {
  return {{-1, 0, 1}, {0, 1, 1}, {0, 2, 1}, {1, 0, 1}};
}

TEST(KPathsTest, RefusesMalformedForests) {
  std::vector<KSlabNode> nodes = smallForest();
  ASSERT_EQ(checkKSlabForest(nodes, 3, 3), "");

  nodes = smallForest();
  nodes[1].parent = 3;
  EXPECT_EQ(checkKSlabForest(nodes, 3, 3),
            "nodes[1]: parent 3 does not come before it");
  nodes[1].parent = 1;
  EXPECT_EQ(checkKSlabForest(nodes, 3, 3),
            "nodes[1]: parent 1 does not come before it");

  nodes = smallForest();
  nodes[2].parent = 4;
  EXPECT_EQ(checkKSlabForest(nodes, 3, 3),
            "nodes[2]: parent 4 is not a node (4 of them)");
  nodes[2].parent = -2;
  EXPECT_EQ(checkKSlabForest(nodes, 3, 3),
            "nodes[2]: parent -2 is not a node (4 of them)");

  nodes = smallForest();
  nodes[2].id = 1;
  EXPECT_EQ(checkKSlabForest(nodes, 3, 3),
            "nodes[2]: a second child of nodes[0] with path 1 (nodes[1] is "
            "the first)");

  nodes = smallForest();
  nodes.push_back({-1, 0, 0});
  EXPECT_EQ(checkKSlabForest(nodes, 3, 3),
            "nodes[4]: a second root with path 0 (nodes[0] is the first)");

  // Depth 3 is a 3-SF's deepest level; 4 is too deep, and a 2-SF has
  // depth 1 at most.
  nodes = smallForest();
  nodes.push_back({3, 2, 1});
  ASSERT_EQ(checkKSlabForest(nodes, 3, 3), "");
  nodes.push_back({4, 2, 1});
  EXPECT_EQ(checkKSlabForest(nodes, 3, 3),
            "nodes[5]: at depth 4, below the deepest level of a 3-SF (depth "
            "3)");
  EXPECT_EQ(checkKSlabForest(smallForest(), 2, 3),
            "nodes[3]: at depth 2, below the deepest level of a 2-SF (depth "
            "1)");

  nodes = smallForest();
  EXPECT_EQ(checkKSlabForest(nodes, 3, 2),
            "nodes[2]: path 2 is not in paths (2 of them)");
  nodes[0].id = kStreamStart;
  EXPECT_EQ(checkKSlabForest(nodes, 3, UINT64_MAX),
            "nodes[0]: path 18446744073709551615 is not in paths "
            "(18446744073709551615 of them)");
}

} // namespace
} // namespace pathcov
