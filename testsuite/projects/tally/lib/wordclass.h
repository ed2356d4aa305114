/* libwordclass: sorts words into classes. A shared library of C and C++
 * in every build of the tally project, instrumented with the program
 * (docs/in-your-build.md). */
#ifndef WORDCLASS_H
#define WORDCLASS_H

#ifdef __cplusplus
extern "C" {
#endif

enum wc_class { WC_NUMBER, WC_WORD, WC_PUNCT, WC_MIXED, WC_CLASSES };

enum wc_class wc_classify(const char *word);      /* wordclass.c */
const char *wc_name(enum wc_class c);             /* wordname.cc */

#ifdef __cplusplus
}
#endif

#endif
