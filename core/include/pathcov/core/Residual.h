// Residual mode (PPP paper section 2.3 and section 5): how one function of
// a release build tells its tested paths from residual ones.
#pragma once

#include "pathcov/core/Chords.h"
#include "pathcov/core/Dag.h"
#include "pathcov/core/Ppp.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace pathcov {

// In the order the plugin's statistics list them.
enum class ResidualPolicy : uint8_t {
  Bytemap,  // few enough Ball-Larus ids for a byte each: one register, one
            // compare with memory, no PPP register and no bounds check
  Array,    // PPP-indexed table: ppp & size, one compare
  Hashed,   // PPP interval too large: a constant cuckoo hash table of the
            // tested ids, two or three probes inline whatever the
            // function's size
  Sorted,   // no hash table found (a fallback that should not happen):
            // binary search of tested ids, out of line
  Untested, // the tests never ran the function: every path is residual
  Stale,    // the corpus has the function with another CFG: every path is
            // residual, and the build says the corpus is stale
  Complete, // the tests ran every path: no path end needs a check
};
inline constexpr int kResidualPolicies = 7;

const char *residualPolicyName(ResidualPolicy policy);

// No path has this Ball-Larus id (ids stay below the path limit, at most
// 2^61): the table's sentinel, which a clamped PPP id always misses.
inline constexpr uint64_t kNoPath = UINT64_MAX;

struct ResidualLimits {
  uint64_t tableEntries = 4096; // the most entries of an array (padding too)
  double delta = 16;            // the largest interval / tested paths
  // The most Ball-Larus ids given a bytemap (a byte each, so 4 KiB at
  // most). 0: never; PPP tables only.
  uint64_t bytemapPaths = 4096;
  // Count how often each tested path runs (reports' tested_paths): PPP,
  // hash or sorted tables with a count beside each id, never a bytemap.
  bool countTested = false;
  // Hashed: cuckoo insertion moves at most this many ids per insertion
  // before it tries the next multipliers (0: never moves one).
  unsigned hashKicks = 500;
  // Hashed: the sets of multipliers tried at each size (0: none, every
  // such function sorted; for tests).
  unsigned hashAttempts = 8;
  // Hashed: the most slots a two-choice table may have (at least twice
  // the ids); a larger one takes three choices instead, which fill it to
  // about 91%, for one probe more at every check (0: always three).
  uint64_t twoChoiceSlots = 16384;
  // Peel the first iteration of loops the tests ran at least this many
  // times per entry (0: never). See ResidualPlan::peel.
  uint64_t peelIterations = 4;
  // Array: a table for every path's PPP id where it is small enough, so
  // that the check needs no mask (ResidualPlan::unmasked); false: masked
  // tables only (for tests).
  bool unmaskedArrays = true;
};

// Hashed: slot h(id) = (id * multiplier) >> (64 - log2 size) of a table of
// `size` (a power of two, at least 2) slots.
inline uint64_t hashSlot(uint64_t id, uint64_t multiplier, uint64_t size) {
  int bits = 0;
  while ((uint64_t{1} << bits) < size)
    ++bits;
  return (id * multiplier) >> (64 - bits);
}

// Hashed: the most slots an id may sit in (ResidualLimits::twoChoiceSlots
// says when two, when three).
constexpr unsigned kMaxHashChoices = 3;

// Hashed: the n-th set of multipliers tried (n = 0, 1, ...), one per
// choice (2 or 3): odd 64-bit constants from splitmix64, the same in every
// build (set n's first two are the same with two choices as with three).
std::vector<uint64_t> hashMultipliers(unsigned n, unsigned choices);

// Hashed: a table of `size` slots (a power of two, at least 2) holding each
// of `ids` (distinct, none kNoPath) in one of its slots hashSlot(id, k[i],
// size), one per multiplier, the others kNoPath, built by cuckoo
// insertion (a random walk, the same in every build) in the order given,
// moving at most `kicks` ids per insertion; empty when that fails.
std::vector<uint64_t> buildCuckooTable(const std::vector<uint64_t> &ids,
                                       uint64_t size, const std::vector<uint64_t> &k,
                                       unsigned kicks);

// A CFG of a function other than the build's, as the corpus has it.
struct OtherVersion {
  std::string checksum;
  uint64_t testedPaths = 0;
  bool operator==(const OtherVersion &o) const {
    return checksum == o.checksum && testedPaths == o.testedPaths;
  }
};

struct ResidualPlan {
  ResidualPolicy policy = ResidualPolicy::Untested;
  std::string why; // for Stale: what does not match
  // For Untested, set by the caller: the function's other CFGs that the
  // tests did run (the corpus has this one too, never run): copies of a
  // header's static built otherwise in another unit (lz4.c's statics in
  // lz4hc.c with LZ4_DEBUG). Untested is no less true, but "the tests never
  // ran this function" would mislead.
  std::vector<OtherVersion> testedVersions;
  std::vector<uint64_t> tested; // the tested ids, ascending
  // Computed for every function with fewer tested paths ending with a
  // checked end than tableEntries, and at least one (statistics; only
  // those can have an array), used by Array only; intervalSize 0 when not
  // computed or a weight overflowed.
  PppNumbering ppp;
  ChordPlacement chords; // PPP increments 0 unless Array
  // The tables hold only the tested paths that end with a checked end
  // (the others are never looked up), and PPP numbers those alone.
  // Array: tableSize + 1 Ball-Larus ids indexed by PPP id (id k is the
  // tested path whose PPP id is k, or kNoPath; unmasked: pppBase + k), a
  // power of two unless unmasked, those past the PPP interval (at least
  // the last) kNoPath. Sorted:
  // the tested ids ascending, then kNoPath. With countTested, as many
  // counts (0) follow. Hashed: tableSize slots (a power of two, at least
  // twice the tested paths with two choices, 9/8 of them with three), each
  // a tested id or kNoPath: a tested id is in one of its slots
  // hashSlot(id, multipliers[i]), and no other id is in any of them;
  // unless narrow, the multipliers follow the slots (abi.h), then, with
  // countTested, tableSize counts (0), slot k's at tableSize +
  // multipliers.size() + k.
  // Empty for the other policies.
  uint64_t tableSize = 0;
  std::vector<uint64_t> table;
  std::vector<uint64_t> multipliers; // Hashed: one per choice, 2 or 3
  bool counted = false; // the table has counts
  // Array or Hashed without counts, of a function with fewer than
  // UINT32_MAX paths: the instrumentation stores the table's ids as
  // uint32_t (abi.h's PATHCOV_FN_NARROW) and compares the low 32 bits of
  // the id, which are the id; kNoPath becomes UINT32_MAX, which no path
  // is. Nothing reads a narrow hash table's multipliers, so it has none.
  bool narrow = false;
  // Array: the table has an entry for the PPP id of every path, tested or
  // not (the check needs no mask): entry k is the tested path whose PPP id
  // is pppBase + k, or kNoPath; pppBase is the least PPP id of any path.
  // Else (unmasked false, pppBase 0) the check masks the PPP id.
  bool unmasked = false;
  int64_t pppBase = 0;
  // Bytemap: byte id is 1 when path id was tested, else 0.
  std::vector<uint8_t> bytemap;
  // Per DAG edge: true for the path ends (edges into EXIT) that need a
  // check, those that some untested path ends with. A path end that only
  // tested paths reach needs no code at all.
  std::vector<bool> checkedEnd;
  uint64_t checkedEnds = 0, uncheckedEnds = 0;
  // Per DAG edge: every path through it was tested (empty for untested
  // and stale functions, and with countTested, whose counts need every
  // check). A route into a path end
  // that enters by such an edge needs no check of its own: the plugin ends
  // a path on the entries of a block that leads only to its end, and
  // checks only the entries that untested paths take (Instrumenter.cc,
  // pathEndsOnEntries).
  std::vector<bool> everyPathTested;
  // The same for the paths that do not start at the function's entry, the
  // only ones a peeled loop's later iterations run: a check there on a
  // route that enters by such an edge can go (Plugin.cc, after peeling).
  std::vector<bool> everyInnerPathTested;
  // Bytemap and hashed tables with the tests' counts: the blocks that
  // start paths (loop headers, for the plugin) whose loops the tests
  // iterated at least peelIterations times per entry. With the first
  // iteration peeled off, every path of the loop left starts at its
  // header with a constant register, so along a route that crosses no
  // chord the id at the back edge is a constant and the compiler folds
  // its check against the constant table away: the hot iteration runs no
  // pathcov code at all (issue 10, "Loops").
  std::vector<BlockId> peel;
};

// The blocks of `dag` that start paths, other than after an abnormal
// edge, where the paths starting there ran at least `minIterations` times
// as often as the DAG edges entering the block (once, if none did). `runs`:
// per DAG edge, how often the tests ran it (walkTestedPaths).
std::vector<BlockId> loopsWorthPeeling(const Dag &dag,
                                       const std::vector<uint64_t> &runs,
                                       uint64_t minIterations);

// `corpusChecksum` is empty when the corpus does not have the function.
// Tested ids must be paths of `numbered`; an id that is not makes the plan
// Stale (a corpus recorded against another numbering), never wrong.
// `testedCounts`, parallel to `tested` (or empty), say how often the tests
// ran each: the chords then go where the tests rarely or never went
// (profile-guided placement, computeChordIncrements), else where the
// compiler's estimates say.
ResidualPlan planResidual(const NumberedDag &numbered, uint64_t cfgChecksum,
                          const std::string &corpusChecksum,
                          const std::vector<uint64_t> &tested,
                          const ResidualLimits &limits,
                          const std::vector<uint64_t> &testedCounts = {});

} // namespace pathcov
