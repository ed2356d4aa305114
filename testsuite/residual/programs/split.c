/* Function splitting: word_class has a small hot head that returns early
   and a large tail that __builtin_expect marks rare, so at -O2 GCC splits
   the tail off (word_class.part.0) and inlines the head into its callers.
   With pathcov it must be split alike: a path end in the shared return
   block would keep the path register live into it, and GCC would give up.
   collatz_steps, a loop behind a memo, is not split at -O2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned long long memo_key[64];
static unsigned memo_steps[64];

static unsigned collatz_steps(unsigned long long n) {
  if (__builtin_expect(memo_key[n % 64] == n, 1))
    return memo_steps[n % 64];
  unsigned steps = 0;
  unsigned long long x = n;
  while (x > 1) {
    if (x % 2 == 0)
      x /= 2;
    else if (x > 1000000000ULL)
      x = x / 3 + 1;
    else
      x = 3 * x + 1;
    ++steps;
    if (steps > 10000) {
      fprintf(stderr, "too long: %llu\n", n);
      break;
    }
  }
  memo_key[n % 64] = n;
  memo_steps[n % 64] = steps;
  printf("computed %llu: %u\n", n, steps);
  return steps;
}

static int word_class(const char *w) {
  if (__builtin_expect(strlen(w) == 1, 1))
    return 1 + !(w[0] >= '0' && w[0] <= '9');
  int digits = 0, letters = 0, other = 0;
  for (const char *p = w; *p; ++p) {
    if (*p >= '0' && *p <= '9')
      ++digits;
    else if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z'))
      ++letters;
    else
      ++other;
  }
  if (other > 0) {
    printf("odd word %s: %d other\n", w, other);
    return 4;
  }
  if (digits && letters)
    return 3;
  return digits ? 1 : letters ? 2 : 0;
}

/* Not in main, nor in a static function that only main calls: GCC deems
   a call unlikely in a function run once, and inlines there only what
   does not grow it. */
__attribute__((noinline)) unsigned long long run(int argc, char **argv) {
  unsigned long long total = 0;
  int classes[5] = {0};
  for (int i = 1; i < argc; ++i) {
    total += collatz_steps(strtoull(argv[i], NULL, 10));
    classes[word_class(argv[i])]++;
  }
  for (int i = 1; i < argc; ++i) {
    total += collatz_steps(strtoull(argv[i], NULL, 10) % 64);
    if (word_class(argv[i] + (argv[i][0] == '-')) == 1)
      ++total;
  }
  printf("classes %d %d %d %d %d\n", classes[0], classes[1], classes[2],
         classes[3], classes[4]);
  return total;
}

int main(int argc, char **argv) {
  printf("total %llu\n", run(argc, argv));
  return 0;
}
