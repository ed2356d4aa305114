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
 * Finding a node's child by its id: the chapter scans the children, but a
 * loop's paths can have hundreds of successors (zlib's longest_match: the
 * scans were two thirds of the run), so every node is also in one open-
 * addressing table per module, keyed by (parent, id), and each node keeps
 * the child it last led to, which a loop repeating itself finds at once.
 * Nodes come from one arena per module, reserved at the first node and
 * touched as used; a node is added, never removed, by a compare-and-swap
 * of its table slot (then pushed on its parent's list of children, which
 * only the profile writer walks), so threads never lose or duplicate one.
 * Counts follow the function's counters: relaxed atomic adds with
 * PATHCOV_FN_ATOMIC, else a plain load and store. A full arena drops the
 * ids it cannot place, counted in kp->dropped and reported. Every forest
 * that got a node is listed (kp->next) for the profile writer. */
#include <sys/mman.h>

#include "internal.h"

struct knode {
  uint64_t id;
  uint64_t count;
  const void *parent;   /* the parent node, or the forest for a root */
  struct knode *sibling;
  struct knode *child;  /* the first child */
  struct knode *recent; /* the child last found, a hint */
  struct knode *root;   /* the root with this node's id, once needed */
};

#define TABLE_BITS 20
#define TABLE_SLOTS ((size_t)1 << TABLE_BITS) /* 8 MiB reserved */
#define ARENA_NODES (TABLE_SLOTS / 2)         /* 28 MiB reserved */

static struct {
  void *mapped;        /* the table, then the nodes; or MAP_FAILED */
  size_t used;         /* nodes handed out, possibly past ARENA_NODES */
  struct pathcov_kpaths *listed;
} arena;

#define MAPPED_SIZE (TABLE_SLOTS * sizeof(struct knode *) + \
                     ARENA_NODES * sizeof(struct knode))

static void *mapped(void) {
  void *m = __atomic_load_n(&arena.mapped, __ATOMIC_ACQUIRE);
  if (m)
    return m == MAP_FAILED ? NULL : m;
  void *fresh = pathcov_map_zeroed(MAPPED_SIZE, MAP_NORESERVE);
  void *expected = NULL;
  if (__atomic_compare_exchange_n(&arena.mapped, &expected, fresh, 0,
                                  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    return fresh == MAP_FAILED ? NULL : fresh;
  if (fresh != MAP_FAILED)
    munmap(fresh, MAPPED_SIZE);
  return expected == MAP_FAILED ? NULL : expected;
}

/* A zeroed node, or NULL when the arena is full. */
static struct knode *take_node(struct knode **slots) {
  struct knode *nodes = (struct knode *)(slots + TABLE_SLOTS);
  size_t at = __atomic_fetch_add(&arena.used, 1, __ATOMIC_RELAXED);
  return at < ARENA_NODES ? &nodes[at] : NULL;
}

/* Pushes node on *list; returns the list's previous head. */
static struct knode *push(struct knode **list, struct knode *node) {
  struct knode *head = __atomic_load_n(list, __ATOMIC_ACQUIRE);
  do
    node->sibling = head;
  while (!__atomic_compare_exchange_n(list, &head, node, 0, __ATOMIC_RELEASE,
                                      __ATOMIC_ACQUIRE));
  return head;
}

/* A forest's roots go from none to one exactly once: it is listed then. */
static void list_forest(struct pathcov_kpaths *kp) {
  struct pathcov_kpaths *head = __atomic_load_n(&arena.listed, __ATOMIC_ACQUIRE);
  do
    kp->next = head;
  while (!__atomic_compare_exchange_n(&arena.listed, &head, kp, 0,
                                      __ATOMIC_RELEASE, __ATOMIC_ACQUIRE));
}

/* The node (parent, id), added to the table and to *children if missing;
 * NULL when the arena is full. `parent` is a node, or the forest `kp` for a
 * root (kp NULL otherwise). */
static struct knode *find_or_add(const void *parent, struct knode **children,
                                 uint64_t id, struct pathcov_kpaths *kp) {
  struct knode **slots = mapped();
  if (!slots)
    return NULL;
  uint64_t key = (id ^ (uint64_t)(uintptr_t)parent) * 0x9e3779b97f4a7c15ull;
  size_t i = (size_t)(key >> (64 - TABLE_BITS));
  struct knode *fresh = NULL; /* unused if another thread adds it first */
  for (;; i = (i + 1) & (TABLE_SLOTS - 1)) {
    struct knode *node = __atomic_load_n(&slots[i], __ATOMIC_ACQUIRE);
    if (!node) {
      if (!fresh && !(fresh = take_node(slots)))
        return NULL;
      fresh->id = id;
      fresh->parent = parent;
      if (__atomic_compare_exchange_n(&slots[i], &node, fresh, 0,
                                      __ATOMIC_RELEASE, __ATOMIC_ACQUIRE)) {
        if (!push(children, fresh) && kp)
          list_forest(kp);
        return fresh;
      }
      /* node: the one another thread put there first */
    }
    if (node->parent == parent && node->id == id)
      return node;
  }
}

/* The child of `node` labelled `id` from the table, remembered. Out of
 * line: __pathcov_kpath's usual case, a remembered child, then makes no
 * call, and saves no register. */
__attribute__((noinline)) static struct knode *find_child(struct knode *node,
                                                          uint64_t id) {
  struct knode *child = find_or_add(node, &node->child, id, NULL);
  if (child)
    __atomic_store_n(&node->recent, child, __ATOMIC_RELAXED);
  return child;
}

/* The child of `node` labelled `id`: the one it last led to, else the
 * table's. */
static inline struct knode *child_of(struct knode *node, uint64_t id) {
  struct knode *recent = __atomic_load_n(&node->recent, __ATOMIC_RELAXED);
  return recent && recent->id == id ? recent : find_child(node, id);
}

/* The root labelled `id` (the chapter's table R is the module's table);
 * the forest is listed for profiles at its first root. */
__attribute__((noinline)) static struct knode *
find_root(struct pathcov_kpaths *kp, uint64_t id) {
  return find_or_add(kp, (struct knode **)&kp->runtime, id, kp);
}

/* state[0]: the id's place in its chunk of k - 1 (the chapter's n mod
 * (k - 1)), and SEQUENCE_HAS_BOTTOM once the sequence has a whole chunk
 * (n >= k - 1): no division per path. 0 is a sequence's start (n = 0). */
#define SEQUENCE_HAS_BOTTOM ((uint64_t)1 << 63)

/* process_bl_path_id (the chapter's k-SF construction): the sequence is cut
 * into chunks of k - 1 ids; an id at a chunk's start is a root (the top
 * slab), and every id also extends the path from the previous chunk's
 * start (the bottom slab), where it is counted once there is one. The
 * bottom goes first: its new node has the id's label, and remembers the
 * root with that label, which a chunk's start needs (with k = 2, every
 * id). */
void __pathcov_kpath(struct pathcov_kpaths *kp, uint64_t *state, uint64_t id) {
  const uint64_t k = kp->k;
  if (k < 2 || k > PATHCOV_KPATH_MAX)
    return;
  const uint64_t has_bottom = state[0] & SEQUENCE_HAS_BOTTOM;
  const uint64_t place = state[0] & ~SEQUENCE_HAS_BOTTOM;
  struct knode *top = (struct knode *)state[1];
  struct knode *bottom = NULL;
  if (has_bottom) {
    /* At a chunk's start, the bottom slab goes on from the top's node. */
    struct knode *from = place == 0 ? top : (struct knode *)state[2];
    bottom = from ? child_of(from, id) : NULL;
  }
  if (place == 0) {
    struct knode *root =
        bottom ? __atomic_load_n(&bottom->root, __ATOMIC_RELAXED) : NULL;
    top = root ? root : find_root(kp, id);
    if (bottom && !root && top)
      __atomic_store_n(&bottom->root, top, __ATOMIC_RELAXED);
  } else {
    top = top ? child_of(top, id) : NULL;
  }
  struct knode *counted = has_bottom ? bottom : top;
  pathcov_count(counted ? &counted->count : &kp->dropped, kp->fn);
  state[0] = place + 1 == k - 1 ? SEQUENCE_HAS_BOTTOM : has_bottom | (place + 1);
  state[1] = (uint64_t)(uintptr_t)top;
  state[2] = (uint64_t)(uintptr_t)bottom;
}

/* A forest has 2k - 2 levels at most. */
#define MAX_LEVELS (2 * PATHCOV_KPATH_MAX)

/* Visits every node of kp's forest in preorder, giving each its parent's
 * preorder index (is_root: none). */
static void walk(struct pathcov_kpaths *kp,
                     void (*visit)(void *arg, struct knode *node,
                                   uint64_t parent, int is_root),
                     void *arg) {
  uint64_t index = 0;
  struct knode *at[MAX_LEVELS];
  uint64_t index_at[MAX_LEVELS];
  int level = 0;
  at[0] = __atomic_load_n((struct knode **)&kp->runtime, __ATOMIC_ACQUIRE);
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
  pathcov_out_u64(w->out, pathcov_take(&node->count));
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
    pathcov_out_u64(o, pathcov_take(&kp->dropped));
    pathcov_out_str(o, ",\n   \"slab\": [");
    struct writing w = {o, 0};
    walk(kp, write_node, &w);
    pathcov_out_str(o, "]}");
  }
}

static void discard_node(void *arg, struct knode *node, uint64_t parent,
                         int is_root) {
  (void)arg, (void)parent, (void)is_root;
  pathcov_take(&node->count);
}

void pathcov_kpaths_discard(void) {
  for (struct pathcov_kpaths *kp = __atomic_load_n(&arena.listed, __ATOMIC_ACQUIRE);
       kp; kp = kp->next) {
    pathcov_take(&kp->dropped);
    walk(kp, discard_node, NULL);
  }
}
