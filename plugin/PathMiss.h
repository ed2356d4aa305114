// x86-64: a path end's miss as one asm statement, the seen slot's test and
// count, else the call to the runtime: where a residual check missed, and
// at every path end of a hashed record-mode function.
#pragma once

#include "GccIncludes.h"

#include <cstdint>

namespace pathcov {

// One function's residual tables, as its misses use them.
struct MissTables {
  tree descriptor;        // struct pathcov_function
  tree seen;              // its seen slots (the tags, then the counts; or
                          // a word per path), or NULL_TREE
  uint64_t seenSlots;     // how many
  bool seenWords;         // a word per path (kFlagSeenWords)
  bool atomic;            // counts with `lock`
  const char *stub;       // kResidualMissStub or kRecordMissStub
};

// The runtime's stubs (runtime/src/path_miss_x86_64.S): a residual path
// not in its seen slot, a seen word gone negative, and a record-mode path
// of a hashed function not in its seen slot.
constexpr const char *kResidualMissStub = "__pathcov_site_residual_path";
constexpr const char *kResidualWordStub = "__pathcov_site_residual_word";
constexpr const char *kRecordMissStub = "__pathcov_site_record_miss";
// The path history's (runtime/src/history_x86_64.S).
constexpr const char *kHistoryStub = "__pathcov_site_history";

// Residual mode: a function of at most kSeenWordLimit paths gives every
// path a seen word of its own (32 KiB of .bss at most, only the pages its
// residual paths touch resident), so that a repeated residual path's miss
// is a subtraction and a branch on the sign, addressed as the compiler
// likes (zlib's longest_match, 1270 paths). Larger functions share
// kSharedSeenSlots (16 KiB of .bss, only the pages touched resident): with
// 256, zlib's inflate_fast (make bench, scenario b) called the runtime
// 85,920 times for residual paths whose slot another held (11.6 M Ir, 1.5%
// of the run); with 1024, 0.9 M Ir, and 4096 did no better (0.4 M).
constexpr uint64_t kSeenWordLimit = 4096;
constexpr uint64_t kSharedSeenSlots = 1024;
// Record mode: the seen slots of a hashed function (1 MiB of .bss, only
// the pages its paths touch resident), for every path a run takes: with
// 256, bzip2's BZ2_decompress (163,145 paths, 252 run) still called the
// runtime for more than half of its path ends, its first paths holding the
// slots its hot ones needed; with 4096, for fewer than 0.2% of them. 65536,
// so that a path's slot is its id's low 16 bits, one movzwl (abi.h).
constexpr uint64_t kRecordSeenSlots = 65536;

// The miss of path `id` (docs/residual-mode.md, "First sighting only";
// docs/record-mode.md): with seen words, `if (--seen[id] < 0) call`; else
// `k = id & (slots - 1); if (seen[k] == id + 1) seen[slots + k]++; else
// call`, or in record mode, whose tags are the ids (abi.h),
// `if (seen[k] == id)`.
gasm *buildMissAsm(const MissTables &tables, tree id);

// A seen word's miss (buildMissAsm with seen words, not atomic), its word,
// and the call alone that it makes once the word has gone negative, for
// code that counts in the word itself (TestedWords.h).
bool isWordMissAsm(const gimple *stmt);
tree wordOfMiss(const gasm *miss);
gasm *buildWordCallAsm(const gasm *miss);
// The miss's subtraction alone, `negative` (a boolean SSA name) the sign
// of the result.
gasm *buildWordCountAsm(const gasm *miss, tree negative);

// x86-64: path `id` of `descriptor` appended to the thread's path history
// (abi.h, PATHCOV_HISTORY_*), as one asm statement: the record's offset
// counted, and unless it falls on the ring's start (then the stub's call,
// which stores the entry), {descriptor, id} stored there. Nine
// instructions (ten in a shared library), two scratch registers, no
// branch taken but once a lap.
gasm *buildHistoryAsm(tree descriptor, tree id);

// x86-64: `counter += 1` as one `asm inline` statement (`lock` with
// atomic). The same instruction GCC emits, but the inliners count it as
// one, where the load, add and store counted three: with them, record
// mode's counts made one-path accessors too big to inline early (re2's
// PODArray::operator[], and through it BitState::ShouldVisit).
gasm *buildCountAsm(tree counter, bool atomic);

// Whether `stmt` is a count (buildCountAsm's, or one CountMerge.h folded
// others into), and by how much it adds.
bool isCountAsm(const gimple *stmt, uint64_t &by);
// Makes count `stmt` add `by`.
void setCountBy(gasm *stmt, uint64_t by);

} // namespace pathcov
