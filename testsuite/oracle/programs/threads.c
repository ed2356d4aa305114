/* Exact counts under threads: 8 threads, all starting together, call work()
 * ITERATIONS times each (argv[1], default 100000) with argument patterns
 * that cycle through all 96 combinations of its decisions, so that every
 * thread runs every path of work() all the time, at the same time as the
 * others. The program counts, per pattern, how often it called work()
 * with it (each thread its own table, added up after the join: no race),
 * and writes those numbers as JSON to argv[2]:
 *   {"calls": N, "sum": S, "paths": {"a1 b0 c1 d0 e1 s2": count, ...}}
 * Each decision of work() has a marker comment (@a1, @a0, ...) on the line
 * its outcome runs, so the checker can name a profiled path by the markers
 * of its lines. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

enum { THREADS = 8, PATTERNS = 96 };

static long work(int a, int b, int c, int d, int e, int s) {
  long r = 0;
  if (a)
    r += 1; // @a1
  else
    r -= 1; // @a0
  if (b)
    r ^= 2; // @b1
  else
    r |= 4; // @b0
  if (c)
    r += 8; // @c1
  else
    r -= 8; // @c0
  if (d)
    r *= 3; // @d1
  else
    r *= 5; // @d0
  if (e)
    r += 16; // @e1
  else
    r -= 16; // @e0
  switch (s) {
  case 0:
    r += 100; // @s0
    break;
  case 1:
    r += 200; // @s1
    break;
  default:
    r += 300; // @s2
    break;
  }
  return r;
}

static pthread_barrier_t start;

struct job {
  int id;
  long iterations;
  long sum;
  long expected[PATTERNS];
};

static void *thread_main(void *arg) {
  struct job *j = arg;
  pthread_barrier_wait(&start); /* all threads run work() at once */
  for (long i = 0; i < j->iterations; ++i) {
    int p = (int)((i * 7 + j->id * 13) % PATTERNS);
    j->sum += work(p & 1, p >> 1 & 1, p >> 2 & 1, p >> 3 & 1, p >> 4 & 1,
                   p >> 5);
    j->expected[p]++;
  }
  return NULL;
}

int main(int argc, char **argv) {
  long iterations = argc > 1 ? atol(argv[1]) : 100000;
  static struct job jobs[THREADS];
  pthread_t threads[THREADS];
  pthread_barrier_init(&start, NULL, THREADS);
  for (int t = 0; t < THREADS; ++t) {
    jobs[t].id = t;
    jobs[t].iterations = iterations;
    if (pthread_create(&threads[t], NULL, thread_main, &jobs[t]) != 0) {
      perror("pthread_create");
      return 2;
    }
  }
  long expected[PATTERNS] = {0};
  long sum = 0;
  for (int t = 0; t < THREADS; ++t) {
    pthread_join(threads[t], NULL);
    sum += jobs[t].sum;
    for (int p = 0; p < PATTERNS; ++p)
      expected[p] += jobs[t].expected[p];
  }
  FILE *out = argc > 2 ? fopen(argv[2], "w") : stdout;
  if (!out) {
    perror(argv[2]);
    return 2;
  }
  fprintf(out, "{\"calls\": %ld, \"sum\": %ld, \"paths\": {", THREADS * iterations,
          sum);
  for (int p = 0; p < PATTERNS; ++p)
    fprintf(out, "%s\"a%d b%d c%d d%d e%d s%d\": %ld", p ? ", " : "", p & 1,
            p >> 1 & 1, p >> 2 & 1, p >> 3 & 1, p >> 4 & 1, p >> 5,
            expected[p]);
  fprintf(out, "}}\n");
  if (out != stdout)
    fclose(out);
  return 0;
}
