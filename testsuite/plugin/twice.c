/* The out-of-line copy of gnu_inline.c's twice. */
int twice(int x) { return x > 0 ? 2 * x : 0; }
