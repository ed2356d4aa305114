/* Record mode's count index (check_record_index.py): `scan`'s path ends
   index its counters with the id itself; `guarded`, where a longjmp
   resumes at a setjmp, masks it. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

static jmp_buf env;

/* A loop whose paths end at its latch with ids the register holds. */
__attribute__((noinline)) static int scan(const int *v, int n) {
  int odd = 0;
  for (int i = 0; i < n; ++i) {
    if (v[i] & 1)
      ++odd;
    if (v[i] > 100)
      odd += 2;
  }
  return odd;
}

__attribute__((noinline)) static void fail(int code) { longjmp(env, code); }

/* A setjmp receiver resumes mid-way: its path ends keep the mask. */
__attribute__((noinline)) static int guarded(int x) {
  int r = setjmp(env);
  if (r)
    return -r;
  for (int i = 0; i < x; ++i)
    if (i == 3)
      fail(7);
  return x;
}

int main(int argc, char **argv) {
  int v[8];
  for (int i = 0; i < 8; ++i)
    v[i] = atoi(argv[1]) * i;
  printf("%d %d %d\n", scan(v, 8), guarded(argc), guarded(5));
  return 0;
}
