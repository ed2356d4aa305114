/* Loops whose iterations end at one latch after two, three or four
   routes (the arms of an if chain): check_latch_routes.py,
   check_tested_words.py. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static int two(const int *v, int n) {
  int a = 0;
  for (int i = 0; i < n; i++) {
    if (v[i] > 0)
      a += 3;
    else
      a -= 1;
  }
  return a;
}

__attribute__((noinline)) static int three(const int *v, int n) {
  int a = 0;
  for (int i = 0; i < n; i++) {
    if (v[i] > 0)
      a += 3;
    else if (v[i] < 0)
      a -= 1;
    else
      a ^= 5;
  }
  return a;
}

__attribute__((noinline)) static int four(const int *v, int n) {
  int a = 0;
  for (int i = 0; i < n; i++) {
    if (v[i] > 0)
      a += 3;
    else if (v[i] < -10)
      a -= 7;
    else if (v[i] < 0)
      a -= 1;
    else
      a ^= 5;
  }
  return a;
}

int main(int argc, char **argv) {
  int v[64];
  int n = argc - 1 < 64 ? argc - 1 : 64;
  for (int i = 0; i < n; i++)
    v[i] = atoi(argv[i + 1]);
  printf("%d %d %d\n", two(v, n), three(v, n), four(v, n));
  return 0;
}
