/* Plays residual-mode instrumented code for check_reports.py: argv[1] names
 * a scenario; the script knows the exact residual paths and counts each one
 * produces. Tested counts (which stay in the tables, not in reports) are
 * printed on stdout. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <pathcov/pathcov.h>

#define FAKE_RESIDUAL_UNIT
#include "fake_plugin.h"

/* array: PPP ids 0..3 are the tested Ball-Larus ids 3, 7, 11, 19. */
static uint64_t arr_table[2][4 + 1] = {{3, 7, 11, 19, UINT64_MAX}};
FAKE_RESIDUAL(fn_arr, "_Z5parsePKc", 0x8d3c41a0e9b2f7c5ull, 20, 0, arr_table,
              4);
/* sorted: tested ids 2, 10, 500, 501, 998; the last id is never read (the
 * plugin makes it UINT64_MAX, core/Residual.h). */
static uint64_t sorted_table[2][5 + 1] = {{2, 10, 500, 501, 998, UINT64_MAX}};
FAKE_RESIDUAL(fn_sorted, "sorted_fn", 0x1111111111111111ull, 1000,
              PATHCOV_FN_SORTED, sorted_table, 5);
/* sorted and atomic: tested ids 1, 4, 9. */
static uint64_t atomic_table[2][3 + 1] = {{1, 4, 9, UINT64_MAX}};
FAKE_RESIDUAL(fn_atomic, "sorted_atomic", 0x2222222222222222ull, 16,
              PATHCOV_FN_SORTED | PATHCOV_FN_ATOMIC, atomic_table, 3);
FAKE_RESIDUAL(fn_untested, "untested_fn", 0x3333333333333333ull, 64, 0, 0, 0);
FAKE_RESIDUAL(fn_stale, "stale_fn", 0xfedcba9876543210ull, 8,
              PATHCOV_FN_STALE, 0, 0);
FAKE_RESIDUAL(fn_weird, "src/w\"eird\\.c:f\n\x01\xff\xc3\xa9",
              0x4444444444444444ull, 8, 0, 0, 0);
/* Untested, with very many paths: for bulk scenarios. */
FAKE_RESIDUAL(fn_many, "many", 0x5555555555555555ull, 1ull << 40, 0, 0, 0);
FAKE_RESIDUAL(fn_hot, "hot", 0x6666666666666666ull, 1000, 0, 0, 0);
/* For the benchmark: 1024 tested ids 0, 3, 6, ... */
static uint64_t bench_table[2][1024 + 1];
FAKE_RESIDUAL(fn_bench, "bench_sorted", 0x7777777777777777ull, 4096,
              PATHCOV_FN_SORTED, bench_table, 1024);

/* First sighting only (seen slots, abi.h): untested, 64 paths, 4 slots
 * (ids 1, 5 and 9 share slot 1). */
static uint64_t seen_untested[2 * 4];
FAKE_RESIDUAL_SEEN(fn_seen, "seen_fn", 0x8888888888888888ull, 64, 0, 0, 0,
                   seen_untested, 4);
/* An array function (PPP ids 0, 1 are the tested ids 3, 6), 2 slots. */
static uint64_t seen_array_table[2 + 1] = {3, 6, UINT64_MAX};
static uint64_t seen_array[2 * 2];
FAKE_RESIDUAL_SEEN(fn_seen_array, "seen_array", 0x9999999999999999ull, 8, 0,
                   seen_array_table, 2, seen_array, 2);
/* Atomic slot counts (atomic=1), for the threads: 16 slots, 20 paths. */
static uint64_t seen_atomic[2 * 16];
FAKE_RESIDUAL_SEEN(fn_seen_atomic, "seen_atomic", 0xaaaaaaaaaaaaaaaaull, 64,
                   PATHCOV_FN_ATOMIC, 0, 0, seen_atomic, 16);
/* Seen words (a word per path): untested, 8 paths; atomic, for the
 * threads, 20 paths. */
static uint64_t words_untested[8];
FAKE_RESIDUAL_SEEN(fn_words, "words_fn", 0xbbbbbbbbbbbbbbbbull, 8,
                   PATHCOV_FN_SEEN_WORDS, 0, 0, words_untested, 8);
/* Tested words: a bytemap function (ids 0 and 2 tested) whose path ends
 * only count in the words. */
static const uint8_t tested_words_bytemap[4] = {1, 0, 1, 0};
static uint64_t tested_words[4];
FAKE_RESIDUAL_SEEN(fn_tested_words, "tested_words", 0xddddddddddddddddull, 4,
                   PATHCOV_FN_BYTEMAP | PATHCOV_FN_SEEN_WORDS |
                       PATHCOV_FN_TESTED_WORDS,
                   tested_words_bytemap, 0, tested_words, 4);
static uint64_t words_atomic[32];
FAKE_RESIDUAL_SEEN(fn_words_atomic, "words_atomic", 0xccccccccccccccccull, 20,
                   PATHCOV_FN_SEEN_WORDS | PATHCOV_FN_ATOMIC, 0, 0,
                   words_atomic, 32);

static void repeat(struct pathcov_function *fn, uint64_t ppp, uint64_t bl,
                   int times) {
  for (int i = 0; i < times; ++i)
    fake_residual_end(fn, ppp, bl);
}

static void print_table(const char *name, const struct pathcov_function *fn,
                        uint64_t pairs) {
  printf("%s", name);
  for (uint64_t i = 0; i < pairs; ++i)
    printf(" %llu",
           (unsigned long long)fn->counters[fn->table_size + 1 + i]);
  printf("\n");
}

/* Every policy: tested paths counted in the tables, residual ones reported.
 * First-seen order: arr 8, 13, 0; sorted 3, 999, 0; untested 0, 5; stale
 * 1; weird 4. */
static void counts(void) {
  repeat(&fn_arr, 0, 3, 5);           /* tested */
  repeat(&fn_arr, 2, 11, 2);          /* tested */
  repeat(&fn_arr, 1, 8, 3);           /* PPP 1 is id 7: residual 8 */
  repeat(&fn_arr, 7, 13, 1);          /* PPP out of range: clamped, misses */
  repeat(&fn_arr, UINT64_MAX - 5, 0, 2); /* negative PPP wraps: misses */
  repeat(&fn_arr, 3, 19, 1);          /* tested */
  repeat(&fn_sorted, 0, 2, 4);        /* hit */
  repeat(&fn_sorted, 0, 998, 1);      /* hit, the last */
  repeat(&fn_sorted, 0, 3, 2);        /* miss between */
  repeat(&fn_sorted, 0, 999, 1);      /* miss after the last */
  repeat(&fn_sorted, 0, 0, 1);        /* miss before the first */
  repeat(&fn_sorted, 0, 500, 1);      /* hit */
  repeat(&fn_sorted, 0, 3, 1);        /* miss again */
  repeat(&fn_untested, 0, 0, 1);
  repeat(&fn_untested, 0, 5, 6);
  repeat(&fn_stale, 0, 1, 2);
  repeat(&fn_weird, 0, 4, 1);
  print_table("array", &fn_arr, 5);
  print_table("sorted", &fn_sorted, 6);
}

/* A function's seen slots, each its tag and count (abi.h: the tags, then
 * the counts). */
static void print_slots(const char *name, const struct pathcov_function *fn) {
  printf("%s", name);
  for (uint64_t k = 0; k < fn->seen_slots; ++k)
    printf(" %llu %llu", (unsigned long long)fn->seen[k],
           (unsigned long long)fn->seen[fn->seen_slots + k]);
  printf("\n");
}

/* A function's seen words, each as the runs it holds since the runtime
 * armed it (to PATHCOV_CONTEXT_PERIOD - 1, by default 2^20 - 1), or
 * "n?" where it went
 * negative: n runs the runtime is still to see (abi.h), or "tn" for a
 * tested path's word the runtime put out of reach, n runs since. */
static void print_words(const char *name, const struct pathcov_function *fn) {
  const char *period = getenv("PATHCOV_CONTEXT_PERIOD");
  const uint64_t arm = (period ? strtoull(period, NULL, 10) : 1048576) - 1;
  printf("%s", name);
  for (uint64_t k = 0; k < fn->seen_slots; ++k) {
    uint64_t w = fn->seen[k];
    if (w >> 63)
      printf(" %llu?", (unsigned long long)-w);
    else if (w > (uint64_t)INT64_MAX / 2)
      printf(" t%llu", (unsigned long long)((uint64_t)INT64_MAX - w));
    else
      printf(" %llu", (unsigned long long)(w == 0 ? 0 : arm - w));
  }
  printf("\n");
}

/* First sighting only: the first run of a residual path calls the runtime,
 * which claims the path's seen slot; the next ones count in the slot
 * (printed: the runtime did not see them), a path whose slot another holds
 * keeps calling the runtime. A seen word counts every run; the runtime
 * arms it at the first, and again once a period (4 here), taking the runs
 * it held into the path's entry. A forked child starts with free slots
 * and zero words. */
static int seen(void) {
  repeat(&fn_seen, 0, 1, 10);      /* 1 call, slot 1 = {2, 9} */
  repeat(&fn_seen, 0, 5, 4);       /* slot 1 is 1's: 4 calls */
  repeat(&fn_seen, 0, 2, 3);       /* 1 call, slot 2 = {3, 2} */
  repeat(&fn_seen_array, 0, 3, 5); /* tested */
  repeat(&fn_seen_array, 1, 7, 6); /* PPP 1 is id 6: 1 call, slot 1 = {8, 5} */
  repeat(&fn_seen_array, 5, 4, 2); /* clamped PPP: 1 call, slot 0 = {5, 1} */
  /* Ids that have no word are ignored (past the last word, far past it,
   * a function without words): none is recorded. */
  __pathcov_residual_word(&fn_words, 8);
  __pathcov_residual_word(&fn_words, UINT64_MAX);
  __pathcov_residual_word(&fn_seen, 3);
  repeat(&fn_words, 0, 2, 5); /* 2 calls (runs 1 and 5): entry 5, word 0 */
  repeat(&fn_words, 0, 7, 1); /* 1 call: entry 1, word 0 */
  /* Another thread's plain subtraction that read the word (-1) before the
   * runtime armed it writes back -2: the next run calls again, and the
   * runtime counts a period too many (arm 3 - -3 = 6 runs, 2 of them
   * real). */
  words_untested[7] = UINT64_MAX - 1;
  repeat(&fn_words, 0, 7, 1); /* 1 call: entry 7, word 0 */
  /* Tested paths' words go negative once, and are put out of reach: not
   * recorded. */
  repeat(&fn_tested_words, 0, 0, 5); /* tested: 1 call, word t4 */
  repeat(&fn_tested_words, 0, 1, 3); /* 1 call: entry 1, word 2 */
  repeat(&fn_tested_words, 0, 2, 1); /* tested: 1 call, word t0 */
  print_slots("seen", &fn_seen);
  print_slots("seen_array", &fn_seen_array);
  print_words("words", &fn_words);
  print_words("tested_words", &fn_tested_words);
  fflush(stdout);
  pid_t child = fork();
  if (child < 0)
    return 1;
  if (child == 0) {
    print_slots("child seen", &fn_seen);
    print_slots("child seen_array", &fn_seen_array);
    print_words("child words", &fn_words);
    repeat(&fn_seen, 0, 5, 3); /* here 5 claims slot 1: 1 call */
    repeat(&fn_seen, 0, 1, 2); /* 2 calls */
    repeat(&fn_words, 0, 2, 3); /* 1 call */
    print_slots("child seen", &fn_seen);
    print_words("child words", &fn_words);
    exit(0);
  }
  int status;
  if (waitpid(child, &status, 0) != child || status != 0)
    return 1;
  repeat(&fn_seen, 0, 1, 1); /* slot 1 is still 1's here */
  repeat(&fn_words, 0, 2, 1); /* word 2 still open here */
  print_slots("seen", &fn_seen);
  print_words("words", &fn_words);
  printf("child %ld\n", (long)child);
  return 0;
}

/* Only tested paths, counted ones: a report of their counts at exit. */
static void clean(void) {
  repeat(&fn_arr, 1, 7, 3);
  repeat(&fn_sorted, 0, 10, 2);
  print_table("array", &fn_arr, 5);
  print_table("sorted", &fn_sorted, 6);
}

static double seconds(clockid_t clock) {
  struct timespec t;
  clock_gettime(clock, &t);
  return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* ns per call of a loop, by thread CPU time (preemption on a shared machine
 * does not count) and by wall clock. */
#define MEASURE(label, calls, body)                                          \
  do {                                                                       \
    double cpu0 = seconds(CLOCK_THREAD_CPUTIME_ID);                          \
    double wall0 = seconds(CLOCK_MONOTONIC);                                 \
    body;                                                                    \
    double cpu = seconds(CLOCK_THREAD_CPUTIME_ID) - cpu0;                    \
    double wall = seconds(CLOCK_MONOTONIC) - wall0;                          \
    printf("%s %.2f ns/call (cpu) %.2f ns/call (wall) %llu calls\n", label,  \
           cpu * 1e9 / (double)(calls), wall * 1e9 / (double)(calls),        \
           (unsigned long long)(calls));                                     \
  } while (0)

enum { REPEATED = 20000000, NEW_PATHS = 10000, ALTERNATING = 4000000,
       LOOKUPS = 1024 * 20000, BASELINE = 20000000 };

/* The floor: a call that makes one atomic add, which every residual path
 * makes. */
static uint64_t baseline_count;
__attribute__((noinline)) static void baseline(uint64_t *counter) {
  __atomic_fetch_add(counter, 1, __ATOMIC_RELAXED);
  __asm__ volatile("" ::: "memory");
}

static void bench(void) {
  for (uint64_t i = 0; i < 1024; ++i)
    bench_table[0][i] = 3 * i;
  bench_table[0][1024] = UINT64_MAX;
  MEASURE("baseline_atomic_call", BASELINE, {
    for (int i = 0; i < BASELINE; ++i)
      baseline(&baseline_count);
  });
  /* One residual path in a hot loop: the last-hit cache. */
  __pathcov_residual_path(&fn_hot, 42); /* first seen: the slow path */
  MEASURE("repeated_residual", REPEATED, {
    for (int i = 0; i < REPEATED; ++i)
      __pathcov_residual_path(&fn_hot, 42);
  });
  /* Two residual paths of one function in turn: the cache always misses
   * and every call probes the table. */
  __pathcov_residual_path(&fn_hot, 100);
  __pathcov_residual_path(&fn_hot, 101);
  MEASURE("alternating_residual", ALTERNATING, {
    for (int i = 0; i < ALTERNATING; ++i)
      __pathcov_residual_path(&fn_hot, 100 + (uint64_t)(i & 1));
  });
  /* New residual paths: the table entry, the time and the thread. */
  MEASURE("new_residual", NEW_PATHS, {
    for (uint64_t i = 0; i < NEW_PATHS; ++i)
      __pathcov_residual_path(&fn_many, i);
  });
  /* A sorted lookup that hits (1024 tested ids: 10 steps). */
  MEASURE("sorted_hit", LOOKUPS, {
    for (uint64_t i = 0; i < LOOKUPS; ++i)
      __pathcov_residual_lookup(&fn_bench, 3 * (i & 1023));
  });
  uint64_t hits = 0;
  for (int i = 0; i < 1024; ++i)
    hits += bench_table[1][i] == LOOKUPS / 1024;
  printf("sorted_exact %llu\n", (unsigned long long)hits);
}

/* THREADS threads start together, each running RECORDS times: a path all
 * threads share (racing to insert the same new paths), a path of its own,
 * the same hot path, and sorted lookups of an atomic function (hits and one
 * miss). */
enum { THREADS = 8, RECORDS = 200000 };
static pthread_barrier_t barrier;
static pid_t tids[THREADS];

static void *worker(void *arg) {
  uint64_t t = (uint64_t)(uintptr_t)arg;
  tids[t] = gettid();
  pthread_barrier_wait(&barrier);
  for (uint64_t i = 0; i < RECORDS; ++i) {
    fake_residual_end(&fn_many, 0, i % 64);
    fake_residual_end(&fn_many, 0, 1000 + t * 100 + i % 100);
    fake_residual_end(&fn_hot, 0, 7);
    fake_residual_end(&fn_atomic, 0, i % 3 == 0 ? 1 : i % 3 == 1 ? 4 : 9);
    if (i % 10 == 0)
      fake_residual_end(&fn_atomic, 0, 5); /* miss */
    /* New paths claiming slots, as the others count in them; 16 .. 19
     * share the slots of 0 .. 3 with them. */
    fake_residual_end(&fn_seen_atomic, 0, i % 20);
    /* New paths opening words, as the others count in them. */
    fake_residual_end(&fn_words_atomic, 0, i % 20);
  }
  return NULL;
}

static int threads(void) {
  pthread_t threads[THREADS];
  pthread_barrier_init(&barrier, NULL, THREADS);
  for (uintptr_t t = 0; t < THREADS; ++t)
    if (pthread_create(&threads[t], NULL, worker, (void *)t) != 0)
      return 1;
  for (int t = 0; t < THREADS; ++t)
    pthread_join(threads[t], NULL);
  for (int t = 0; t < THREADS; ++t)
    printf("thread %d %ld\n", t, (long)tids[t]);
  print_table("atomic", &fn_atomic, 4);
  return 0;
}

/* Residual paths, then a crash of the given kind. */
static volatile int *volatile nowhere;
static volatile int depth_limit = -1;
static volatile int dividend = 1000, divisor = 0;

__attribute__((noinline)) static int deep(int n) {
  volatile char frame[512];
  frame[0] = (char)n;
  if (n == depth_limit)
    return 0;
  return deep(n + 1) + frame[0];
}

static void *crash_in_thread(void *arg) {
  (void)arg;
  *nowhere = 1;
  return NULL;
}

static void before_crash(void) {
  repeat(&fn_untested, 0, 9, 3);
  repeat(&fn_stale, 0, 2, 1);
  repeat(&fn_arr, 1, 8, 2);
  repeat(&fn_arr, 0, 3, 1); /* tested */
  printf("crashing\n");
  fflush(stdout);
}

static int crash(const char *how) {
  before_crash();
  if (strcmp(how, "segv") == 0) {
    *nowhere = 1;
  } else if (strcmp(how, "abort") == 0) {
    abort();
  } else if (strcmp(how, "thread") == 0) {
    pthread_t t;
    if (pthread_create(&t, NULL, crash_in_thread, NULL) == 0)
      pthread_join(t, NULL);
  } else if (strcmp(how, "overflow") == 0) {
    return deep(0);
  } else if (strcmp(how, "kill") == 0) { /* sent, not a fault: si_code <= 0 */
    kill(getpid(), SIGBUS);
  } else if (strcmp(how, "term") == 0) { /* an ending signal (PATHCOV_SIGNALS) */
    kill(getpid(), SIGTERM);
  } else if (strcmp(how, "alarm") == 0) { /* the kernel's: si_code > 0 */
    alarm(1);
    pause();
  } else if (strcmp(how, "pipe") == 0) { /* a write to a pipe nobody reads */
    int ends[2];
    if (pipe(ends) == 0) {
      close(ends[0]);
      (void)!write(ends[1], "x", 1);
    }
  } else if (strcmp(how, "fpe") == 0) {
    return dividend / divisor; /* both volatile: a real idiv */
  } else if (strcmp(how, "ill") == 0) {
    __builtin_trap();
  }
  return 3;
}

/* The program's own SIGSEGV handler: says what it got, exits with 42. */
static void program_handler(int sig, siginfo_t *info, void *context) {
  (void)context;
  char line[] = "program handler: signal ?? code ? addr ?\n";
  line[24] = (char)('0' + sig / 10);
  line[25] = (char)('0' + sig % 10);
  line[32] = info->si_code == SEGV_MAPERR ? 'M' : 'x';
  line[39] = info->si_addr == (void *)nowhere ? '0' : 'x';
  if (write(STDOUT_FILENO, line, sizeof line - 1) < 0)
    _exit(43);
  _exit(42);
}

static void install_program_handler(void) {
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = program_handler;
  sa.sa_flags = SA_SIGINFO;
  sigaction(SIGSEGV, &sa, NULL);
}

/* Runs before every constructor, the runtime's included (it is in
 * .init_array): the program's handler is there first, and the runtime
 * chains to it. glibc passes the environment (libc's own is not set up
 * yet: getenv would see none). */
static void preinit(int argc, char **argv, char **envp) {
  (void)argc;
  (void)argv;
  for (char **e = envp; e && *e; ++e)
    if (strcmp(*e, "RT_RESIDUAL_PREINIT_HANDLER=1") == 0)
      install_program_handler();
}
__attribute__((section(".preinit_array"), used)) static void (*const
    preinit_entry)(int, char **, char **) = preinit;

/* The program's handler installed in main, after the runtime's: it
 * replaces the runtime's, and no report is written. */
static int replaced(void) {
  install_program_handler();
  before_crash();
  *nowhere = 1;
  return 3;
}

static int fork_scenario(void) {
  repeat(&fn_untested, 0, 1, 3);
  fflush(stdout);
  pid_t child = fork();
  if (child < 0)
    return 1;
  if (child == 0) {
    repeat(&fn_untested, 0, 2, 4);
    repeat(&fn_untested, 0, 1, 1); /* the parent's path, run again here */
    exit(0);
  }
  int status;
  if (waitpid(child, &status, 0) != child || status != 0)
    return 1;
  repeat(&fn_untested, 0, 3, 5);
  printf("child %ld\n", (long)child);
  return 0;
}

/* More distinct residual paths than the table holds: id i recorded
 * i % 3 + 1 times, ids 0 .. 16383 fill the table, the rest are dropped;
 * then a path in the table still counts. */
static void dropped(void) {
  for (uint64_t i = 0; i < 16384 + 100; ++i)
    repeat(&fn_many, 0, i, (int)(i % 3) + 1);
  repeat(&fn_many, 0, 5, 7);
  /* A path the full table drops claims no slot, nor keeps a count in its
   * word: every run is counted, there. */
  repeat(&fn_seen, 0, 9, 5);
  repeat(&fn_words, 0, 3, 4);
  print_slots("seen", &fn_seen);
  print_words("words", &fn_words);
}

static int write_file(const char *path, const char *data, size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return -1;
  size_t n = fwrite(data, 1, len, f);
  return fclose(f) != 0 || n != len ? -1 : 0;
}

/* The API: argv dir, fd. */
static int api(const char *dir, int fd) {
  char path[4096];
  /* Nothing recorded yet: a request still gets a report. */
  size_t n = pathcov_report_buffer(NULL, 0);
  char *empty = malloc(n + 1);
  size_t m = pathcov_report_buffer(empty, n + 1);
  printf("empty %d\n", m == n && strlen(empty) == n);
  snprintf(path, sizeof path, "%s/empty.json", dir);
  if (write_file(path, empty, n) != 0)
    return 1;
  free(empty);

  for (uint64_t i = 0; i < 2000; ++i)
    repeat(&fn_many, 0, i, (int)(i % 5) + 1);
  snprintf(path, sizeof path, "%s/api.json", dir);
  printf("write %d\n", pathcov_report_write(path));
  printf("write_fd %d\n", pathcov_report_write_fd(fd));
  close(fd);

  char small[10];
  memset(small, 'x', sizeof small);
  n = pathcov_report_buffer(small, sizeof small);
  printf("small %d %d %s\n", n > sizeof small, (int)strlen(small), small);
  size_t room = n + 4096;
  char *big = malloc(room);
  m = pathcov_report_buffer(big, room);
  printf("big %d %d\n", m == n, strlen(big) == m);
  snprintf(path, sizeof path, "%s/buffer.json", dir);
  if (write_file(path, big, m) != 0)
    return 1;
  /* Exactly the size it needs, and one byte less. */
  memset(big, 'x', room);
  size_t exact = pathcov_report_buffer(big, m + 1);
  printf("exact %d %d\n", exact == m, strlen(big) == m);
  memset(big, 'x', room);
  size_t short_by_one = pathcov_report_buffer(big, m);
  printf("short %d %d %d\n", short_by_one == m, strlen(big) == m - 1,
         big[m] == 'x');
  free(big);

  /* Failures: errno, nothing left behind. */
  snprintf(path, sizeof path, "%s/missing/report.json", dir);
  errno = 0;
  int r = pathcov_report_write(path);
  printf("missing %d %s\n", r, strerror(errno));
  errno = 0;
  r = pathcov_report_write_fd(-1);
  printf("bad_fd %d %s\n", r, strerror(errno));
  errno = 0;
  r = pathcov_report_write_fd(fd); /* closed above */
  printf("closed_fd %d %s\n", r, strerror(errno));
  return 0;
}

/* PATHCOV_REPORT=0: no automatic report, on exit or crash; the API still
 * writes what it is asked for. */
static int report_off(const char *dir, const char *how) {
  char path[4096];
  repeat(&fn_untested, 0, 6, 2);
  snprintf(path, sizeof path, "%s/asked.json", dir);
  printf("write %d\n", pathcov_report_write(path));
  fflush(stdout);
  if (strcmp(how, "crash") == 0)
    *nowhere = 1;
  return 0;
}

/* The plugin's wrapper of _exit (exec.c), called as instrumented code
 * calls it. */
void __pathcov__exit(int status);

/* _exit, which signal handlers may call: the report goes where
 * PATHCOV_REPORT_DIR said at start-up, not where the program set it
 * since (`later`). */
static void underscore_exit(const char *later) {
  before_crash();
  setenv("PATHCOV_REPORT_DIR", later, 1);
  __pathcov__exit(0);
}

int main(int argc, char **argv) {
  const char *scenario = argc > 1 ? argv[1] : "";
  if (strcmp(scenario, "counts") == 0)
    counts();
  else if (strcmp(scenario, "clean") == 0)
    clean();
  else if (strcmp(scenario, "bench") == 0)
    bench();
  else if (strcmp(scenario, "threads") == 0)
    return threads();
  else if (strcmp(scenario, "crash") == 0 && argc > 2)
    return crash(argv[2]);
  else if (strcmp(scenario, "underscore-exit") == 0 && argc > 2)
    underscore_exit(argv[2]);
  else if (strcmp(scenario, "replaced") == 0)
    return replaced();
  else if (strcmp(scenario, "fork") == 0)
    return fork_scenario();
  else if (strcmp(scenario, "seen") == 0)
    return seen();
  else if (strcmp(scenario, "dropped") == 0)
    dropped();
  else if (strcmp(scenario, "api") == 0 && argc > 3)
    return api(argv[2], atoi(argv[3]));
  else if (strcmp(scenario, "report-off") == 0 && argc > 3)
    return report_off(argv[2], argv[3]);
  else {
    fprintf(stderr, "usage: rt_residual SCENARIO [ARGS]\n");
    return 2;
  }
  return 0;
}
