/* Threads: `threads T` starts T threads (at most 8) that run work()
 * together (a barrier lets them go at once). Thread t calls it 1000 * (t+1)
 * times, with paths that depend on t and the iteration: some paths every
 * thread runs (new residual paths recorded by several threads at the same
 * moment), some only one thread. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_barrier_t start;

static long work(int t, int i) {
  long r = i;
  if (i % 2)
    r += 3;
  else
    r *= 2;
  switch (t % 4) {
  case 0:
    r -= 1;
    break;
  case 1:
    if (i % 3 == 0)
      r += 7;
    break;
  case 2:
    r ^= 5;
    /* fallthrough */
  default:
    r += t;
  }
  if (t >= 4 && i % 5 == 0)
    r = -r;
  return r;
}

static void *run(void *arg) {
  int t = (int)(long)arg;
  long sum = 0;
  pthread_barrier_wait(&start);
  for (int i = 0; i < 1000 * (t + 1); ++i)
    sum += work(t, i);
  return (void *)sum;
}

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 8;
  if (n < 1 || n > 8)
    return 2;
  pthread_t threads[8];
  pthread_barrier_init(&start, NULL, (unsigned)n);
  for (long t = 0; t < n; ++t)
    if (pthread_create(&threads[t], NULL, run, (void *)t) != 0)
      return 1;
  long total = 0;
  for (int t = 0; t < n; ++t) {
    void *sum;
    pthread_join(threads[t], &sum);
    total += (long)sum;
  }
  printf("%d threads: %ld\n", n, total);
  return 0;
}
