// Fails to compile when plugin/Abi.h and the runtime's abi.h disagree.
#include "Abi.h"
#include "pathcov/core/KPaths.h"

#include <pathcov/abi.h>

#include <cstddef>

namespace pathcov {
namespace {

static_assert(kAbiVersion == PATHCOV_ABI_VERSION);

static_assert(kFlagHashed == PATHCOV_FN_HASHED);
static_assert(kFlagAtomic == PATHCOV_FN_ATOMIC);
static_assert(kFlagResidual == PATHCOV_FN_RESIDUAL);
static_assert(kFlagSorted == PATHCOV_FN_SORTED);
static_assert(kFlagStale == PATHCOV_FN_STALE);
static_assert(kFlagBytemap == PATHCOV_FN_BYTEMAP);
static_assert(kFlagCounted == PATHCOV_FN_COUNTED);
static_assert(kFlagCuckoo == PATHCOV_FN_CUCKOO);
static_assert(kFlagNarrow == PATHCOV_FN_NARROW);
static_assert(kFlagEntryCounted == PATHCOV_FN_ENTRY_COUNTED);
static_assert(kFlagThreeChoices == PATHCOV_FN_THREE_CHOICES);
static_assert(kFlagSeenWords == PATHCOV_FN_SEEN_WORDS);
static_assert(kFlagCallsArePath == PATHCOV_FN_CALLS_ARE_PATH);
static_assert(kFlagTestedWords == PATHCOV_FN_TESTED_WORDS);
static_assert(kFlagPathsAreCalls == PATHCOV_FN_PATHS_ARE_CALLS);
static_assert(kFlagHistoryShift == PATHCOV_FN_HISTORY_SHIFT);
static_assert(kHistoryMaskOffset == PATHCOV_HISTORY_MASK);
static_assert(kHistoryRingOffset == PATHCOV_HISTORY_RING);
static_assert(kKPathMax == PATHCOV_KPATH_MAX);
static_assert(kKPathsWords * 8 == sizeof(struct pathcov_kpaths));
static_assert(kKPathStateWords == PATHCOV_KPATH_STATE_WORDS);

constexpr size_t at(DescriptorField field) {
  return static_cast<size_t>(field) * 8;
}
static_assert(offsetof(pathcov_function, abi_version) == at(DescriptorField::AbiVersion));
static_assert(offsetof(pathcov_function, flags) == at(DescriptorField::Flags));
static_assert(offsetof(pathcov_function, cfg_checksum) == at(DescriptorField::CfgChecksum));
static_assert(offsetof(pathcov_function, num_paths) == at(DescriptorField::NumPaths));
static_assert(offsetof(pathcov_function, identity) == at(DescriptorField::Identity));
static_assert(offsetof(pathcov_function, counters) == at(DescriptorField::Counters));
static_assert(offsetof(pathcov_function, calls) == at(DescriptorField::Calls));
static_assert(offsetof(pathcov_function, runtime) == at(DescriptorField::Runtime));
static_assert(offsetof(pathcov_function, table_size) == at(DescriptorField::TableSize));
static_assert(offsetof(pathcov_function, resumes) == at(DescriptorField::Resumes));
static_assert(offsetof(pathcov_function, seen) == at(DescriptorField::Seen));
static_assert(offsetof(pathcov_function, seen_slots) == at(DescriptorField::SeenSlots));
static_assert(sizeof(pathcov_function) == kDescriptorFields * 8);

} // namespace
} // namespace pathcov
