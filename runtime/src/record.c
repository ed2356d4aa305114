/* The record-mode runtime: counts the paths of this module's instrumented
 * functions and writes them as a profile at exit (or dlclose) and on
 * pathcov_flush(). Residual-mode descriptors (PATHCOV_FN_RESIDUAL) are
 * residual.c's: this file only tells them from invalid ones, and writes no
 * profile for a module that has only residual functions.
 *
 * Each module (executable, shared library) links its own copy of this
 * static library; the linker collects the descriptors of the module's
 * instrumented functions in the section "pathcov_functions" and defines
 * __start_/__stop_pathcov_functions around them. Both are weak (a module
 * with no instrumented function has no such section: they are then null and
 * the runtime does nothing) and hidden (each copy sees its own module's
 * section only, and exports neither).
 *
 * The plugin counts array functions inline, in table_size + 1 counters (a
 * power of two above num_paths): those past num_paths count ids out of
 * range (abi.h), reported as invalid_ids. Hashed
 * functions (too many paths for an array) call __pathcov_record_path, which
 * counts in a per-function table allocated on first use and kept in
 * fn->runtime:
 *   - TABLE_SLOTS slots of open addressing with linear probing; a key is
 *     id + 1 (0 marks a free slot), inserted by compare-and-swap, never
 *     removed, so concurrent threads never lose or duplicate a key;
 *   - at most TABLE_CAPACITY distinct ids per function (half the slots, so
 *     probe sequences stay short and always meet a free slot); the records of
 *     further ids are counted in `dropped`, which the profile reports;
 *   - each claimed slot is listed, in the order claimed, so that a profile
 *     reads the keys a function ran, not its 2^17 slots (a scan of every
 *     table was most of a short process's exit);
 *   - counts are incremented with relaxed atomic adds when the descriptor
 *     has PATHCOV_FN_ATOMIC, else with a plain load and store, like the
 *     plugin's inline counters.
 * Taking counts for a profile exchanges each nonzero counter with 0, so every
 * count lands in exactly one profile (exactly when counters are atomic). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"
#include "pathcov/pathcov.h"

#define TABLE_BITS 17
#define TABLE_SLOTS ((size_t)1 << TABLE_BITS)
#define TABLE_CAPACITY (TABLE_SLOTS / 2) /* 65536 distinct ids */
/* The most seen slots a record-mode function's runtime lists. */
#define RECORD_SEEN_SLOTS_MAX 65536

struct slot {
  uint64_t key; /* id + 1; 0: free */
  uint64_t count;
};

/* fn->runtime of a hashed function. */
struct fn_state {
  uint64_t invalid_ids;
  uint64_t dropped;
  uint64_t used; /* slots claimed or being claimed; <= TABLE_CAPACITY */
  uint64_t listed; /* entries of `claimed` handed out; <= used */
  /* Each claimed slot's index + 1, in claim order; 0 while its claimer has
   * not yet written it. */
  uint32_t claimed[TABLE_CAPACITY];
  /* The same for the function's seen slots (abi.h) but slot 0, which is
   * path 0's without a claim: a profile reads the slots a run claimed, not
   * all 65536. */
  uint64_t seen_listed;
  uint32_t seen_claimed[RECORD_SEEN_SLOTS_MAX];
  struct slot slots[];
};

static struct {
  pthread_once_t once;
  pthread_mutex_t lock; /* serialises profiles and resets; held across fork */
  const struct pathcov_module *id;
  /* Valid descriptors of each mode. */
  uint64_t record_descriptors;
  uint64_t residual_descriptors;
  /* Descriptors the runtime cannot read safely: counted once at start-up,
   * reported on stderr and, as "invalid_descriptors", in every profile. */
  uint64_t invalid_descriptors;
  /* Records lost because a hashed function's table could not be allocated
   * (mmap failed), reported as "lost_paths". Neither field is in the profile
   * format 1.0; both appear only when nonzero. */
  uint64_t lost_paths;
  unsigned sequence; /* of this process's next profile */
  /* Per descriptor: whether a profile or reset has seen it entered (calls
   * > 0). A function with PATHCOV_FN_ENTRY_COUNTED counts a call before
   * any of its paths ends, so with no call since the last take and never
   * entered before it has no counts: a profile reads only what ran, not
   * every counter of the program (sqlite3's 12 MB). NULL (mmap failed):
   * every function is read. */
  uint8_t *entered;
  /* PATHCOV_PROFILE_DIR at start-up, for the profiles written from a
   * signal handler (a crash's, an _exit's). */
  struct pathcov_env_dir handler_dir;
  /* Where a profile lists one function's paths: room for the most any
   * function can list, mapped at start-up (MAP_NORESERVE: touched only by
   * the profiles), so that writing one needs no new mapping. A process
   * that used up its mappings (vm.max_map_count: a new user's sed, gnulib's
   * test-free) still writes its profile, and a crash's handler maps
   * nothing. NULL if that mapping failed: each profile maps its own. */
  struct pathcov_path *scratch;
  size_t scratch_paths;
  uintptr_t page_size; /* 0: unknown, every page of an array is read */
} module = {.once = PTHREAD_ONCE_INIT, .lock = PTHREAD_MUTEX_INITIALIZER};

/* False in a module with nothing instrumented: there is no section, and both
 * symbols are null. */
static int has_descriptors(void) {
  return &__start_pathcov_functions[0] != &__stop_pathcov_functions[0];
}

#define STATE_SIZE (sizeof(struct fn_state) + TABLE_SLOTS * sizeof(struct slot))

/* A hashed function's state, mapped on first use. mmap (not malloc): zeroed,
 * and only the pages of slots actually used become resident. */
static struct fn_state *state_of(struct pathcov_function *fn) {
  struct fn_state *st = __atomic_load_n(&fn->runtime, __ATOMIC_ACQUIRE);
  if (st)
    return st;
  void *fresh = pathcov_map_zeroed(STATE_SIZE, 0);
  if (fresh == MAP_FAILED)
    return NULL;
  void *expected = NULL;
  if (__atomic_compare_exchange_n(&fn->runtime, &expected, fresh, 0,
                                  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return fresh;
  munmap(fresh, STATE_SIZE); /* another thread was first */
  return expected;
}

/* The slot holding id, claimed for it if needed; NULL when the table already
 * holds TABLE_CAPACITY other ids. */
static struct slot *find_slot(struct fn_state *st, uint64_t id) {
  uint64_t key = id + 1; /* no overflow: id < num_paths */
  size_t i = (size_t)((key * 0x9e3779b97f4a7c15ull) >> (64 - TABLE_BITS));
  for (;; i = (i + 1) & (TABLE_SLOTS - 1)) {
    struct slot *s = &st->slots[i];
    uint64_t k = __atomic_load_n(&s->key, __ATOMIC_RELAXED);
    if (k == key)
      return s;
    if (k != 0)
      continue;
    /* A free slot: id is not in the table. Reserve room before claiming the
     * slot, so that never more than TABLE_CAPACITY slots are used and every
     * probe sequence ends at a free slot. Near the limit, concurrent
     * reservations can make a new id be dropped a few ids early. */
    if (__atomic_load_n(&st->used, __ATOMIC_RELAXED) >= TABLE_CAPACITY)
      return NULL; /* full: spare the shared counter a write */
    if (__atomic_fetch_add(&st->used, 1, __ATOMIC_RELAXED) >= TABLE_CAPACITY) {
      __atomic_fetch_sub(&st->used, 1, __ATOMIC_RELAXED);
      return NULL;
    }
    if (__atomic_compare_exchange_n(&s->key, &k, key, 0, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED)) {
      uint64_t at = __atomic_fetch_add(&st->listed, 1, __ATOMIC_RELAXED);
      __atomic_store_n(&st->claimed[at], (uint32_t)(i + 1), __ATOMIC_RELEASE);
      return s;
    }
    __atomic_fetch_sub(&st->used, 1, __ATOMIC_RELAXED); /* slot taken... */
    if (k == key)
      return s; /* ...by another thread with the same id */
  }
}

/* A record-mode hashed function's seen slots (abi.h): how many, or 0 when
 * it has none this runtime can list. */
static uint64_t record_seen_slots(const struct pathcov_function *fn) {
  const uint64_t n = fn->seen_slots;
  return fn->seen && n && !(n & (n - 1)) && n <= RECORD_SEEN_SLOTS_MAX ? n : 0;
}

/* The count of path id's seen slot, claimed for it if free (a
 * compare-and-swap of the tag from 0 to id, listed in the function's
 * state, never given back but in a forked child's reset); NULL when the
 * slot is another path's. Slot 0 is path 0's, never claimed. The tag is
 * read first, so that a slot another path holds costs no locked
 * instruction, however often that path comes. */
static uint64_t *claim_record_slot(struct pathcov_function *fn, uint64_t id) {
  const uint64_t n = record_seen_slots(fn);
  if (!n)
    return NULL;
  const uint64_t k = id & (n - 1);
  uint64_t *tag = &fn->seen[k];
  if (k == 0)
    return id == 0 ? tag + n : NULL;
  uint64_t held = __atomic_load_n(tag, __ATOMIC_RELAXED);
  if (held == 0) {
    struct fn_state *st = state_of(fn); /* where the claim is listed */
    if (!st)
      return NULL;
    if (__atomic_compare_exchange_n(tag, &held, id, 0, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED)) {
      uint64_t at = __atomic_fetch_add(&st->seen_listed, 1, __ATOMIC_RELAXED);
      __atomic_store_n(&st->seen_claimed[at], (uint32_t)k, __ATOMIC_RELEASE);
      return tag + n;
    }
  }
  return held == id ? tag + n : NULL;
}

/* abi.h: what record-mode units refer to so that this file, with its
 * constructor and destructor, is linked into their module (and units of
 * plugins before stop 50, residual ones too). */
const char __pathcov_runtime_missing_link_with_lpathcov_rt = 0;

void __pathcov_record_path(struct pathcov_function *fn, uint64_t id) {
  if (!is_valid_record(fn))
    return; /* reported once, as an invalid descriptor */
  if (!is_hashed_record(fn)) { /* as the inline code counts it */
    pathcov_count(&fn->counters[id < fn->num_paths ? id : fn->num_paths], fn);
    return;
  }
  struct fn_state *st = state_of(fn);
  if (!st) {
    __atomic_fetch_add(&module.lost_paths, 1, __ATOMIC_RELAXED);
    return;
  }
  if (id >= fn->num_paths) {
    __atomic_fetch_add(&st->invalid_ids, 1, __ATOMIC_RELAXED);
    return;
  }
  struct slot *s = find_slot(st, id);
  if (s)
    pathcov_count(&s->count, fn);
  else
    __atomic_fetch_add(&st->dropped, 1, __ATOMIC_RELAXED);
}

/* x86-64: the miss of a hashed function's path end whose seen slot (abi.h)
 * is not the path's, through __pathcov_site_record_miss
 * (path_miss_x86_64.S). The path claims its slot if free, and from then on
 * the instrumented code counts it there inline, no call (a cache of the
 * plugin's 4096 slots in front of the table: an interpreter's hot paths). A path whose
 * slot another path holds is counted in the table, every time. A path is
 * counted in its slot or in the table, never both: a slot is never given
 * back, and a claim that loses to the same path's counts in the slot.
 * Nothing here touches a vector register (this file is compiled with
 * -mgeneral-regs-only): the stub saves only the general ones. */
void __pathcov_record_miss(struct pathcov_function *fn, uint64_t id) {
  uint64_t *count =
      is_valid_record(fn) && id < fn->num_paths ? claim_record_slot(fn, id) : NULL;
  if (count)
    pathcov_count(count, fn);
  else
    __pathcov_record_path(fn, id);
}

/* A counter's value, leaving 0. Zero counters are only read: writing them
 * would, among other costs, copy every counter page after a fork. */
/* Whether the counters [from, to) are all zero, read four at a time: most
 * of a profile's counters are, and reading them costs less than taking
 * them one by one. */
static int all_zero(const uint64_t *c, uint64_t from, uint64_t to) {
  uint64_t any = 0, i = from;
  for (; i + 4 <= to; i += 4)
    any |= __atomic_load_n(&c[i], __ATOMIC_RELAXED) |
           __atomic_load_n(&c[i + 1], __ATOMIC_RELAXED) |
           __atomic_load_n(&c[i + 2], __ATOMIC_RELAXED) |
           __atomic_load_n(&c[i + 3], __ATOMIC_RELAXED);
  for (; i < to; ++i)
    any |= __atomic_load_n(&c[i], __ATOMIC_RELAXED);
  return any == 0;
}

/* The pages of a large counter array that a run never wrote. An array
 * function of many paths (up to array-threshold, megabytes of .bss) runs a
 * few of them, and a page that /proc/self/pagemap says is neither present
 * nor swapped was never written: its counters are 0, and a profile skips
 * it unread (reading would also map it: 26 MB of sqlite3's arrays cost 12M
 * instructions and thousands of page faults at every exit). Anything
 * unclear (no /proc in a sandbox, a short read) counts as written. open,
 * pread and close are async-signal-safe, for a crash's profile. */
#define PAGEMAP_MIN_PAGES 16 /* smaller arrays are read whole */
#define PAGEMAP_WINDOW 64    /* entries read at a time (256 KiB of pages) */
#define PAGEMAP_PRESENT (1ull << 63)
#define PAGEMAP_SWAPPED (1ull << 62)

struct written_pages {
  int fd; /* -1: every page counts as written */
  uintptr_t first; /* page number of window[0] */
  size_t filled;   /* entries of window read */
  uint64_t window[PAGEMAP_WINDOW];
};

static void written_pages_open(struct written_pages *w, size_t bytes) {
  w->fd = -1;
  w->first = 0;
  w->filled = 0;
  if (module.page_size && bytes / module.page_size >= PAGEMAP_MIN_PAGES) {
    const int saved = errno;
    w->fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);
    errno = saved;
  }
}

static void written_pages_close(struct written_pages *w) {
  if (w->fd >= 0) {
    const int saved = errno;
    close(w->fd);
    errno = saved;
  }
}

static int page_written(struct written_pages *w, uintptr_t page) {
  if (page < w->first || page >= w->first + w->filled) {
    const int saved = errno;
    const ssize_t got = pread(w->fd, w->window, sizeof w->window,
                              (off_t)(page * sizeof w->window[0]));
    errno = saved;
    w->first = page;
    w->filled = got > 0 ? (size_t)got / sizeof w->window[0] : 0;
    if (w->filled == 0)
      return 1;
  }
  return (w->window[page - w->first] & (PAGEMAP_PRESENT | PAGEMAP_SWAPPED)) != 0;
}

/* Takes counters [from, to) of an array function: a path's count into
 * c->paths, an id's past num_paths into c->invalid_ids. Page by page, a
 * page never written not read; by blocks of 16 counters, a block of zeros
 * read without taking. */
static void take_counters(struct pathcov_function *fn, struct pathcov_counts *c,
                          struct written_pages *w, uint64_t from, uint64_t to) {
  uint64_t *counters = fn->counters;
  while (from < to) {
    uint64_t page_end = to;
    if (w->fd >= 0) {
      const uintptr_t page = (uintptr_t)&counters[from] / module.page_size;
      const uint64_t next =
          ((page + 1) * module.page_size - (uintptr_t)counters) / sizeof *counters;
      page_end = next < to ? next : to;
      if (!page_written(w, page)) {
        from = page_end;
        continue;
      }
    }
    for (uint64_t block = from; block < page_end; block += 16) {
      const uint64_t end = page_end - block < 16 ? page_end : block + 16;
      if (all_zero(counters, block, end))
        continue;
      for (uint64_t id = block; id < end; ++id) {
        const uint64_t n = pathcov_take(&counters[id]);
        if (n && id >= fn->num_paths)
          c->invalid_ids += n;
        else if (n && c->paths)
          c->paths[c->len++] = (struct pathcov_path){id, n};
      }
    }
    from = page_end;
  }
}

/* Sorts paths by id in place: a heapsort, with no allocation (qsort may
 * call malloc), for a crash's profile written in a signal handler. */
static void sift_down(struct pathcov_path *paths, size_t at, size_t n) {
  for (;;) {
    size_t child = 2 * at + 1;
    if (child >= n)
      return;
    if (child + 1 < n && paths[child + 1].id > paths[child].id)
      ++child;
    if (paths[at].id >= paths[child].id)
      return;
    struct pathcov_path swap = paths[at];
    paths[at] = paths[child];
    paths[child] = swap;
    at = child;
  }
}

static void sort_by_id(struct pathcov_path *paths, size_t n) {
  for (size_t at = n / 2; at-- > 0;)
    sift_down(paths, at, n);
  for (size_t end = n; end-- > 1;) {
    struct pathcov_path swap = paths[0];
    paths[0] = paths[end];
    paths[end] = swap;
    sift_down(paths, 0, end);
  }
}

/* Moves the counts of the function *p into *c (discards them when
 * c->paths is NULL). */
static void take_function(struct pathcov_function *const *p,
                          struct pathcov_counts *c) {
  struct pathcov_function *fn = *p;
  c->calls = fn->calls ? pathcov_take(fn->calls) : 0;
  c->resumes = pathcov_take(&fn->resumes);
  c->invalid_ids = 0;
  c->dropped = 0;
  c->len = 0;
  if (module.entered && (fn->flags & PATHCOV_FN_ENTRY_COUNTED)) {
    uint8_t *entered = &module.entered[p - __start_pathcov_functions];
    if (c->calls || c->resumes)
      *entered = 1;
    else if (!*entered)
      return;
  }
  if (fn->flags & PATHCOV_FN_CALLS_ARE_PATH) {
    if (c->calls && c->paths)
      c->paths[c->len++] = (struct pathcov_path){0, c->calls};
    return;
  }
  if (!is_hashed_record(fn)) {
    struct written_pages written;
    written_pages_open(&written, (fn->table_size + 1) * sizeof fn->counters[0]);
    take_counters(fn, c, &written, 0, fn->table_size + 1);
    /* Copies inlined before the plugin dropped the entry count may still
     * count entries: the paths say how many there were. */
    if (fn->flags & PATHCOV_FN_PATHS_ARE_CALLS) {
      c->calls = 0;
      for (size_t k = 0; k < c->len; ++k)
        c->calls += c->paths[k].count;
    }
    written_pages_close(&written);
    return;
  }
  struct fn_state *st = __atomic_load_n(&fn->runtime, __ATOMIC_ACQUIRE);
  if (st) {
    c->invalid_ids = pathcov_take(&st->invalid_ids);
    c->dropped = pathcov_take(&st->dropped);
    uint64_t listed = __atomic_load_n(&st->listed, __ATOMIC_RELAXED);
    for (uint64_t k = 0; k < listed && k < TABLE_CAPACITY; ++k) {
      /* 0: being claimed by another thread now; its counts stay for the
       * next profile. */
      uint32_t at = __atomic_load_n(&st->claimed[k], __ATOMIC_ACQUIRE);
      if (!at)
        continue;
      struct slot *s = &st->slots[at - 1];
      uint64_t n = pathcov_take(&s->count);
      if (n && c->paths)
        c->paths[c->len++] =
            (struct pathcov_path){__atomic_load_n(&s->key, __ATOMIC_RELAXED) - 1, n};
    }
  }
  /* The paths counted in their seen slots (__pathcov_record_miss): path
   * 0's in slot 0, the others' in the slots listed as claimed (one being
   * listed now keeps its counts for the next profile). */
  const uint64_t slots = record_seen_slots(fn);
  if (slots) {
    uint64_t n = pathcov_take(&fn->seen[slots]);
    if (n && c->paths)
      c->paths[c->len++] = (struct pathcov_path){0, n};
  }
  const uint64_t listed = slots && st ? __atomic_load_n(&st->seen_listed, __ATOMIC_RELAXED) : 0;
  for (uint64_t k = 0; k < listed && k < RECORD_SEEN_SLOTS_MAX; ++k) {
    const uint32_t at = __atomic_load_n(&st->seen_claimed[k], __ATOMIC_ACQUIRE);
    if (!at)
      continue;
    const uint64_t n = pathcov_take(&fn->seen[slots + at]);
    if (n && c->paths)
      c->paths[c->len++] = (struct pathcov_path){
          __atomic_load_n(&fn->seen[at], __ATOMIC_RELAXED), n};
  }
  if (c->len > 1)
    sort_by_id(c->paths, c->len);
}

/* Zeroes every count. unmap_tables also frees the hash tables (faster than
 * zeroing them, and it empties them of keys) and the seen slots they list,
 * which is safe only where no other thread can be counting: in the child
 * after fork. */
static void discard_counts(int unmap_tables) {
  FOR_EACH_DESCRIPTOR(p) {
    if (!is_valid_record(*p))
      continue;
    struct pathcov_function *fn = *p;
    struct pathcov_counts discard = {0};
    take_function(p, &discard);
    struct fn_state *st = fn->runtime;
    if (unmap_tables && st) {
      const uint64_t slots = record_seen_slots(fn);
      for (uint64_t k = 0; slots && k < st->seen_listed && k < RECORD_SEEN_SLOTS_MAX; ++k)
        fn->seen[st->seen_claimed[k]] = 0;
      munmap(st, STATE_SIZE);
      fn->runtime = NULL;
    }
  }
  pathcov_take(&module.lost_paths);
  if (pathcov_kpaths_discard)
    pathcov_kpaths_discard();
}

static void lock(void) { pthread_mutex_lock(&module.lock); }
static void unlock(void) { pthread_mutex_unlock(&module.lock); }

/* The child of a fork has one thread, and its own pid: the counts it
 * inherited are the parent's to report. */
static void unlock_in_child(void) {
  discard_counts(1);
  module.sequence = 0;
  unlock();
}

static int writes_profiles(void);
static size_t paths_listed_at_most(void);
static void write_at_exec(const char *reason, int from_handler);
static void write_crash_profile(int signal);

static struct pathcov_exec_hook exec_hook = {.write = write_at_exec};

static void init_module(void) {
  module.id = pathcov_this_module();
  if (!has_descriptors())
    return;
  FOR_EACH_DESCRIPTOR(p) {
    if (is_valid_record(*p))
      ++module.record_descriptors;
    else if (is_residual(*p))
      ++module.residual_descriptors;
  }
  module.invalid_descriptors = pathcov_invalid_descriptors();
  size_t descriptors = (size_t)(__stop_pathcov_functions - __start_pathcov_functions);
  void *entered = pathcov_map_zeroed(descriptors, 0);
  module.entered = entered == MAP_FAILED ? NULL : entered;
  module.page_size = (uintptr_t)getauxval(AT_PAGESZ);
  /* Taking the lock around fork keeps a profile being written from being
   * cloned half-done with its lock held. */
  if (pthread_atfork(lock, unlock, unlock_in_child) != 0)
    pathcov_warn("%s: pthread_atfork failed: children will also report "
                 "the counts of their parent", module.id->path);
  if (writes_profiles()) {
    module.scratch_paths = paths_listed_at_most();
    void *scratch = pathcov_map_zeroed(
        module.scratch_paths * sizeof *module.scratch, MAP_NORESERVE);
    module.scratch = scratch == MAP_FAILED ? NULL : scratch;
    pathcov_exec_hook_add(&exec_hook);
    pathcov_env_dir_read(&module.handler_dir, "PATHCOV_PROFILE_DIR");
    /* A test that dies of a signal ran its paths too (crash.c), and a
     * helper process its harness ends with SIGTERM. */
    if (!pathcov_secure_execution())
      pathcov_crash_writer_add(write_crash_profile, "TERM");
  }
}

/* Priority 101 (the first after the implementation's): runs before the
 * module's other constructors, which may already run instrumented code. */
__attribute__((constructor(101))) static void on_load(void) {
  pathcov_once(&module.once, init_module);
}

/* The most paths one function of the module can list in a profile: a
 * hashed one's table and seen slots, an inline one's counters. At least 1. */
static size_t paths_listed_at_most(void) {
  size_t most = 1;
  FOR_EACH_DESCRIPTOR(p) {
    if (!is_valid_record(*p))
      continue;
    size_t need = is_hashed_record(*p) ? TABLE_CAPACITY + (size_t)(*p)->seen_slots
                                : (size_t)(*p)->num_paths;
    if (need > most)
      most = need;
  }
  return most;
}

/* Profiles are for record-mode functions: a module with only residual
 * ones writes reports (residual.c) and no profile. A module whose
 * descriptors are all invalid still writes one, which says so. */
static int writes_profiles(void) {
  return has_descriptors() &&
         (module.record_descriptors || !module.residual_descriptors);
}

/* from_handler: a profile written from a signal handler, a crash's
 * (signal, crash.c) or an _exit's (which handlers call): the directory as
 * it was at start-up, a message without stdio, and none if another thread
 * is writing one, whose lock cannot be waited for there. */
static int write_profile(const char *reason, int signal, int from_handler) {
  pathcov_once(&module.once, init_module);
  if (!writes_profiles())
    return 0;
  if (pathcov_secure_execution()) {
    /* A set-user-ID (or like) program would write where its caller says
     * (PATHCOV_PROFILE_DIR, the working directory), with its privileges.
     * The counts stay. */
    errno = EPERM;
    return -1;
  }
  if (!from_handler)
    lock();
  else if (pthread_mutex_trylock(&module.lock) != 0)
    return -1;
  struct pathcov_path *scratch = module.scratch;
  const size_t scratch_bytes = module.scratch_paths * sizeof *scratch;
  if (!scratch) {
    void *mapped = pathcov_map_zeroed(scratch_bytes, MAP_NORESERVE);
    scratch = mapped == MAP_FAILED ? NULL : mapped;
  }
  struct pathcov_env_dir now;
  if (!from_handler)
    pathcov_env_dir_read(&now, "PATHCOV_PROFILE_DIR");
  struct pathcov_profile profile;
  if (pathcov_profile_open(&profile, module.id,
                           from_handler ? &module.handler_dir : &now,
                           &module.sequence, scratch) == 0) {
    uint64_t lost_paths = pathcov_take(&module.lost_paths);
    pathcov_profile_header(&profile, module.id, reason, signal,
                           module.invalid_descriptors, lost_paths);
    FOR_EACH_DESCRIPTOR(p) {
      if (!is_valid_record(*p))
        continue;
      struct pathcov_counts c = {.paths = profile.paths};
      take_function(p, &c);
      if (c.calls || c.resumes || c.len || c.invalid_ids || c.dropped)
        pathcov_profile_function(&profile, *p, &c);
    }
    if (pathcov_kpaths_write)
      pathcov_kpaths_write(&profile.out);
  }
  int result = pathcov_profile_close(&profile);
  if (scratch && scratch != module.scratch)
    munmap(scratch, scratch_bytes);
  unlock();
  if (result != 0) {
    if (from_handler)
      pathcov_warn_in_signal("profile", &profile.file);
    else
      pathcov_warn("cannot write profile %s: %s", profile.file.final,
                   strerror(profile.file.error));
    errno = profile.file.error;
  }
  return result;
}



/* crash.c: in the signal handler. */
static void write_crash_profile(int signal) { write_profile("signal", signal, 1); }

/* A destructor rather than atexit: it also runs when a shared library is
 * dlclose'd. Priority 101 makes it the module's last destructor, after
 * instrumented ones (C++ static objects are destroyed earlier still, by
 * exit or dlclose before any destructor of the module runs). The state
 * mappings are not unmapped: at exit, other threads may still be counting. */
__attribute__((destructor(101))) static void on_unload(void) {
  int saved = errno; /* the program's, for any later destructor */
  write_profile("exit", 0, 0);
  pathcov_crash_handlers_remove();
  pathcov_exec_hook_remove(&exec_hook);
  /* A profile after this (another thread's flush as the process exits)
   * maps its own scratch. */
  lock();
  if (module.scratch)
    munmap(module.scratch, module.scratch_paths * sizeof *module.scratch);
  module.scratch = NULL;
  unlock();
  errno = saved;
}

/* exec.c: before exec* ("exec"), _exit, _Exit and daemon ("exit") or a
 * test's end ("flush"); the counts written are taken, as at every profile. */
static void write_at_exec(const char *reason, int from_handler) {
  write_profile(reason, 0, from_handler);
}

PATHCOV_EXPORT int pathcov_flush(void) { return write_profile("flush", 0, 0); }

PATHCOV_EXPORT int pathcov_reset(void) {
  /* module.entered must exist before any count is taken. */
  pathcov_once(&module.once, init_module);
  lock();
  discard_counts(0);
  unlock();
  return 0;
}
