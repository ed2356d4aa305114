/* SEQUITUR (sequitur.h), the classic linked-symbol implementation over
 * array indices, so that the scratch it needs is known in advance.
 *
 * Each rule's body, and the start sequence, is a circular doubly linked
 * list through a guard node. Nodes 0 .. guards - 1 are guards (0 the start
 * sequence's; a rule is known by its guard's index, and the guard's sym
 * holds the rule's use count); the nodes after them are symbols. A
 * digram is known by its first symbol; the table maps each digram to one
 * of its occurrences.
 *
 * Instead of the original's recursion (check -> match -> substitute ->
 * check ...), whose depth a signal handler's stack cannot bound, every
 * change pushes the nodes whose digram (or whose rule's use) it may have
 * made wrong onto a work stack, and the stack is drained after each input
 * symbol. A check looks at the grammar as it is when popped, so a stale
 * entry (its node since deleted or reused) costs a look and no harm:
 * indexing a digram absent from the table, merging two occurrences of a
 * digram and expanding a rule used once are right whenever they apply.
 *
 * Bounds: symbols are created only by input (a substitution frees two for
 * one; a new rule's two copies replace two of the four it frees), so at
 * most n + 2 are live; every rule's body keeps two symbols or more, so at
 * most n / 2 + 1 rules are live; the table holds at most one entry per
 * live digram, at most n. */
#include "sequitur.h"

#define NIL UINT32_MAX /* prev of a free node; end of a free list */
#define START 0u       /* the start sequence's guard */
#define TERMINAL_MAX 0x7ffffffeu

enum { CHECK_DIGRAM = 1, CHECK_USE = 2 };

struct state {
  int32_t *sym;    /* terminal >= 0, rule reference -guard; a guard: uses */
  uint32_t *prev;  /* NIL: free */
  uint32_t *next;
  uint32_t *table; /* digram -> its first symbol; 0 (START): empty */
  uint32_t *work;  /* nodes to check, each once (queued): at most nodes */
  uint8_t *queued; /* CHECK_* a node waits for on work */
  uint32_t mask, shift, guards, nodes, pending;
  uint32_t free_guard, free_symbol, fresh_guard, fresh_symbol;
};

struct layout {
  uint64_t table, guards, nodes, bytes;
};

/* The table has 4 slots per possible digram (open addressing with linear
 * probing at load 1/4 or less: short probes), then reads as the output;
 * the node arrays follow. */
static int plan(uint32_t n, struct layout *l) {
  if (n > SEQUITUR_MAX_INPUT)
    return -1;
  l->guards = n / 2 + 2;
  l->nodes = l->guards + n + 2;
  for (l->table = 4; l->table < 4 * (uint64_t)n; l->table *= 2)
    ;
  /* Also holds the output: ends (one per guard), then the symbols. */
  while (l->table < l->guards + n)
    l->table *= 2;
  l->bytes = 4 * l->table + 4 * 4 * l->nodes + l->nodes;
  return l->bytes > SIZE_MAX ? -1 : 0;
}

size_t sequitur_scratch_size(uint32_t n) {
  struct layout l;
  return plan(n, &l) ? SIZE_MAX : (size_t)l.bytes;
}

static int is_guard(const struct state *s, uint32_t node) {
  return node < s->guards;
}

static int is_digram(const struct state *s, uint32_t node) {
  return !is_guard(s, node) && !is_guard(s, s->next[node]);
}

/* Multiply-shift over both symbols. */
static uint32_t home(const struct state *s, uint32_t node) {
  uint64_t key = (uint64_t)(uint32_t)s->sym[node] << 32 |
                 (uint32_t)s->sym[s->next[node]];
  return (uint32_t)((key * 0x9e3779b97f4a7c15u) >> s->shift);
}

/* The slot holding node's digram, or the empty slot where it would go. */
static uint32_t find(const struct state *s, uint32_t node) {
  int32_t a = s->sym[node], b = s->sym[s->next[node]];
  for (uint32_t i = home(s, node);; i = (i + 1) & s->mask) {
    uint32_t other = s->table[i];
    if (!other || (s->sym[other] == a && s->sym[s->next[other]] == b))
      return i;
  }
}

/* Before node's digram breaks: drop it from the table if it is the
 * occurrence there. Backward-shift deletion rather than tombstones: nearly
 * every insertion is matched by a deletion as symbols are rewritten, so
 * tombstones would pile up and need rebuilds; this keeps every probe
 * sequence as short as the live entries make it. */
static void unindex(struct state *s, uint32_t node) {
  if (!is_digram(s, node))
    return;
  uint32_t hole = find(s, node);
  if (s->table[hole] != node)
    return;
  for (uint32_t i = (hole + 1) & s->mask; s->table[i]; i = (i + 1) & s->mask) {
    uint32_t h = home(s, s->table[i]);
    if (((hole - h) & s->mask) < ((i - h) & s->mask)) {
      s->table[hole] = s->table[i];
      hole = i;
    }
  }
  s->table[hole] = 0;
}

static void push(struct state *s, uint32_t node, uint8_t check) {
  if (is_guard(s, node))
    return;
  if (!s->queued[node])
    s->work[s->pending++] = node;
  s->queued[node] |= check;
}

static void join(struct state *s, uint32_t left, uint32_t right) {
  s->next[left] = right;
  s->prev[right] = left;
}

/* A fresh node is taken only when no freed one is left, so the arrays
 * need no clearing. NIL when none is left (cannot happen by the bounds
 * above; checked all the same). */
static uint32_t take(struct state *s, int guard) {
  uint32_t *list = guard ? &s->free_guard : &s->free_symbol;
  uint32_t node = *list;
  if (node != NIL) {
    *list = s->next[node];
  } else if (guard ? s->fresh_guard < s->guards : s->fresh_symbol < s->nodes) {
    node = guard ? s->fresh_guard++ : s->fresh_symbol++;
    s->queued[node] = 0;
  }
  return node;
}

static void give_back(struct state *s, uint32_t node) {
  uint32_t *list = is_guard(s, node) ? &s->free_guard : &s->free_symbol;
  s->prev[node] = NIL;
  s->next[node] = *list;
  *list = node;
}

static uint32_t new_symbol(struct state *s, int32_t sym) {
  uint32_t node = take(s, 0);
  if (node != NIL) {
    s->sym[node] = sym;
    if (sym < 0)
      s->sym[-sym]++;
  }
  return node;
}

static void delete_symbol(struct state *s, uint32_t node) {
  if (s->sym[node] < 0)
    s->sym[-s->sym[node]]--;
  give_back(s, node);
}

/* Replaces the digram at first by a reference to guard's rule. */
static void substitute(struct state *s, uint32_t first, uint32_t guard) {
  uint32_t second = s->next[first];
  uint32_t left = s->prev[first], right = s->next[second];
  unindex(s, left);
  unindex(s, first);
  unindex(s, second);
  delete_symbol(s, first);
  delete_symbol(s, second);
  uint32_t node = new_symbol(s, -(int32_t)guard); /* one of the two freed */
  join(s, left, node);
  join(s, node, right);
  /* The new digrams, and the ones next to them: in a run "x x x" only
   * one of the overlapping "x x" is in the table, and if that one just
   * went the other must go in. */
  push(s, right, CHECK_DIGRAM);
  push(s, s->prev[left], CHECK_DIGRAM);
  push(s, node, CHECK_DIGRAM);
  push(s, left, CHECK_DIGRAM);
}

/* Replaces a reference to a rule used once by the rule's body. */
static void expand(struct state *s, uint32_t node) {
  uint32_t guard = (uint32_t)-s->sym[node];
  uint32_t left = s->prev[node], right = s->next[node];
  uint32_t first = s->next[guard], last = s->prev[guard];
  unindex(s, left);
  unindex(s, node);
  join(s, left, first);
  join(s, last, right);
  give_back(s, node);
  give_back(s, guard);
  /* The body's digrams stay in the table; the two new ones at its ends
   * are checked (the original indexed the right one unchecked). Unlike
   * substitute's, the digrams next to them need nothing: neither can be
   * "x x" with x the one reference just removed. */
  push(s, last, CHECK_DIGRAM);
  push(s, left, CHECK_DIGRAM);
}

/* A rule whose body is exactly node's digram (not the start sequence),
 * or START. */
static uint32_t whole_rule(const struct state *s, uint32_t node) {
  uint32_t guard = s->prev[node];
  return is_guard(s, guard) && s->next[s->next[node]] == guard ? guard
                                                               : START;
}

/* Two occurrences of a digram, other in the table: both become one rule's
 * references, reusing a rule that is exactly the digram if there is one
 * (other's, or node's should a change inside its body have made it so). */
static int match(struct state *s, uint32_t node, uint32_t other) {
  uint32_t guard = whole_rule(s, other), fresh = 0;
  if (guard == START && (guard = whole_rule(s, node)) != START) {
    s->table[find(s, node)] = node; /* other is going */
    node = other;
  } else if (guard == START) {
    fresh = 1;
    guard = take(s, 1);
    if (guard == NIL)
      return -1;
    s->sym[guard] = 0;
    join(s, guard, guard);
    for (uint32_t copy = node, i = 0; i < 2; ++i, copy = s->next[copy]) {
      uint32_t symbol = new_symbol(s, s->sym[copy]);
      if (symbol == NIL)
        return -1;
      join(s, s->prev[guard], symbol);
      join(s, symbol, guard);
    }
    s->table[find(s, node)] = s->next[guard]; /* other is going */
  }
  /* The body's symbols now hold references the substitutions take out of
   * the grammar: a rule referenced there may end up used once. Both
   * symbols (the original checks only the first). Pushed first, so
   * checked after the new digrams, as in the original. */
  push(s, s->prev[guard], CHECK_USE);
  push(s, s->next[guard], CHECK_USE);
  if (fresh)
    substitute(s, other, guard);
  substitute(s, node, guard);
  return 0;
}

/* Indexes node's digram, or matches it with the occurrence in the table
 * (unless they overlap, as in "x x x"). */
static int check(struct state *s, uint32_t node) {
  if (!is_digram(s, node))
    return 0;
  uint32_t slot = find(s, node), other = s->table[slot];
  if (!other) {
    s->table[slot] = node;
    return 0;
  }
  if (other == node || s->next[other] == node || s->next[node] == other)
    return 0;
  return match(s, node, other);
}

static int drain(struct state *s) {
  while (s->pending) {
    uint32_t node = s->work[--s->pending];
    uint8_t checks = s->queued[node];
    s->queued[node] = 0;
    if (s->prev[node] == NIL)
      continue;
    int32_t sym = s->sym[node];
    if ((checks & CHECK_USE) && sym < 0 && s->sym[-sym] == 1)
      expand(s, node);
    else if ((checks & CHECK_DIGRAM) && check(s, node))
      return -1;
  }
  return 0;
}

static int32_t output_symbol(const struct state *s, uint32_t node) {
  int32_t sym = s->sym[node];
  return sym >= 0 ? sym : -s->sym[-sym];
}

/* Numbers the rules in post-order from the start sequence (a depth-first
 * walk with its path on work: at most one entry per rule) and writes the
 * grammar over the table. A guard's queued (never pushed, so 0) marks it
 * reached; its sym, its use count until now, becomes its number. */
static void write_grammar(struct state *s, struct sequitur_grammar *out) {
  uint32_t *ends = s->table;
  int32_t *symbols = (int32_t *)s->table + s->guards;
  uint32_t rules = 0, length = 0, depth = 0;
  s->work[depth++] = s->next[START];
  while (depth) {
    uint32_t at = s->work[depth - 1];
    if (is_guard(s, at)) {
      if (--depth) {
        s->sym[at] = (int32_t)++rules;
        s->work[depth - 1] = s->next[s->work[depth - 1]];
      }
      for (uint32_t node = s->next[at]; node != at; node = s->next[node])
        symbols[length++] = output_symbol(s, node);
      ends[depth ? rules - 1 : rules] = length;
      continue;
    }
    int32_t sym = s->sym[at];
    if (sym < 0 && !s->queued[-sym]) {
      s->queued[-sym] = 1;
      s->work[depth++] = s->next[-sym];
    } else {
      s->work[depth - 1] = s->next[at];
    }
  }
  out->rules = rules;
  out->symbols = symbols;
  out->ends = ends;
}

int sequitur_compress(const uint32_t *input, uint32_t n, void *scratch,
                      size_t size, struct sequitur_grammar *out) {
  struct layout l;
  if (plan(n, &l) || size < l.bytes)
    return -1;
  struct state s = {
      .table = (uint32_t *)scratch,
      .mask = (uint32_t)l.table - 1,
      .shift = 64,
      .guards = (uint32_t)l.guards,
      .nodes = (uint32_t)l.nodes,
      .free_guard = NIL,
      .free_symbol = NIL,
      .fresh_guard = 1,
      .fresh_symbol = (uint32_t)l.guards,
  };
  for (uint64_t slots = l.table; slots > 1; slots /= 2)
    s.shift--;
  s.sym = (int32_t *)(s.table + l.table);
  s.prev = (uint32_t *)(s.sym + l.nodes);
  s.next = s.prev + l.nodes;
  s.work = s.next + l.nodes;
  s.queued = (uint8_t *)(s.work + l.nodes);
  /* Not memset (libc's uses vector registers): the empty asm keeps GCC
   * from making the loop a call to it. */
  for (uint32_t i = 0; i <= s.mask; ++i) {
    s.table[i] = 0;
    __asm__("" : "+r"(i));
  }
  join(&s, START, START);
  for (uint32_t i = 0; i < n; ++i) {
    if (input[i] > TERMINAL_MAX)
      return -1;
    uint32_t last = s.prev[START], node = new_symbol(&s, (int32_t)input[i]);
    if (node == NIL)
      return -1;
    join(&s, last, node);
    join(&s, node, START);
    push(&s, last, CHECK_DIGRAM);
    if (drain(&s))
      return -1;
  }
  write_grammar(&s, out);
  return 0;
}
