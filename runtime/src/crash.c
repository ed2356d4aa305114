/* A process dying of a crash signal (docs/residual-mode.md, "Reports";
 * docs/record-mode.md, "Run the tests") still writes what this module
 * counted: its residual report (residual.c) and, in a test build, its
 * profile (record.c), each registered here as a writer. A test that ends
 * in abort() or a fault (a death test) ran its paths like any other.
 *
 * Handlers are installed for SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT
 * once the first writer registers, one set per module (each module links
 * its own copy of the runtime), each chaining to the action it replaced.
 * PATHCOV_SIGNALS adds signals whose default action ends the process
 * (TERM, INT, HUP, PIPE, ...), each where the program has not changed its
 * action by then. Without it, a test build adds SIGTERM, which test
 * harnesses end their helper processes with (a new user's libuv lost
 * every helper's profile); a release, none: a program may look at an
 * action to decide on its own (Python installs its SIGINT handler only
 * over SIG_DFL), and a handler would change what it sees.
 * Everything a writer does there is async-signal-safe: raw system calls,
 * no allocation, no stdio, the directories as the environment named them
 * at start-up (the test name of a profile or a report is read as getenv
 * does: a scan of environ, with no lock and no allocation). */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h> /* secure_getenv */
#include <string.h>
#include <strings.h> /* strncasecmp */
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "internal.h"

static const int crash_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
#define CRASH_SIGNALS (sizeof crash_signals / sizeof crash_signals[0])
#define MAX_WRITERS 2 /* the report, the profile */

/* What PATHCOV_SIGNALS may name: the signals whose default action ends the
 * process without a core dump, which the program did not ask for (SIGKILL
 * and SIGSTOP cannot be caught; the crash signals are handled anyway). */
static const struct {
  const char *name;
  int signal;
} ending_signals[] = {
    {"TERM", SIGTERM}, {"INT", SIGINT},   {"HUP", SIGHUP},
    {"PIPE", SIGPIPE}, {"QUIT", SIGQUIT}, {"ALRM", SIGALRM},
    {"USR1", SIGUSR1}, {"USR2", SIGUSR2}, {"XCPU", SIGXCPU},
    {"XFSZ", SIGXFSZ}, {"VTALRM", SIGVTALRM}, {"PROF", SIGPROF},
};
#define ENDING_SIGNALS (sizeof ending_signals / sizeof ending_signals[0])
#define MAX_HANDLED (CRASH_SIGNALS + ENDING_SIGNALS)

static struct {
  int handlers; /* installed */
  const char *ending_by_default; /* PATHCOV_SIGNALS when it is not set */
  int handled[MAX_HANDLED]; /* the signals handled, crash signals first */
  unsigned num_handled;
  struct sigaction previous[MAX_HANDLED];
  int writer_tid; /* the thread writing for a crash now, or 0 */
  void (*writers[MAX_WRITERS])(int signal);
  unsigned num_writers;
} crash;

/* A forked child writes for its own crashes, whoever was writing when its
 * parent forked. */
static void reset_in_child(void) { crash.writer_tid = 0; }

static int crash_index(int sig) {
  for (unsigned i = 0; i < crash.num_handled; ++i)
    if (crash.handled[i] == sig)
      return (int)i;
  return -1;
}

/* The signals PATHCOV_SIGNALS names, in any case ("TERM,INT", "sigterm", "all" for
 * every one of ending_signals; when it is not set, the module's default)
 * whose action is still SIG_DFL; warns of each name it does not know.
 * A secure-execution program registers no writer (record.c, residual.c),
 * so it never gets here to take a default. */
static uint64_t requested_signals(void) {
  uint64_t signals = 0;
  const char *list = secure_getenv("PATHCOV_SIGNALS");
  if (!list)
    list = crash.ending_by_default;
  while (list && *list) {
    size_t length = strcspn(list, ", ");
    const char *name = list;
    list += length + (list[length] != 0);
    if (length == 0)
      continue;
    if (length > 3 && strncasecmp(name, "SIG", 3) == 0) {
      name += 3;
      length -= 3;
    }
    const int all = length == 3 && strncasecmp(name, "all", 3) == 0;
    int known = all;
    for (size_t i = 0; i < ENDING_SIGNALS; ++i) {
      if (!all && (strlen(ending_signals[i].name) != length ||
                   strncasecmp(ending_signals[i].name, name, length) != 0))
        continue;
      known = 1;
      struct sigaction current;
      if (sigaction(ending_signals[i].signal, NULL, &current) == 0 &&
          !(current.sa_flags & SA_SIGINFO) && current.sa_handler == SIG_DFL)
        signals |= UINT64_C(1) << ending_signals[i].signal;
    }
    if (!known)
      pathcov_warn("PATHCOV_SIGNALS: unknown signal '%.*s' (TERM, INT, HUP, "
                   "PIPE, QUIT, ALRM, USR1, USR2, XCPU, XFSZ, VTALRM, PROF "
                   "or all)", (int)length, name);
  }
  return signals;
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
  /* Only a fault recurs by itself; an ending signal (k past the crash
   * signals: SIGALRM's si_code is positive too) is raised again. */
  if (k < 0 || (size_t)k >= CRASH_SIGNALS || previous->sa_handler == SIG_DFL ||
      !info || info->si_code <= 0)
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
  crash.num_handled = 0;
  for (size_t i = 0; i < CRASH_SIGNALS; ++i)
    crash.handled[crash.num_handled++] = crash_signals[i];
  const uint64_t ending = pathcov_ending_signals(requested_signals);
  for (size_t i = 0; i < ENDING_SIGNALS; ++i)
    if (ending & (UINT64_C(1) << ending_signals[i].signal))
      crash.handled[crash.num_handled++] = ending_signals[i].signal;
  for (unsigned i = 0; i < crash.num_handled; ++i)
    if (sigaction(crash.handled[i], &sa, &crash.previous[i]) != 0)
      crash.previous[i].sa_handler = SIG_DFL;
  if (!crash.handlers)
    pthread_atfork(NULL, NULL, reset_in_child);
  crash.handlers = 1;
}

/* Writers register from the module's constructors, before any thread of
 * the program could crash in its code. */
void pathcov_crash_writer_add(void (*write)(int signal),
                              const char *ending_by_default) {
  if (crash.num_writers == MAX_WRITERS)
    return;
  if (!crash.handlers)
    crash.ending_by_default = ending_by_default;
  crash.writers[crash.num_writers++] = write;
  if (!crash.handlers)
    install_handlers();
}

void pathcov_crash_handlers_remove(void) {
  if (!crash.handlers)
    return;
  for (unsigned i = 0; i < crash.num_handled; ++i) {
    struct sigaction current;
    if (sigaction(crash.handled[i], NULL, &current) == 0 &&
        (current.sa_flags & SA_SIGINFO) && current.sa_sigaction == on_crash)
      sigaction(crash.handled[i], &crash.previous[i], NULL);
  }
  crash.handlers = 0;
}
