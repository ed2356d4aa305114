/* Preloaded into the compiler by check_corpus_cache.py to give it the
   file systems CI machines have: PATHCOV_QUIRK_CLOCK_BEHIND=S sets the
   wall clock S seconds behind the one that dates files (a file server's,
   or a kernel that dates changes finer than the coarse clock);
   PATHCOV_QUIRK_NO_LOCKS makes flock fail with ENOLCK (NFS without lockd,
   some FUSE and 9p mounts). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/file.h>
#include <time.h>

int clock_gettime(clockid_t clock, struct timespec *now) {
  static int (*real)(clockid_t, struct timespec *);
  if (!real)
    real = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
  const int result = real(clock, now);
  const char *behind = getenv("PATHCOV_QUIRK_CLOCK_BEHIND");
  if (result == 0 && behind &&
      (clock == CLOCK_REALTIME || clock == CLOCK_REALTIME_COARSE))
    now->tv_sec -= atol(behind);
  return result;
}

int flock(int fd, int operation) {
  static int (*real)(int, int);
  if (getenv("PATHCOV_QUIRK_NO_LOCKS")) {
    errno = ENOLCK;
    return -1;
  }
  if (!real)
    real = (int (*)(int, int))dlsym(RTLD_NEXT, "flock");
  return real(fd, operation);
}
