/* Residual mode: recording residual paths in the table (internal.h) that
 * residual.c reports.
 *
 * The table is lock-free:
 *   - `entries`: up to RESIDUAL_CAPACITY records {fn, id, count, first
 *     seen, thread}, handed out in order by an atomic counter (`used`) and
 *     filled by the thread that takes one, before anyone else can see it;
 *   - `index`: open addressing with linear probing over INDEX_SLOTS slots
 *     (twice the capacity, so probe sequences stay short and always meet a
 *     free slot), each 0 or an entry's number + 1. A filled entry is
 *     published by a compare-and-swap of a free slot: a slot never holds a
 *     half-written entry and, once set, never changes, so two threads
 *     recording the same new path never both insert it: the loser finds
 *     the winner's entry in the slot it lost, counts there, and gives its
 *     own entry back (or, if another thread took an entry since, marks it
 *     dead: the report skips it, and it costs one entry of capacity).
 *   - When every entry is taken, a new path is counted in `dropped_paths`
 *     (each record of it: the table cannot tell which of them are
 *     distinct).
 * No lock, no allocation, no system call but clock_gettime and gettid for
 * a new path: any thread, and a signal handler, can record at any time.
 *
 * First sighting only (docs/residual-mode.md): once (fn, id) is in the
 * table, the path claims its seen slot (abi.h) if the slot is free, with a
 * compare-and-swap of its tag from 0 to id + 1; from then on instrumented
 * code counts the path in the slot and calls here no more. A slot's tag
 * never changes once set (residual.c's fork reset aside), so the slot
 * counts only runs after the claim, the entry only the ones seen here:
 * the report adds them up. A path whose slot another path of its function
 * holds keeps coming here; so does one the full table dropped (it has no
 * entry, and claims no slot).
 * Where a function has a seen word per path (PATHCOV_FN_SEEN_WORDS), the
 * word counts every run, the first ones included: instrumented code
 * comes here (__pathcov_residual_word) when the word goes negative, and
 * the runtime arms it once the path is recorded (sighted), so a path end
 * returns only when its path is in the table; arming moves the runs the
 * word held into the entry, and sets the word to go negative again a
 * context period later, when the path's calling context is sampled again
 * (context.c).
 *
 * Calling contexts are sampled under an entry's `busy` flag, taken with a
 * compare-and-swap and never waited for; the stack walk (context.c) is
 * lock-free too.
 *
 * fn->runtime of a residual function caches the number (+ 1) of the entry
 * of its last residual path, checked first: a residual path repeated in a
 * loop that still comes here (no seen slot: the sorted policy, or
 * count-tested=1; or its slot taken) costs two loads, two compares and an
 * atomic add.
 *
 * On x86-64, instrumented code reaches __pathcov_residual_path through
 * __pathcov_site_residual_path (path_miss_x86_64.S), which
 * saves every general register it may change, so that the call site
 * clobbers nothing and a check's cold branch costs the hot code no saved
 * registers. That only holds if nothing here touches a vector or x87
 * register: this file is compiled with -mgeneral-regs-only, and the time
 * and thread id come from raw system calls, not from libc. */
#include <time.h>
#include <unistd.h>
#if defined(__x86_64__)
#include <sys/syscall.h>
#endif

#include "internal.h"

/* The time as a report states it: CLOCK_REALTIME, in ns. residual.c uses
 * it too, so that first sightings and the report's own times agree. */
static uint64_t ns_of(const struct timespec *t) {
  return (uint64_t)t->tv_sec * 1000000000u + (uint64_t)t->tv_nsec;
}

#if defined(__x86_64__)
/* syscall(2) without libc: the kernel changes rax, rcx and r11 only. */
static long raw_syscall2(long number, long a, long b) {
  long result;
  __asm__ volatile("syscall"
                   : "=a"(result)
                   : "a"(number), "D"(a), "S"(b)
                   : "rcx", "r11", "memory");
  return result;
}

uint64_t pathcov_realtime_ns(void) {
  struct timespec t = {0, 0};
  raw_syscall2(SYS_clock_gettime, CLOCK_REALTIME, (long)&t);
  return ns_of(&t);
}

uint32_t pathcov_thread_id(void) {
  return (uint32_t)raw_syscall2(SYS_gettid, 0, 0);
}
#else
uint64_t pathcov_realtime_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return ns_of(&t);
}

uint32_t pathcov_thread_id(void) { return (uint32_t)gettid(); }
#endif

static uint32_t home_slot(const struct pathcov_function *fn, uint64_t id) {
  uint64_t h = (uint64_t)(uintptr_t)fn ^ id * 0x9e3779b97f4a7c15ull;
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull; /* splitmix64's finaliser */
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  h ^= h >> 31;
  return (uint32_t)(h >> (64 - INDEX_BITS));
}

struct residual_tests residual_tests;

/* Whether the names are the same: by hand, as libc's string functions use
 * vector registers (above). */
static int same_name(const char *a, const char *b) {
  while (*a && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}

/* The slot + 1 of the harness test running now, claimed if new; 0 outside
 * a harness's test or once the slots are all taken. */
static uint32_t running_test(void) {
  const char *name = pathcov_harness_test_name();
  if (!name[0])
    return 0;
  uint32_t used = __atomic_load_n(&residual_tests.used, __ATOMIC_RELAXED);
  for (uint32_t k = 0; k < used && k < RESIDUAL_TESTS; ++k) {
    const char *slot = residual_tests.names[k];
    if (__atomic_load_n(&slot[0], __ATOMIC_ACQUIRE) && same_name(slot, name))
      return k + 1;
  }
  const uint32_t k = __atomic_fetch_add(&residual_tests.used, 1, __ATOMIC_RELAXED);
  if (k >= RESIDUAL_TESTS)
    return 0;
  char *copy = residual_tests.names[k];
  size_t len = 1;
  for (; len < PATHCOV_TEST_NAME_MAX - 1 && name[len]; ++len)
    copy[len] = name[len];
  copy[len] = 0;
  __atomic_store_n(&copy[0], name[0], __ATOMIC_RELEASE);
  return k + 1;
}

/* Takes a free entry and fills it for (fn, id), with no run counted yet;
 * returns its number + 1, or 0 when the table is full. */
static uint32_t new_entry(struct pathcov_function *fn, uint64_t id) {
  if (__atomic_load_n(&residual_table.used, __ATOMIC_RELAXED) >= RESIDUAL_CAPACITY)
    return 0; /* full: spare the shared counter a write */
  uint64_t n = __atomic_fetch_add(&residual_table.used, 1, __ATOMIC_RELAXED);
  if (n >= RESIDUAL_CAPACITY)
    return 0;
  struct entry *e = &residual_table.entries[n];
  __atomic_store_n(&e->state, ENTRY_PENDING, __ATOMIC_RELAXED);
  e->fn = fn;
  e->id = id;
  __atomic_store_n(&e->count, 0, __ATOMIC_RELAXED);
  e->first_seen_ns = pathcov_realtime_ns();
  e->thread = pathcov_thread_id();
  e->test = running_test();
  e->busy = 0;
  e->arm = 0;
  e->samples = 0;
  for (unsigned k = 0; k < CONTEXTS_PER_PATH; ++k)
    e->contexts[k] = 0;
  return (uint32_t)n + 1;
}

/* An entry taken by new_entry that another thread's entry made useless:
 * handed back if no entry was taken since, else left dead. */
static void give_back(uint32_t number) {
  uint64_t expected = number;
  if (!__atomic_compare_exchange_n(&residual_table.used, &expected, number - 1, 0,
                                   __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    __atomic_store_n(&residual_table.entries[number - 1].state, ENTRY_DEAD,
                     __ATOMIC_RELEASE);
}

static int take_busy(struct entry *e) {
  uint32_t free = 0;
  return __atomic_compare_exchange_n(&e->busy, &free, 1, 0, __ATOMIC_ACQUIRE,
                                     __ATOMIC_RELAXED);
}

static void give_busy(struct entry *e) {
  __atomic_store_n(&e->busy, 0, __ATOMIC_RELEASE);
}

/* Residual path (fn, id), in the table as e, ran: `runs` more runs for
 * its entry to count (1, or 0 where its seen word counts them).
 * - A seen word gone negative is armed (seen_word_arm), the runs it held
 *   moved into the entry, and the run's context sampled: the first run's,
 *   then one every context period. Under e's `busy`: a thread that finds
 *   it taken returns at once (its run is in the word, which the holder
 *   arms), and a plain subtraction that undid an arming brings the path
 *   back here.
 * - Otherwise the path takes its seen slot if the slot is free, so that
 *   instrumented code counts its next runs inline (abi.h); a slot another
 *   path holds stays its, and this path keeps coming here: its first run
 *   and one every context period sample a context.
 * Only paths with an entry arm a word or claim a slot: a path the full
 * table drops keeps coming here, to be counted in dropped_paths. */
static void sighted(struct entry *e, uint64_t runs, const void *stub_frame) {
  uint64_t *word = seen_word(e->fn, e->id);
  if (word) {
    if (!take_busy(e))
      return;
    uint64_t held = __atomic_load_n(word, __ATOMIC_RELAXED);
    if ((int64_t)held < 0) {
      const uint64_t arm = seen_word_arm();
      /* Only runs change the word meanwhile, downwards: this succeeds. */
      while (!__atomic_compare_exchange_n(word, &held, arm, 0, __ATOMIC_RELEASE,
                                          __ATOMIC_RELAXED)) {
      }
      __atomic_fetch_add(&e->count, seen_word_runs(held, e->arm),
                         __ATOMIC_RELAXED);
      __atomic_store_n(&e->arm, arm, __ATOMIC_RELAXED);
      pathcov_sample_context(e, stub_frame);
    }
    give_busy(e);
    return;
  }
  const uint64_t before = __atomic_fetch_add(&e->count, runs, __ATOMIC_RELAXED);
  uint64_t *tag = seen_slot(e->fn, e->id);
  if (tag)
    claim_seen_slot(tag, e->id);
  /* The period is a power of two: a mask, no division, for a path that
   * calls at every run. */
  if (runs && stub_frame &&
      (before & (__atomic_load_n(&context_settings.period, __ATOMIC_RELAXED) - 1)) == 0 &&
      take_busy(e)) {
    pathcov_sample_context(e, stub_frame);
    give_busy(e);
  }
}

static void remember(struct pathcov_function *fn, uint32_t number) {
  void *hint = (void *)(uintptr_t)number;
  if (__atomic_load_n(&fn->runtime, __ATOMIC_RELAXED) != hint)
    __atomic_store_n(&fn->runtime, hint, __ATOMIC_RELEASE);
}

/* The slow path: finds (fn, id) in the index, inserting it if new, and
 * adds `runs` to its count. Not inlined: the fast path stays a leaf that
 * saves no register. */
__attribute__((noinline)) static void record(struct pathcov_function *fn,
                                             uint64_t id, uint64_t runs,
                                             const void *stub_frame) {
  uint32_t mine = 0; /* an entry filled for (fn, id), not yet published */
  for (uint32_t i = home_slot(fn, id);; i = (i + 1) & (INDEX_SLOTS - 1)) {
    uint32_t v = __atomic_load_n(&residual_table.index[i], __ATOMIC_ACQUIRE);
    if (v == 0) { /* (fn, id) is not in the table */
      if (!mine && !(mine = new_entry(fn, id))) {
        __atomic_fetch_add(&residual_table.dropped_paths, 1, __ATOMIC_RELAXED);
        /* Counted there: a seen word keeps no count of a path without an
         * entry (so a forked child does not inherit its runs). */
        uint64_t *word = seen_word(fn, id);
        if (word)
          __atomic_store_n(word, 0, __ATOMIC_RELAXED);
        return;
      }
      if (__atomic_compare_exchange_n(&residual_table.index[i], &v, mine, 0,
                                      __ATOMIC_RELEASE, __ATOMIC_ACQUIRE)) {
        __atomic_store_n(&residual_table.entries[mine - 1].state, ENTRY_LIVE,
                         __ATOMIC_RELEASE);
        remember(fn, mine);
        sighted(&residual_table.entries[mine - 1], runs, stub_frame);
        return;
      }
      /* Another thread published entry v in this slot first: compare it
       * like any other. */
    }
    struct entry *e = &residual_table.entries[v - 1];
    if (e->fn == fn && e->id == id) {
      if (mine)
        give_back(mine);
      remember(fn, v);
      sighted(e, runs, stub_frame);
      return;
    }
  }
}

/* Residual path (fn, id) ran: `runs` more runs to count in its entry (1,
 * or 0 where its seen word counts every run). Inlined in each entry point,
 * so that the fast path stays a leaf. */
__attribute__((always_inline)) static inline void
residual_path(struct pathcov_function *fn, uint64_t id, uint64_t runs,
              const void *stub_frame) {
  /* The last residual path of fn first: fn->runtime holds its entry's
   * number + 1, set only to published entries (whose fn and id never
   * change), so two compares tell whether it is this path. */
  uintptr_t last = (uintptr_t)__atomic_load_n(&fn->runtime, __ATOMIC_ACQUIRE);
  if (last - 1 < RESIDUAL_CAPACITY) {
    struct entry *e = &residual_table.entries[last - 1];
    if (e->fn == fn && e->id == id) {
      sighted(e, runs, stub_frame);
      return;
    }
  }
  if (is_residual(fn)) /* else reported once, as an invalid descriptor */
    record(fn, id, runs, stub_frame);
}

void __pathcov_residual_path(struct pathcov_function *fn, uint64_t id) {
  pathcov_site_residual_path(fn, id, NULL);
}

void __pathcov_residual_word(struct pathcov_function *fn, uint64_t id) {
  pathcov_site_residual_word(fn, id, NULL);
}

/* From the stubs (path_miss_x86_64.S), with their frame: where the walk
 * of the path end's calling context starts (context.c). */
void pathcov_site_residual_path(struct pathcov_function *fn, uint64_t id,
                                const void *stub_frame) {
  residual_path(fn, id, 1, stub_frame);
}

void pathcov_site_residual_word(struct pathcov_function *fn, uint64_t id,
                                const void *stub_frame) {
  /* The word has counted the run. A descriptor of another ABI is reported
   * at exit; an id that has no word (no plugin makes one) is ignored; a
   * tested path's word is set out of reach (abi.h). */
  uint64_t *word = is_residual(fn) ? seen_word(fn, id) : NULL;
  if (!word)
    return;
  if ((fn->flags & (PATHCOV_FN_TESTED_WORDS | PATHCOV_FN_BYTEMAP)) ==
          (PATHCOV_FN_TESTED_WORDS | PATHCOV_FN_BYTEMAP) &&
      fn->counters && id < fn->num_paths && ((const uint8_t *)fn->counters)[id])
    __atomic_store_n(word, (uint64_t)INT64_MAX, __ATOMIC_RELAXED);
  else
    residual_path(fn, id, 0, stub_frame);
}

void __pathcov_residual_lookup(struct pathcov_function *fn, uint64_t id) {
  if (!is_residual(fn))
    return;
  /* abi.h: table_size ascending ids, one more, then their counts. */
  uint64_t *ids = fn->counters;
  uint64_t n = ids ? fn->table_size : 0;
  if (n > 0) {
    /* The last id <= id (or the first), branch-free: the loop runs
     * ceil(log2 n) times whatever id is, with a conditional move instead
     * of a branch the processor cannot predict. */
    uint64_t lo = 0;
    while (n > 1) { /* the id is in [lo, lo + n) */
      uint64_t half = n / 2;
      lo = ids[lo + half] <= id ? lo + half : lo;
      n -= half;
    }
    if (ids[lo] == id) {
      if (!(fn->flags & PATHCOV_FN_COUNTED))
        return;
      uint64_t *count = &ids[fn->table_size + 1 + lo];
      if (fn->flags & PATHCOV_FN_ATOMIC)
        __atomic_fetch_add(count, 1, __ATOMIC_RELAXED);
      else
        __atomic_store_n(count, __atomic_load_n(count, __ATOMIC_RELAXED) + 1,
                         __ATOMIC_RELAXED);
      return;
    }
  }
  __pathcov_residual_path(fn, id);
}
