// A path history as the runtime reports it: a SEQUITUR grammar
// (runtime/src/sequitur.h) over a thread's last paths, as in Larus' Whole
// Program Paths, and what the tools read from it: the sequence again, and
// its hot subpaths (the repeated subsequences the rules name).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace pathcov {

// The longest ring a thread's history has (abi.h, PATHCOV_HISTORY_MAX).
constexpr uint64_t kHistoryMax = 65536;

// A symbol s >= 0 is terminal s (an index into the history's paths);
// s < 0 is rule -s. Rule k (from 1) is rules[k - 1], and refers only to
// rules below k (the runtime numbers them so): the grammar is acyclic.
struct PathGrammar {
  std::vector<std::vector<int64_t>> rules;
  std::vector<int64_t> sequence;
};

// "" if g is well formed for `terminals` terminals and its sequence expands
// to at most maxLength symbols; else what is wrong, naming the rule (or
// the sequence) and the symbol.
std::string checkPathGrammar(const PathGrammar &g, uint64_t terminals,
                             uint64_t maxLength);

// The sequence, expanded (g checked).
std::vector<uint64_t> expandPathGrammar(const PathGrammar &g);

// A rule as a hot subpath: how many paths it expands to, and how often it
// occurs in the expanded sequence.
struct HotSubpath {
  uint64_t rule = 0;
  uint64_t length = 0;
  uint64_t occurrences = 0;
};

// WPP's hot subpaths: the rules that occur at least twice in the
// expansion, by the paths their occurrences cover (length times
// occurrences), most first, then by rule; at most `limit` (g checked).
std::vector<HotSubpath> hotSubpaths(const PathGrammar &g, size_t limit);

// Rule k's expansion (g checked, 1 <= k <= rules).
std::vector<uint64_t> expandRule(const PathGrammar &g, uint64_t k);

} // namespace pathcov
