#include "pathcov/core/PathGrammar.h"

#include <algorithm>
#include <utility>
#include <tuple>

namespace pathcov {

namespace {

const std::vector<int64_t> &bodyOf(const PathGrammar &g, uint64_t k) {
  return k == 0 ? g.sequence : g.rules[k - 1];
}

// With a stack of its own: a report's rules can nest as deep as its
// history is long (65536), too deep for the call stack.
std::vector<uint64_t> expand(const PathGrammar &g,
                             const std::vector<int64_t> &body) {
  std::vector<uint64_t> out;
  std::vector<std::pair<const std::vector<int64_t> *, size_t>> stack{{&body, 0}};
  while (!stack.empty()) {
    auto &[rule, next] = stack.back();
    if (next == rule->size()) {
      stack.pop_back();
      continue;
    }
    const int64_t s = (*rule)[next++];
    if (s >= 0)
      out.push_back(static_cast<uint64_t>(s));
    else
      stack.push_back({&g.rules[static_cast<uint64_t>(-s) - 1], 0});
  }
  return out;
}

// Each rule's expansion length (index 0: the sequence's), at most `cap`:
// a grammar can name exponentially long sequences. Rules name only lower
// rules (checkPathGrammar).
std::vector<uint64_t> expansionLengths(const PathGrammar &g, uint64_t cap) {
  std::vector<uint64_t> length(g.rules.size() + 1, 0);
  for (uint64_t k = 1; k <= g.rules.size() + 1; ++k) {
    const uint64_t rule = k <= g.rules.size() ? k : 0;
    uint64_t total = 0;
    for (int64_t s : bodyOf(g, rule)) {
      const uint64_t more = s >= 0 ? 1 : length[static_cast<uint64_t>(-s)];
      total = __builtin_add_overflow(total, more, &total) ? cap
                                                          : std::min(cap, total);
    }
    length[rule] = total;
  }
  return length;
}

} // namespace

std::string checkPathGrammar(const PathGrammar &g, uint64_t terminals,
                             uint64_t maxLength) {
  for (uint64_t k = 1; k <= g.rules.size() + 1; ++k) {
    const uint64_t rule = k <= g.rules.size() ? k : 0;
    const std::vector<int64_t> &body = bodyOf(g, rule);
    const auto where = [&] {
      return rule ? "rules[" + std::to_string(rule - 1) + "]"
                  : std::string("sequence");
    };
    if (rule && body.size() < 2)
      return where() + ": a rule has at least two symbols";
    for (size_t i = 0; i < body.size(); ++i) {
      const int64_t s = body[i];
      const auto at = [&] { return where() + "[" + std::to_string(i) + "]"; };
      if (s >= 0 && static_cast<uint64_t>(s) >= terminals)
        return at() + ": path " + std::to_string(s) + " is not in paths (" +
               std::to_string(terminals) + " of them)";
      // -s, not below 1, and below this rule (any rule, for the sequence).
      if (s < 0 && (s == INT64_MIN ||
                    static_cast<uint64_t>(-s) > g.rules.size() ||
                    (rule && static_cast<uint64_t>(-s) >= rule)))
        return at() + ": rule " + std::to_string(s == INT64_MIN ? 0 : -s) +
               (rule ? " is not a rule below this one" : " is not in rules");
    }
  }
  const uint64_t beyond = maxLength == UINT64_MAX ? maxLength : maxLength + 1;
  if (expansionLengths(g, beyond)[0] > maxLength)
    return "sequence: expands to more than " + std::to_string(maxLength) +
           " paths";
  return "";
}

std::vector<uint64_t> expandPathGrammar(const PathGrammar &g) {
  return expand(g, g.sequence);
}

std::vector<uint64_t> expandRule(const PathGrammar &g, uint64_t k) {
  return expand(g, g.rules[k - 1]);
}

std::vector<HotSubpath> hotSubpaths(const PathGrammar &g, size_t limit) {
  const size_t n = g.rules.size();
  const std::vector<uint64_t> length = expansionLengths(g, UINT64_MAX);
  std::vector<uint64_t> occurrences(n + 1, 0);
  // A rule occurs wherever a rule that names it does: from the sequence
  // down (rules name only rules below them).
  for (int64_t s : g.sequence)
    if (s < 0)
      ++occurrences[static_cast<uint64_t>(-s)];
  for (uint64_t k = n; k >= 1; --k)
    for (int64_t s : g.rules[k - 1])
      if (s < 0)
        occurrences[static_cast<uint64_t>(-s)] += occurrences[k];
  std::vector<HotSubpath> hot;
  for (uint64_t k = 1; k <= n; ++k)
    if (occurrences[k] >= 2)
      hot.push_back({k, length[k], occurrences[k]});
  std::sort(hot.begin(), hot.end(), [](const HotSubpath &a, const HotSubpath &b) {
    return std::make_tuple(b.length * b.occurrences, a.rule) <
           std::make_tuple(a.length * a.occurrences, b.rule);
  });
  if (hot.size() > limit)
    hot.resize(limit);
  return hot;
}

} // namespace pathcov
