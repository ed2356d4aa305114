/* Path history (check_history.py): small runs whose sequence of completed
 * paths is known from the code. Each path is told by the marked lines it
 * runs through (a comment "mark: NAME"). argv[1] picks the run; the
 * history is asked for with pathcov_report_write(argv[2]) after it, but
 * for `crash`, whose crash report holds it. */
#include <pathcov/pathcov.h>

#include <pthread.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static volatile int sink;

__attribute__((noinline)) static int step(int i) {
  if (i % 3 == 0)
    return i + 1; /* mark: step-three */
  return i - 1; /* mark: step-other */
}

/* A path per iteration: step's, then the loop's. */
__attribute__((noinline)) static int run_loop(int n) {
  int total = 0; /* mark: loop-start */
  for (int i = 0; i < n; ++i)
    total += step(i); /* mark: loop-body */
  return total; /* mark: loop-end */
}

__attribute__((noinline)) static int fact(int n) {
  if (n <= 1)
    return 1; /* mark: fact-base */
  return n * fact(n - 1); /* mark: fact-recurse */
}

static jmp_buf landing;

/* Not noreturn: its caller's path goes on through the call, and the
 * longjmp abandons it. Its own path ends at the longjmp (noreturn). */
__attribute__((noinline)) static void thrower(int k) {
  if (k)
    longjmp(landing, k); /* mark: throw */
  sink = 0;
}

/* Its paths: up to setjmp (a path ends at its call); from setjmp's first
 * return into thrower, abandoned; from its second, to the return. */
__attribute__((noinline)) static int catcher(int k) {
  if (setjmp(landing) == 0) {
    sink = 0; /* mark: catch-first */
    thrower(k);
  }
  return sink; /* mark: catch-landed */
}

/* Workers of `threads` meet here once each has its ring, so that neither
 * exits (freeing its ring for another thread) before the other has one. */
static pthread_barrier_t both;
static int concurrent;

static void meet(void) {
  if (concurrent)
    pthread_barrier_wait(&both);
}

__attribute__((noinline)) static void *worker_a(void *arg) {
  (void)arg;
  sink = run_loop(2);
  meet(); /* mark: worker-a */
  return NULL;
}

__attribute__((noinline)) static void *worker_b(void *arg) {
  (void)arg;
  sink = fact(3);
  meet(); /* mark: worker-b */
  return NULL;
}

__attribute__((noinline)) static void crash(void) {
  *(volatile int *)(uintptr_t)(sink ? 0 : 16) = 1; /* mark: crash */
}

int main(int argc, char **argv) {
  if (argc < 3)
    return 2;
  const char *run = argv[1];
  if (strcmp(run, "loop") == 0) {
    sink = run_loop(6);
  } else if (strcmp(run, "recursion") == 0) {
    sink = fact(4);
  } else if (strcmp(run, "longjmp") == 0) {
    sink = catcher(7);
  } else if (strcmp(run, "threads") == 0 || strcmp(run, "reuse") == 0) {
    /* threads: both at once; reuse: one after the other, the second
     * taking the first's ring. */
    concurrent = strcmp(run, "threads") == 0;
    sink = fact(2); /* the main thread's ring first */
    pthread_barrier_init(&both, NULL, 2);
    pthread_t a, b;
    pthread_create(&a, NULL, worker_a, NULL);
    if (!concurrent)
      pthread_join(a, NULL);
    pthread_create(&b, NULL, worker_b, NULL);
    if (concurrent)
      pthread_join(a, NULL);
    pthread_join(b, NULL);
    sink = fact(2);
  } else if (strcmp(run, "crash") == 0) {
    sink = run_loop(2);
    crash();
  } else {
    return 2;
  }
  if (pathcov_report_write(argv[2]) != 0) {
    perror(argv[2]);
    return 1;
  }
  return 0;
}
