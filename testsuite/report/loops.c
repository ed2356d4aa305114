/* The shared fixture of pathcov report's outputs (loops-corpus.json). */
int loops(int x) {
  int s = 0;
  do {
    if (x & 1)
      s += x;
    x >>= 1;
  } while (x);
  return s;
}

int never(int x) {
  return x ? 1 : 2;
}
