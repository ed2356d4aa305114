/* The public API of the pathcov record-mode runtime.
 *
 * Every instrumented module (the executable and each instrumented shared
 * library) links its own copy of the runtime (libpathcov-rt.a), and each copy
 * counts and writes the paths of its own module only. These functions act on
 * the module whose code calls them: the runtime exports them with protected
 * visibility, so a call binds to the caller's own copy even when another
 * module exports the same name. To flush a shared library's counts, call
 * pathcov_flush() from code in that library.
 *
 * Without calls to this API the runtime writes one profile per process and
 * module at exit (or at dlclose of a shared library); see
 * docs/record-formats.md, "Profile". */
#ifndef PATHCOV_PATHCOV_H
#define PATHCOV_PATHCOV_H

#ifdef __cplusplus
extern "C" {
#endif

/* Writes a profile of the calling module now, with reason "flush", holding
 * every count since the process started or since the last pathcov_flush()
 * or pathcov_reset(), and zeroes those counts; the profiles of one process
 * therefore add up exactly to what ran (exactly for atomic counters: plain
 * counters updated by another thread during the flush can lose that
 * thread's increment, as plain counters can at any time).
 *
 * Returns 0, or -1 with errno set when the profile could not be written; a
 * one-line message then goes to stderr. If the file could not even be
 * created (missing directory, permissions), no count was taken and the
 * counts stay for the next profile; a failure while writing (disk full)
 * loses the counts this profile held. A module without instrumented
 * functions writes nothing and returns 0. Thread-safe. */
int pathcov_flush(void);

/* Zeroes every count of the calling module without writing anything, e.g.
 * to leave set-up code out of the next profile. Thread-safe; returns 0
 * (it cannot fail). */
int pathcov_reset(void);

#ifdef __cplusplus
}
#endif

#endif
