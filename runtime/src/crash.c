/* A process dying of a crash signal (docs/residual-mode.md, "Reports";
 * docs/record-mode.md, "Run the tests") still writes what this module
 * counted: its residual report (residual.c) and, in a test build, its
 * profile (record.c), each registered here as a writer. A test that ends
 * in abort() or a fault (a death test) ran its paths like any other.
 *
 * Handlers are installed for SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT
 * once the first writer registers, one set per module (each module links
 * its own copy of the runtime), each chaining to the action it replaced.
 * Everything a writer does there is async-signal-safe: raw system calls,
 * no allocation, no stdio, the directories as the environment named them
 * at start-up (the test name of a profile or a report is read as getenv
 * does: a scan of environ, with no lock and no allocation). */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
#define CRASH_SIGNALS (sizeof crash_signals / sizeof crash_signals[0])
#define MAX_WRITERS 2 /* the report, the profile */

static struct {
  int handlers; /* installed */
  struct sigaction previous[CRASH_SIGNALS];
  int writer_tid; /* the thread writing for a crash now, or 0 */
  void (*writers[MAX_WRITERS])(int signal);
  unsigned num_writers;
} crash;

/* A forked child writes for its own crashes, whoever was writing when its
 * parent forked. */
static void reset_in_child(void) { crash.writer_tid = 0; }

static int crash_index(int sig) {
  for (size_t i = 0; i < CRASH_SIGNALS; ++i)
    if (crash_signals[i] == sig)
      return (int)i;
  return -1;
}

/* Installed with SA_RESETHAND: the signal's action is already SIG_DFL.
 * Runs the writers, puts the previous action back and makes the signal
 * happen again for it: a fault the kernel raised (si_code > 0) recurs when
 * the faulting instruction runs again, with its original siginfo, for a
 * previous handler; anything else is raised again (pending until this
 * handler returns, the signal being blocked meanwhile). With SIG_DFL
 * before us, it is raised in any case: the process dies of it, with a core
 * dump if enabled, whatever the fault was. */
static void on_crash(int sig, siginfo_t *info, void *context) {
  (void)context;
  int saved = errno;
  int self = (int)gettid();
  int writer = 0;
  if (__atomic_compare_exchange_n(&crash.writer_tid, &writer, self, 0,
                                  __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE)) {
    for (unsigned i = 0; i < crash.num_writers; ++i)
      crash.writers[i](sig);
    __atomic_store_n(&crash.writer_tid, 0, __ATOMIC_RELEASE);
  } else if (writer != self) {
    /* Another thread crashed first and is writing: give it up to 10 s
     * before this signal takes the process down. */
    struct timespec tick = {0, 10 * 1000 * 1000};
    for (int i = 0; i < 1000 && __atomic_load_n(&crash.writer_tid,
                                                __ATOMIC_ACQUIRE); ++i)
      nanosleep(&tick, NULL);
  } /* else: a crash in this thread while it writes: nothing more */
  int k = crash_index(sig);
  const struct sigaction *previous = &crash.previous[k < 0 ? 0 : k];
  if (k >= 0)
    sigaction(sig, previous, NULL);
  if (k < 0 || previous->sa_handler == SIG_DFL || !info || info->si_code <= 0)
    raise(sig);
  errno = saved;
}

/* The alternate signal stack of the thread that loads the module (the main
 * thread, unless a library is dlopen'ed), so that a stack overflow can be
 * reported: mapped once, never unmapped (the thread may outlive the
 * module). A stack the program set up already is kept. */
static void set_alternate_stack(void) {
  stack_t old;
  if (sigaltstack(NULL, &old) != 0 || !(old.ss_flags & SS_DISABLE))
    return;
  size_t size = 64 * 1024;
  long min = sysconf(_SC_SIGSTKSZ);
  if (min > 0 && (size_t)min * 4 > size)
    size = (size_t)min * 4;
  void *stack = pathcov_map_zeroed(size, MAP_STACK);
  if (stack == MAP_FAILED)
    return;
  stack_t ss = {.ss_sp = stack, .ss_size = size, .ss_flags = 0};
  if (sigaltstack(&ss, NULL) != 0)
    munmap(stack, size);
}

static void install_handlers(void) {
  set_alternate_stack();
  struct sigaction sa;
  memset(&sa, 0, sizeof sa);
  sa.sa_sigaction = on_crash;
  sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
  /* While the files are written, other signals wait (a SIGTERM or SIGINT
   * would kill the process before the rename); crash signals do not
   * (blocked, a fault would kill it at once, without the others'
   * handlers). */
  sigfillset(&sa.sa_mask);
  for (size_t i = 0; i < CRASH_SIGNALS; ++i)
    sigdelset(&sa.sa_mask, crash_signals[i]);
  for (size_t i = 0; i < CRASH_SIGNALS; ++i)
    if (sigaction(crash_signals[i], &sa, &crash.previous[i]) != 0)
      crash.previous[i].sa_handler = SIG_DFL;
  if (!crash.handlers)
    pthread_atfork(NULL, NULL, reset_in_child);
  crash.handlers = 1;
}

/* Writers register from the module's constructors, before any thread of
 * the program could crash in its code. */
void pathcov_crash_writer_add(void (*write)(int signal)) {
  if (crash.num_writers == MAX_WRITERS)
    return;
  crash.writers[crash.num_writers++] = write;
  if (!crash.handlers)
    install_handlers();
}

void pathcov_crash_handlers_remove(void) {
  if (!crash.handlers)
    return;
  for (size_t i = 0; i < CRASH_SIGNALS; ++i) {
    struct sigaction current;
    if (sigaction(crash_signals[i], NULL, &current) == 0 &&
        (current.sa_flags & SA_SIGINFO) && current.sa_sigaction == on_crash)
      sigaction(crash_signals[i], &crash.previous[i], NULL);
  }
  crash.handlers = 0;
}
