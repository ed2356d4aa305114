// A path history's grammar as the tools read it: the checks a report's
// grammar must pass, the expansion, and WPP's hot subpaths.
#include "pathcov/core/PathGrammar.h"

#include <gtest/gtest.h>

namespace pathcov {
namespace {

PathGrammar grammar(std::vector<std::vector<int64_t>> rules,
                    std::vector<int64_t> sequence) {
  return {std::move(rules), std::move(sequence)};
}

TEST(PathGrammarTest, ExpandsRulesInPlace) {
  // a=0 b=1 c=2 d=3; rule 1 = b c, rule 2 = a 1: S = 2 d 1 2 d -> a b c d
  // b c a b c d.
  const PathGrammar g = grammar({{1, 2}, {0, -1}}, {-2, 3, -1, -2, 3});
  ASSERT_EQ(checkPathGrammar(g, 4, 100), "");
  EXPECT_EQ(expandPathGrammar(g),
            (std::vector<uint64_t>{0, 1, 2, 3, 1, 2, 0, 1, 2, 3}));
  EXPECT_EQ(expandRule(g, 2), (std::vector<uint64_t>{0, 1, 2}));
}

TEST(PathGrammarTest, HotSubpathsByPathsCovered) {
  // rule 1 = c d (4 occurrences: twice in rule 2, which occurs twice),
  // rule 2 = 1 1 (2 occurrences): both cover 8 paths; ties by rule.
  // A rule used once (rule 3, an input no SEQUITUR makes) is not hot.
  const PathGrammar g = grammar({{2, 3}, {-1, -1}, {0, 1}},
                                {-3, -2, 0, 3, -2, 4});
  ASSERT_EQ(checkPathGrammar(g, 5, 100), "");
  const std::vector<HotSubpath> hot = hotSubpaths(g, 5);
  ASSERT_EQ(hot.size(), 2u);
  EXPECT_EQ(hot[0].rule, 1u);
  EXPECT_EQ(hot[0].length, 2u);
  EXPECT_EQ(hot[0].occurrences, 4u);
  EXPECT_EQ(hot[1].rule, 2u);
  EXPECT_EQ(hot[1].length, 4u);
  EXPECT_EQ(hot[1].occurrences, 2u);
  EXPECT_EQ(hotSubpaths(g, 1).size(), 1u);
}

TEST(PathGrammarTest, HotSubpathsMostCoveredFirst) {
  // rule 1 = a b, twice (4 paths); rule 2 = c d e, three times (9 paths).
  const PathGrammar g =
      grammar({{0, 1}, {2, 3, 4}}, {-1, -2, -1, -2, -2});
  ASSERT_EQ(checkPathGrammar(g, 5, 100), "");
  const std::vector<HotSubpath> hot = hotSubpaths(g, 5);
  ASSERT_EQ(hot.size(), 2u);
  EXPECT_EQ(hot[0].rule, 2u);
  EXPECT_EQ(hot[1].rule, 1u);
}

TEST(PathGrammarTest, RefusesMalformedGrammars) {
  EXPECT_EQ(checkPathGrammar(grammar({}, {0, 5}), 5, 100),
            "sequence[1]: path 5 is not in paths (5 of them)");
  EXPECT_EQ(checkPathGrammar(grammar({{0}}, {-1, -1}), 1, 100),
            "rules[0]: a rule has at least two symbols");
  // A rule naming itself, or a rule above it: a cycle could follow.
  EXPECT_EQ(checkPathGrammar(grammar({{0, -1}}, {-1}), 1, 100),
            "rules[0][1]: rule 1 is not a rule below this one");
  EXPECT_EQ(checkPathGrammar(grammar({{0, -2}, {0, 0}}, {-1}), 1, 100),
            "rules[0][1]: rule 2 is not a rule below this one");
  EXPECT_EQ(checkPathGrammar(grammar({{0, 0}}, {-2}), 1, 100),
            "sequence[0]: rule 2 is not in rules");
  EXPECT_EQ(checkPathGrammar(grammar({{0, 0}}, {INT64_MIN}), 1, 100),
            "sequence[0]: rule 0 is not in rules");
  EXPECT_EQ(checkPathGrammar(grammar({{0, 0}}, {0}), 1, 100), "");
}

TEST(PathGrammarTest, RefusesExpansionsPastTheLimit) {
  // Each rule doubles the one below: 2^40 paths from 41 rules.
  std::vector<std::vector<int64_t>> rules{{0, 0}};
  for (int64_t k = 1; k < 40; ++k)
    rules.push_back({-k, -k});
  const PathGrammar g = grammar(rules, {-40});
  EXPECT_EQ(checkPathGrammar(g, 1, kHistoryMax),
            "sequence: expands to more than 65536 paths");
  EXPECT_EQ(checkPathGrammar(grammar(rules, {-16}), 1, kHistoryMax), "");
}

TEST(PathGrammarTest, ExpandsRulesNestedAsDeepAsTheHistory) {
  // Rule k = rule k-1 then a path: 65535 rules deep, 65536 paths.
  std::vector<std::vector<int64_t>> rules{{0, 1}};
  for (int64_t k = 2; k < 65536; ++k)
    rules.push_back({-(k - 1), k % 2});
  const PathGrammar g = grammar(rules, {-65535});
  ASSERT_EQ(checkPathGrammar(g, 2, kHistoryMax), "");
  const std::vector<uint64_t> paths = expandPathGrammar(g);
  ASSERT_EQ(paths.size(), 65536u);
  for (uint64_t i = 0; i < paths.size(); ++i)
    ASSERT_EQ(paths[i], i % 2);
  EXPECT_EQ(hotSubpaths(g, 5).size(), 0u); // each rule is used once
}

} // namespace
} // namespace pathcov
