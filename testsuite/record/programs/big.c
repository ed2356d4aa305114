/* One function with 14 independent ifs in sequence: 2^14 = 16384 paths,
 * more than the plugin's array threshold (4096), so its paths are counted
 * in the runtime's hash table (`counting: hashed`). */
#include "trace.h"

static unsigned long diamonds(unsigned bits) {
  TRACE_ENTER();
  unsigned long r = 1;
  if (bits & 0x1) {
    T('a');
    r = r * 3 + 1;
  }
  if (bits & 0x2) {
    T('b');
    r = r * 3 + 2;
  }
  if (bits & 0x4) {
    T('c');
    r = r * 3 + 3;
  }
  if (bits & 0x8) {
    T('d');
    r = r * 3 + 4;
  }
  if (bits & 0x10) {
    T('e');
    r = r * 3 + 5;
  }
  if (bits & 0x20) {
    T('f');
    r = r * 3 + 6;
  }
  if (bits & 0x40) {
    T('g');
    r = r * 3 + 7;
  }
  if (bits & 0x80) {
    T('h');
    r = r * 3 + 8;
  }
  if (bits & 0x100) {
    T('i');
    r = r * 3 + 9;
  }
  if (bits & 0x200) {
    T('j');
    r = r * 3 + 10;
  }
  if (bits & 0x400) {
    T('k');
    r = r * 3 + 11;
  }
  if (bits & 0x800) {
    T('l');
    r = r * 3 + 12;
  }
  if (bits & 0x1000) {
    T('m');
    r = r * 3 + 13;
  }
  if (bits & 0x2000) {
    T('n');
    r = r * 3 + 14;
  }
  TRACE_LEAVE();
  return r;
}

int main(void) {
  TRACE_ENTER();
  unsigned long sum = 0;
  unsigned seed = 12345;
  /* A few hundred pseudo-random paths, some of them twice. */
  for (int i = 0; i < 400; ++i) {
    T('m');
    seed = seed * 1103515245u + 12345u;
    sum = sum * 31 + diamonds((seed >> 8) % 300 * 53);
    TRACE_LOOP();
  }
  /* Paths that differ only in the first two or the last two diamonds: the
   * Ball-Larus weights of one pair are 2^12 and 2^13, so these ids agree in
   * their low 12 bits and share a seen slot (id & 4095) when diamonds is
   * hashed: the first to run holds the slot, the others are counted in the
   * runtime's table. Each runs three times. */
  static const unsigned same_slot[] = {0x0, 0x1, 0x2, 0x3, 0x1000, 0x2000, 0x3000};
  for (unsigned k = 0; k < 3 * 7; ++k) {
    T('s');
    sum = sum * 31 + diamonds(same_slot[k % 7]);
    TRACE_LOOP();
  }
  printf("%lu\n", sum);
  TRACE_LEAVE();
  return 0;
}
