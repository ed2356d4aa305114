/* Interfaces between the runtime's source files. The library is compiled
 * with -fvisibility=hidden: none of this leaves the module it is linked
 * into; only PATHCOV_EXPORT functions (pathcov.h) are exported. */
#ifndef PATHCOV_RUNTIME_INTERNAL_H
#define PATHCOV_RUNTIME_INTERNAL_H

#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "pathcov/abi.h"

/* Zeroed anonymous memory (mmap with `flags` besides MAP_PRIVATE |
 * MAP_ANONYMOUS), or MAP_FAILED; errno as it was either way. The runtime
 * runs inside the program's code (between a libc call and the program's
 * test of errno, at a path end) and before main, where C says errno is 0:
 * it must never change errno. */
void *pathcov_map_zeroed(size_t bytes, int flags);

/* pthread_once(once, init), errno as it was: the runtime's start-ups run
 * from constructors, before main, and from the first path end, API call
 * or thread that needs them (realpath left EINVAL behind; a setting read
 * with strtoull set errno to 0 at a thread's first path end). */
void pathcov_once(pthread_once_t *once, void (*init)(void));

/* Exported, but calls from inside a module bind to that module's own copy of
 * the runtime (default visibility would let the first module that exports
 * the name serve every module's calls). */
#define PATHCOV_EXPORT __attribute__((visibility("protected")))

/* The descriptors of this module's instrumented functions: the linker
 * collects pointers to them in the section "pathcov_functions" and defines
 * __start_/__stop_pathcov_functions around them. Both are weak (a module
 * with no instrumented function has no such section: they are then null)
 * and hidden (each copy of the runtime sees its own module's section only,
 * and exports neither). */
extern struct pathcov_function *const __start_pathcov_functions[]
    __attribute__((weak, visibility("hidden")));
extern struct pathcov_function *const __stop_pathcov_functions[]
    __attribute__((weak, visibility("hidden")));

#define FOR_EACH_DESCRIPTOR(p)                                                 \
  for (struct pathcov_function *const *p = __start_pathcov_functions;          \
       p < __stop_pathcov_functions; ++p)

/* The longest GNU build-id kept, in bytes (ld writes 20; a longer one is
 * reported as none). */
#define PATHCOV_BUILD_ID_MAX 64

/* The module (executable or shared library) this copy of the runtime is
 * linked into. */
struct pathcov_module {
  char path[PATH_MAX];  /* absolute where the system tells us */
  const char *base;     /* last component of path */
  char build_id[2 * PATHCOV_BUILD_ID_MAX + 1]; /* lowercase hex; "" if none */
};

/* Fills *m for the loaded object containing addr. Takes the loader lock: call
 * it once, at start-up. */
void pathcov_module_identify(const void *addr, struct pathcov_module *m);

/* Where an address of the process lies (pathcov_locate_address). */
struct pathcov_located {
  void *object;        /* where the object is mapped: tells objects apart */
  uintptr_t address;   /* as in the object's file (its ELF addresses) */
  const char *name;    /* the loader's name: "" for the main program */
  char build_id[2 * PATHCOV_BUILD_ID_MAX + 1]; /* lowercase hex; "" if none */
};

/* Fills *out for the loaded object containing pc, its build_id only
 * `with_build_id` (it takes a walk of the object's notes). Lock-free and
 * async-signal-safe (_dl_find_object). Returns 0, or -1 when no loaded
 * object contains pc (out is then unchanged). */
int pathcov_locate_address(uintptr_t pc, int with_build_id,
                           struct pathcov_located *out);

/* The main program's path (/proc/self/exe), "" if unknown;
 * async-signal-safe. */
void pathcov_program_path(char *path);

/* One path and its count, as a profile lists it. */
struct pathcov_path {
  uint64_t id;
  uint64_t count;
};

/* What one profile reports for one function. */
struct pathcov_counts {
  uint64_t calls;
  uint64_t resumes;           /* second returns from setjmp */
  uint64_t invalid_ids;
  uint64_t dropped;
  size_t len;                 /* entries in paths */
  struct pathcov_path *paths; /* ascending ids, nonzero counts */
};

/* Output, shared by profiles and reports: JSON formatted by hand, without
 * malloc or stdio, so that it can run in a signal handler (out.c). Either
 * into an open descriptor through a chunk buffer of the caller's, or into a
 * caller's memory buffer, snprintf-like: `total` counts every byte produced,
 * the first cap - 1 of them are stored, and a NUL follows. */
struct pathcov_out {
  int fd;       /* -1: memory only */
  int error;    /* first errno of a failed write, 0 if none */
  char *buf;    /* the chunk buffer, or the caller's memory */
  size_t cap;   /* its size */
  size_t len;   /* bytes in buf (fd: not yet written) */
  size_t total; /* bytes produced so far */
};

/* Output to fd through the chunk buffer buf[size] (size > 0). */
void pathcov_out_fd(struct pathcov_out *o, int fd, char *buf, size_t size);
/* Output into buf[size] (buf may be NULL when size is 0). */
void pathcov_out_memory(struct pathcov_out *o, char *buf, size_t size);
/* fd: writes what the chunk buffer holds; memory: NUL-terminates. Returns
 * 0, or -1 with o->error set (fd only). */
int pathcov_out_finish(struct pathcov_out *o);

void pathcov_out_bytes(struct pathcov_out *o, const char *s, size_t n);
void pathcov_out_str(struct pathcov_out *o, const char *s);
void pathcov_out_u64(struct pathcov_out *o, uint64_t v);
/* A 64-bit checksum: 16 lowercase hex digits in a JSON string. */
void pathcov_out_hex64(struct pathcov_out *o, uint64_t v);
/* The same into memory (at most 20 bytes; 18), returning the end: for
 * pieces put together before one pathcov_out_bytes. */
char *pathcov_format_u64(char *to, uint64_t v);
char *pathcov_format_hex64(char *to, uint64_t v);
/* Literal text appended at `to`, which moves past it. A profile or a
 * report is mostly small pieces: put together in memory, each path's is
 * written with one pathcov_out_bytes (an oniguruma test's exit, 2,205
 * paths: 1.39 M instructions with a call per piece, 0.76 M so). */
#define PATHCOV_PUT(to, literal)                                               \
  (memcpy((to), (literal), sizeof(literal) - 1), (to) += sizeof(literal) - 1)
/* A JSON string (always valid UTF-8 JSON, whatever the bytes), or null for
 * NULL. */
void pathcov_out_string(struct pathcov_out *o, const char *s);

/* A file written under a temporary name in the directory of its final name
 * and renamed when complete, so that a reader never sees half a file.
 * Async-signal-safe (out.c). The directory is opened once, and the files
 * are made relative to it (no path is looked up twice). */
struct pathcov_file {
  int fd;
  int dir;                  /* the directory, -1 if not open */
  int error;                /* first errno that went wrong, 0 if none */
  const char *prefix;       /* automatic names (pathcov_file_name)... */
  const char *base;
  unsigned *sequence;       /* ...; NULL: the API's path */
  size_t name;              /* offset of the last component in final */
  char final[PATH_MAX + 64];
  char tmp[32];             /* .pathcov-<16 random hex digits>.tmp */
};

/* Opens dir, making it and its missing parents (mode 0700); symbolic links
 * are followed only for components that existed before the last one, and
 * only if root or the effective user owns them. Sets f->final to
 * DIR/PREFIX-BASE-PID-SEQ.json with the first sequence number SEQ >=
 * *sequence that no file uses (a dlclose'd library loaded again restarts
 * its sequence at 0; a reused pid meets old files), and moves *sequence
 * past it (atomically: concurrent callers get different numbers). Returns
 * 0, or -1 with f->error set (f->final then names the directory); either
 * way pathcov_file_close(f, ...) must follow. */
int pathcov_file_name(struct pathcov_file *f, const char *dir,
                      const char *prefix, const char *base, unsigned *sequence);

/* A directory the environment names, read when a file is written, or at
 * start-up for the files a signal handler writes (crash.c), which reads no
 * environment. */
struct pathcov_env_dir {
  const char *variable; /* PATHCOV_REPORT_DIR, PATHCOV_PROFILE_DIR */
  char path[PATH_MAX];  /* the variable's value, "." when unset or empty */
  int error;            /* ENAMETOOLONG: the value did not fit */
};
void pathcov_env_dir_read(struct pathcov_env_dir *d, const char *variable);
/* pathcov_file_name in d's directory; if it did not fit, f with d's error,
 * naming $VARIABLE. */
int pathcov_file_name_in(struct pathcov_file *f, const struct pathcov_env_dir *d,
                         const char *prefix, const char *base,
                         unsigned *sequence);

/* Sets f->final to path, which the program chose: its directory is opened
 * as given (links followed), never made. Returns 0, or -1 with f->error
 * set; either way pathcov_file_close(f, ...) must follow. */
int pathcov_file_path(struct pathcov_file *f, const char *path);
/* Creates the temporary file of f->final (a random name, mode 0600).
 * Returns 0, or -1 with f->error set; either way pathcov_file_close(f, ...)
 * must follow. */
int pathcov_file_open(struct pathcov_file *f);
/* Closes the temporary file and renames it to f->final, unless f->error or
 * write_error (then the temporary file is removed and f->error is set); an
 * automatic name taken meanwhile is not replaced: the next sequence number
 * is used. Closes the directory. Returns 0, or -1 with f->error set. */
int pathcov_file_close(struct pathcov_file *f, int write_error);

/* Whether this is a secure-execution program (AT_SECURE: set-user-ID,
 * set-group-ID, file capabilities): the runtime then writes nothing of its
 * own accord, and secure_getenv ignores the environment. */
int pathcov_secure_execution(void);

/* Reads the settings the diagnostics need from the environment; the
 * module's identification (pathcov_this_module) calls it before anything
 * can print. */
void pathcov_read_settings(void);

/* Writes line[len] (a whole line) to stderr with a single write(2), so that
 * lines from concurrent processes do not interleave, if descriptor 2 is a
 * terminal, pipe, socket or a file opened for appending (or
 * PATHCOV_DIAGNOSTICS=always). Async-signal-safe. */
void pathcov_diagnostic(const char *line, size_t len);

/* A profile being written: a temporary file, renamed to its final name when
 * complete. */
struct pathcov_profile {
  struct pathcov_file file;
  struct pathcov_out out;
  struct pathcov_path *paths; /* the caller's scratch (pathcov_profile_open) */
  unsigned long functions;  /* functions written so far */
  char buf[8192];
};

/* Creates the temporary file of the next profile of m in dir
 * (pathcov_file_name_in); p->paths is `scratch`, room for the most paths a
 * function of m lists (NULL: ENOMEM). Returns 0, or -1 with p->file.error
 * set; either way pathcov_profile_close(p) must follow. Async-signal-safe,
 * as the rest of a profile's writing: a crash's profile is written in a
 * signal handler. */
int pathcov_profile_open(struct pathcov_profile *p,
                         const struct pathcov_module *m,
                         const struct pathcov_env_dir *dir, unsigned *sequence,
                         struct pathcov_path *scratch);

/* Writes the profile's top-level fields. signal (a crash's: reason
 * "signal") and the last two are written only when nonzero (they are not
 * in format 1.0: see record.c). */
void pathcov_profile_header(struct pathcov_profile *p,
                            const struct pathcov_module *m, const char *reason,
                            int signal, uint64_t invalid_descriptors,
                            uint64_t lost_paths);

void pathcov_profile_function(struct pathcov_profile *p,
                              const struct pathcov_function *fn,
                              const struct pathcov_counts *c);

/* kpath.c, linked in only with the plugin's k=N (its instrumented code
 * names __pathcov_kpath): weak, so that a module without it has null
 * ones. The k-slab forests that ran since the last profile, taking their
 * counts, as the profile's "k_paths" (it closes the "functions" array
 * first; nothing when no forest ran). */
void pathcov_kpaths_write(struct pathcov_out *o) __attribute__((weak));
/* kpath.c: zeroes every forest's counts (the nodes stay). */
void pathcov_kpaths_discard(void) __attribute__((weak));

/* "pathcov: cannot write WHAT FILE (errno N)" on stderr, from a signal
 * handler (no stdio, no strerror). */
void pathcov_warn_in_signal(const char *what, const struct pathcov_file *f);

/* crash.c: `write` runs when the process dies of a crash signal, in the
 * handler (async-signal-safe), with the signal; the first writer installs
 * the handlers, with the ending signals PATHCOV_SIGNALS lists or, when it
 * is not set, `ending_by_default` (its syntax; "": none), unless another
 * module of the process decided first (exec.c, pathcov_ending_signals).
 * At most two (residual.c's report, record.c's profile). */
void pathcov_crash_writer_add(void (*write)(int signal),
                              const char *ending_by_default);
/* At exit or dlclose: the actions the handlers replaced come back. */
void pathcov_crash_handlers_remove(void);

/* Completes the file and renames it to its final name. On any failure,
 * removes the temporary file and returns -1 with errno and p->file.error
 * set (the caller says so); else returns 0. */
int pathcov_profile_close(struct pathcov_profile *p);

/* The module this copy of the runtime is linked into, identified on first
 * use (module.c). */
const struct pathcov_module *pathcov_this_module(void);

/* What a module writes before exec* replaces the process, or _exit ends
 * it (exec.c): its profile or report, as at exit, with `reason` ("exec",
 * "exit", "flush"), taking what it writes. from_handler: the call may come
 * from a signal handler (_exit and _Exit are async-signal-safe, and
 * handlers call them): write as a crash's writer does (crash.c). */
struct pathcov_exec_hook {
  struct pathcov_exec_hook *next;
  void (*write)(const char *reason, int from_handler);
};
/* The running test's name for profiles: pathcov_test_begin's (a harness
 * naming each test of one process), else PATHCOV_TEST, else NULL. */
#define PATHCOV_TEST_NAME_MAX 512
const char *pathcov_test_name(void);
/* pathcov_test_begin's name alone, "" outside a harness's test. */
const char *pathcov_harness_test_name(void);

/* Adds or removes a hook of the process's list; from constructors and
 * destructors only. */
void pathcov_exec_hook_add(struct pathcov_exec_hook *hook);
void pathcov_exec_hook_remove(struct pathcov_exec_hook *hook);

/* crash.c's ending signals (bit n: signal n), the same for every module of
 * the process: `decide`'s, called by the first module to ask (exec.c). */
uint64_t pathcov_ending_signals(uint64_t (*decide)(void));

/* A setting of the environment between 1 (0 with `zero`) and `max`, or
 * `fallback` (with a warning when it is set to something else). */
uint64_t pathcov_setting(const char *name, uint64_t max, int zero,
                         uint64_t fallback);
/* The same, rounded down to a power of two unless it is `fallback`. */
uint64_t pathcov_setting_power_of_two(const char *name, uint64_t max,
                                      int zero, uint64_t fallback);

/* The calling thread's id (gettid), async-signal-safe. */
uint32_t pathcov_thread_id(void);

/* fn(arg) with every vector register preserved (path_miss_x86_64.S), for
 * the code behind the stubs to call code that may use them. */
void pathcov_preserving_vectors(void (*fn)(void *), void *arg);

/* A path as reports name it: `{"identity": ..., "checksum": ..., "id": N`
 * (the caller adds its own fields and the closing brace). */
void pathcov_out_path(struct pathcov_out *o, const struct pathcov_function *fn,
                      uint64_t id);

/* The path history (history.c), linked in only with the plugin's
 * history=N (its instrumented code names history.c's symbols): weak, so
 * that a module without it has null ones. The report's "history"; whether
 * any thread recorded a path; a forked child's start. */
void pathcov_history_format(struct pathcov_out *o) __attribute__((weak));
int pathcov_history_recorded(void) __attribute__((weak));
void pathcov_history_reset_in_child(void) __attribute__((weak));

/* Prints one line on stderr (pathcov_diagnostic). */
void pathcov_warn(const char *format, ...)
    __attribute__((format(printf, 1, 2)));

/* ------------------------------------------- residual paths (residual*.c) */

/* A residual-mode descriptor the runtime can read. */
/* Adds 1 to a counter of fn's: a relaxed atomic add with
 * PATHCOV_FN_ATOMIC, else a plain load and store, like the plugin's inline
 * counters. */
static inline void pathcov_count(uint64_t *counter,
                                 const struct pathcov_function *fn) {
  if (fn->flags & PATHCOV_FN_ATOMIC)
    __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
  else
    __atomic_store_n(counter, __atomic_load_n(counter, __ATOMIC_RELAXED) + 1,
                     __ATOMIC_RELAXED);
}

/* A counter's value, leaving 0: each count lands in one profile. A zero is
 * only read, so untouched pages stay clean. */
static inline uint64_t pathcov_take(uint64_t *counter) {
  return __atomic_load_n(counter, __ATOMIC_RELAXED)
             ? __atomic_exchange_n(counter, 0, __ATOMIC_RELAXED)
             : 0;
}

static inline int is_hashed_record(const struct pathcov_function *fn) {
  return (fn->flags & PATHCOV_FN_HASHED) != 0;
}

/* A record-mode descriptor the runtime can read: built for this ABI (the
 * version is the first field in every version), not residual, with
 * counters if it counts inline. */
static inline int is_valid_record(const struct pathcov_function *fn) {
  return fn && fn->abi_version == PATHCOV_ABI_VERSION &&
         !(fn->flags & PATHCOV_FN_RESIDUAL) &&
         (is_hashed_record(fn) || (fn->counters && fn->table_size >= fn->num_paths));
}

/* The module's descriptors neither mode's runtime can read (another ABI
 * version, malformed), counted and reported on stderr once, by whichever
 * mode's runtime starts first (module.c): a residual-only binary has no
 * record.c to say so. */
uint64_t pathcov_invalid_descriptors(void);

static inline int is_residual(const struct pathcov_function *fn) {
  return fn && fn->abi_version == PATHCOV_ABI_VERSION &&
         (fn->flags & PATHCOV_FN_RESIDUAL);
}

/* The tag of path id's seen slot (abi.h) in residual function fn, or NULL
 * when fn has none (or a slot count that is not a power of two, or seen
 * words). A record-mode function's slots are record.c's: their tags are
 * the ids, and the runtime lists the ones it claims. */
static inline uint64_t *seen_slot(const struct pathcov_function *fn,
                                  uint64_t id) {
  uint64_t n = fn->seen_slots;
  if (!fn->seen || n == 0 || (n & (n - 1)) ||
      (fn->flags & PATHCOV_FN_SEEN_WORDS))
    return NULL;
  return &fn->seen[id & (n - 1)];
}

/* The count of the seen slot whose tag is `tag` (seen_slot): the counts
 * follow the seen_slots tags. */
static inline uint64_t *seen_count(const struct pathcov_function *fn,
                                   uint64_t *tag) {
  return tag + fn->seen_slots;
}

/* Claims seen slot `tag` (seen_slot) for path id if it is free: a
 * compare-and-swap of the tag from 0 to id + 1, which then never changes
 * (but for a forked child's reset). Read first, so that a slot another
 * path holds costs no locked instruction, however often that path comes.
 * Returns whether the slot is now the path's. */
static inline int claim_seen_slot(uint64_t *tag, uint64_t id) {
  uint64_t held = __atomic_load_n(tag, __ATOMIC_RELAXED);
  if (held == 0 && __atomic_compare_exchange_n(tag, &held, id + 1, 0,
                                               __ATOMIC_RELEASE,
                                               __ATOMIC_RELAXED))
    return 1;
  return held == id + 1;
}

/* Path id's seen word (abi.h, PATHCOV_FN_SEEN_WORDS) in residual function
 * fn, or NULL when fn has none. */
static inline uint64_t *seen_word(const struct pathcov_function *fn,
                                  uint64_t id) {
  if (!fn->seen || !(fn->flags & PATHCOV_FN_SEEN_WORDS) || id >= fn->seen_slots)
    return NULL;
  return &fn->seen[id];
}

/* What a seen word holds: the runs of its path since the runtime last
 * armed it, `arm - word`, arm being the value it was set to (0 before the
 * first time). Instrumented code subtracts 1 a run and calls the runtime
 * when the word goes negative: the first run, then every `arm + 1` runs.
 * A plain (not atomic) subtraction that read the word before the runtime
 * armed it writes back a stale negative value: the next run calls again,
 * and the runtime counts up to a period too many (atomic=1 rules it out;
 * plain counts are inexact under threads anyway). */
static inline uint64_t seen_word_runs(uint64_t word, uint64_t arm) {
  return arm - word;
}

/* The table of residual paths (residual_table.c records them, residual.c
 * reports them). */
#define RESIDUAL_CAPACITY 16384u /* distinct residual paths per module */
#define INDEX_BITS 15
#define INDEX_SLOTS (1u << INDEX_BITS)

/* Calling contexts (docs/residual-mode.md, "Calling contexts"). */
#define CONTEXT_DEPTH_MAX 16u     /* addresses a context holds at most */
#define CONTEXT_DEPTH_DEFAULT 8u
#define CONTEXTS_PER_PATH 4u      /* Space Saving's counters per path */
#define CONTEXT_CAPACITY 4096u    /* contexts kept per module */
#define CONTEXT_PERIOD_DEFAULT 1048576u

/* A calling context: the start of the function whose path end ran (where
 * that function's code was placed: the caller it was inlined into, if it
 * was), then the return addresses of its callers, innermost first. */
struct context {
  uint32_t version; /* odd while being written: a report skips it */
  uint32_t depth;   /* addresses in pc */
  uint64_t count;   /* Space Saving: samples counted here, an overestimate */
  uint64_t error;   /* ... by at most this much */
  uintptr_t pc[CONTEXT_DEPTH_MAX];
};

/* The settings, in .data (they start at their defaults), apart from the
 * records, in .bss (zero, and resident only as used). */
struct context_settings {
  uint32_t depth;  /* addresses to capture: PATHCOV_CONTEXT_DEPTH */
  uint64_t period; /* a residual path's runs per sample after its first:
                      PATHCOV_CONTEXT_PERIOD, a power of two */
};

struct context_pool {
  uint32_t used; /* records handed out; may pass the capacity */
  struct context records[CONTEXT_CAPACITY];
};

extern struct context_settings context_settings;
extern struct context_pool context_pool;

struct entry;

/* Walks the calling context of the path end whose stub's frame is
 * `stub_frame` and counts it among e's (context.c), e's `busy` held.
 * Nothing when contexts are off or there is no stub frame (a direct call,
 * or not x86-64). Async-signal-safe; leaves vector registers alone. */
void pathcov_sample_context(struct entry *e, const void *stub_frame);

/* The stubs' targets (path_miss_x86_64.S): __pathcov_residual_path and
 * __pathcov_residual_word with the stub's frame. */
void pathcov_site_residual_path(struct pathcov_function *fn, uint64_t id,
                                const void *stub_frame);
void pathcov_site_residual_word(struct pathcov_function *fn, uint64_t id,
                                const void *stub_frame);

/* What the runtime sets a seen word to once it has recorded the path, so
 * that the word goes negative, and calls it, once every context period:
 * it samples a context then, and moves the runs the word holds into the
 * path's entry. With contexts off too, so that a stale word (below) costs
 * at most a period. */
static inline uint64_t seen_word_arm(void) {
  return __atomic_load_n(&context_settings.period, __ATOMIC_RELAXED) - 1;
}

enum { ENTRY_PENDING = 0, ENTRY_LIVE = 1, ENTRY_DEAD = 2 };

struct entry {
  struct pathcov_function *fn; /* set before the entry is published... */
  uint64_t id;                 /* ...and never changed after */
  uint64_t count;              /* atomic; the runs the runtime saw (the
                                  path's seen slot, if it has claimed it,
                                  counts the others: seen_slot; a seen
                                  word counts them all, and this stays 0) */
  uint64_t first_seen_ns;      /* CLOCK_REALTIME */
  uint32_t thread;             /* gettid() of the thread that first ran it */
  uint32_t state;              /* ENTRY_*: the report lists live ones */
  /* Taken with a compare-and-swap, never waited for (a signal handler may
   * interrupt its holder): a thread that finds it taken skips the sample
   * and leaves the seen word for the next run. Guards the rest. */
  uint32_t busy;
  uint32_t test;     /* residual_tests slot + 1 of the harness test it was
                        first seen in; 0: none (set before publication) */
  uint64_t arm;      /* what the seen word was last set to (seen_word_runs) */
  uint64_t samples;  /* contexts sampled */
  uint32_t contexts[CONTEXTS_PER_PATH]; /* record number + 1; 0: none */
};

struct residual_table {
  uint32_t index[INDEX_SLOTS]; /* entry number + 1; 0: free */
  uint64_t used;    /* entries handed out; may pass the capacity (racing
                       threads that found it full): read it clamped */
  uint64_t dropped_paths;
  struct entry entries[RESIDUAL_CAPACITY];
};

extern struct residual_table residual_table;

/* The names of the harness tests (pathcov_test_begin's) in which residual
 * paths were first seen, so that a report of a process that runs many
 * tests says which test first took each path. The first RESIDUAL_TESTS
 * such tests: .bss, touched only by a harness. A slot is claimed, its name
 * copied, its first byte last: a name is there once that byte is not 0.
 * Racing threads may copy one name twice. */
#define RESIDUAL_TESTS 64
struct residual_tests {
  uint32_t used; /* slots claimed; may pass RESIDUAL_TESTS */
  char names[RESIDUAL_TESTS][PATHCOV_TEST_NAME_MAX];
};

extern struct residual_tests residual_tests;

/* CLOCK_REALTIME in ns, async-signal-safe (residual_table.c). */
uint64_t pathcov_realtime_ns(void);

#endif
