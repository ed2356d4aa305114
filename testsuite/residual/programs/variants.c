/* Built three times into one program: -DMAIN (main), -DVARIANT=1 and
 * -DVARIANT=2. Its static `clamp` has one identity and two CFGs, as fmt's
 * format.cc built with and without exceptions: decode tells them apart.
 * With -DCHANGED too, one variant's CFG is none the tests built (stale). */
#ifdef MAIN
#include <stdlib.h>

int clamp_1(int), clamp_2(int);

int main(int argc, char **argv) {
  const int x = argc > 1 ? atoi(argv[1]) : 0;
  return clamp_1(x) == clamp_2(x) ? 0 : 1;
}
#else
__attribute__((noinline)) static int clamp(int x) {
#if VARIANT == 2
  if (x == 7)
    return 7;
#endif
#ifdef CHANGED /* the release's source changed since the tests */
  if (x == 3)
    return 4;
#endif
  if (x > 100)
    return 100;
  if (x < 0)
    return 0;
  return x;
}

#define EXPORTED(name, variant) EXPORTED_(name, variant)
#define EXPORTED_(name, variant) name##_##variant
int EXPORTED(clamp, VARIANT)(int x) { return clamp(x); }
#endif
