/* Routes that leave a block scope by different returns join at one return
   block, where GCC ends the scope's local (a clobber) with the location of
   the first return it lowered, which no other route runs. A function a
   macro defines (node_depth) and one a macro only names (bounded). */
#include <stdio.h>
#include <stdlib.h>

#include "block_lines.h"

#define AT_LEAST(a, b) ((a) > (b) ? (a) : (b))
#define BOUNDED(name) __attribute__((noinline)) static int name(int x)

struct node {
  struct node *parent;
};
GENERATE_DEPTH(node, struct node)

BOUNDED(bounded) {
  int y = AT_LEAST(x, 3); /* bounded: at least */
  if (y > 5)
    return y; /* bounded: big */
  return 0;
}

__attribute__((noinline)) static int classify(const char *s) {
  for (;;) {
    char *end;
    long v = strtol(s, &end, 10);
    if (*end == ',') {
      s = end + 1;
      continue;
    }
    if (*end)
      return -1; /* not a number */
    if (v > 100)
      return 2; /* big */
    return v > 0; /* small */
  }
}

int main(int argc, char **argv) {
  int sum = 0;
  for (int i = 1; i < argc; ++i)
    sum += classify(argv[i]);
  struct node root = {0}, child = {&root};
  printf("%d %d %d\n", sum, node_depth(argc > 2 ? &child : &root),
         bounded(argc));
  return 0;
}
