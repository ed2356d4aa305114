/* Built with `cc -fplugin=... hello.c $(pkg-config --cflags --libs
 * pathcov-runtime)` against an installed pathcov: the header comes from
 * --cflags, the runtime from --libs. Writes one profile at pathcov_flush()
 * (the first NAME) and one at exit (the others). */
#include <pathcov/pathcov.h>

#include <stdio.h>

static int greet(const char *name) {
  if (name[0] == '\0') {
    puts("hello, nobody");
    return 0;
  }
  printf("hello, %s\n", name);
  return 1;
}

int main(int argc, char **argv) {
  int greeted = 0;
  for (int i = 1; i < argc; ++i) {
    greeted += greet(argv[i]);
    if (i == 1 && pathcov_flush() != 0)
      return 2;
  }
  return greeted == argc - 1 ? 0 : 1;
}
