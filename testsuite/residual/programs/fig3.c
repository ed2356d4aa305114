/* PPP paper Figure 3 as a C function: s branches to a or b, a to c or b,
 * c to d or t. Each argument is one call, "xyz" in binary digits:
 *   111 sacdt   110 sact   101 sabcdt   100 sabct   001 sbcdt   000 sbct
 * A comment @x on a line marks the line as node x of the figure (the
 * oracle reads the paths pathcov shows back as these letters). */
#include <stdio.h>

int fig3(int x, int y, int z) {
  int r = x * 100 + y * 10 + z; /* @s */
  if (x) {
    r += 1000; /* @a */
    if (y)
      goto c;
    r -= 1;
  }
  r += 2000; /* @b */
c:
  r += 3000; /* @c */
  if (z) {
    r += 4000; /* @d */
  }
  return r; /* @t */
}

int main(int argc, char **argv) {
  long sum = 0;
  for (int i = 1; i < argc; ++i)
    sum = sum * 7 + fig3(argv[i][0] == '1', argv[i][1] == '1',
                         argv[i][2] == '1');
  printf("%ld\n", sum);
  return 0;
}
