/* A parser whose failures (return 0) are more than a return's path end
   takes on its routes, and which returns an unsigned char: GCC's PRE
   merges the bytes the routes' checks load, and uncprop may put that byte
   for the 0 it equals into the return value's PHI on the miss's side
   (check_tested_words.py). A check whose byte is read by anything else
   must stay a check of that byte: sent to the word, a tested route
   through the miss returned 1 (found on expat's setContext). argv[1]: 1
   makes the buffer refuse to grow. */
#include <stdio.h>
#include <stdlib.h>

typedef unsigned char flag;

struct buffer {
  char data[64];
  int used, limit, refuse;
};

__attribute__((noinline)) static int grow(struct buffer *b) {
  if (b->refuse || b->limit >= (int)sizeof b->data)
    return 0;
  b->limit += 8;
  return 1;
}

#define APPEND(b, c)                                                           \
  (((b)->used == (b)->limit && !grow(b)) ? 0 : ((b)->data[(b)->used++] = (c), 1))

__attribute__((noinline)) static int known(const char *name) { return name[0] == 'k'; }

__attribute__((noinline)) static flag apply(struct buffer *b, const char *s) {
  while (*s != '\0') {
    if (*s == ';') {
      if (!APPEND(b, '\0'))
        return 0;
      if (!known(b->data))
        return 0;
      b->used = 0;
      s++;
    } else if (*s == '=') {
      if (b->used == 0)
        return 0;
      if (!APPEND(b, '='))
        return 0;
      for (s++; *s != ';' && *s != '\0'; s++)
        if (!APPEND(b, *s))
          return 0;
      if (!APPEND(b, '\0'))
        return 0;
      if (b->data[0] == '!')
        return 0;
      b->used = 0;
    } else if (*s == '#') {
      if (!APPEND(b, '#'))
        return 0;
      if (s[1] == '#')
        return 0;
      s++;
    } else {
      if (!APPEND(b, *s))
        return 0;
      s++;
    }
  }
  return 1;
}

int main(int argc, char **argv) {
  struct buffer b = {{0}, 0, 0, argc > 1 ? atoi(argv[1]) : 0};
  for (int i = 2; i < argc; ++i) {
    b.used = b.limit = 0;
    printf("%s: %d\n", argv[i], apply(&b, argv[i]));
  }
  return 0;
}
