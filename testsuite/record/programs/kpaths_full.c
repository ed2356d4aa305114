/* Fills the runtime's k-path arena: 1024 paths per iteration, chosen by a
 * pseudo-random generator, so that with k=2 nearly every pair of
 * iterations is a window of its own: more windows than the arena's 2^19
 * nodes hold. */
#include <stdlib.h>

int main(int argc, char **argv) {
  unsigned x = 12345;
  long n = argc > 1 ? atol(argv[1]) : 1, s = 0;
  for (long i = 0; i < n; i++) {
    x = x * 1103515245u + 12345u;
    unsigned r = x >> 12;
    if (r & 1) s += 1;
    if (r & 2) s += 2;
    if (r & 4) s += 3;
    if (r & 8) s += 4;
    if (r & 16) s += 5;
    if (r & 32) s += 6;
    if (r & 64) s += 7;
    if (r & 128) s += 8;
    if (r & 256) s += 9;
    if (r & 512) s += 10;
  }
  return s == 42;
}
