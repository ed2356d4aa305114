/* A variable declared in a loop's body, its address passed to calls: the
   loop the tests run 4 times per entry is peeled in residual mode, and its
   first iteration's copy must not make GCC's -Wdangling-pointer take the
   loop's uses of the address for uses after the variable's scope
   (check_peeling.py; zstd's huf_decompress.c had the shape). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct {
  size_t bits;
  const char *ptr;
} Stream;

__attribute__((noinline)) static int init(Stream *s, int i) {
  s->bits = (size_t)i;
  s->ptr = NULL;
  return i == 99;
}

__attribute__((noinline)) static size_t decode(const Stream *s) {
  return s->bits * 3;
}

__attribute__((noinline)) static size_t run(size_t *out, int n) {
  for (int i = 0; i < n; ++i) {
    Stream st;
    if (init(&st, i))
      return (size_t)-1;
    out[i] += decode(&st);
  }
  return 0;
}

int main(int argc, char **argv) {
  size_t out[128] = {0};
  int n = argc > 1 ? atoi(argv[1]) : 4;
  if (n > 128)
    n = 128;
  size_t r = run(out, n);
  printf("%zu %zu\n", r, out[n > 0 ? n - 1 : 0]);
  return 0;
}
