/* Record mode, k=N: paths across iterations (k-BLPP; the chapter in
 * shared/papers, docs/record-mode.md "Paths across iterations").
 *
 * Each function built with k=N has a k-slab forest (k-SF): the chapter's
 * intermediate structure, which takes every path id an activation runs in
 * one or two node updates, where its final form (the k-iteration path
 * forest, k-IPF) would take k. The activation's place in it (n, top,
 * bottom) lives in the instrumented function's frame (abi.h), so
 * recursion, threads and signal handlers each follow their own sequence,
 * and a sequence an exception or longjmp abandons just ends with its frame.
 * The tools turn the forest into the k-IPF (core KPaths.h, makeKIpf).
 *
 * Nodes come from one arena per module, reserved at the first node and
 * touched as used; they are added, never removed, by a compare-and-swap on
 * the list of their parent's children (or of a root bucket), so threads
 * never lose or duplicate a node. Counts follow the function's counters:
 * relaxed atomic adds with PATHCOV_FN_ATOMIC, else a plain load and store.
 * A full arena drops the ids it cannot place, counted in kp->dropped and
 * reported. Every forest that got a node is listed (kp->next) for the
 * profile writer. */
#include <sys/mman.h>

#include "internal.h"

struct knode {
  uint64_t id;
  uint64_t count;
  struct knode *sibling;
  struct knode *child;
};

#define ROOT_BUCKETS 64 /* a power of two */
#define ARENA_NODES ((size_t)1 << 21) /* 64 MiB reserved, per module */

static struct {
  struct knode *nodes; /* ARENA_NODES, or MAP_FAILED */
  size_t used;         /* nodes handed out, possibly past ARENA_NODES */
  struct pathcov_kpaths *listed;
} arena;

static struct knode *arena_nodes(void) {
  struct knode *nodes = __atomic_load_n(&arena.nodes, __ATOMIC_ACQUIRE);
  if (nodes)
    return nodes == MAP_FAILED ? NULL : nodes;
  void *fresh = mmap(NULL, ARENA_NODES * sizeof(struct knode),
                     PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  struct knode *expected = NULL;
  if (__atomic_compare_exchange_n(&arena.nodes, &expected, fresh, 0,
                                  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return fresh == MAP_FAILED ? NULL : fresh;
  if (fresh != MAP_FAILED)
    munmap(fresh, ARENA_NODES * sizeof(struct knode));
  return expected == MAP_FAILED ? NULL : expected;
}

/* n consecutive zeroed nodes, or NULL when the arena is full. */
static struct knode *take_nodes(size_t n) {
  struct knode *nodes = arena_nodes();
  if (!nodes)
    return NULL;
  size_t at = __atomic_fetch_add(&arena.used, n, __ATOMIC_RELAXED);
  return at + n <= ARENA_NODES ? &nodes[at] : NULL;
}

/* The node labelled `id` in the list at *head, added if missing; NULL when
 * the arena is full. */
static struct knode *find_or_add(struct knode **head, uint64_t id) {
  struct knode *first = __atomic_load_n(head, __ATOMIC_ACQUIRE);
  struct knode *fresh = NULL;
  for (;;) {
    for (struct knode *c = first; c;
         c = __atomic_load_n(&c->sibling, __ATOMIC_ACQUIRE))
      if (c->id == id)
        return c; /* fresh, if any, stays unused in the arena */
    if (!fresh && !(fresh = take_nodes(1)))
      return NULL;
    fresh->id = id;
    fresh->sibling = first;
    if (__atomic_compare_exchange_n(head, &first, fresh, 0, __ATOMIC_RELEASE,
                                    __ATOMIC_ACQUIRE))
      return fresh;
  }
}

/* The forest's root buckets (the chapter's hash table R), made at its
 * first id, when the forest is also listed for profiles. */
static struct knode **roots_of(struct pathcov_kpaths *kp) {
  struct knode **roots = __atomic_load_n((struct knode ***)&kp->runtime,
                                         __ATOMIC_ACQUIRE);
  if (roots)
    return roots;
  /* ROOT_BUCKETS pointers fit in ROOT_BUCKETS / 4 nodes. */
  struct knode **fresh = (struct knode **)take_nodes(ROOT_BUCKETS / 4);
  if (!fresh)
    return NULL;
  void *expected = NULL;
  if (!__atomic_compare_exchange_n(&kp->runtime, &expected, fresh, 0,
                                   __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return expected;
  struct pathcov_kpaths *head = __atomic_load_n(&arena.listed, __ATOMIC_ACQUIRE);
  do
    kp->next = head;
  while (!__atomic_compare_exchange_n(&arena.listed, &head, kp, 0,
                                      __ATOMIC_RELEASE, __ATOMIC_ACQUIRE));
  return fresh;
}

static struct knode *find_root(struct pathcov_kpaths *kp, uint64_t id) {
  struct knode **roots = roots_of(kp);
  if (!roots)
    return NULL;
  return find_or_add(&roots[(id * 0x9e3779b97f4a7c15ull) >> 58], id);
}

static void add_one(uint64_t *counter, const struct pathcov_kpaths *kp) {
  if (kp->fn->flags & PATHCOV_FN_ATOMIC)
    __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
  else
    __atomic_store_n(counter, __atomic_load_n(counter, __ATOMIC_RELAXED) + 1,
                     __ATOMIC_RELAXED);
}

/* process_bl_path_id (the chapter's k-SF construction): the sequence is cut
 * into chunks of k - 1 ids; an id at a chunk's start is a root (the top
 * slab), and every id also extends the path from the previous chunk's
 * start (the bottom slab), where it is counted once there is one. */
void __pathcov_kpath(struct pathcov_kpaths *kp, uint64_t *state, uint64_t id) {
  const uint64_t k = kp->k;
  if (k < 2 || k > PATHCOV_KPATH_MAX)
    return;
  uint64_t n = state[0];
  struct knode *top = (struct knode *)state[1];
  struct knode *bottom = (struct knode *)state[2];
  if (n % (k - 1) == 0) {
    bottom = n ? top : NULL;
    top = find_root(kp, id);
  } else {
    top = top ? find_or_add(&top->child, id) : NULL;
  }
  if (n >= k - 1)
    bottom = bottom ? find_or_add(&bottom->child, id) : NULL;
  struct knode *counted = n >= k - 1 ? bottom : top;
  if (counted)
    add_one(&counted->count, kp);
  else
    add_one(&kp->dropped, kp);
  state[0] = n + 1;
  state[1] = (uint64_t)(uintptr_t)top;
  state[2] = (uint64_t)(uintptr_t)bottom;
}

static uint64_t take(uint64_t *counter) {
  return __atomic_load_n(counter, __ATOMIC_RELAXED)
             ? __atomic_exchange_n(counter, 0, __ATOMIC_RELAXED)
             : 0;
}

/* Depth of a node: 2k - 2 slab levels at most, under a bucket level. */
#define MAX_LEVELS (2 * PATHCOV_KPATH_MAX)

/* Visits every node of kp's forest in preorder, giving each its preorder
 * index and its parent's (-1 for a root). Returns the nodes visited. */
static uint64_t walk(struct pathcov_kpaths *kp,
                     void (*visit)(void *arg, struct knode *node,
                                   uint64_t parent, int is_root),
                     void *arg) {
  struct knode **roots = __atomic_load_n((struct knode ***)&kp->runtime,
                                         __ATOMIC_ACQUIRE);
  if (!roots)
    return 0;
  uint64_t index = 0;
  struct knode *at[MAX_LEVELS];
  uint64_t index_at[MAX_LEVELS];
  for (int b = 0; b < ROOT_BUCKETS; ++b) {
    int level = 0;
    at[0] = __atomic_load_n(&roots[b], __ATOMIC_ACQUIRE);
    while (level >= 0) {
      struct knode *node = at[level];
      if (!node) {
        if (--level >= 0)
          at[level] = __atomic_load_n(&at[level]->sibling, __ATOMIC_ACQUIRE);
        continue;
      }
      visit(arg, node, level ? index_at[level - 1] : 0, level == 0);
      index_at[level] = index++;
      struct knode *child = __atomic_load_n(&node->child, __ATOMIC_ACQUIRE);
      if (child && level + 1 < MAX_LEVELS)
        at[++level] = child;
      else
        at[level] = __atomic_load_n(&node->sibling, __ATOMIC_ACQUIRE);
    }
  }
  return index;
}

static void sum_counts(void *arg, struct knode *node, uint64_t parent,
                       int is_root) {
  (void)parent, (void)is_root;
  *(uint64_t *)arg |= __atomic_load_n(&node->count, __ATOMIC_RELAXED);
}

struct writing {
  struct pathcov_out *out;
  uint64_t written;
};

static void write_node(void *arg, struct knode *node, uint64_t parent,
                       int is_root) {
  struct writing *w = arg;
  pathcov_out_str(w->out, w->written++ ? ", [" : "[");
  if (is_root)
    pathcov_out_str(w->out, "-1");
  else
    pathcov_out_u64(w->out, parent);
  pathcov_out_str(w->out, ", ");
  pathcov_out_u64(w->out, node->id);
  pathcov_out_str(w->out, ", ");
  pathcov_out_u64(w->out, take(&node->count));
  pathcov_out_str(w->out, "]");
}

void pathcov_kpaths_write(struct pathcov_out *o) {
  int first = 1;
  for (struct pathcov_kpaths *kp = __atomic_load_n(&arena.listed, __ATOMIC_ACQUIRE);
       kp; kp = kp->next) {
    uint64_t any = __atomic_load_n(&kp->dropped, __ATOMIC_RELAXED);
    walk(kp, sum_counts, &any);
    if (!any)
      continue; /* nothing since the last profile */
    pathcov_out_str(o, first ? "\n],\n \"k_paths\": [\n  {\"identity\": "
                             : ",\n  {\"identity\": ");
    first = 0;
    pathcov_out_string(o, kp->fn->identity);
    pathcov_out_str(o, ", \"checksum\": ");
    pathcov_out_hex64(o, kp->fn->cfg_checksum);
    pathcov_out_str(o, ", \"k\": ");
    pathcov_out_u64(o, kp->k);
    pathcov_out_str(o, ", \"dropped\": ");
    pathcov_out_u64(o, take(&kp->dropped));
    pathcov_out_str(o, ",\n   \"slab\": [");
    struct writing w = {o, 0};
    walk(kp, write_node, &w);
    pathcov_out_str(o, "]}");
  }
}

static void discard_node(void *arg, struct knode *node, uint64_t parent,
                         int is_root) {
  (void)arg, (void)parent, (void)is_root;
  take(&node->count);
}

void pathcov_kpaths_discard(void) {
  for (struct pathcov_kpaths *kp = __atomic_load_n(&arena.listed, __ATOMIC_ACQUIRE);
       kp; kp = kp->next) {
    take(&kp->dropped);
    walk(kp, discard_node, NULL);
  }
}
