/* Residual mode (docs/residual-mode.md, "The runtime" and "Reports"):
 * records the residual (untested) paths of this module's functions and
 * writes them as a report at exit, on a fatal signal and on request.
 *
 * The residual table (internal.h) lives in static memory, one per module
 * (each module links its own copy of the runtime); residual_table.c
 * records paths in it, lock-free, and gives each new path its function's
 * seen slot if free (abi.h), where instrumented code counts its later
 * runs. The counts the runtime makes, in the table, are always atomic (the
 * set of residual paths must be exact, threads included); those in seen
 * slots, and the tested counts that __pathcov_residual_lookup makes with
 * count-tested, follow PATHCOV_FN_ATOMIC, like the plugin's inline ones. A
 * path's count in the report is its entry's plus its slot's, if the slot
 * is its own (tag id + 1).
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

/* Defined here, not in residual_table.c, so that linking the static
 * library for a path recorder always brings the reports (constructors,
 * handlers) along. */
struct residual_table residual_table;
struct context_settings context_settings = {.depth = CONTEXT_DEPTH_DEFAULT,
                                            .period = CONTEXT_PERIOD_DEFAULT};
struct context_pool context_pool;

static struct {
  pthread_once_t once;
  const struct pathcov_module *module;
  uint64_t residual_descriptors;
  int enabled;         /* PATHCOV_REPORT is not "0" */
  struct pathcov_env_dir handler_dir; /* PATHCOV_REPORT_DIR at start-up */
  uint64_t started_ns; /* start-up (in a child: the fork) */
  unsigned sequence;   /* of this process's next report file */
} rep = {.once = PTHREAD_ONCE_INIT};

/* A table with a count beside each tested id (abi.h). */
static int has_counts(const struct pathcov_function *fn) {
  return is_residual(fn) && fn->counters && (fn->flags & PATHCOV_FN_COUNTED);
}

/* abi.h: where the counts of a counting table start (entry k's count is
 * counters[counts_at(fn) + k]), and how many there are: after the
 * table_size + 1 ids, or after a hash table's table_size slots and its
 * multipliers, one per choice (PATHCOV_FN_CUCKOO). */
static uint64_t counts_at(const struct pathcov_function *fn) {
  if (!(fn->flags & PATHCOV_FN_CUCKOO))
    return fn->table_size + 1;
  return fn->table_size + ((fn->flags & PATHCOV_FN_THREE_CHOICES) ? 3 : 2);
}
static uint64_t num_counts(const struct pathcov_function *fn) {
  return fn->table_size + ((fn->flags & PATHCOV_FN_CUCKOO) ? 0 : 1);
}

static uint64_t entries_used(void) {
  uint64_t n = __atomic_load_n(&residual_table.used, __ATOMIC_ACQUIRE);
  return n < RESIDUAL_CAPACITY ? n : RESIDUAL_CAPACITY;
}

/* A count, taken (left 0) when `take`: a report written before exec takes
 * what it writes (exec.c). */
static uint64_t read_count(uint64_t *count, int take) {
  return take ? __atomic_exchange_n(count, 0, __ATOMIC_RELAXED)
              : __atomic_load_n(count, __ATOMIC_RELAXED);
}

/* How often residual path e ran: the runs the runtime counted, plus the
 * ones counted inline in its seen slot once it had claimed it, or in its
 * seen word (all of them). 0 for a path that has not run since a report
 * before exec took its count (a taken word is left armed: e is recorded). */
static uint64_t path_count(struct entry *e, int take) {
  uint64_t count = read_count(&e->count, take);
  uint64_t *word = seen_word(e->fn, e->id);
  if (word) {
    const uint64_t arm = __atomic_load_n(&e->arm, __ATOMIC_RELAXED);
    count += seen_word_runs(
        take ? __atomic_exchange_n(word, arm, __ATOMIC_RELAXED)
             : __atomic_load_n(word, __ATOMIC_RELAXED),
        arm);
  }
  uint64_t *tag = seen_slot(e->fn, e->id);
  if (tag && __atomic_load_n(tag, __ATOMIC_RELAXED) == e->id + 1)
    count += read_count(seen_count(e->fn, tag), take);
  return count;
}

/* The child of a fork has one thread, and its own pid: the residual paths
 * it inherited are its parent's to report, and so are the seen slots they
 * claimed and the seen words they opened (a claimed slot or an open word
 * would count the child's runs of such a path inline, with no entry for
 * them). Writes only what was used, so that the child does not copy pages
 * it never touched, and reads only the slots and words of the table's
 * paths: a slot is claimed, a word opened, only for a published entry's
 * path (residual_table.c), and a function may have a word per path,
 * 32 KiB. */
static void reset_in_child(void) {
  uint64_t used = entries_used();
  for (uint32_t i = 0; i < INDEX_SLOTS; ++i)
    if (residual_table.index[i])
      residual_table.index[i] = 0;
  for (uint64_t i = 0; i < used; ++i) {
    struct entry *e = &residual_table.entries[i];
    /* Any entry's: one a thread of the parent was filling may have counted
     * a run in its word (fn and id are each a whole store, of this entry
     * now or earlier: a word of fn's either way). */
    uint64_t *word = e->fn ? seen_word(e->fn, e->id) : NULL;
    if (word)
      *word = 0;
    uint64_t *tag = e->state == ENTRY_LIVE ? seen_slot(e->fn, e->id) : NULL;
    if (tag && *tag == e->id + 1) {
      *tag = 0;
      *seen_count(e->fn, tag) = 0;
    }
    e->state = ENTRY_PENDING;
  }
  residual_table.used = 0;
  residual_table.dropped_paths = 0;
  context_pool.used = 0;
  if (pathcov_history_reset_in_child)
    pathcov_history_reset_in_child();
  FOR_EACH_DESCRIPTOR(p) {
    if (!is_residual(*p))
      continue;
    (*p)->runtime = NULL;
    /* The tested paths' counts are the parent's too (abi.h: the ids, then
     * their counts). */
    if (has_counts(*p))
      for (uint64_t k = 0; k < num_counts(*p); ++k)
        (*p)->counters[counts_at(*p) + k] = 0;
  }
  rep.started_ns = pathcov_realtime_ns();
  rep.sequence = 0;
}

/* -------------------------------------------------------------- reports */

/* Whether an automatic report has anything to say: residual paths, or
 * (count-tested=1) runs of tested paths, whose counts a process that ran
 * only tested paths must not lose. */
static int has_paths_to_report(void) {
  if (__atomic_load_n(&residual_table.dropped_paths, __ATOMIC_RELAXED))
    return 1;
  for (uint64_t i = 0, n = entries_used(); i < n; ++i)
    if (__atomic_load_n(&residual_table.entries[i].state, __ATOMIC_ACQUIRE) ==
            ENTRY_LIVE &&
        path_count(&residual_table.entries[i], 0))
      return 1;
  FOR_EACH_DESCRIPTOR(p) {
    if (is_residual(*p) && has_counts(*p))
      for (uint64_t k = 0; k < num_counts(*p); ++k)
        if (__atomic_load_n(&(*p)->counters[counts_at(*p) + k], __ATOMIC_RELAXED))
          return 1;
  }
  return 0;
}

/* Whether a crash report has anything to say: residual paths, or the
 * threads' path history (what ran up to the crash). */
static int has_crash_report(void) {
  return has_paths_to_report() ||
         (pathcov_history_recorded && pathcov_history_recorded());
}

/* The objects (executable, shared libraries) the contexts of a report
 * name, in the order first named: each by an address in it, looked up
 * again when the list is written. */
#define CONTEXT_OBJECTS_MAX 64
struct context_objects {
  unsigned used;
  void *object[CONTEXT_OBJECTS_MAX];
  uintptr_t pc[CONTEXT_OBJECTS_MAX];
};

/* Context record r (1-based), copied whole, or 0 while it is being written
 * (context.c's store_context). */
static int copy_context(uint32_t r, struct context *copy) {
  const struct context *c = &context_pool.records[r - 1];
  uint32_t version = __atomic_load_n(&c->version, __ATOMIC_ACQUIRE);
  if (version & 1)
    return 0;
  copy->depth = c->depth < CONTEXT_DEPTH_MAX ? c->depth : CONTEXT_DEPTH_MAX;
  copy->count = c->count;
  copy->error = c->error;
  for (uint32_t k = 0; k < copy->depth; ++k)
    copy->pc[k] = c->pc[k];
  __atomic_thread_fence(__ATOMIC_ACQUIRE);
  return __atomic_load_n(&c->version, __ATOMIC_RELAXED) == version;
}

/* One frame: {"module": index in context_modules, "address": the address
 * in that object's file}; a module past the list's capacity, or an
 * address no loaded object holds (its library closed since), has module
 * null and the address as the process saw it. */
static void format_frame(struct pathcov_out *o, int first, uintptr_t pc,
                         struct context_objects *objects) {
  struct pathcov_located at;
  unsigned m = CONTEXT_OBJECTS_MAX; /* none */
  if (pathcov_locate_address(pc, 0, &at) == 0) {
    m = 0;
    while (m < objects->used && objects->object[m] != at.object)
      ++m;
    if (m == objects->used && m < CONTEXT_OBJECTS_MAX) {
      objects->object[m] = at.object;
      objects->pc[m] = pc;
      ++objects->used;
    }
  }
  const int named = m < objects->used;
  char frame[80], *f = frame;
  if (!first)
    PATHCOV_PUT(f, ", ");
  PATHCOV_PUT(f, "{\"module\": ");
  if (named)
    f = pathcov_format_u64(f, m);
  else
    PATHCOV_PUT(f, "null");
  PATHCOV_PUT(f, ", \"address\": ");
  f = pathcov_format_u64(f, named ? at.address : pc);
  PATHCOV_PUT(f, "}");
  pathcov_out_bytes(o, frame, (size_t)(f - frame));
}

/* e's calling contexts, if any was sampled: how many, and the ones Space
 * Saving kept (internal.h, context.c), most counted first. */
static void format_contexts(struct pathcov_out *o, const struct entry *e,
                            struct context_objects *objects) {
  const uint64_t samples = __atomic_load_n(&e->samples, __ATOMIC_RELAXED);
  if (samples == 0) /* no stub on the stack (a call from C: tests) */
    return;
  struct context kept[CONTEXTS_PER_PATH];
  unsigned n = 0;
  for (unsigned k = 0; k < CONTEXTS_PER_PATH; ++k) {
    uint32_t r = __atomic_load_n(&e->contexts[k], __ATOMIC_ACQUIRE);
    if (r && copy_context(r, &kept[n]))
      ++n;
  }
  for (unsigned i = 1; i < n; ++i) /* insertion sort: at most 4 */
    for (unsigned j = i; j > 0 && kept[j].count > kept[j - 1].count; --j) {
      struct context t = kept[j];
      kept[j] = kept[j - 1];
      kept[j - 1] = t;
    }
  char head[96], *h = head;
  PATHCOV_PUT(h, ",\n   \"contexts\": {\"samples\": ");
  h = pathcov_format_u64(h, samples);
  PATHCOV_PUT(h, ", \"kept\": [");
  pathcov_out_bytes(o, head, (size_t)(h - head));
  for (unsigned i = 0; i < n; ++i) {
    h = head;
    if (i)
      PATHCOV_PUT(h, ",");
    PATHCOV_PUT(h, "\n    {\"count\": ");
    h = pathcov_format_u64(h, kept[i].count);
    PATHCOV_PUT(h, ", \"error\": ");
    h = pathcov_format_u64(h, kept[i].error);
    PATHCOV_PUT(h, ", \"frames\": [");
    pathcov_out_bytes(o, head, (size_t)(h - head));
    for (uint32_t k = 0; k < kept[i].depth; ++k)
      format_frame(o, k == 0, kept[i].pc[k], objects);
    pathcov_out_str(o, "]}");
  }
  pathcov_out_str(o, "]}");
}

/* The objects the contexts named: path and build-id of each. */
static void format_context_modules(struct pathcov_out *o,
                                   const struct context_objects *objects) {
  char program[PATH_MAX];
  program[0] = '\0';
  pathcov_out_str(o, ",\n \"context_modules\": [");
  for (unsigned m = 0; m < objects->used; ++m) {
    struct pathcov_located at;
    if (pathcov_locate_address(objects->pc[m], 1, &at) != 0)
      at = (struct pathcov_located){.name = "", .build_id = ""};
    if (!at.name[0] && !program[0])
      pathcov_program_path(program);
    pathcov_out_str(o, m ? ",\n  {\"path\": " : "\n  {\"path\": ");
    pathcov_out_string(o, at.name[0] ? at.name : program);
    pathcov_out_str(o, ", \"build_id\": ");
    pathcov_out_string(o, at.build_id[0] ? at.build_id : NULL);
    pathcov_out_str(o, "}");
  }
  pathcov_out_str(o, "]");
}

void pathcov_out_path(struct pathcov_out *o, const struct pathcov_function *fn,
                      uint64_t id) {
  pathcov_out_str(o, "{\"identity\": ");
  pathcov_out_string(o, fn->identity);
  char rest[64], *e = rest;
  PATHCOV_PUT(e, ", \"checksum\": ");
  e = pathcov_format_hex64(e, fn->cfg_checksum);
  PATHCOV_PUT(e, ", \"id\": ");
  e = pathcov_format_u64(e, id);
  pathcov_out_bytes(o, rest, (size_t)(e - rest));
}

/* The report (docs/residual-mode.md, "Reports"), for every destination.
 * Paths are listed in the order they were first seen (entry order), those
 * with a count. `take`: the counts written are taken (before exec). */
static void format_report(struct pathcov_out *o, const char *reason,
                          int signal, int take) {
  const struct pathcov_module *m = rep.module;
  pathcov_out_str(o, "{\"format\": \"pathcov-report\", "
                     "\"format_version\": \"2.4\",\n \"module\": ");
  pathcov_out_string(o, m->path);
  pathcov_out_str(o, ", \"build_id\": ");
  pathcov_out_string(o, m->build_id[0] ? m->build_id : NULL);
  pathcov_out_str(o, ", \"pid\": ");
  pathcov_out_u64(o, (uint64_t)getpid());
  pathcov_out_str(o, ",\n \"started_ns\": ");
  pathcov_out_u64(o, rep.started_ns);
  pathcov_out_str(o, ", \"written_ns\": ");
  pathcov_out_u64(o, pathcov_realtime_ns());
  pathcov_out_str(o, ",\n \"reason\": ");
  pathcov_out_string(o, reason);
  if (signal) {
    pathcov_out_str(o, ", \"signal\": ");
    pathcov_out_u64(o, (uint64_t)signal);
  }
  /* The test the process runs, as profiles name it: which test of a
   * suite took the paths (a new user's jq suite fed /dev/urandom). */
  const char *test = pathcov_test_name();
  if (test && test[0]) {
    pathcov_out_str(o, ", \"test\": ");
    pathcov_out_string(o, test);
  }
  const int contexts_on = __atomic_load_n(&context_settings.depth, __ATOMIC_RELAXED) > 0;
  struct context_objects objects;
  objects.used = 0;
  pathcov_out_str(o, ",\n \"residual_paths\": [");
  const char *separator = "\n  ";
  for (uint64_t i = 0, n = entries_used(); i < n; ++i) {
    struct entry *e = &residual_table.entries[i];
    if (__atomic_load_n(&e->state, __ATOMIC_ACQUIRE) != ENTRY_LIVE)
      continue;
    const uint64_t count = path_count(e, take);
    if (count == 0)
      continue;
    pathcov_out_str(o, separator);
    separator = ",\n  ";
    pathcov_out_path(o, e->fn, e->id);
    char counts[128], *c = counts;
    PATHCOV_PUT(c, ",\n   \"count\": ");
    c = pathcov_format_u64(c, count);
    PATHCOV_PUT(c, ", \"first_seen_ns\": ");
    c = pathcov_format_u64(c, e->first_seen_ns);
    PATHCOV_PUT(c, ", \"thread\": ");
    c = pathcov_format_u64(c, e->thread);
    pathcov_out_bytes(o, counts, (size_t)(c - counts));
    if (e->test) {
      pathcov_out_str(o, ", \"first_test\": ");
      pathcov_out_string(o, residual_tests.names[e->test - 1]);
    }
    if (contexts_on)
      format_contexts(o, e, &objects);
    pathcov_out_str(o, "}");
  }
  pathcov_out_str(o, "]");
  if (contexts_on) {
    pathcov_out_str(o, ",\n \"context_depth\": ");
    pathcov_out_u64(o, context_settings.depth);
    pathcov_out_str(o, ", \"context_period\": ");
    pathcov_out_u64(o, context_settings.period);
    format_context_modules(o, &objects);
  }
  if (pathcov_history_format)
    pathcov_history_format(o);
  pathcov_out_str(o, ",\n \"dropped_paths\": ");
  pathcov_out_u64(o, read_count(&residual_table.dropped_paths, take));
  /* How often the tested paths ran: their counts in the tables. */
  pathcov_out_str(o, ",\n \"tested_paths\": [");
  separator = "\n  ";
  FOR_EACH_DESCRIPTOR(p) {
    const struct pathcov_function *fn = *p;
    if (!has_counts(fn))
      continue;
    for (uint64_t k = 0; k < fn->table_size; ++k) {
      uint64_t id = fn->counters[k];
      uint64_t count = read_count(&fn->counters[counts_at(fn) + k], take);
      if (id == UINT64_MAX || count == 0)
        continue;
      pathcov_out_str(o, separator);
      separator = ",\n  ";
      pathcov_out_path(o, fn, id);
      pathcov_out_str(o, ", \"count\": ");
      pathcov_out_u64(o, count);
      pathcov_out_str(o, "}");
    }
  }
  pathcov_out_str(o, "]}\n");
}

/* Writes the report into f (f->final set, unless f->error says why not): a
 * temporary file renamed when complete. Async-signal-safe. Returns 0, or -1
 * with f->error set. */
static int write_report_file(struct pathcov_file *f, const char *reason,
                             int signal, int take) {
  char chunk[4096];
  struct pathcov_out o;
  int write_error = 0;
  if (pathcov_file_open(f) == 0) {
    pathcov_out_fd(&o, f->fd, chunk, sizeof chunk);
    format_report(&o, reason, signal, take);
    pathcov_out_finish(&o);
    write_error = o.error;
  }
  return pathcov_file_close(f, write_error);
}


/* An automatic report (exit, crash, exec) into $PATHCOV_REPORT_DIR, named
 * pathcov-report-<module>-<pid>-<sequence>.json. from_handler: written from
 * a signal handler, a crash's (signal) or an _exit's: the directory as it
 * was at start-up, a message without stdio. */
static void write_report(const char *reason, int signal, int take,
                         int from_handler) {
  struct pathcov_env_dir now;
  if (!from_handler)
    pathcov_env_dir_read(&now, "PATHCOV_REPORT_DIR");
  struct pathcov_file f;
  pathcov_file_name_in(&f, from_handler ? &rep.handler_dir : &now,
                       "pathcov-report-", rep.module->base, &rep.sequence);
  write_report_file(&f, reason, signal, take);
  if (!f.error)
    return;
  if (from_handler)
    pathcov_warn_in_signal("report", &f);
  else
    pathcov_warn("cannot write report %s: %s", f.final, strerror(f.error));
}

/* crash.c: a crash's report, in the signal handler. */
static void write_crash_report(int signal) {
  if (has_crash_report())
    write_report("signal", signal, 0, 1);
}

/* ------------------------------------------------------------ start-up */

/* exec.c: before exec* replaces the process (or _exit ends it), the report
 * it would write at exit, taking its counts: should exec fail, the exit
 * report has only what ran afterwards. */
static void write_at_exec(const char *reason, int from_handler) {
  /* A test's end (pathcov_test_end) writes profiles only. */
  if (strcmp(reason, "flush") != 0 && has_paths_to_report())
    write_report(reason, 0, 1, from_handler);
}
static struct pathcov_exec_hook exec_hook = {.write = write_at_exec};

uint64_t pathcov_setting_power_of_two(const char *name, uint64_t max,
                                      int zero, uint64_t fallback) {
  uint64_t value = pathcov_setting(name, max, zero, fallback);
  if (value != fallback)
    while (value & (value - 1))
      value &= value - 1;
  return value;
}

uint64_t pathcov_setting(const char *name, uint64_t max, int zero,
                         uint64_t fallback) {
  const char *text = secure_getenv(name);
  if (!text || !*text)
    return fallback;
  char *end;
  errno = 0;
  unsigned long long value = strtoull(text, &end, 10);
  if (errno || *end || text[0] == '-' || value > max || (!zero && value == 0)) {
    pathcov_warn("%s=%s: expected a number from %d to %llu; using %llu",
                 name, text, !zero, (unsigned long long)max,
                 (unsigned long long)fallback);
    return fallback;
  }
  return value;
}

static void init_reports(void) {
  /* First: identifying the module reads the diagnostics' settings, which
   * the settings' warnings below need. */
  rep.module = pathcov_this_module();
  /* Residual paths run before now (other modules' constructors) were
   * sampled with the defaults; a word armed then keeps its arm (entry). */
  __atomic_store_n(&context_settings.depth,
                   (uint32_t)pathcov_setting("PATHCOV_CONTEXT_DEPTH",
                                          CONTEXT_DEPTH_MAX, 1,
                                          CONTEXT_DEPTH_DEFAULT),
                   __ATOMIC_RELAXED);
  /* A power of two (runtime/README.md): residual_table.c masks with it. */
  __atomic_store_n(&context_settings.period,
                   pathcov_setting_power_of_two("PATHCOV_CONTEXT_PERIOD",
                                                UINT64_C(1) << 62, 0,
                                                CONTEXT_PERIOD_DEFAULT),
                   __ATOMIC_RELAXED);
  rep.started_ns = pathcov_realtime_ns();
  pathcov_invalid_descriptors(); /* said on stderr, once */
  FOR_EACH_DESCRIPTOR(p) {
    if (is_residual(*p))
      ++rep.residual_descriptors;
  }
  const char *off = secure_getenv("PATHCOV_REPORT");
  /* A set-user-ID (or like) program would write where its caller says, with
   * its own privileges: it writes only the reports it asks for. */
  rep.enabled = !(off && strcmp(off, "0") == 0) && !pathcov_secure_execution();
  pathcov_env_dir_read(&rep.handler_dir, "PATHCOV_REPORT_DIR");
  if (!rep.residual_descriptors)
    return; /* nothing is ever recorded: no automatic report */
  if (pthread_atfork(NULL, NULL, reset_in_child) != 0)
    pathcov_warn("%s: pthread_atfork failed: children will also report the "
                 "residual paths of their parent", rep.module->path);
  if (rep.enabled) {
    pathcov_crash_writer_add(write_crash_report, "");
    pathcov_exec_hook_add(&exec_hook);
  }
}

/* abi.h: what residual-mode units refer to so that this file, with its
 * constructor and destructor, is linked into their module. */
const char __pathcov_residual_runtime_missing_link_with_lpathcov_rt = 0;

/* Priority 101, like record.c's: before the module's other constructors.
 * Recording needs no start-up (the table is zeroed static memory), so
 * residual paths run by earlier constructors of other modules are kept. */
__attribute__((constructor(101))) static void on_load(void) {
  pathcov_once(&rep.once, init_reports);
}

/* At exit, or dlclose of a shared library (then the handlers must go). A
 * crash in a later destructor (another module's) finds the previous
 * actions, and this module's report written already. */
__attribute__((destructor(101))) static void on_unload(void) {
  int saved = errno;
  pathcov_once(&rep.once, init_reports);
  if (rep.enabled && rep.residual_descriptors && has_paths_to_report())
    write_report("exit", 0, 0, 0);
  pathcov_crash_handlers_remove();
  pathcov_exec_hook_remove(&exec_hook);
  errno = saved;
}

/* ------------------------------------------------------------------ API */

PATHCOV_EXPORT int pathcov_report_write(const char *path) {
  pathcov_once(&rep.once, init_reports);
  if (!path || !*path) {
    errno = ENOENT;
    return -1;
  }
  struct pathcov_file f;
  pathcov_file_path(&f, path);
  write_report_file(&f, "request", 0, 0);
  if (!f.error)
    return 0;
  errno = f.error;
  return -1;
}

PATHCOV_EXPORT int pathcov_report_write_fd(int fd) {
  pathcov_once(&rep.once, init_reports);
  if (fd < 0) {
    errno = EBADF;
    return -1;
  }
  char chunk[4096];
  struct pathcov_out o;
  pathcov_out_fd(&o, fd, chunk, sizeof chunk);
  format_report(&o, "request", 0, 0);
  if (pathcov_out_finish(&o) == 0)
    return 0;
  errno = o.error;
  return -1;
}

PATHCOV_EXPORT size_t pathcov_report_buffer(char *buffer, size_t size) {
  pathcov_once(&rep.once, init_reports);
  struct pathcov_out o;
  pathcov_out_memory(&o, buffer, buffer ? size : 0);
  format_report(&o, "request", 0, 0);
  pathcov_out_finish(&o);
  return o.total;
}
