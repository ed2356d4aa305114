/* Plays instrumented code for check_profiles.py: argv[1] names a scenario;
 * the script knows the exact counts each one produces. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <pathcov/pathcov.h>

#include "fake_plugin.h"

static uint64_t a_counters[FAKE_COUNTERS(8)];
FAKE_FUNCTION(fn_a, "_Z1ai", 8, PATHCOV_FN_ENTRY_COUNTED, a_counters);
FAKE_FUNCTION(fn_h, "_Z1hv", 1000000000000ull, PATHCOV_FN_HASHED, 0);
static uint64_t w_counters[FAKE_COUNTERS(1)];
FAKE_FUNCTION(fn_w, "src/w\"eird\\.c:f\n\x01\xff\xc3\xa9", 1, 0, w_counters);
static uint64_t z_counters[FAKE_COUNTERS(2)];
FAKE_FUNCTION(fn_z, "never_called", 2, 0, z_counters);
static uint64_t at_counters[FAKE_COUNTERS(16)];
FAKE_FUNCTION(fn_at, "atomic_array", 16, PATHCOV_FN_ATOMIC, at_counters);
FAKE_FUNCTION(fn_ht, "atomic_hashed", 1000000,
              PATHCOV_FN_HASHED | PATHCOV_FN_ATOMIC, 0);
FAKE_FUNCTION(fn_o, "overflowing", 1000000, PATHCOV_FN_HASHED, 0);
/* One path that only returns: its entries are its path's count. */
static uint64_t c_counters[FAKE_COUNTERS(1)];
FAKE_FUNCTION(fn_c, "accessor", 1,
              PATHCOV_FN_ENTRY_COUNTED | PATHCOV_FN_CALLS_ARE_PATH, c_counters);
/* Paths without a loop nothing can interrupt: their counts are its calls. */
static uint64_t p_counters[FAKE_COUNTERS(3)];
FAKE_FUNCTION(fn_p, "paths_are_calls", 3, PATHCOV_FN_PATHS_ARE_CALLS, p_counters);
static uint64_t s_seen[2 * 16];
FAKE_HASHED_SEEN(fn_s, "slotted", 1000000, s_seen, 16);
/* 2^20 counters (8 MiB of .bss), as array-threshold gives a function of a
 * million paths. */
#define BIG_COUNTERS (1u << 20)
static uint64_t big_counters[BIG_COUNTERS];
FAKE_ARRAY_FUNCTION(fn_big, "big", BIG_COUNTERS - 1, PATHCOV_FN_ENTRY_COUNTED,
                    big_counters, BIG_COUNTERS - 1);

static void repeat(struct pathcov_function *fn, uint64_t id, int times) {
  for (int i = 0; i < times; ++i)
    fake_path(fn, id);
}

static void counts(void) {
  for (int i = 0; i < 5; ++i)
    fake_enter(&fn_a);
  repeat(&fn_a, 0, 3);
  repeat(&fn_a, 7, 2);
  repeat(&fn_a, 8, 2);             /* out of range, inline */
  __pathcov_record_path(&fn_a, 3); /* through the runtime: in range... */
  __pathcov_record_path(&fn_a, 9); /* ...and out of range */
  for (int i = 0; i < 4; ++i)
    fake_enter(&fn_h);
  repeat(&fn_h, 999999999999ull, 1);
  repeat(&fn_h, 5, 2);
  repeat(&fn_h, 123456789, 1);
  repeat(&fn_h, 1000000000000ull, 1);
  repeat(&fn_h, UINT64_MAX, 1);
  fake_enter(&fn_w);
  repeat(&fn_w, 0, 1);
  for (int i = 0; i < 6; ++i)
    fake_enter(&fn_c); /* and no fake_path: nothing counts its path */
  repeat(&fn_p, 0, 2);
  repeat(&fn_p, 2, 3);
  fake_enter(&fn_p); /* a copy inlined before the plugin dropped the count */
}

/* One scenario's worth for many processes: a_calls 1 [[1, 3]], h [[42, 1]]. */
static void simple(void) {
  fake_enter(&fn_a);
  repeat(&fn_a, 1, 3);
  repeat(&fn_h, 42, 1);
}

/* Code that runs after main returns, in an atexit handler and in a
 * destructor of this module, still reaches the exit profile. */
static int count_at_exit;
static void at_exit(void) {
  fake_enter(&fn_a);
  fake_path(&fn_a, 4);
}
__attribute__((destructor)) static void late_destructor(void) {
  if (count_at_exit) {
    fake_enter(&fn_a);
    fake_path(&fn_a, 5);
  }
}

static int exit_handlers(void) {
  count_at_exit = 1;
  if (atexit(at_exit) != 0)
    return 1;
  simple();
  return 0;
}

enum { THREADS = 8, RECORDS = 100000 };

/* Even records: ids all threads share (they race to insert the same keys);
 * odd records: ids of this thread only. */
static void *worker(void *arg) {
  uint64_t t = (uint64_t)(uintptr_t)arg;
  for (uint64_t i = 0; i < RECORDS; ++i) {
    fake_enter(&fn_at);
    fake_path(&fn_at, i % 16);
    fake_enter(&fn_ht);
    fake_path(&fn_ht, i & 1 ? 10000 + t * 5000 + i % 5000 : i % 4000);
  }
  return NULL;
}

static int threads(void) {
  pthread_t tids[THREADS];
  for (uintptr_t t = 0; t < THREADS; ++t)
    if (pthread_create(&tids[t], NULL, worker, (void *)t) != 0)
      return 1;
  for (int t = 0; t < THREADS; ++t)
    pthread_join(tids[t], NULL);
  return 0;
}

static int fork_scenario(void) {
  fake_enter(&fn_a);
  repeat(&fn_a, 0, 10);
  repeat(&fn_h, 1, 10);
  fflush(stdout);
  pid_t child = fork();
  if (child < 0)
    return 1;
  if (child == 0) {
    fake_enter(&fn_a);
    repeat(&fn_a, 1, 3);
    repeat(&fn_h, 2, 3);
    exit(0);
  }
  int status;
  if (waitpid(child, &status, 0) != child || status != 0)
    return 1;
  repeat(&fn_a, 2, 5);
  repeat(&fn_h, 1, 5);
  printf("child %ld\n", (long)child);
  return 0;
}

static int flush(void) {
  fake_enter(&fn_a); /* discarded by pathcov_reset */
  repeat(&fn_a, 0, 4);
  repeat(&fn_h, 9, 4);
  if (pathcov_reset() != 0)
    return 1;
  fake_enter(&fn_a);
  fake_enter(&fn_a);
  repeat(&fn_a, 1, 2);
  repeat(&fn_h, 10, 2);
  if (pathcov_flush() != 0)
    return 1;
  /* Still running the call the flush saw: no call since it, and its
   * counters must still be read (PATHCOV_FN_ENTRY_COUNTED). */
  repeat(&fn_a, 1, 1);
  repeat(&fn_a, 2, 1);
  repeat(&fn_h, 10, 1);
  repeat(&fn_h, 11, 1);
  return 0;
}

/* A flush into a missing directory fails with ENOENT and keeps the counts. */
static int flush_fail(const char *missing) {
  fake_enter(&fn_a);
  repeat(&fn_a, 0, 1);
  char *dir = strdup(getenv("PATHCOV_PROFILE_DIR"));
  setenv("PATHCOV_PROFILE_DIR", missing, 1);
  int result = pathcov_flush();
  int error = errno;
  setenv("PATHCOV_PROFILE_DIR", dir, 1);
  free(dir);
  printf("flush %d %s\n", result, result ? strerror(error) : "-");
  repeat(&fn_a, 1, 1);
  return 0;
}

/* 70000 distinct ids, id i recorded i % 3 + 1 times: the first 65536 fill
 * the table, the rest are dropped. */
static void overflow(void) {
  fake_enter(&fn_o);
  for (uint64_t i = 0; i < 70000; ++i)
    repeat(&fn_o, i, (int)(i % 3) + 1);
}

/* A hashed function's seen slots (__pathcov_record_miss): path 3 claims
 * slot 3 and is then counted there inline; path 19 (slot 3 too) is
 * counted in the table every time; path 5 claims slot 5; slot 0 is path
 * 0's. A forked child starts from zero, its parent's slots free again
 * (claimed anew, listed in its own table). Prints "slots A B C", what
 * slots 3, 5 and 0 counted before the fork (the runtime counts a path's
 * first run in the slot it claims for it). */
static int slots(void) {
  fake_enter(&fn_s);
  for (int i = 0; i < 5; ++i)
    fake_path_seen(&fn_s, 3);
  for (int i = 0; i < 4; ++i)
    fake_path_seen(&fn_s, 19);
  fake_path_seen(&fn_s, 5);
  fake_path_seen(&fn_s, 5);
  /* An id out of range (a plugin bug) claims no slot, not even a free
   * one: counted as invalid. Slot 0 is path 0's from the start: path 16,
   * whose slot it is too, is counted in the table, path 0 in the slot,
   * inline, without ever calling the runtime. */
  fake_path_seen(&fn_s, 2000000);
  fake_path_seen(&fn_s, 16);
  fake_path_seen(&fn_s, 16);
  fake_path_seen(&fn_s, 0);
  printf("slots %llu %llu %llu\n", (unsigned long long)s_seen[16 + 3],
         (unsigned long long)s_seen[16 + 5], (unsigned long long)s_seen[16]);
  fflush(stdout);
  pid_t child = fork();
  if (child < 0)
    return 1;
  if (child == 0) {
    fake_path_seen(&fn_s, 3);
    fake_path_seen(&fn_s, 19);
    exit(0);
  }
  int status;
  return waitpid(child, &status, 0) == child && status == 0 ? 0 : 1;
}

/* A test that dies: counts, then abort() (the crash handler's profile,
 * reason signal, signal 6). */
static int crash(void) {
  counts();
  abort();
}

/* A helper its harness ends: counts, says so, then waits for SIGTERM
 * (a test build writes its profile on it by default). */
__attribute__((noreturn)) static void terminated(void) {
  counts();
  printf("ready\n");
  fflush(stdout);
  for (;;)
    pause(); /* until a signal ends the process */
}

/* The profile exceeds the file size limit: write(2) fails with EFBIG. */
/* The pages of [p, p + bytes) in memory. */
static size_t resident_pages(const void *p, size_t bytes) {
  const uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  const uintptr_t start = (uintptr_t)p / page * page;
  const size_t pages = ((uintptr_t)p + bytes - start + page - 1) / page;
  static unsigned char in_core[BIG_COUNTERS * sizeof(uint64_t) / 4096 + 2];
  if (pages > sizeof in_core || mincore((void *)start, pages * page, in_core) != 0)
    return (size_t)-1;
  size_t resident = 0;
  for (size_t i = 0; i < pages; ++i)
    resident += in_core[i] & 1;
  return resident;
}

/* Three pages of the big array written: the flush's profile reads those
 * and maps no other. */
static int large_array(void) {
  fake_enter(&fn_big);
  repeat(&fn_big, 7, 2);
  repeat(&fn_big, 600000, 1);
  repeat(&fn_big, BIG_COUNTERS - 2, 3);
  if (pathcov_flush() != 0)
    return 1;
  printf("resident %zu\n", resident_pages(big_counters, sizeof big_counters));
  fake_enter(&fn_big);
  repeat(&fn_big, 8, 1);
  return 0;
}

static int big_file(void) {
  struct rlimit limit = {64, 64};
  signal(SIGXFSZ, SIG_IGN);
  if (setrlimit(RLIMIT_FSIZE, &limit) != 0)
    return 1;
  counts();
  return 0;
}

int main(int argc, char **argv) {
  const char *scenario = argc > 1 ? argv[1] : "";
  if (strcmp(scenario, "counts") == 0)
    counts();
  else if (strcmp(scenario, "simple") == 0)
    simple();
  else if (strcmp(scenario, "exit-handlers") == 0)
    return exit_handlers();
  else if (strcmp(scenario, "threads") == 0)
    return threads();
  else if (strcmp(scenario, "fork") == 0)
    return fork_scenario();
  else if (strcmp(scenario, "flush") == 0)
    return flush();
  else if (strcmp(scenario, "flush-fail") == 0 && argc > 2)
    return flush_fail(argv[2]);
  else if (strcmp(scenario, "overflow") == 0)
    overflow();
  else if (strcmp(scenario, "big-file") == 0)
    return big_file();
  else if (strcmp(scenario, "slots") == 0)
    return slots();
  else if (strcmp(scenario, "large-array") == 0)
    return large_array();
  else if (strcmp(scenario, "crash") == 0)
    return crash();
  else if (strcmp(scenario, "terminated") == 0)
    terminated();
  else {
    fprintf(stderr, "usage: rt_prog SCENARIO\n");
    return 2;
  }
  return 0;
}
