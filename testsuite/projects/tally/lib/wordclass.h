/* libwordclass: sorts words into classes. A shared library in every build
 * of the tally project, instrumented with the program (docs/in-your-build.md). */
#ifndef WORDCLASS_H
#define WORDCLASS_H

enum wc_class { WC_NUMBER, WC_WORD, WC_PUNCT, WC_MIXED, WC_CLASSES };

enum wc_class wc_classify(const char *word);
const char *wc_name(enum wc_class c);

#endif
