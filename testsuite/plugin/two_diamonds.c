/* Two diamonds in a row: 4 paths. Under -fplugin-arg-pathcov-path-limit=2
 * no cut can number it (segments add up: 2 + 2), so the plugin must leave
 * the function alone, say so, and still compile it. */
#include <stdio.h>

int two_diamonds(int x) {
  int r = 0;
  if (x & 1)
    r += 1;
  else
    r -= 1;
  if (x & 2)
    r *= 3;
  else
    r *= 5;
  return r;
}

int main(void) {
  printf("%d\n", two_diamonds(1) + two_diamonds(2));
  return 0;
}
