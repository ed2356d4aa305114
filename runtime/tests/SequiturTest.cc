// SEQUITUR (src/sequitur.c): exact grammars on small inputs, and the
// algorithm's invariants (round trip, digram uniqueness, rule utility,
// bodies of two symbols or more, references to lower-numbered rules only)
// on random sequences, each compressed in a scratch buffer of exactly the
// size asked for, filled with junk and fenced by guard bytes.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

extern "C" {
#include "sequitur.h"
}

namespace {

using Body = std::vector<int32_t>;

struct Grammar {
  std::vector<Body> rules;  // rules[k - 1]: rule k's body
  Body start;
};

constexpr size_t kFence = 64;
constexpr uint8_t kJunk = 0xa5;

// Compresses input in a scratch buffer of `size` bytes (default: exactly
// sequitur_scratch_size), filled with junk (nothing may rely on it being
// zero) and fenced on both sides; checks the fences. Returns the result
// of sequitur_compress.
int Compress(const std::vector<uint32_t> &input, Grammar *grammar,
             size_t size = SIZE_MAX) {
  uint32_t n = static_cast<uint32_t>(input.size());
  if (size == SIZE_MAX) size = sequitur_scratch_size(n);
  std::vector<uint64_t> buffer((size + 2 * kFence) / 8 + 1);
  uint8_t *bytes = reinterpret_cast<uint8_t *>(buffer.data());
  std::memset(bytes, kJunk, buffer.size() * 8);
  sequitur_grammar out{};
  int result = sequitur_compress(input.data(), n, bytes + kFence, size, &out);
  for (size_t i = 0; i < kFence; ++i) {
    EXPECT_EQ(bytes[i], kJunk) << "underrun at " << i;
    EXPECT_EQ(bytes[kFence + size + i], kJunk) << "overrun at " << i;
  }
  if (result != 0) return result;
  const uint8_t *begin = bytes + kFence, *end = begin + size;
  auto inside = [&](const void *p, size_t count) {
    auto b = static_cast<const uint8_t *>(p);
    return b >= begin && b + count <= end;
  };
  EXPECT_TRUE(inside(out.ends, 4 * (out.rules + 1)));
  grammar->rules.clear();
  uint32_t from = 0;
  for (uint32_t k = 0; k <= out.rules; ++k) {
    uint32_t to = out.ends[k];
    EXPECT_LE(from, to);
    EXPECT_TRUE(inside(out.symbols + from, 4 * (to - from)));
    Body body(out.symbols + from, out.symbols + to);
    if (k < out.rules)
      grammar->rules.push_back(body);
    else
      grammar->start = body;
    from = to;
  }
  return 0;
}

// Checks every invariant and that the start sequence expands to input.
void CheckGrammar(const Grammar &g, const std::vector<uint32_t> &input) {
  const size_t rules = g.rules.size();
  std::vector<std::vector<uint32_t>> expansion(rules + 1);
  std::vector<size_t> uses(rules + 1);
  auto expand = [&](const Body &body, size_t limit, std::vector<uint32_t> *to) {
    for (int32_t s : body) {
      if (s >= 0) {
        to->push_back(static_cast<uint32_t>(s));
        continue;
      }
      size_t k = static_cast<size_t>(-static_cast<int64_t>(s));
      ASSERT_GE(k, 1u);
      ASSERT_LT(k, limit) << "a body refers to a rule not numbered below it";
      ++uses[k];
      to->insert(to->end(), expansion[k].begin(), expansion[k].end());
    }
  };
  for (size_t k = 1; k <= rules; ++k) {
    ASSERT_GE(g.rules[k - 1].size(), 2u) << "rule " << k;
    expand(g.rules[k - 1], k, &expansion[k]);
  }
  std::vector<uint32_t> all;
  expand(g.start, rules + 1, &all);
  ASSERT_EQ(all, input);
  for (size_t k = 1; k <= rules; ++k)
    EXPECT_GE(uses[k], 2u) << "rule " << k << " is used once";

  // Non-overlapping occurrences of each digram across all bodies: in
  // "x x x" the second "x x" overlaps the first and is not counted.
  std::map<std::pair<int32_t, int32_t>, size_t> count;
  std::map<std::pair<int32_t, int32_t>, std::pair<size_t, size_t>> last;
  auto digrams = [&](const Body &body, size_t which) {
    for (size_t i = 0; i + 1 < body.size(); ++i) {
      auto d = std::make_pair(body[i], body[i + 1]);
      auto it = last.find(d);
      if (it != last.end() && it->second == std::make_pair(which, i - 1))
        continue;
      last[d] = {which, i};
      EXPECT_EQ(++count[d], 1u)
          << "digram " << d.first << " " << d.second << " repeats";
    }
  };
  for (size_t k = 0; k < rules; ++k) digrams(g.rules[k], k);
  digrams(g.start, rules);
}

size_t Size(const Grammar &g) {
  size_t size = g.start.size();
  for (const Body &body : g.rules) size += body.size();
  return size;
}

// Letters as terminals: 'a' is 0.
std::vector<uint32_t> Letters(const std::string &s) {
  std::vector<uint32_t> v;
  for (char c : s) v.push_back(static_cast<uint32_t>(c - 'a'));
  return v;
}

constexpr int32_t a = 0, b = 1, c = 2, d = 3;

TEST(Sequitur, Empty) {
  Grammar g;
  ASSERT_EQ(Compress({}, &g), 0);
  EXPECT_TRUE(g.rules.empty());
  EXPECT_TRUE(g.start.empty());
}

TEST(Sequitur, OneSymbol) {
  Grammar g;
  ASSERT_EQ(Compress({42}, &g), 0);
  EXPECT_TRUE(g.rules.empty());
  EXPECT_EQ(g.start, Body{42});
}

TEST(Sequitur, LargestTerminal) {
  Grammar g;
  std::vector<uint32_t> input{0x7ffffffe, 0, 0x7ffffffe, 0};
  ASSERT_EQ(Compress(input, &g), 0);
  ASSERT_EQ(g.rules.size(), 1u);
  EXPECT_EQ(g.rules[0], (Body{0x7ffffffe, 0}));
  EXPECT_EQ(g.start, (Body{-1, -1}));
}

TEST(Sequitur, TerminalOutOfRange) {
  Grammar g;
  EXPECT_EQ(Compress({1, 2, 0x7fffffff}, &g), -1);
  EXPECT_EQ(Compress({0xffffffff}, &g), -1);
}

// The paper's first example: S -> a A d A, A -> b c.
TEST(Sequitur, PaperAbcdbc) {
  Grammar g;
  ASSERT_EQ(Compress(Letters("abcdbc"), &g), 0);
  ASSERT_EQ(g.rules.size(), 1u);
  EXPECT_EQ(g.rules[0], (Body{b, c}));
  EXPECT_EQ(g.start, (Body{a, -1, d, -1}));
}

// The paper's second example. By hand: "abcdbc" gives S -> a A d A,
// A -> b c; then "a" and "b" are appended, "c" makes "b c", which is A:
// S -> a A d A a A; "a A" repeats: S -> B d A B, B -> a A; "d" makes
// "B d" repeat: S -> C A C, C -> B d, and B, used once now, is expanded:
// C -> a A d. Post-order numbering: A is 1, C is 2.
TEST(Sequitur, PaperAbcdbcabcd) {
  Grammar g;
  ASSERT_EQ(Compress(Letters("abcdbcabcd"), &g), 0);
  ASSERT_EQ(g.rules.size(), 2u);
  EXPECT_EQ(g.rules[0], (Body{b, c}));
  EXPECT_EQ(g.rules[1], (Body{a, -1, d}));
  EXPECT_EQ(g.start, (Body{-2, -1, -2}));
}

// The two "a a" overlap: nothing repeats.
TEST(Sequitur, RunOfThree) {
  Grammar g;
  ASSERT_EQ(Compress(Letters("aaa"), &g), 0);
  EXPECT_TRUE(g.rules.empty());
  EXPECT_EQ(g.start, (Body{a, a, a}));
}

TEST(Sequitur, RunOfFour) {
  Grammar g;
  ASSERT_EQ(Compress(Letters("aaaa"), &g), 0);
  ASSERT_EQ(g.rules.size(), 1u);
  EXPECT_EQ(g.rules[0], (Body{a, a}));
  EXPECT_EQ(g.start, (Body{-1, -1}));
}

// A rule whose body is the digram is reused, not made again: "b c" in the
// last three symbols is rule 1.
TEST(Sequitur, ReusesRule) {
  Grammar g;
  ASSERT_EQ(Compress(Letters("bcabcdbc"), &g), 0);
  ASSERT_EQ(g.rules.size(), 1u);
  EXPECT_EQ(g.rules[0], (Body{b, c}));
  EXPECT_EQ(g.start, (Body{-1, a, -1, d, -1}));
}

// A rule used once after a substitution is expanded: "c a" repeats
// (A -> c a, S -> A b A), then "A b" does: B -> A b leaves A used once,
// so B -> c a b, S -> B B.
TEST(Sequitur, ExpandsRuleUsedOnce) {
  Grammar g;
  ASSERT_EQ(Compress(Letters("cabcab"), &g), 0);
  ASSERT_EQ(g.rules.size(), 1u);
  EXPECT_EQ(g.rules[0], (Body{c, a, b}));
  EXPECT_EQ(g.start, (Body{-1, -1}));
}

// The digram formed at an expansion's end goes into the table: "b a"
// repeats (A -> b a, S -> A a A), then "A a" does (B -> A a, S -> B B),
// and expanding A makes B -> b a a, whose new "a a" the final "a a" must
// find: C -> a a, B -> b C, S -> B B C. Numbered: C 1, B 2.
TEST(Sequitur, IndexesDigramAtExpansionEnd) {
  Grammar g;
  ASSERT_EQ(Compress(Letters("baabaaaa"), &g), 0);
  ASSERT_EQ(g.rules.size(), 2u);
  EXPECT_EQ(g.rules[0], (Body{a, a}));
  EXPECT_EQ(g.rules[1], (Body{b, -1}));
  EXPECT_EQ(g.start, (Body{-2, -2, -1}));
}

// In "c a a a" only the first "a a" is in the table (the second overlaps
// it). When "c a" repeats and becomes A, that first "a a" goes, and the
// second must take its place for the final "a a" to find it:
// S -> A a a b A b a a, then B -> a a, S -> A B b A b B.
TEST(Sequitur, RunKeepsDigramIndexed) {
  Grammar g;
  ASSERT_EQ(Compress(Letters("caaabcabaa"), &g), 0);
  ASSERT_EQ(g.rules.size(), 2u);
  EXPECT_EQ(g.rules[0], (Body{c, a}));
  EXPECT_EQ(g.rules[1], (Body{a, a}));
  EXPECT_EQ(g.start, (Body{-1, -2, b, -1, b, -2}));
}

// A loop's trace compresses to a grammar of size O(log n).
TEST(Sequitur, LoopTrace) {
  std::vector<uint32_t> input;
  for (int i = 0; i < 1000; ++i) input.insert(input.end(), {0, 1, 2});
  input.push_back(3);
  Grammar g;
  ASSERT_EQ(Compress(input, &g), 0);
  CheckGrammar(g, input);
  EXPECT_LT(Size(g), 60u);
}

TEST(Sequitur, ScratchSize) {
  std::vector<uint32_t> input(100);
  for (size_t i = 0; i < input.size(); ++i) input[i] = i % 7;
  Grammar g;
  EXPECT_EQ(Compress(input, &g, 16), -1);
  EXPECT_EQ(Compress(input, &g, sequitur_scratch_size(100) - 1), -1);
  EXPECT_EQ(Compress({}, &g, 0), -1);
  ASSERT_EQ(Compress(input, &g), 0);
  CheckGrammar(g, input);
  // Enough for any input up to n, and a few MB at most for 65536.
  EXPECT_GE(sequitur_scratch_size(200), sequitur_scratch_size(100));
  ASSERT_EQ(Compress(input, &g, sequitur_scratch_size(200)), 0);
  CheckGrammar(g, input);
  EXPECT_LE(sequitur_scratch_size(65536), 4u << 20);
  EXPECT_EQ(sequitur_scratch_size(SEQUITUR_MAX_INPUT + 1), SIZE_MAX);
}

std::vector<uint32_t> Random(std::mt19937 &rng, size_t length,
                             uint32_t alphabet) {
  std::uniform_int_distribution<uint32_t> symbol(0, alphabet - 1);
  std::vector<uint32_t> v(length);
  for (uint32_t &s : v) s = symbol(rng);
  return v;
}

// A program's trace: a few random blocks, repeated in random order, so
// rules nest and get reused, made and expanded again and again.
std::vector<uint32_t> Blocks(std::mt19937 &rng, size_t length,
                             uint32_t alphabet) {
  std::vector<std::vector<uint32_t>> blocks;
  std::uniform_int_distribution<size_t> block_length(1, 12);
  for (int i = 0; i < 6; ++i)
    blocks.push_back(Random(rng, block_length(rng), alphabet));
  std::uniform_int_distribution<size_t> which(0, blocks.size() - 1);
  std::vector<uint32_t> v;
  while (v.size() < length) {
    const auto &block = blocks[which(rng)];
    v.insert(v.end(), block.begin(), block.end());
  }
  v.resize(length);
  return v;
}

TEST(Sequitur, RandomSequences) {
  std::mt19937 rng(20240601);
  const size_t lengths[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 16,
                            31, 64, 100, 257, 1000, 5000};
  for (size_t length : lengths) {
    for (uint32_t alphabet = 1; alphabet <= 20; ++alphabet) {
      int tries = length <= 12 ? 40 : length <= 1000 ? 4 : 1;
      for (int t = 0; t < tries; ++t) {
        SCOPED_TRACE("length " + std::to_string(length) + ", alphabet " +
                     std::to_string(alphabet));
        std::vector<uint32_t> input = Random(rng, length, alphabet);
        Grammar g;
        ASSERT_EQ(Compress(input, &g), 0);
        CheckGrammar(g, input);
        if (HasFatalFailure()) return;
      }
    }
  }
}

TEST(Sequitur, RandomTraces) {
  std::mt19937 rng(7);
  for (size_t length : {50, 300, 2000, 5000}) {
    for (uint32_t alphabet : {1, 2, 3, 5, 20}) {
      for (int t = 0; t < 8; ++t) {
        SCOPED_TRACE("length " + std::to_string(length) + ", alphabet " +
                     std::to_string(alphabet));
        std::vector<uint32_t> input = Blocks(rng, length, alphabet);
        Grammar g;
        ASSERT_EQ(Compress(input, &g), 0);
        CheckGrammar(g, input);
        if (HasFatalFailure()) return;
      }
    }
  }
}

// The longest inputs the path history feeds it; a quadratic algorithm
// would take seconds each (the bound leaves room for sanitizers).
TEST(Sequitur, Long) {
  std::mt19937 rng(65536);
  const std::vector<uint32_t> inputs[] = {
      Random(rng, 65536, 2), Random(rng, 65536, 20), Blocks(rng, 65536, 3),
      std::vector<uint32_t>(65536, 5)};
  for (const auto &input : inputs) {
    Grammar g;
    auto begin = std::chrono::steady_clock::now();
    ASSERT_EQ(Compress(input, &g), 0);
    auto took = std::chrono::steady_clock::now() - begin;
    EXPECT_LT(took, std::chrono::seconds(2));
    CheckGrammar(g, input);
  }
}

}  // namespace
