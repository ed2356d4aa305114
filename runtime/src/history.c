/* Path history (docs/residual-mode.md, "Path history"): with the plugin's
 * history=N, each thread keeps the last N paths it completed in this
 * module, and a report carries every thread's, compressed with SEQUITUR
 * as in Larus' Whole Program Paths.
 *
 * A path end appends (descriptor, Ball-Larus id) to its thread's ring in
 * line (plugin/PathMiss.cc, buildHistoryAsm): the thread-local pointer
 * __pathcov_history_current names the ring; its offset counts 16 bytes
 * (an entry) for each path the thread completed, and masked, it is the
 * next entry's place in the ring (bytes, not entries: the code then needs
 * no shift). Where the masked offset is 0 the path end calls
 * __pathcov_site_history instead (history_x86_64.S), which stores the
 * entry itself: once a lap, and at a thread's first path end, when the
 * pointer is still history_start (mask 0) and the call gives the thread a
 * ring of its own. So the path end has no branch but that one, and a
 * thread that never completes a path costs nothing.
 *
 * Rings live in memory of their own (not in thread-local storage, whose
 * static part a dlopen'ed library cannot grow by more than a few hundred
 * bytes), listed for the reports, and outlive their threads: a ring whose
 * thread exited is reported as such until a new thread takes it. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "internal.h"
#include "sequitur.h"

struct history_entry {
  const struct pathcov_function *fn; /* NULL: never written */
  uint64_t id;
};

/* The instrumented code reads offset and offset_mask and writes ring at
 * the offsets abi.h gives (PATHCOV_HISTORY_*). */
struct history_record {
  uint64_t offset;      /* 16 bytes a path completed */
  uint64_t offset_mask; /* 16 * (the ring's entries - 1) */
  struct history_record *next; /* the list of rings */
  uint64_t thread;             /* the owner's id */
  uint64_t exited;             /* the owner has exited: free for another */
  uint64_t spare[3];           /* the ring starts a cache line */
  struct history_entry ring[];
};
_Static_assert(offsetof(struct history_record, offset_mask) ==
                   PATHCOV_HISTORY_MASK,
               "abi.h");
_Static_assert(offsetof(struct history_record, ring) == PATHCOV_HISTORY_RING,
               "abi.h");

/* Every thread starts here: mask 0 sends its first path end to the runtime. */
static struct history_record history_start;

/* The ring of threads without one (history off, or no memory): written,
 * never read, shared (its entries' values do not matter). 256 entries: a
 * call every 256 path ends. In .bss: init_history sets its mask, before
 * any thread is given it. */
#define DISCARD_ENTRIES 256
static struct {
  struct history_record record;
  struct history_entry ring[DISCARD_ENTRIES];
} history_discard;

static uint64_t ring_size(const struct history_record *r) {
  return r->offset_mask / sizeof(struct history_entry) + 1;
}

static uint64_t completed(const struct history_record *r) {
  return __atomic_load_n(&r->offset, __ATOMIC_ACQUIRE) /
         sizeof(struct history_entry);
}

__thread struct history_record *__pathcov_history_current
    __attribute__((tls_model("initial-exec"))) = &history_start;

static struct {
  pthread_once_t once;
  pthread_key_t key;
  int has_key;
  uint64_t size;  /* PATHCOV_HISTORY, or UINT64_MAX: the plugin's */
  struct history_record *records;
} history = {.once = PTHREAD_ONCE_INIT};

static void on_thread_exit(void *record) {
  __atomic_store_n(&((struct history_record *)record)->exited, 1,
                   __ATOMIC_RELEASE);
}

static void init_history(void) {
  history.size = pathcov_setting_power_of_two("PATHCOV_HISTORY",
                                              PATHCOV_HISTORY_MAX, 1,
                                              UINT64_MAX);
  history_discard.record.offset_mask =
      (DISCARD_ENTRIES - 1) * sizeof(struct history_entry);
  history.has_key = pthread_key_create(&history.key, on_thread_exit) == 0;
}

/* A ring of `size` entries for this thread: an exited thread's, else a new
 * one. */
static struct history_record *claim_record(uint64_t size) {
  for (struct history_record *r =
           __atomic_load_n(&history.records, __ATOMIC_ACQUIRE);
       r; r = r->next) {
    uint64_t exited = 1;
    if (ring_size(r) == size &&
        __atomic_compare_exchange_n(&r->exited, &exited, 0, 0,
                                    __ATOMIC_ACQ_REL, __ATOMIC_RELAXED)) {
      __atomic_store_n(&r->offset, 0, __ATOMIC_RELAXED);
      memset(r->ring, 0, size * sizeof r->ring[0]);
      return r;
    }
  }
  size_t bytes = sizeof(struct history_record) + size * sizeof(struct history_entry);
  struct history_record *r = pathcov_map_zeroed(bytes, 0);
  if (r == MAP_FAILED)
    return NULL;
  r->offset_mask = (size - 1) * sizeof(struct history_entry);
  r->next = __atomic_load_n(&history.records, __ATOMIC_RELAXED);
  while (!__atomic_compare_exchange_n(&history.records, &r->next, r, 1,
                                      __ATOMIC_RELEASE, __ATOMIC_RELAXED))
    ;
  return r;
}

struct first_path {
  const struct pathcov_function *fn;
  struct history_record *record;
};

/* A thread's first path end: its ring. Behind the stub, through
 * pathcov_preserving_vectors (libc's code may use vector registers). */
static void start_thread(void *arg) {
  struct first_path *first = arg;
  pathcov_once(&history.once, init_history);
  uint64_t size = history.size;
  if (size == UINT64_MAX)
    size = UINT64_C(1) << ((first->fn->flags >> PATHCOV_FN_HISTORY_SHIFT) &
                           PATHCOV_FN_HISTORY_BITS);
  struct history_record *r = size > 1 ? claim_record(size) : NULL;
  if (!r) {
    first->record = &history_discard.record;
    return;
  }
  r->thread = pathcov_thread_id();
  if (history.has_key)
    pthread_setspecific(history.key, r);
  first->record = r;
}

/* From __pathcov_site_history: path id of fn ended where its entry's index
 * is 0 (the stub passes its frame too, unused here). The offset counts it
 * already, but for a thread's first path. */
void pathcov_site_history(const struct pathcov_function *fn, uint64_t id,
                          void *frame) {
  (void)frame;
  struct history_record *r = __pathcov_history_current;
  const int starting = r == &history_start;
  if (starting) {
    struct first_path first = {fn, NULL};
    pathcov_preserving_vectors(start_thread, &first);
    r = __pathcov_history_current = first.record;
  }
  if (r == &history_discard.record)
    return;
  __atomic_store_n(&r->ring[0].id, id, __ATOMIC_RELAXED);
  __atomic_store_n(&r->ring[0].fn, fn, __ATOMIC_RELAXED);
  /* The start record counted that path: the thread's own counts it now. */
  if (starting)
    __atomic_store_n(&r->offset, sizeof(struct history_entry), __ATOMIC_RELEASE);
}

/* A forked child has one thread, the one that forked: the others' rings
 * are its parent's. */
void pathcov_history_reset_in_child(void) {
  struct history_record *mine = __pathcov_history_current;
  for (struct history_record *r = history.records; r; r = r->next) {
    if (r == mine)
      r->thread = pathcov_thread_id();
    else
      r->exited = 1;
  }
}

int pathcov_history_recorded(void) {
  for (struct history_record *r =
           __atomic_load_n(&history.records, __ATOMIC_ACQUIRE);
       r; r = r->next)
    if (completed(r))
      return 1;
  return 0;
}

/* ------------------------------------------------------------- reports */

/* Memory for one ring's report: its entries copied, their distinct paths,
 * and SEQUITUR's. */
struct history_scratch {
  struct history_entry *entries; /* a ring's snapshot, oldest first */
  uint32_t *symbols;             /* entries as indices into paths */
  struct history_entry *paths;   /* the distinct ones */
  uint32_t *slots;               /* paths' hash table: index + 1, or 0 */
  uint64_t slot_mask;
  void *grammar;
  size_t grammar_bytes;
};

/* The entries of r, oldest first, as they stand: of a running thread's
 * but this one's, those no write can have touched while they were copied
 * (its newest entry may still be on its way; the oldest were overwritten
 * if its offset moved on meanwhile). Returns how many, and in *paths the
 * paths it had completed when the copy began (the report's `completed`:
 * read once, so that no entry counts past it, even where a new thread
 * takes the ring meanwhile and starts it again). */
static uint64_t snapshot(const struct history_record *r, int current,
                         struct history_entry *out, uint64_t *paths) {
  const uint64_t size = ring_size(r);
  const uint64_t before = *paths = completed(r);
  const uint64_t first = before > size ? before - size : 0;
  for (uint64_t k = first; k < before; ++k) {
    const struct history_entry *e = &r->ring[k & (size - 1)];
    out[k - first].fn = __atomic_load_n(&e->fn, __ATOMIC_RELAXED);
    out[k - first].id = __atomic_load_n(&e->id, __ATOMIC_RELAXED);
  }
  if (current || __atomic_load_n(&r->exited, __ATOMIC_ACQUIRE))
    return before - first;
  const uint64_t after = completed(r);
  const uint64_t overwritten = after > size ? after - size : 0;
  const uint64_t from = overwritten > first ? overwritten : first;
  const uint64_t end = before > 0 ? before - 1 : 0;
  if (from >= end)
    return 0;
  memmove(out, out + (from - first), (end - from) * sizeof out[0]);
  return end - from;
}

static uint64_t hash_entry(const struct history_entry *e) {
  return ((uint64_t)(uintptr_t)e->fn ^ (e->id * UINT64_C(0x9e3779b97f4a7c15))) *
         UINT64_C(0xff51afd7ed558ccd);
}

/* The entries as indices into s->paths (each path once, in the order first
 * met); entries no path end wrote (a torn read) are dropped. Returns how
 * many symbols, and *paths how many paths. */
static uint64_t index_paths(struct history_scratch *s, uint64_t n,
                            uint64_t *paths) {
  memset(s->slots, 0, (s->slot_mask + 1) * sizeof s->slots[0]);
  uint64_t symbols = 0, distinct = 0;
  for (uint64_t i = 0; i < n; ++i) {
    const struct history_entry *e = &s->entries[i];
    if (!e->fn || e->id >= e->fn->num_paths)
      continue;
    uint64_t k = hash_entry(e) & s->slot_mask;
    while (s->slots[k] && (s->paths[s->slots[k] - 1].fn != e->fn ||
                           s->paths[s->slots[k] - 1].id != e->id))
      k = (k + 1) & s->slot_mask;
    if (!s->slots[k]) {
      s->paths[distinct] = *e;
      s->slots[k] = (uint32_t)++distinct;
    }
    s->symbols[symbols++] = s->slots[k] - 1;
  }
  *paths = distinct;
  return symbols;
}

static void format_symbols(struct pathcov_out *o, const int32_t *symbols,
                           uint32_t begin, uint32_t end) {
  pathcov_out_str(o, "[");
  for (uint32_t i = begin; i < end; ++i) {
    if (i > begin)
      pathcov_out_str(o, ",");
    if (symbols[i] < 0) {
      pathcov_out_str(o, "-");
      pathcov_out_u64(o, (uint64_t)-(int64_t)symbols[i]);
    } else {
      pathcov_out_u64(o, (uint64_t)symbols[i]);
    }
  }
  pathcov_out_str(o, "]");
}

/* One thread's history, after `separator`; nothing (returns 0) if its
 * grammar cannot be made (it can: the scratch fits the largest ring). */
static int format_thread(struct pathcov_out *o, const char *separator,
                          const struct history_record *r,
                          struct history_scratch *s) {
  const int current = r == __pathcov_history_current;
  uint64_t done = 0, paths = 0;
  uint64_t n = index_paths(s, snapshot(r, current, s->entries, &done), &paths);
  struct sequitur_grammar g;
  if (sequitur_compress(s->symbols, (uint32_t)n, s->grammar, s->grammar_bytes,
                        &g) != 0)
    return 0;
  pathcov_out_str(o, separator);
  pathcov_out_str(o, "\n   {\"thread\": ");
  pathcov_out_u64(o, r->thread);
  pathcov_out_str(o, current ? ", \"current\": true" : ", \"current\": false");
  pathcov_out_str(o, __atomic_load_n(&r->exited, __ATOMIC_RELAXED)
                         ? ", \"exited\": true"
                         : ", \"exited\": false");
  pathcov_out_str(o, ", \"size\": ");
  pathcov_out_u64(o, ring_size(r));
  pathcov_out_str(o, ", \"completed\": ");
  pathcov_out_u64(o, done);
  pathcov_out_str(o, ",\n    \"paths\": [");
  for (uint64_t i = 0; i < paths; ++i) {
    pathcov_out_str(o, i ? ",\n     " : "\n     ");
    pathcov_out_path(o, s->paths[i].fn, s->paths[i].id);
    pathcov_out_str(o, "}");
  }
  pathcov_out_str(o, "],\n    \"rules\": [");
  uint32_t begin = 0;
  for (uint32_t k = 0; k < g.rules; ++k) {
    if (k)
      pathcov_out_str(o, ",");
    format_symbols(o, g.symbols, begin, g.ends[k]);
    begin = g.ends[k];
  }
  pathcov_out_str(o, "],\n    \"sequence\": ");
  format_symbols(o, g.symbols, begin, g.ends[g.rules]);
  pathcov_out_str(o, "}");
  return 1;
}

/* Carves s out of memory for rings of up to `size` entries; returns the
 * bytes needed when memory is NULL. */
static size_t lay_out_scratch(struct history_scratch *s, char *memory,
                              uint64_t size) {
  size_t at = 0;
#define CARVE(field, count)                                                    \
  s->field = (void *)(memory ? memory + at : NULL);                            \
  at += ((count) * sizeof *s->field + 63) & ~(size_t)63;
  CARVE(entries, size);
  CARVE(symbols, size);
  CARVE(paths, size);
  s->slot_mask = 2 * size - 1;
  CARVE(slots, 2 * size);
#undef CARVE
  s->grammar = memory ? memory + at : NULL;
  s->grammar_bytes = sequitur_scratch_size((uint32_t)size);
  return at + s->grammar_bytes;
}

/* The report's "history": every ring of this module's threads. Memory for
 * the work is mapped here and unmapped after (async-signal-safe system
 * calls: this may run in a crash handler). */
void pathcov_history_format(struct pathcov_out *o) {
  uint64_t largest = 0;
  for (struct history_record *r =
           __atomic_load_n(&history.records, __ATOMIC_ACQUIRE);
       r; r = r->next)
    if (ring_size(r) > largest)
      largest = ring_size(r);
  if (!largest)
    return;
  struct history_scratch s;
  const size_t bytes = lay_out_scratch(&s, NULL, largest);
  char *memory = pathcov_map_zeroed(bytes, 0);
  if (memory == MAP_FAILED)
    return;
  lay_out_scratch(&s, memory, largest);
  pathcov_out_str(o, ",\n \"history\": [");
  const char *separator = "";
  for (struct history_record *r =
           __atomic_load_n(&history.records, __ATOMIC_ACQUIRE);
       r; r = r->next) {
    if (format_thread(o, separator, r, &s))
      separator = ",";
  }
  pathcov_out_str(o, "]");
  munmap(memory, bytes);
}
