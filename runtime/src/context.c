/* Calling contexts of residual paths (docs/residual-mode.md, "Calling
 * contexts"): the stack walk that captures one.
 *
 * It uses only what is lock-free and async-signal-safe in glibc 2.35 and
 * later with GCC 12's libgcc: _Unwind_Backtrace finds each frame's unwind
 * information through _dl_find_object, which takes no lock (a residual
 * path can run in a signal handler). module.c names the module of each
 * address when a report is written, with _dl_find_object too.
 *
 * The capture runs behind a path end's stub (path_miss_x86_64.S), whose
 * callers expect every register, vector ones included, unchanged; libgcc
 * uses vector registers, so the walk goes through
 * pathcov_preserving_vectors. This file, unlike residual_table.c, is
 * compiled without -mgeneral-regs-only. */
#include <string.h>
#include <unwind.h>

#include "internal.h"

#if defined(__x86_64__)
/* path_miss_x86_64.S */
extern const char __pathcov_stubs_start[], __pathcov_stubs_end[];
void pathcov_preserving_vectors(void (*fn)(void *), void *arg);

struct walk {
  uintptr_t pc[CONTEXT_DEPTH_MAX];
  unsigned max;
  unsigned depth;
  int past_stub; /* the stub's frame was seen: the next is the path's */
  struct entry *e;
};

static int is_stub(uintptr_t address) {
  return address >= (uintptr_t)__pathcov_stubs_start &&
         address < (uintptr_t)__pathcov_stubs_end;
}

/* Frames up to the stub are the runtime's own; the frame after it is the
 * function whose path end called the stub (its start is the context's
 * first address, the same for every copy of the path end), then its
 * callers' return addresses. */
static _Unwind_Reason_Code visit(struct _Unwind_Context *context, void *arg) {
  struct walk *w = arg;
  uintptr_t ip = _Unwind_GetIP(context);
  if (!w->past_stub) {
    w->past_stub = is_stub(ip - 1); /* a return address in a stub */
    return _URC_NO_REASON;
  }
  if (ip == 0) /* the outermost frame's return address */
    return _URC_END_OF_STACK;
  uintptr_t pc = ip;
  if (w->depth == 0) {
    /* The function's start, where it has unwind information: without it
     * (-fno-asynchronous-unwind-tables) the region is still the stub's,
     * and its return address serves. */
    uintptr_t start = (uintptr_t)_Unwind_GetRegionStart(context);
    if (start && start <= ip && !is_stub(start))
      pc = start;
  }
  w->pc[w->depth++] = pc;
  return w->depth < w->max ? _URC_NO_REASON : _URC_END_OF_STACK;
}

static int same_context(const struct context *c, const struct walk *w) {
  return c->depth == w->depth &&
         memcmp(c->pc, w->pc, w->depth * sizeof w->pc[0]) == 0;
}

/* Writes w's context into c with `count` and `error`; the version is odd
 * meanwhile, so that a report formatted now (a signal handler's) skips
 * it rather than print half of it. */
static void store_context(struct context *c, const struct walk *w,
                          uint64_t count, uint64_t error) {
  uint32_t version = __atomic_load_n(&c->version, __ATOMIC_RELAXED);
  __atomic_store_n(&c->version, version | 1, __ATOMIC_RELAXED);
  __atomic_thread_fence(__ATOMIC_RELEASE);
  c->depth = w->depth;
  memcpy(c->pc, w->pc, w->depth * sizeof w->pc[0]);
  c->count = count;
  c->error = error;
  __atomic_store_n(&c->version, (version | 1) + 1, __ATOMIC_RELEASE);
}

/* Space Saving (Metwally, Agrawal and El Abbadi, 2005), as the HCCT
 * paper keeps its hot contexts: a context already kept counts one more;
 * a new one takes a free counter, else replaces the one with the fewest,
 * inheriting its count as its error. Each count overestimates its
 * context's samples by at most its error, which is at most samples /
 * CONTEXTS_PER_PATH: a context sampled more often than that is kept. */
static void count_context(struct entry *e, const struct walk *w) {
  ++e->samples;
  struct context *fewest = NULL;
  uint32_t *unused = NULL;
  for (unsigned k = 0; k < CONTEXTS_PER_PATH; ++k) {
    if (!e->contexts[k]) {
      unused = unused ? unused : &e->contexts[k];
      continue;
    }
    struct context *c = &context_pool.records[e->contexts[k] - 1];
    if (same_context(c, w)) {
      __atomic_store_n(&c->count, c->count + 1, __ATOMIC_RELAXED);
      return;
    }
    if (!fewest || c->count < fewest->count)
      fewest = c;
  }
  if (unused) {
    uint32_t n = __atomic_fetch_add(&context_pool.used, 1, __ATOMIC_RELAXED);
    if (n < CONTEXT_CAPACITY) {
      store_context(&context_pool.records[n], w, 1, 0);
      __atomic_store_n(unused, n + 1, __ATOMIC_RELEASE);
      return;
    }
  }
  /* No free counter (or no record left for one): replace the fewest. A
   * path with no record at all counts the sample in `samples` only. */
  if (fewest)
    store_context(fewest, w, fewest->count + 1, fewest->count);
}

static void sample(void *arg) {
  struct walk *w = arg;
  _Unwind_Backtrace(visit, w);
  if (w->depth > 0)
    count_context(w->e, w);
}

/* Reached from code that must leave vector registers alone (the rest of
 * this file runs behind pathcov_preserving_vectors). */
__attribute__((target("general-regs-only"))) void
pathcov_sample_context(struct entry *e) {
  unsigned depth = __atomic_load_n(&context_settings.depth, __ATOMIC_RELAXED);
  if (depth == 0)
    return;
  struct walk w;
  w.max = depth < CONTEXT_DEPTH_MAX ? depth : CONTEXT_DEPTH_MAX;
  w.depth = 0;
  w.past_stub = 0;
  w.e = e;
  pathcov_preserving_vectors(sample, &w);
}
#else
void pathcov_sample_context(struct entry *e) {
  (void)e; /* no stub to find on the stack: no context */
}
#endif
