/* What the pathcov plugin emits for an instrumented function, written by
 * hand: a descriptor, a pointer to it in section "pathcov_functions", and
 * the updates instrumented code makes at function entry and at each path's
 * end. An array function's counters are FAKE_COUNTERS(num_paths) (abi.h:
 * a power of two above num_paths).
 *
 * Record mode: FAKE_FUNCTION, fake_enter, fake_path. Residual mode
 * (docs/residual-mode.md): FAKE_RESIDUAL with a table of {Ball-Larus id,
 * count} tables built by hand, or FAKE_RESIDUAL_SEEN with seen slots,
 * fake_residual_end at each path end. */
#ifndef PATHCOV_TESTS_FAKE_PLUGIN_H
#define PATHCOV_TESTS_FAKE_PLUGIN_H

#include <pathcov/abi.h>

/* The inline counters of an array function of n paths (n < 64 here): the
 * power of two above n. */
#define FAKE_COUNTERS(n)                                                     \
  ((n) < 2 ? 2 : (n) < 4 ? 4 : (n) < 8 ? 8 : (n) < 16 ? 16 : (n) < 32 ? 32   \
                                                             : 64)

/* An array function's counters_ must have FAKE_COUNTERS(num_paths_) of
 * them; a hashed function's are 0 (its table_size is not read). */
#define FAKE_FUNCTION(var, identity_, num_paths_, flags_, counters_)         \
  FAKE_ARRAY_FUNCTION(var, identity_, num_paths_, flags_, counters_,         \
                      FAKE_COUNTERS(num_paths_) - 1)

/* Any number of counters: table_size_ + 1, a power of two above
 * num_paths_. */
#define FAKE_ARRAY_FUNCTION(var, identity_, num_paths_, flags_, counters_,   \
                            table_size_)                                     \
  static struct pathcov_function var = {                                     \
      .abi_version = PATHCOV_ABI_VERSION,                                    \
      .flags = (flags_),                                                     \
      .cfg_checksum = 0x0123456789abcdefull,                                 \
      .num_paths = (num_paths_),                                             \
      .identity = (identity_),                                               \
      .counters = (counters_),                                               \
      .calls = (uint64_t[1]){0},                                             \
      .table_size = (table_size_)};                                          \
  static struct pathcov_function *const var##_entry                          \
      __attribute__((section("pathcov_functions"), used)) = &var

/* A record-mode hashed function with seen slots, as the plugin makes it
 * on x86-64: seen_ is uint64_t[2 * slots_] (the tags, then the counts),
 * zero; slots_ a power of two. */
#define FAKE_HASHED_SEEN(var, identity_, num_paths_, seen_, slots_)         \
  static struct pathcov_function var = {                                     \
      .abi_version = PATHCOV_ABI_VERSION,                                    \
      .flags = PATHCOV_FN_HASHED | PATHCOV_FN_ENTRY_COUNTED,                 \
      .cfg_checksum = 0x0123456789abcdefull,                                 \
      .num_paths = (num_paths_),                                             \
      .identity = (identity_),                                               \
      .calls = (uint64_t[1]){0},                                             \
      .seen = (seen_),                                                       \
      .seen_slots = (slots_)};                                               \
  static struct pathcov_function *const var##_entry                          \
      __attribute__((section("pathcov_functions"), used)) = &var

/* A residual-mode function built with count-tested=1 (PATHCOV_FN_COUNTED).
 * flags_ holds the policy's flags; table_ (uint64_t[2][table_size_ + 1]:
 * the ids, then their counts; or 0 for untested and stale functions) the
 * tested paths: indexed by PPP id, the last id UINT64_MAX (array), or
 * sorted (PATHCOV_FN_SORTED). */
#define FAKE_RESIDUAL(var, identity_, checksum_, num_paths_, flags_, table_, \
                      table_size_)                                           \
  static struct pathcov_function var = {                                     \
      .abi_version = PATHCOV_ABI_VERSION,                                    \
      .flags = PATHCOV_FN_RESIDUAL | PATHCOV_FN_COUNTED | (flags_),                               \
      .cfg_checksum = (checksum_),                                           \
      .num_paths = (num_paths_),                                             \
      .identity = (identity_),                                               \
      .counters = (uint64_t *)(table_),                                      \
      .table_size = (table_size_)};                                          \
  static struct pathcov_function *const var##_entry                          \
      __attribute__((section("pathcov_functions"), used)) = &var

/* A residual-mode function as the plugin makes it without count-tested
 * (untested or stale, table_ 0; or an array of ids, the last UINT64_MAX):
 * with seen slots, seen_ (uint64_t[2 * slots_], zero; slots_ a power of
 * two), or, with PATHCOV_FN_SEEN_WORDS in flags_, seen words (seen_
 * uint64_t[slots_], zero; slots_ at least num_paths_). */
#define FAKE_RESIDUAL_SEEN(var, identity_, checksum_, num_paths_, flags_,    \
                           table_, table_size_, seen_, slots_)               \
  static struct pathcov_function var = {                                     \
      .abi_version = PATHCOV_ABI_VERSION,                                    \
      .flags = PATHCOV_FN_RESIDUAL | (flags_),                               \
      .cfg_checksum = (checksum_),                                           \
      .num_paths = (num_paths_),                                             \
      .identity = (identity_),                                               \
      .counters = (uint64_t *)(table_),                                      \
      .table_size = (table_size_),                                           \
      .seen = (seen_),                                                       \
      .seen_slots = (slots_)};                                               \
  static struct pathcov_function *const var##_entry                          \
      __attribute__((section("pathcov_functions"), used)) = &var

/* Once per unit, like the plugin: links the runtime of the unit's mode
 * into the module (abi.h): a unit that defines FAKE_RESIDUAL_UNIT before
 * including this file is a residual-mode unit, as the plugin's residual
 * units are, and a module of such units has no record-mode runtime. */
#ifdef FAKE_RESIDUAL_UNIT
static const void *const fake_runtime_link __attribute__((used)) =
    &__pathcov_residual_runtime_missing_link_with_lpathcov_rt;
#else
static const void *const fake_runtime_link __attribute__((used)) =
    &__pathcov_runtime_missing_link_with_lpathcov_rt;
#endif

static inline void fake_bump(uint64_t *counter, uint64_t flags) {
  if (flags & PATHCOV_FN_ATOMIC)
    __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
  else
    ++*counter;
}

/* At ENTRY. */
static inline void fake_enter(struct pathcov_function *fn) {
  fake_bump(fn->calls, fn->flags);
}

/* At the end of path id: inline for an array function, masked into its
 * counters (an id out of range lands past num_paths, or on another path's:
 * the numbering never makes one); through the runtime for a hashed
 * function. */
static inline void fake_path(struct pathcov_function *fn, uint64_t id) {
  if (fn->flags & PATHCOV_FN_HASHED)
    __pathcov_record_path(fn, id);
  else
    fake_bump(&fn->counters[id & fn->table_size], fn->flags);
}

/* The plugin's inline test of path id's seen slot: counted there, and 1,
 * if the slot holds the path's tag (abi.h: id in record mode, id + 1 in
 * residual mode); else 0, and the caller calls the runtime. */
static inline int fake_seen_count(struct pathcov_function *fn, uint64_t id) {
  uint64_t *tag = &fn->seen[id & (fn->seen_slots - 1)];
  if (*tag != ((fn->flags & PATHCOV_FN_RESIDUAL) ? id + 1 : id))
    return 0;
  fake_bump(tag + fn->seen_slots, fn->flags);
  return 1;
}

/* At the end of path id of a FAKE_HASHED_SEEN function (the plugin's
 * inline assembly, without the stub). */
static inline void fake_path_seen(struct pathcov_function *fn, uint64_t id) {
  if (!fake_seen_count(fn, id))
    __pathcov_record_miss(fn, id);
}

/* Residual mode, path bl is not tested: counted in its seen word (the
 * runtime's while the word is negative), or in its seen slot if the slot is
 * its own, else the runtime's. */
static inline void fake_residual_miss(struct pathcov_function *fn,
                                      uint64_t bl) {
  if (fn->seen && (fn->flags & PATHCOV_FN_SEEN_WORDS)) {
    uint64_t *word = &fn->seen[bl];
    uint64_t now;
    if (fn->flags & PATHCOV_FN_ATOMIC)
      now = __atomic_sub_fetch(word, 1, __ATOMIC_RELAXED);
    else
      now = --*word;
    if ((int64_t)now < 0)
      __pathcov_residual_word(fn, bl);
    return;
  }
  if (!fn->seen || !fake_seen_count(fn, bl))
    __pathcov_residual_path(fn, bl);
}

/* Residual mode, at the end of a path whose registers are ppp (PPP) and
 * bl (Ball-Larus), as the plugin emits it for each policy. */
static inline void fake_residual_end(struct pathcov_function *fn,
                                     uint64_t ppp, uint64_t bl) {
  if (!fn->counters || (fn->flags & PATHCOV_FN_TESTED_WORDS)) {
    /* untested, stale; or a bytemap check the plugin's last pass made the
     * word's alone */
    fake_residual_miss(fn, bl);
  } else if (fn->flags & PATHCOV_FN_SORTED) {
    __pathcov_residual_lookup(fn, bl);
  } else { /* array: i = min(ppp, size) */
    uint64_t i = ppp < fn->table_size ? ppp : fn->table_size;
    if (fn->counters[i] != bl)
      fake_residual_miss(fn, bl);
    else if (fn->flags & PATHCOV_FN_COUNTED)
      fake_bump(&fn->counters[fn->table_size + 1 + i], fn->flags);
  }
}

#endif
