#include "wordclass.h"

#include <ctype.h>

/* A static function: its identity carries its file (record-formats.md). */
static int all_of(const char *s, int (*pred)(int)) {
  for (; *s; ++s)
    if (!pred((unsigned char)*s))
      return 0;
  return 1;
}

enum wc_class wc_classify(const char *word) {
  if (word[0] != '\0' && all_of(word, isdigit))
    return WC_NUMBER;
  if (word[0] != '\0' && all_of(word, isalpha))
    return WC_WORD;
  if (word[0] != '\0' && all_of(word, ispunct))
    return WC_PUNCT;
  return WC_MIXED;
}
