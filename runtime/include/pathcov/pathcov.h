/* The public API of the pathcov runtime (record and residual mode).
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
 * docs/record-formats.md, "Profile". A module built in residual mode writes
 * a report instead, at exit and on a crash when it ran at least one
 * residual (untested) path (with count-tested=1, any path), and on request
 * (below); see
 * docs/residual-mode.md. */
#ifndef PATHCOV_PATHCOV_H
#define PATHCOV_PATHCOV_H

#include <stddef.h>

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
 * one-line message then goes to stderr. In a secure-execution program
 * (set-user-ID, set-group-ID, file capabilities: AT_SECURE), whose profile
 * directory would be its caller's choice, it writes nothing, prints
 * nothing, keeps the counts and fails with EPERM. If the file could not even be
 * created (missing directory, permissions), no count was taken and the
 * counts stay for the next profile; a failure while writing (disk full)
 * loses the counts this profile held. A module without instrumented
 * functions writes nothing and returns 0. Thread-safe. */
int pathcov_flush(void);

/* Test harnesses that run many tests in one process (GoogleTest: include
 * <pathcov/gtest.h>, which does this for every test): pathcov_test_begin
 * names the tests' paths from now on `name` (at most 511 bytes kept)
 * instead of PATHCOV_TEST; pathcov_test_end writes the profile of every
 * instrumented module of the process now (reason "flush", test `name`),
 * taking their counts, and goes back to PATHCOV_TEST. So the corpus knows
 * which test ran each path. Paths run between two tests (a suite's
 * set-up) go with the next test's, or with the exit profile. Call both
 * from one thread, between tests. Residual modules write nothing here:
 * their report (at exit) names, per residual path, the test it first ran
 * in ("first_test"). */
void pathcov_test_begin(const char *name);
void pathcov_test_end(void);

/* Zeroes every count of the calling module without writing anything, e.g.
 * to leave set-up code out of the next profile. Thread-safe; returns 0
 * (it cannot fail). */
int pathcov_reset(void);

/* Residual mode: the calling module's report now (reason "request"), with
 * every residual path recorded since the process started (or, in a child,
 * since the fork), even when there is none; docs/residual-mode.md,
 * "Reports". A module without residual functions reports an empty list.
 * Reports asked for here are written whatever PATHCOV_REPORT says (it
 * turns off the automatic ones only). Thread-safe; the report is a
 * snapshot: paths recorded while it is being formatted may or may not be
 * in it. Nothing is printed on stderr: errors are returned. */

/* Writes the report to `path`: under a temporary name in the same
 * directory, renamed to `path` when complete (replacing any file of that
 * name, a symbolic link included, which is not followed), mode 0600. The
 * directory must exist; it is taken as `path` names it, links and all (the
 * program chose it), also in a secure-execution program. Returns 0, or -1
 * with errno set (nothing is left behind). */
int pathcov_report_write(const char *path);

/* Writes the report to the open descriptor `fd` (a file, pipe or socket;
 * blocking writes, in chunks). Returns 0, or -1 with errno set, in which
 * case part of the report may have been written. */
int pathcov_report_write_fd(int fd);

/* Formats the report into buffer[size] like snprintf: stores at most
 * size - 1 bytes and a terminating NUL (nothing when size is 0, and buffer
 * may then be NULL) and returns the report's full length, without the NUL.
 * The report fits when the result is less than size. Two calls can give
 * different lengths (counts and times move on): leave some room. */
size_t pathcov_report_buffer(char *buffer, size_t size);

#ifdef __cplusplus
}
#endif

#endif
