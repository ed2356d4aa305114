/* A library header: a system header when found through -isystem. */
static inline int clamp_to(int v, int lo, int hi) {
  if (v < lo)
    return lo;
  if (v > hi)
    return hi;
  return v;
}
