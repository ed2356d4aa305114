// Residual mode on x86-64: a path end's miss as one asm statement (the
// seen slot's test and count, else the call to the runtime).
#pragma once

#include "GccIncludes.h"

#include <cstdint>

namespace pathcov {

// One function's residual tables, as its misses use them.
struct MissTables {
  tree descriptor;        // struct pathcov_function
  tree seen;              // its seen slots ({tag, count} pairs), or NULL_TREE
  uint64_t seenSlots;     // how many
  bool slotPerPath;       // seenSlots >= the function's paths: slot k is
                          // path k's alone
  bool atomic;            // counts with `lock`
};

// The miss of path `id` (docs/residual-mode.md, "First sighting only"):
// `k = id & (slots - 1); if (seen[2k] == id + 1) seen[2k + 1]++; else
// call`.
gasm *buildMissAsm(const MissTables &tables, tree id);

} // namespace pathcov
