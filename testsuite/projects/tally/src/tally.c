/* tally WORD...: how many words of each class (libwordclass). */
#include "wordclass.h"

#include <stdio.h>

static void print_counts(const int counts[WC_CLASSES]) {
  for (int c = 0; c < WC_CLASSES; ++c)
    if (counts[c] > 0)
      printf("%s %d\n", wc_name((enum wc_class)c), counts[c]);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fputs("usage: tally WORD...\n", stderr);
    return 2;
  }
  int counts[WC_CLASSES] = {0};
  for (int i = 1; i < argc; ++i)
    ++counts[wc_classify(argv[i])];
  print_counts(counts);
  if (counts[WC_MIXED] > 0) /* a separator missing, most likely */
    fprintf(stderr, "tally: %d mixed words\n", counts[WC_MIXED]);
  return 0;
}
