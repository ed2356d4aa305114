/* One function with 14 independent ifs in sequence: 2^14 = 16384 paths,
 * more than record mode's array threshold (4096). `big BITS...` calls
 * diamonds(BITS) for each argument; `big -r SEED N` for N pseudo-random
 * BITS. With about a thousand random paths tested, the PPP interval of
 * the tested paths is over 4096: residual mode gives it a hash table
 * (bytemap-limit=0), or a sorted one with count-tested=1. */
#include <stdio.h>
#include <stdlib.h>

static unsigned long diamonds(unsigned bits) {
  unsigned long r = 1;
  if (bits & 0x1)
    r = r * 3 + 1;
  if (bits & 0x2)
    r = r * 3 + 2;
  if (bits & 0x4)
    r = r * 3 + 3;
  if (bits & 0x8)
    r = r * 3 + 4;
  if (bits & 0x10)
    r = r * 3 + 5;
  if (bits & 0x20)
    r = r * 3 + 6;
  if (bits & 0x40)
    r = r * 3 + 7;
  if (bits & 0x80)
    r = r * 3 + 8;
  if (bits & 0x100)
    r = r * 3 + 9;
  if (bits & 0x200)
    r = r * 3 + 10;
  if (bits & 0x400)
    r = r * 3 + 11;
  if (bits & 0x800)
    r = r * 3 + 12;
  if (bits & 0x1000)
    r = r * 3 + 13;
  if (bits & 0x2000)
    r = r * 3 + 14;
  return r;
}

int main(int argc, char **argv) {
  unsigned long sum = 0;
  if (argc == 4 && argv[1][0] == '-' && argv[1][1] == 'r') {
    unsigned long state = strtoul(argv[2], NULL, 0);
    long n = strtol(argv[3], NULL, 0);
    for (long i = 0; i < n; ++i) {
      state = state * 6364136223846793005ul + 1442695040888963407ul;
      sum = sum * 7 + diamonds((unsigned)(state >> 33) & 0x3fff);
    }
    printf("%lu\n", sum);
    return 0;
  }
  for (int i = 1; i < argc; ++i)
    sum = sum * 7 + diamonds((unsigned)strtoul(argv[i], NULL, 0));
  printf("%lu\n", sum);
  return 0;
}
