/* A static inline function of a header: each unit that calls it compiles
   its own copy, and all of them are one function, named by the header
   (header_statics.py). With CLAMP_CHECKED, a version with another CFG. */
static inline int clamp(int v, int lo, int hi) {
#ifdef CLAMP_CHECKED
  if (lo > hi)
    return v;
#endif
  if (v < lo)
    return lo;
  if (v > hi)
    return hi;
  return v;
}
