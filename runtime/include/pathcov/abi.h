/* The contract between code instrumented by the pathcov GCC plugin and the
 * pathcov runtime. The plugin builds these objects as GCC trees (plugin/
 * Abi.h mirrors the version, the flags and the field order, and
 * plugin/AbiCheck.cc fails the plugin's build when they differ from this
 * file); the runtime reads them. Any change bumps PATHCOV_ABI_VERSION. */
#ifndef PATHCOV_ABI_H
#define PATHCOV_ABI_H

#include <stdint.h>

#define PATHCOV_ABI_VERSION 10

/* pathcov_function.flags */
#define PATHCOV_FN_HASHED 1u /* ids go to __pathcov_record_path, no array */
#define PATHCOV_FN_ATOMIC 2u /* counters are updated with atomic adds */
/* Residual mode (docs/residual-mode.md): the function was compiled against
 * a corpus of tested paths; its path ends tell tested paths (counted in
 * `counters`) from residual ones (__pathcov_residual_path). */
#define PATHCOV_FN_RESIDUAL 4u
/* Residual mode, the PPP interval too large for an array and no hash table
 * found (see PATHCOV_FN_CUCKOO; a fallback that should not happen):
 * `counters` holds the tested paths sorted by Ball-Larus id, and every
 * checked path end calls __pathcov_residual_lookup. */
#define PATHCOV_FN_SORTED 8u
/* Residual mode, the corpus had this function with another CFG checksum:
 * it is stale for it, and every path is residual. */
#define PATHCOV_FN_STALE 16u
/* Residual mode: `counters` points at a constant bytemap of num_paths bytes
 * (byte id is 1 when path id was tested, else 0), no table. */
#define PATHCOV_FN_BYTEMAP 32u
/* Residual mode: the table has a count after its ids (count-tested=1);
 * without it the table is a constant. */
#define PATHCOV_FN_COUNTED 64u
/* Residual mode, policy "hashed" (the PPP interval too large for an
 * array): `counters` points at a two-choice (cuckoo), or with
 * PATHCOV_FN_THREE_CHOICES three-choice, hash table of the tested
 * Ball-Larus ids: table_size slots (a power of two, 2^b), each a tested
 * id or UINT64_MAX, then c more words (c the number of choices), the odd
 * multipliers K1 .. Kc, then, with PATHCOV_FN_COUNTED, table_size counts
 * (slot k's count is counters[table_size + c + k]; without, the table is
 * a constant). A tested id is in one of the slots (id * Ki) >> (64 - b)
 * (64-bit products, wrapping), and no other id is in any of them.
 * Instrumented code probes them all inline and misses
 * (__pathcov_residual_path, through the seen slots) when none holds the
 * id, or counts the hit slot; the runtime reads the table only to report
 * counts. */
#define PATHCOV_FN_CUCKOO 128u
/* Residual mode, an array or hash table (PATHCOV_FN_CUCKOO) without counts
 * (no PATHCOV_FN_COUNTED) of a function with fewer than UINT32_MAX paths:
 * the table's entries are uint32_t (no path is UINT32_MAX), half the size
 * at no extra instruction, and a hash table has no multipliers after its
 * slots. Nothing in the runtime reads such a table. */
#define PATHCOV_FN_NARROW 256u
/* Record mode: `calls` is counted at the function's entry, before any of
 * its paths can end (the plugin always does so). The runtime then reads the
 * counters of only the functions it has seen entered: a function whose
 * calls are 0 at a profile and were at every earlier one has no counts.
 * Without the flag, every counter is read. Runtimes that predate it
 * ignore it. */
#define PATHCOV_FN_ENTRY_COUNTED 512u
/* Residual mode, with PATHCOV_FN_CUCKOO: three choices, three multipliers
 * (a table too large for two choices, which fail beyond half full, while
 * three fill one to about 91%: docs/residual-mode.md). */
#define PATHCOV_FN_THREE_CHOICES 1024u
/* Residual mode, with seen slots: a seen word per path instead of shared
 * tagged slots (seen_slots >= num_paths words, no tags; see `seen`). */
#define PATHCOV_FN_SEEN_WORDS 2048u
/* Record mode (ABI 8): the function has one path, and nothing in it can
 * leave it but its return (no call but to builtins that return), so every
 * entry runs that path to its end: `calls` is path 0's count, and nothing
 * else counts it (the counters stay 0). One increment, not two, where an
 * accessor is inlined. */
#define PATHCOV_FN_CALLS_ARE_PATH 4096u
/* Record mode (ABI 10): the function has more than one path (and fewer
 * than 256), no loop, and nothing in it can leave it but its returns (no call but to builtins
 * that return), so every entry runs one path from entry to return: its
 * entries are its paths' counts summed, and nothing counts them (`calls`
 * is 0; no PATHCOV_FN_ENTRY_COUNTED). */
#define PATHCOV_FN_PATHS_ARE_CALLS 16384u
/* Residual mode (ABI 9), with PATHCOV_FN_BYTEMAP and PATHCOV_FN_SEEN_WORDS:
 * a path end may skip the bytemap and only count in the path's seen word,
 * tested paths included (where the id is not known at compile time: the
 * test would be a load and a branch, the word a subtraction and a branch,
 * and a residual path took both). A tested path's word gone negative is
 * set out of reach (INT64_MAX), never recorded: the bytemap says which. */
#define PATHCOV_FN_TESTED_WORDS 8192u
/* Residual mode, built with history=N (docs/residual-mode.md, "Path
 * history"): bits 16..20 hold log2 N, the ring a thread gets at its first
 * path end unless PATHCOV_HISTORY says otherwise (0: no history). */
#define PATHCOV_FN_HISTORY_SHIFT 16
#define PATHCOV_FN_HISTORY_BITS 31u
#define PATHCOV_HISTORY_MAX 65536
/* A path end of such a function appends {descriptor, id} (16 bytes) to its
 * thread's ring, a record whose address is in the initial-exec
 * thread-local __pathcov_history_current: the record's first word counts
 * 16 for each path completed, the word at PATHCOV_HISTORY_MASK is 16 times
 * the ring's size less one, and the entry goes at PATHCOV_HISTORY_RING +
 * (first word & mask), bytes from the record. Where that is the ring's
 * start the path end calls __pathcov_site_history (fn, id: see
 * path_miss_x86_64.S) after counting, which stores the entry. */
#define PATHCOV_HISTORY_MASK 8
#define PATHCOV_HISTORY_RING 64

/* One per instrumented function and translation unit (a comdat function
 * emitted by several units has several, with the same identity: tools add
 * them up). The plugin places a pointer to each in the section
 * "pathcov_functions"; the runtime walks __start_pathcov_functions ..
 * __stop_pathcov_functions of its own module.
 *
 * The function's metadata record (JSON, for the tools) is not reachable
 * from here: it lives in the non-allocated section .debug.pathcov, which is
 * never loaded and can be stripped and detached like debug info
 * (docs/record-mode.md). ABI 4 dropped the `metadata` pointer that followed
 * `identity` in ABI 3 (in the same development cycle as the seen slots). */
struct pathcov_function {
  uint64_t abi_version;  /* PATHCOV_ABI_VERSION */
  uint64_t flags;        /* PATHCOV_FN_* */
  uint64_t cfg_checksum; /* pathcov::Cfg::checksum of the numbered CFG */
  uint64_t num_paths;    /* Ball-Larus ids are 0 .. num_paths - 1 */
  const char *identity;  /* assembler name; "TU:name" for local symbols */
  /* Record mode: table_size + 1 counters, a power of two above num_paths:
   * one per path id, then the ids out of range. Instrumented code indexes
   * them with the id, which the numbering keeps below num_paths; in a
   * function where a setjmp or an abnormal edge may resume a path mid-way
   * it masks the id with table_size first: one AND, never out of bounds
   * (the runtime reports the counters past num_paths as invalid_ids; an id
   * past table_size would count as another path). 0 when hashed.
   * Residual mode: table_size + 1 Ball-Larus ids, then, with
   * PATHCOV_FN_COUNTED, their table_size + 1 counts (so a count is its id's
   * address plus a constant). Indexed by PPP id masked with table_size
   * (table_size + 1 is a power of two; ids past the PPP interval, at least
   * the last, are UINT64_MAX, which no path has), or,
   * with PATHCOV_FN_SORTED, sorted (the last id UINT64_MAX too, never
   * read). With PATHCOV_FN_CUCKOO, the hash table and its multipliers
   * (table_size + 2 or 3 words), then, with PATHCOV_FN_COUNTED, table_size
   * counts. With PATHCOV_FN_BYTEMAP, the bytemap. 0 when no path of the
   * function was tested. (A function with every path tested has no
   * descriptor in residual mode.) */
  uint64_t *counters;
  /* Record mode: the function's entries (counted at ENTRY), in a word of
   * its own, 0 in residual mode. The plugin puts every function's word in
   * section .bss.pathcov_calls, eight to a cache line: inside the
   * descriptor (ABI 9 and earlier), each function's entries took a line of
   * their own, and the lines of the accessors a hot loop inlines pushed
   * the program's data out of the cache (re2 in record mode: 5x gcov's
   * level-1 data misses). */
  uint64_t *calls;
  void *runtime;         /* owned by the runtime (hashed paths, the last
                          * residual path); 0 in the object */
  uint64_t table_size;   /* the counters' last index: see counters; 0 for
                          * a hashed record-mode function */
  /* Second returns from setjmp calls in the function (a longjmp came
   * back): each abandoned one of the function's paths. Written to profiles
   * as "resumes" when nonzero. */
  uint64_t resumes;
  /* Residual mode (docs/residual-mode.md, "First sighting only") and
   * hashed record-mode functions on x86-64 (docs/record-mode.md): the
   * function's seen slots, writable and zero in the object; 0 when the
   * function has none (record-mode arrays, count-tested=1, and the sorted
   * policy; hashed residual functions have them).
   *
   * With PATHCOV_FN_SEEN_WORDS (residual mode, a function of few paths),
   * seen_slots words, path id's at seen[id] (ABI 7). Instrumented code,
   * where a path end's check misses, subtracts 1 from the word (an atomic
   * sub with PATHCOV_FN_ATOMIC) and, if the result is negative, calls
   * __pathcov_residual_word with the path's id. The runtime records
   * the path, then arms the word: sets it, by a compare-and-swap, to the
   * runs before its next call (a context period, less one), taking the
   * runs it held into its own count. So a word is 0 until its path first
   * runs; -n (top bit set) after n runs, the path not yet recorded; then
   * counts down to the next call, when the runtime samples the path's
   * calling context (docs/residual-mode.md) and arms it again: every run
   * counts, and a path end returns only once its path is in the runtime's
   * table.
   *
   * Else seen_slots tags then seen_slots counts, all uint64_t (slot k is
   * seen[k] and seen[seen_slots + k]; ABI 5 and earlier interleaved them).
   * Path id's slot is id & (seen_slots - 1). The runtime claims a free slot
   * (tag 0) for a residual path once it has recorded it, by a
   * compare-and-swap of the tag to id + 1, which then never changes (but
   * for a forked child's reset). Instrumented code, where a path end's
   * check misses, tests the slot: tag id + 1 counts the path inline in the
   * slot's count (plain, or an atomic add with PATHCOV_FN_ATOMIC), anything
   * else calls the runtime. A residual path's count is its table entry's
   * count plus its slot's. In record mode every path end of a hashed
   * function tests the slot, and the runtime (__pathcov_record_miss) claims
   * a free slot for the path at once: a path is counted in its slot or in
   * the function's table, never both. A record-mode tag is the id itself
   * (ABI 10), not id + 1: slot 0 is path 0's from the start (its tag, 0,
   * is path 0's id), and any other slot is free while its tag is 0, an id
   * none of its paths has. On x86-64 the plugin gives a hashed function
   * 65536 slots, so that a path end finds its slot with one movzwl and
   * compares the id itself with the tag. */
  uint64_t *seen;
  uint64_t seen_slots; /* a power of two, or 0 */
};

/* Defined by the runtime, one per mode. Every instrumented unit refers to
 * its mode's, so that linking the static runtime library always pulls in
 * the code that finds the descriptors and writes profiles (record.c) or
 * reports (residual.c), even when no instrumented code calls into the
 * runtime, and not the other mode's. Their names are the linker's message
 * when the runtime was forgotten: "undefined reference to
 * `__pathcov_runtime_missing_link_with_lpathcov_rt'" (record mode, and
 * units of either mode from plugins before stop 50). */
extern const char __pathcov_runtime_missing_link_with_lpathcov_rt;
extern const char __pathcov_residual_runtime_missing_link_with_lpathcov_rt;

/* Called by instrumented code for a path id it does not count inline: every
 * id of a hashed function. An id out of range (a pathcov bug) is counted in
 * invalid_ids, never written out of bounds. Called for an array function,
 * it counts the id as the inline code would. */
void __pathcov_record_path(struct pathcov_function *fn, uint64_t id);

/* Record mode on x86-64, a hashed function's path end whose seen slot is
 * not the path's: claim the slot if free and count there, else count as
 * __pathcov_record_path. */
void __pathcov_record_miss(struct pathcov_function *fn, uint64_t id);

/* Residual mode: path `id` (Ball-Larus) of `fn` was not tested: record it
 * (once per distinct path, with a count) and claim its seen slot if free.
 * Called out of line by instrumented code when the inline check misses and
 * the path's seen slot is not the path's. */
void __pathcov_residual_path(struct pathcov_function *fn, uint64_t id);

/* Residual mode, PATHCOV_FN_SEEN_WORDS: path `id`'s seen word went
 * negative: record the path (or sample its context) and arm its word. */
void __pathcov_residual_word(struct pathcov_function *fn, uint64_t id);

/* Record mode with k=N (docs/record-mode.md, "Paths across iterations";
 * k-BLPP): windows of 2..N consecutive paths of one activation, counted in
 * a k-slab forest per function (the k-BLPP chapter's k-SF; runtime/src/
 * kpath.c). The plugin emits one per function with a path that the same
 * activation can follow with another (a back edge, a computed goto, an
 * exception caught in the function), zero but for k and fn. */
#define PATHCOV_KPATH_MAX 16
struct pathcov_kpaths {
  uint64_t k;                  /* 2 .. PATHCOV_KPATH_MAX */
  struct pathcov_function *fn; /* the function's descriptor */
  void *runtime;               /* the runtime's: the forest's roots */
  uint64_t dropped;            /* the runtime's: ids a full forest lost */
  struct pathcov_kpaths *next; /* the runtime's: forests that ran */
};

/* An activation's place in its k-slab forest, in the instrumented
 * function's frame: [0] where the sequence is (the chapter's n, encoded by
 * the runtime), set to 0 (a sequence's start) at the function's entry and
 * wherever a sequence breaks (a cut, a setjmp call, a nonlocal goto's
 * landing); [1] and [2] the forest's top and bottom nodes (the chapter's
 * tau and beta), the runtime's. */
#define PATHCOV_KPATH_STATE_WORDS 3

/* Record mode, k=N: path `id` of kp's function ended (it is counted as
 * well); it extends the activation's sequence in `state`. */
void __pathcov_kpath(struct pathcov_kpaths *kp, uint64_t *state, uint64_t id);

/* Residual mode, PATHCOV_FN_SORTED: count `id` if it is a tested path
 * (binary search of the sorted pairs), else record it as residual. */
void __pathcov_residual_lookup(struct pathcov_function *fn, uint64_t id);

#endif
