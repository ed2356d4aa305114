/* Path history (check_history.py): small runs whose sequence of completed
 * paths is known from the code. Each path is told by the marked lines it
 * runs through (a comment "mark: NAME"). argv[1] picks the run; the
 * history is asked for with pathcov_report_write(argv[2]) after it, but
 * for `crash`, whose crash report holds it, and `running` and `fork`,
 * which ask while a worker thread waits. */
#include <pathcov/pathcov.h>

#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* step's same path twice, then the loop's, per iteration. */
__attribute__((noinline)) static int run_pairs(int n) {
  int total = 0;
  for (int i = 0; i < n; ++i)
    total += step(1) + step(1);
  return total;
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

/* A worker still running when the report is written (`running`, `fork`):
 * it completes `work`'s paths, then waits at `held` until the report is
 * out. No instrumented code between: its newest path stays fact's or
 * run_loop's last. */
static pthread_barrier_t ready, held;

__attribute__((noinline)) static void *worker_held(void *arg) {
  sink = arg ? fact(3) : run_loop(2);
  pthread_barrier_wait(&ready);
  pthread_barrier_wait(&held);
  return NULL;
}

static int write_report(const char *path) {
  if (pathcov_report_write(path) == 0)
    return 0;
  perror(path);
  return 1;
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
  } else if (strcmp(run, "deep") == 0) {
    sink = fact(16); /* 15 recursive returns in a row: one path repeated */
  } else if (strcmp(run, "pairs") == 0) {
    sink = run_pairs(8);
  } else if (strcmp(run, "errno") == 0) {
    /* A libc call's errno, not yet read, across the process's first path
     * end, where the history starts (reading PATHCOV_HISTORY): exit 3 if
     * it changed. */
    errno = EDOM;
    sink = fact(1);
    /* GCC knows fact's code stores nothing but its counts: read errno
     * again anyway. */
    __asm__ volatile("" ::: "memory");
    const int seen = errno;
    return write_report(argv[2]) || seen != EDOM ? 3 : 0;
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
  } else if (strcmp(run, "running") == 0 || strcmp(run, "fork") == 0) {
    /* running: the report while the worker runs; fork: a child's report,
     * the worker running in the parent only. */
    const int forking = strcmp(run, "fork") == 0;
    if (forking)
      sink = fact(2);
    pthread_barrier_init(&ready, NULL, 2);
    pthread_barrier_init(&held, NULL, 2);
    pthread_t w;
    pthread_create(&w, NULL, worker_held, forking ? &w : NULL);
    pthread_barrier_wait(&ready);
    int status = 0;
    if (forking) {
      pid_t child = fork();
      if (child == 0) {
        sink = fact(2);
        _exit(write_report(argv[2]));
      }
      if (child < 0 || waitpid(child, &status, 0) != child)
        status = 1;
    } else {
      status = write_report(argv[2]);
    }
    pthread_barrier_wait(&held);
    pthread_join(w, NULL);
    return status != 0;
  } else {
    return 2;
  }
  return write_report(argv[2]);
}
