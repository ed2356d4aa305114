/* Functions of one path (check_accessor_counts.py): `width` calls the
   accessor `get`, which the early inliner inlines, so that nothing is left
   in `width` that could keep it from returning; `checked` calls
   `must_be_positive`, which is kept out of line and may exit; `thrice`
   inlines `get` three times in a row, counted by one add
   (plugin/CountMerge.h); `around` inlines it on both sides of a call that
   may exit, counted by two. Of two paths and no loop, `clamp` calls
   nothing and `sign` only `get`: their paths' counts are their calls, and
   neither counts its entries, `clamp` from the start, `sign` once the early
   inliner has inlined `get` (PATHCOV_FN_PATHS_ARE_CALLS). */
#include <stdio.h>
#include <stdlib.h>

struct box {
  int w, h;
};

static int get(const struct box *b) { return b->w; }

__attribute__((noinline)) static int width(const struct box *b) {
  return get(b) * 2;
}

__attribute__((noinline)) static int thrice(const struct box *b) {
  return get(b) + get(b) * get(b);
}

__attribute__((noinline)) static int clamp(int v) { return v > 5 ? v * 3 : v - 1; }

__attribute__((noinline)) static int sign(const struct box *b) {
  return get(b) > 2 ? 1 : -1;
}

__attribute__((noinline)) static int must_be_positive(int v) {
  if (v <= 0) {
    printf("not positive: %d\n", v);
    exit(3);
  }
  return v;
}

__attribute__((noinline)) static int checked(int v) {
  return must_be_positive(v) + 1;
}

__attribute__((noinline)) static int around(const struct box *b, int v) {
  int before = get(b);
  return before + must_be_positive(v) + get(b);
}

int main(int argc, char **argv) {
  struct box b = {argc, 2};
  long sum = 0;
  for (int i = 0; i < 10; ++i)
    sum += width(&b) + thrice(&b) + clamp(i) + sign(&b);
  printf("%ld\n", sum);
  for (int i = 1; i < argc; ++i)
    sum += checked(atoi(argv[i])) + around(&b, atoi(argv[i]));
  printf("%ld\n", sum);
  return 0;
}
