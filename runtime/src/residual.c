/* Residual mode (docs/residual-mode.md, "The runtime" and "Reports"):
 * records the residual (untested) paths of this module's functions and
 * writes them as a report at exit, on a fatal signal and on request.
 *
 * The residual table lives in static memory, one per module (each module
 * links its own copy of the runtime), and is lock-free:
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
 * fn->runtime of a residual function caches the number (+ 1) of the entry
 * of its last residual path, checked first: a residual path repeated in a
 * loop costs two loads, two compares and an atomic add. Residual counts are
 * always atomic (residual paths are rare, and threads must not lose them);
 * the tested counts that __pathcov_residual_lookup makes follow
 * PATHCOV_FN_ATOMIC, like the plugin's inline ones.
 *
 * Reports are formatted by one function, format_report, into a
 * pathcov_out (out.c): a file through a chunk buffer on the stack, a
 * caller's descriptor, or a caller's memory, without malloc or stdio, so a
 * signal handler writes them too. Everything the handler needs (module
 * path and build-id, report directory) is prepared at start-up. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"
#include "pathcov/pathcov.h"

#define RESIDUAL_CAPACITY 16384u /* distinct residual paths per module */
#define INDEX_BITS 15
#define INDEX_SLOTS (1u << INDEX_BITS)

enum { ENTRY_PENDING = 0, ENTRY_LIVE = 1, ENTRY_DEAD = 2 };

struct entry {
  struct pathcov_function *fn; /* set before the entry is published... */
  uint64_t id;                 /* ...and never changed after */
  uint64_t count;              /* atomic */
  uint64_t first_seen_ns;      /* CLOCK_REALTIME */
  uint32_t thread;             /* gettid() of the thread that first ran it */
  uint32_t state;              /* ENTRY_*: the report lists live ones */
};

static struct {
  uint32_t index[INDEX_SLOTS]; /* entry number + 1; 0: free */
  uint64_t used;    /* entries handed out; may pass the capacity (racing
                       threads that found it full): read it clamped */
  uint64_t dropped_paths;
  struct entry entries[RESIDUAL_CAPACITY];
} table;

/* The crash signals (docs/residual-mode.md). */
static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
#define CRASH_SIGNALS (sizeof crash_signals / sizeof crash_signals[0])

static struct {
  pthread_once_t once;
  const struct pathcov_module *module;
  uint64_t residual_descriptors;
  int enabled;         /* PATHCOV_REPORT is not "0" */
  int dir_error;       /* PATHCOV_REPORT_DIR too long: errno for reports */
  char dir[PATH_MAX];  /* PATHCOV_REPORT_DIR at start-up, for crashes */
  uint64_t started_ns; /* start-up (in a child: the fork) */
  unsigned sequence;   /* of this process's next report file */
  int handlers;        /* installed */
  struct sigaction previous[CRASH_SIGNALS];
  int crash_writer;    /* tid of the thread writing a crash report, or 0 */
} rep = {.once = PTHREAD_ONCE_INIT};

static uint64_t now_ns(void) {
  struct timespec t;
  clock_gettime(CLOCK_REALTIME, &t);
  return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

static int is_residual(const struct pathcov_function *fn) {
  return fn && fn->abi_version == PATHCOV_ABI_VERSION &&
         (fn->flags & PATHCOV_FN_RESIDUAL);
}

static uint64_t entries_used(void) {
  uint64_t n = __atomic_load_n(&table.used, __ATOMIC_ACQUIRE);
  return n < RESIDUAL_CAPACITY ? n : RESIDUAL_CAPACITY;
}

/* ------------------------------------------------------------ recording */

static uint32_t home_slot(const struct pathcov_function *fn, uint64_t id) {
  uint64_t h = (uint64_t)(uintptr_t)fn ^ id * 0x9e3779b97f4a7c15ull;
  h ^= h >> 30;
  h *= 0xbf58476d1ce4e5b9ull; /* splitmix64's finaliser */
  h ^= h >> 27;
  h *= 0x94d049bb133111ebull;
  h ^= h >> 31;
  return (uint32_t)(h >> (64 - INDEX_BITS));
}

/* Takes a free entry and fills it for (fn, id), seen once now; returns its
 * number + 1, or 0 when the table is full. */
static uint32_t new_entry(struct pathcov_function *fn, uint64_t id) {
  if (__atomic_load_n(&table.used, __ATOMIC_RELAXED) >= RESIDUAL_CAPACITY)
    return 0; /* full: spare the shared counter a write */
  uint64_t n = __atomic_fetch_add(&table.used, 1, __ATOMIC_RELAXED);
  if (n >= RESIDUAL_CAPACITY)
    return 0;
  struct entry *e = &table.entries[n];
  __atomic_store_n(&e->state, ENTRY_PENDING, __ATOMIC_RELAXED);
  e->fn = fn;
  e->id = id;
  __atomic_store_n(&e->count, 1, __ATOMIC_RELAXED);
  e->first_seen_ns = now_ns();
  e->thread = (uint32_t)gettid();
  return (uint32_t)n + 1;
}

/* An entry taken by new_entry that another thread's entry made useless:
 * handed back if no entry was taken since, else left dead. */
static void give_back(uint32_t number) {
  uint64_t expected = number;
  if (!__atomic_compare_exchange_n(&table.used, &expected, number - 1, 0,
                                   __ATOMIC_RELAXED, __ATOMIC_RELAXED))
    __atomic_store_n(&table.entries[number - 1].state, ENTRY_DEAD,
                     __ATOMIC_RELEASE);
}

static void remember(struct pathcov_function *fn, uint32_t number) {
  void *hint = (void *)(uintptr_t)number;
  if (__atomic_load_n(&fn->runtime, __ATOMIC_RELAXED) != hint)
    __atomic_store_n(&fn->runtime, hint, __ATOMIC_RELEASE);
}

/* The slow path: finds (fn, id) in the index, inserting it if new. Not
 * inlined: the fast path stays a leaf that saves no register. */
__attribute__((noinline)) static void record(struct pathcov_function *fn, uint64_t id) {
  uint32_t mine = 0; /* an entry filled for (fn, id), not yet published */
  for (uint32_t i = home_slot(fn, id);; i = (i + 1) & (INDEX_SLOTS - 1)) {
    uint32_t v = __atomic_load_n(&table.index[i], __ATOMIC_ACQUIRE);
    if (v == 0) { /* (fn, id) is not in the table */
      if (!mine && !(mine = new_entry(fn, id))) {
        __atomic_fetch_add(&table.dropped_paths, 1, __ATOMIC_RELAXED);
        return;
      }
      if (__atomic_compare_exchange_n(&table.index[i], &v, mine, 0,
                                      __ATOMIC_RELEASE, __ATOMIC_ACQUIRE)) {
        __atomic_store_n(&table.entries[mine - 1].state, ENTRY_LIVE,
                         __ATOMIC_RELEASE);
        remember(fn, mine);
        return;
      }
      /* Another thread published entry v in this slot first: compare it
       * like any other. */
    }
    const struct entry *e = &table.entries[v - 1];
    if (e->fn == fn && e->id == id) {
      __atomic_fetch_add(&table.entries[v - 1].count, 1, __ATOMIC_RELAXED);
      if (mine)
        give_back(mine);
      remember(fn, v);
      return;
    }
  }
}

void __pathcov_residual_path(struct pathcov_function *fn, uint64_t id) {
  /* The last residual path of fn first: fn->runtime holds its entry's
   * number + 1, set only to published entries (whose fn and id never
   * change), so two compares tell whether it is this path. */
  uintptr_t last = (uintptr_t)__atomic_load_n(&fn->runtime, __ATOMIC_ACQUIRE);
  if (last - 1 < RESIDUAL_CAPACITY) {
    struct entry *e = &table.entries[last - 1];
    if (e->fn == fn && e->id == id) {
      __atomic_fetch_add(&e->count, 1, __ATOMIC_RELAXED);
      return;
    }
  }
  if (is_residual(fn)) /* else reported once, as an invalid descriptor */
    record(fn, id);
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

/* The child of a fork has one thread, and its own pid: the residual paths
 * it inherited are its parent's to report. Writes only what was used, so
 * that the child does not copy pages it never touched. */
static void reset_in_child(void) {
  uint64_t used = entries_used();
  for (uint32_t i = 0; i < INDEX_SLOTS; ++i)
    if (table.index[i])
      table.index[i] = 0;
  for (uint64_t i = 0; i < used; ++i)
    table.entries[i].state = ENTRY_PENDING;
  table.used = 0;
  table.dropped_paths = 0;
  FOR_EACH_DESCRIPTOR(p) {
    if (!is_residual(*p))
      continue;
    (*p)->runtime = NULL;
    /* The tested paths' counts are the parent's too (abi.h: the ids, then
     * their counts). */
    if ((*p)->counters)
      for (uint64_t k = 0; k <= (*p)->table_size; ++k)
        (*p)->counters[(*p)->table_size + 1 + k] = 0;
  }
  rep.started_ns = now_ns();
  rep.sequence = 0;
  rep.crash_writer = 0;
}

/* -------------------------------------------------------------- reports */

/* Whether an automatic report has anything to say. */
static int has_residual_paths(void) {
  if (__atomic_load_n(&table.dropped_paths, __ATOMIC_RELAXED))
    return 1;
  for (uint64_t i = 0, n = entries_used(); i < n; ++i)
    if (__atomic_load_n(&table.entries[i].state, __ATOMIC_ACQUIRE) ==
        ENTRY_LIVE)
      return 1;
  return 0;
}

/* The report (docs/residual-mode.md, "Reports"), for every destination.
 * Paths are listed in the order they were first seen (entry order). */
static void format_report(struct pathcov_out *o, const char *reason,
                          int signal) {
  const struct pathcov_module *m = rep.module;
  pathcov_out_str(o, "{\"format\": \"pathcov-report\", "
                     "\"format_version\": \"1.0\",\n \"module\": ");
  pathcov_out_string(o, m->path);
  pathcov_out_str(o, ", \"build_id\": ");
  pathcov_out_string(o, m->build_id[0] ? m->build_id : NULL);
  pathcov_out_str(o, ", \"pid\": ");
  pathcov_out_u64(o, (uint64_t)getpid());
  pathcov_out_str(o, ",\n \"started_ns\": ");
  pathcov_out_u64(o, rep.started_ns);
  pathcov_out_str(o, ", \"written_ns\": ");
  pathcov_out_u64(o, now_ns());
  pathcov_out_str(o, ",\n \"reason\": ");
  pathcov_out_string(o, reason);
  if (signal) {
    pathcov_out_str(o, ", \"signal\": ");
    pathcov_out_u64(o, (uint64_t)signal);
  }
  pathcov_out_str(o, ",\n \"residual_paths\": [");
  const char *separator = "\n  {\"identity\": ";
  for (uint64_t i = 0, n = entries_used(); i < n; ++i) {
    const struct entry *e = &table.entries[i];
    if (__atomic_load_n(&e->state, __ATOMIC_ACQUIRE) != ENTRY_LIVE)
      continue;
    pathcov_out_str(o, separator);
    separator = ",\n  {\"identity\": ";
    pathcov_out_string(o, e->fn->identity);
    pathcov_out_str(o, ", \"checksum\": ");
    pathcov_out_hex64(o, e->fn->cfg_checksum);
    pathcov_out_str(o, ", \"id\": ");
    pathcov_out_u64(o, e->id);
    pathcov_out_str(o, ",\n   \"count\": ");
    pathcov_out_u64(o, __atomic_load_n(&e->count, __ATOMIC_RELAXED));
    pathcov_out_str(o, ", \"first_seen_ns\": ");
    pathcov_out_u64(o, e->first_seen_ns);
    pathcov_out_str(o, ", \"thread\": ");
    pathcov_out_u64(o, e->thread);
    pathcov_out_str(o, "}");
  }
  pathcov_out_str(o, "],\n \"dropped_paths\": ");
  pathcov_out_u64(o, __atomic_load_n(&table.dropped_paths, __ATOMIC_RELAXED));
  /* How often the tested paths ran: their counts in the tables. */
  pathcov_out_str(o, ",\n \"tested_paths\": [");
  separator = "\n  {\"identity\": ";
  FOR_EACH_DESCRIPTOR(p) {
    const struct pathcov_function *fn = *p;
    if (!is_residual(fn) || !fn->counters)
      continue;
    for (uint64_t k = 0; k < fn->table_size; ++k) {
      uint64_t id = fn->counters[k];
      uint64_t count = __atomic_load_n(&fn->counters[fn->table_size + 1 + k],
                                       __ATOMIC_RELAXED);
      if (id == UINT64_MAX || count == 0)
        continue;
      pathcov_out_str(o, separator);
      separator = ",\n  {\"identity\": ";
      pathcov_out_string(o, fn->identity);
      pathcov_out_str(o, ", \"checksum\": ");
      pathcov_out_hex64(o, fn->cfg_checksum);
      pathcov_out_str(o, ", \"id\": ");
      pathcov_out_u64(o, id);
      pathcov_out_str(o, ", \"count\": ");
      pathcov_out_u64(o, count);
      pathcov_out_str(o, "}");
    }
  }
  pathcov_out_str(o, "]}\n");
}

/* Writes the report into f (f->final set): a temporary file renamed when
 * complete. Async-signal-safe. Returns 0, or -1 with f->error set. */
static int write_report_file(struct pathcov_file *f, const char *reason,
                             int signal) {
  char chunk[4096];
  struct pathcov_out o;
  int write_error = 0;
  if (pathcov_file_open(f) == 0) {
    pathcov_out_fd(&o, f->fd, chunk, sizeof chunk);
    format_report(&o, reason, signal);
    pathcov_out_finish(&o);
    write_error = o.error;
  }
  return pathcov_file_close(f, write_error);
}

/* "pathcov: cannot write report NAME (errno N)" on stderr, without stdio
 * (strerror is not async-signal-safe either). */
static void warn_in_signal(const struct pathcov_file *f) {
  char line[PATH_MAX + 160];
  struct pathcov_out o;
  pathcov_out_memory(&o, line, sizeof line - 1);
  pathcov_out_str(&o, "pathcov: cannot write report ");
  pathcov_out_str(&o, f->final);
  pathcov_out_str(&o, " (errno ");
  pathcov_out_u64(&o, (uint64_t)f->error);
  pathcov_out_str(&o, ")");
  pathcov_out_finish(&o);
  line[o.len] = '\n';
  if (write(STDERR_FILENO, line, o.len + 1) < 0) {
    /* stderr is gone: nowhere left to report */
  }
}

/* An automatic report (exit, crash) into dir, named
 * pathcov-report-<module>-<pid>-<sequence>.json. */
static void write_report(const char *dir, const char *reason, int signal) {
  struct pathcov_file f;
  if (rep.dir_error && signal) {
    f = (struct pathcov_file){.fd = -1, .error = rep.dir_error};
    memcpy(f.final, "$PATHCOV_REPORT_DIR", sizeof "$PATHCOV_REPORT_DIR");
  } else if (pathcov_file_name(&f, dir, "pathcov-report-", rep.module->base,
                               &rep.sequence) == 0) {
    write_report_file(&f, reason, signal);
  }
  if (!f.error)
    return;
  if (signal)
    warn_in_signal(&f);
  else
    pathcov_warn("cannot write report %s: %s", f.final, strerror(f.error));
}

/* ------------------------------------------------------------- signals */

static int crash_index(int sig) {
  for (size_t i = 0; i < CRASH_SIGNALS; ++i)
    if (crash_signals[i] == sig)
      return (int)i;
  return -1;
}

/* Installed with SA_RESETHAND: the signal's action is already SIG_DFL.
 * Writes the report, puts the previous action back and makes the signal
 * happen again for it: a fault the kernel raised (si_code > 0) recurs when
 * the faulting instruction runs again, with its original siginfo, for a
 * previous handler; anything else is raised again (pending until this
 * handler returns, the signal being blocked meanwhile). With SIG_DFL
 * before us, it is raised in any case: the process dies of it, with a core
 * dump if enabled, whatever the fault was. */
static void on_crash(int sig, siginfo_t *info, void *context) {
  (void)context;
  int saved = errno;
  int self = (int)gettid();
  int writer = 0;
  if (__atomic_compare_exchange_n(&rep.crash_writer, &writer, self, 0,
                                  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    if (has_residual_paths())
      write_report(rep.dir, "signal", sig);
    __atomic_store_n(&rep.crash_writer, 0, __ATOMIC_RELEASE);
  } else if (writer != self) {
    /* Another thread crashed first and is writing its report: give it up
     * to 10 s before this signal takes the process down. */
    struct timespec tick = {0, 10 * 1000 * 1000};
    for (int i = 0; i < 1000 && __atomic_load_n(&rep.crash_writer,
                                                __ATOMIC_ACQUIRE); ++i)
      nanosleep(&tick, NULL);
  } /* else: a crash in this thread while it writes: no second report */
  int k = crash_index(sig);
  const struct sigaction *previous = &rep.previous[k < 0 ? 0 : k];
  if (k >= 0)
    sigaction(sig, previous, NULL);
  if (k < 0 || previous->sa_handler == SIG_DFL || !info || info->si_code <= 0)
    raise(sig);
  errno = saved;
}

/* The alternate signal stack of the thread that loads the module (the main
 * thread, unless a library is dlopen'ed), so that a stack overflow can be
 * reported: mapped once, never unmapped (the thread may outlive the
 * module). A stack the program set up already is kept. */
static void set_alternate_stack(void) {
  stack_t old;
  if (sigaltstack(NULL, &old) != 0 || !(old.ss_flags & SS_DISABLE))
    return;
  size_t size = 64 * 1024;
  long min = sysconf(_SC_SIGSTKSZ);
  if (min > 0 && (size_t)min * 4 > size)
    size = (size_t)min * 4;
  void *stack = mmap(NULL, size, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
  if (stack == MAP_FAILED)
    return;
  stack_t ss = {.ss_sp = stack, .ss_size = size, .ss_flags = 0};
  if (sigaltstack(&ss, NULL) != 0)
    munmap(stack, size);
}

static void install_handlers(void) {
  set_alternate_stack();
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_crash;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
  /* While the report is written, other signals wait (a SIGTERM or SIGINT
   * would kill the process before the rename); crash signals do not
   * (blocked, a fault would kill it at once, without the others'
   * handlers). */
  sigfillset(&sa.sa_mask);
  for (size_t i = 0; i < CRASH_SIGNALS; ++i)
    sigdelset(&sa.sa_mask, crash_signals[i]);
  for (size_t i = 0; i < CRASH_SIGNALS; ++i)
    if (sigaction(crash_signals[i], &sa, &rep.previous[i]) != 0)
      rep.previous[i].sa_handler = SIG_DFL;
  rep.handlers = 1;
}

/* At dlclose the handler's code goes away: the previous actions come back
 * where ours are still installed. (A handler installed after ours that
 * chains to it cannot be helped.) */
static void uninstall_handlers(void) {
  if (!rep.handlers)
    return;
  for (size_t i = 0; i < CRASH_SIGNALS; ++i) {
    struct sigaction current;
    if (sigaction(crash_signals[i], NULL, &current) == 0 &&
        (current.sa_flags & SA_SIGINFO) && current.sa_sigaction == on_crash)
      sigaction(crash_signals[i], &rep.previous[i], NULL);
  }
  rep.handlers = 0;
}

/* ------------------------------------------------------------ start-up */

static const char *report_dir(void) {
  const char *dir = getenv("PATHCOV_REPORT_DIR");
  return dir && *dir ? dir : ".";
}

static void init_reports(void) {
  rep.module = pathcov_this_module();
  rep.started_ns = now_ns();
  FOR_EACH_DESCRIPTOR(p) {
    if (is_residual(*p))
      ++rep.residual_descriptors;
  }
  const char *off = getenv("PATHCOV_REPORT");
  rep.enabled = !(off && strcmp(off, "0") == 0);
  const char *dir = report_dir();
  if (strlen(dir) < sizeof rep.dir)
    memcpy(rep.dir, dir, strlen(dir) + 1);
  else
    rep.dir_error = ENAMETOOLONG;
  if (!rep.residual_descriptors)
    return; /* nothing is ever recorded: no automatic report */
  if (pthread_atfork(NULL, NULL, reset_in_child) != 0)
    pathcov_warn("%s: pthread_atfork failed: children will also report the "
                 "residual paths of their parent", rep.module->path);
  if (rep.enabled)
    install_handlers();
}

/* Priority 101, like runtime.c's: before the module's other constructors.
 * Recording needs no start-up (the table is zeroed static memory), so
 * residual paths run by earlier constructors of other modules are kept. */
__attribute__((constructor(101))) static void on_load(void) {
  pthread_once(&rep.once, init_reports);
}

/* At exit, or dlclose of a shared library (then the handlers must go). A
 * crash in a later destructor (another module's) finds the previous
 * actions, and this module's report written already. */
__attribute__((destructor(101))) static void on_unload(void) {
  int saved = errno;
  pthread_once(&rep.once, init_reports);
  if (rep.enabled && rep.residual_descriptors && has_residual_paths())
    write_report(report_dir(), "exit", 0);
  uninstall_handlers();
  errno = saved;
}

/* ------------------------------------------------------------------ API */

PATHCOV_EXPORT int pathcov_report_write(const char *path) {
  pthread_once(&rep.once, init_reports);
  if (!path || !*path) {
    errno = ENOENT;
    return -1;
  }
  struct pathcov_file f;
  if (pathcov_file_path(&f, path) == 0)
    write_report_file(&f, "request", 0);
  if (!f.error)
    return 0;
  errno = f.error;
  return -1;
}

PATHCOV_EXPORT int pathcov_report_write_fd(int fd) {
  pthread_once(&rep.once, init_reports);
  if (fd < 0) {
    errno = EBADF;
    return -1;
  }
  char chunk[4096];
  struct pathcov_out o;
  pathcov_out_fd(&o, fd, chunk, sizeof chunk);
  format_report(&o, "request", 0);
  if (pathcov_out_finish(&o) == 0)
    return 0;
  errno = o.error;
  return -1;
}

PATHCOV_EXPORT size_t pathcov_report_buffer(char *buffer, size_t size) {
  pthread_once(&rep.once, init_reports);
  struct pathcov_out o;
  pathcov_out_memory(&o, buffer, buffer ? size : 0);
  format_report(&o, "request", 0);
  pathcov_out_finish(&o);
  return o.total;
}
