// The plugin's side of runtime/include/pathcov/abi.h: the ABI version, the
// descriptor's fields in order and the function flags. No GCC header here,
// so AbiCheck.cc can hold it against abi.h itself, which the plugin's other
// units cannot include (GCC's headers poison some of what stdint.h pulls
// in): the plugin does not build when the two drift.
#pragma once

#include <cstdint>

namespace pathcov {

constexpr uint64_t kAbiVersion = 10; // PATHCOV_ABI_VERSION

// struct pathcov_function's fields, in order, each 8 bytes.
enum class DescriptorField {
  AbiVersion, Flags, CfgChecksum, NumPaths, Identity, Counters,
  Calls, Runtime, TableSize, Resumes, Seen, SeenSlots
};
constexpr int kDescriptorFields = 12;

// PATHCOV_FN_*.
constexpr uint64_t kFlagHashed = 1;
constexpr uint64_t kFlagAtomic = 2;
constexpr uint64_t kFlagResidual = 4;
constexpr uint64_t kFlagSorted = 8;
constexpr uint64_t kFlagStale = 16;
constexpr uint64_t kFlagBytemap = 32;
constexpr uint64_t kFlagCounted = 64;
constexpr uint64_t kFlagCuckoo = 128;
constexpr uint64_t kFlagNarrow = 256;
constexpr uint64_t kFlagEntryCounted = 512;
constexpr uint64_t kFlagThreeChoices = 1024;
constexpr uint64_t kFlagSeenWords = 2048;
constexpr uint64_t kFlagCallsArePath = 4096;
constexpr uint64_t kFlagTestedWords = 8192;
constexpr uint64_t kFlagPathsAreCalls = 16384;
// log2 of the history=N ring, at kFlagHistoryShift (PATHCOV_FN_HISTORY_*).
constexpr int kFlagHistoryShift = 16;
// The thread's history record: its mask and ring (PATHCOV_HISTORY_*).
constexpr int kHistoryMaskOffset = 8;
constexpr int kHistoryRingOffset = 64;
// Record mode, k=N (the largest k is the core's kKPathMax): struct
// pathcov_kpaths's words (k, fn, then the runtime's three); an
// activation's state words, the first 0 at a sequence's start.
constexpr int kKPathsWords = 5;
constexpr int kKPathStateWords = 3;

} // namespace pathcov
