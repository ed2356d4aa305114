/* SEQUITUR (Nevill-Manning and Witten, JAIR 1997), as Larus' Whole
 * Program Paths (PLDI 1999) uses it to compress a trace into a grammar:
 * no digram (pair of adjacent symbols) occurs twice in the grammar, and
 * every rule is used at least twice.
 *
 * Plain C on general registers only: no allocation, no libc call, no
 * global state, so a signal handler can compress. All memory comes from
 * the caller's scratch buffer. */
#ifndef PATHCOV_SEQUITUR_H
#define PATHCOV_SEQUITUR_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Input symbols are terminals 0 .. 2^31 - 2. */
struct sequitur_grammar {
  uint32_t rules;          /* rules 1 .. rules (the start sequence is not one) */
  const int32_t *symbols;  /* the bodies of rules 1, 2, ..., rules, then the start sequence, concatenated */
  const uint32_t *ends;    /* ends[k - 1]: one past rule k's last symbol in symbols (rule k starts at ends[k - 2], rule 1 at 0);
                              ends[rules]: one past the start sequence's last symbol */
};
/* In symbols: s >= 0 is terminal s; s < 0 is rule -s. Every rule k's body
 * refers only to rules < k (numbered in post-order from the start
 * sequence), so a reader can check the grammar is acyclic in one pass.
 * Every rule's body has at least two symbols. */

/* The longest input (longer ones need more than 32-bit indices). */
#define SEQUITUR_MAX_INPUT (1u << 28)

/* Bytes of scratch sequitur_compress needs for inputs of up to n symbols
 * (42n to 58n: 2.7 MB for n = 65536); SIZE_MAX if n > SEQUITUR_MAX_INPUT. */
size_t sequitur_scratch_size(uint32_t n);

/* Builds the grammar of input[0 .. n) in scratch (size bytes, aligned to
 * 8). Returns 0, or -1 if size is too small or a terminal is out of range.
 * The grammar's arrays point into scratch. Expected time O(n). */
int sequitur_compress(const uint32_t *input, uint32_t n, void *scratch,
                      size_t size, struct sequitur_grammar *out);

#ifdef __cplusplus
}
#endif

#endif
