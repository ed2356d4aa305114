/* exec and vfork (docs/residual-mode.md, "exec and vfork"). exec* replaces
 * the process image: no destructor runs, so what the process counted would
 * never be written. The plugin therefore compiles calls to execl, execle,
 * execlp, execv, execve, execvp, execvpe and fexecve in instrumented code as
 * calls to the __pathcov_ wrappers below (as GCC's -fprofile-arcs does for
 * libgcov's __gcov_exec*), which write the profiles and reports of every
 * instrumented module of the process, as at exit, and then call the real
 * function. A call site, not symbol interposition: it works alike for
 * executables, shared libraries and -static links, needs neither dlsym nor
 * a definition of libc's names that would clash with libc.a's, and the
 * wrappers call libc by its plain name. Calls from uninstrumented code, or
 * through a function pointer, are not seen (nor are they by gcov).
 *
 * What was written is taken (record mode: counts zeroed; residual mode:
 * counts taken, paths listed again only when they run again), so that when
 * exec fails, the process goes on and its exit writes only what it ran
 * afterwards: nothing is counted twice.
 *
 * vfork: its child shares the parent's memory until it execs, so its paths
 * would be counted, and written at exec, as its parent's. The plugin
 * compiles vfork as __pathcov_vfork, which is fork (as Valgrind does; POSIX
 * lets vfork be fork): the child counts its own paths, from zero, and
 * writes them at exec.
 *
 * _exit, _Exit and daemon: the same way, the wrappers write as at exit
 * (reason "exit") before the process ends without destructors: a forked
 * child that leaves by _exit, a server's parent after it forked its
 * daemon. */
#include <errno.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "internal.h"

/* Every loaded copy of the runtime adds its hooks to one list, returned by
 * __pathcov_master: default visibility, so that the dynamic linker resolves
 * every module's call to the same definition (as libgcov's __gcov_master,
 * but a function: a variable defined in every module is, to AddressSanitizer,
 * an ODR violation). An executable exports it when a shared library of its
 * link defines it too; a library dlopen'ed by an executable that does not
 * export it keeps a list of its own: its exec calls write its own data and
 * the executable's exec calls do not write it. A runtime of another list
 * version that came first is left alone: this copy then keeps its own list. */
#define MASTER_VERSION 4 /* 2: a hook's write takes the reason; the test;
                            3: and whether it may be in a signal handler;
                            4: the ending signals */
struct pathcov_master {
  uint64_t version;
  struct pathcov_exec_hook *hooks;
  /* pathcov_test_begin's name for every module's profiles, "" if none. */
  char test[PATHCOV_TEST_NAME_MAX];
  /* crash.c's ending signals, once decided (bit n: signal n). */
  int ending_decided;
  uint64_t ending_signals;
};

__attribute__((visibility("default"))) struct pathcov_master *
__pathcov_master(void) {
  static struct pathcov_master list = {MASTER_VERSION, NULL, "", 0, 0};
  return &list;
}

static struct pathcov_master *master(void) {
  static struct pathcov_master own = {MASTER_VERSION, NULL, "", 0, 0};
  struct pathcov_master *shared = __pathcov_master();
  return shared->version == MASTER_VERSION ? shared : &own;
}

/* Hooks are added and removed by constructors and destructors, which the
 * dynamic loader runs one module at a time; a thread calling exec* while
 * another dlcloses an instrumented library is not supported. */
void pathcov_exec_hook_add(struct pathcov_exec_hook *hook) {
  struct pathcov_master *m = master();
  hook->next = m->hooks;
  __atomic_store_n(&m->hooks, hook, __ATOMIC_RELEASE);
}

void pathcov_exec_hook_remove(struct pathcov_exec_hook *hook) {
  for (struct pathcov_exec_hook **p = &master()->hooks; *p; p = &(*p)->next)
    if (*p == hook) {
      __atomic_store_n(p, hook->next, __ATOMIC_RELEASE);
      return;
    }
}

/* Decided by the first module to ask, from constructors (one module at a
 * time), so that every module handles the same signals, each chaining to
 * the one before it, whose handler is no longer SIG_DFL. */
uint64_t pathcov_ending_signals(uint64_t (*decide)(void)) {
  struct pathcov_master *m = master();
  if (!m->ending_decided) {
    m->ending_signals = decide();
    m->ending_decided = 1;
  }
  return m->ending_signals;
}

/* The process this module's memory belongs to: set at start-up and in a
 * forked child. A process with another pid shares it (vfork or clone with
 * CLONE_VM in code the plugin did not see): writing, and taking the counts,
 * there would take them from the parent. */
static pid_t owner;

static void owner_is_self(void) { owner = getpid(); }

__attribute__((constructor(101))) static void on_load(void) {
  owner_is_self();
  pthread_atfork(NULL, NULL, owner_is_self);
}

static void write_all(const char *reason, int from_handler) {
  if (getpid() != owner)
    return;
  int saved = errno;
  for (struct pathcov_exec_hook *h =
           __atomic_load_n(&master()->hooks, __ATOMIC_ACQUIRE);
       h; h = h->next)
    h->write(reason, from_handler);
  errno = saved;
}

static void before_exec(void) { write_all("exec", 0); }

const char *pathcov_harness_test_name(void) { return master()->test; }

const char *pathcov_test_name(void) {
  const char *name = pathcov_harness_test_name();
  return name[0] ? name : secure_getenv("PATHCOV_TEST");
}

/* Test harnesses (pathcov/gtest.h): one process, many tests. */
PATHCOV_EXPORT void pathcov_test_begin(const char *name) {
  char *test = master()->test;
  size_t len = name ? strlen(name) : 0;
  if (len >= PATHCOV_TEST_NAME_MAX)
    len = PATHCOV_TEST_NAME_MAX - 1;
  memcpy(test, name ? name : "", len);
  test[len] = 0;
}

PATHCOV_EXPORT void pathcov_test_end(void) {
  write_all("flush", 0);
  master()->test[0] = 0;
}

int __pathcov_execve(const char *path, char *const argv[],
                     char *const envp[]) {
  before_exec();
  return execve(path, argv, envp);
}

int __pathcov_execv(const char *path, char *const argv[]) {
  before_exec();
  return execv(path, argv);
}

int __pathcov_execvp(const char *file, char *const argv[]) {
  before_exec();
  return execvp(file, argv);
}

int __pathcov_execvpe(const char *file, char *const argv[],
                      char *const envp[]) {
  before_exec();
  return execvpe(file, argv, envp);
}

int __pathcov_fexecve(int fd, char *const argv[], char *const envp[]) {
  before_exec();
  return fexecve(fd, argv, envp);
}

enum list_call { LIST_EXECV, LIST_EXECVP, LIST_EXECVE };

/* execl, execlp, execle: the arguments after arg, up to the NULL, as an
 * argv on the stack (glibc's execl does the same), and for execle the
 * environment after the NULL. */
static int exec_list(enum list_call call, const char *path, const char *arg,
                     va_list ap) {
  size_t n = 0;
  va_list count;
  va_copy(count, ap);
  if (arg)
    while (va_arg(count, char *))
      ++n;
  va_end(count);
  char *argv[n + 2];
  argv[0] = (char *)arg;
  for (size_t i = 1; i <= n + 1 && argv[i - 1]; ++i)
    argv[i] = va_arg(ap, char *);
  switch (call) {
  case LIST_EXECVP:
    return __pathcov_execvp(path, argv);
  case LIST_EXECVE:
    return __pathcov_execve(path, argv, va_arg(ap, char *const *));
  default:
    return __pathcov_execv(path, argv);
  }
}

int __pathcov_execl(const char *path, const char *arg, ...) {
  va_list ap;
  va_start(ap, arg);
  int result = exec_list(LIST_EXECV, path, arg, ap);
  va_end(ap);
  return result;
}

int __pathcov_execlp(const char *file, const char *arg, ...) {
  va_list ap;
  va_start(ap, arg);
  int result = exec_list(LIST_EXECVP, file, arg, ap);
  va_end(ap);
  return result;
}

int __pathcov_execle(const char *path, const char *arg, ...) {
  va_list ap;
  va_start(ap, arg);
  int result = exec_list(LIST_EXECVE, path, arg, ap);
  va_end(ap);
  return result;
}

pid_t __pathcov_vfork(void) { return fork(); }

/* _exit and _Exit end the process without destructors: what it counted is
 * written first, as at exit (a forked child's work; a parent that forks a
 * daemon and leaves). */
void __pathcov__exit(int status) {
  write_all("exit", 1);
  _exit(status);
}

void __pathcov__Exit(int status) {
  write_all("exit", 1);
  _Exit(status);
}

/* daemon(3)'s parent leaves by _exit inside libc: what the process counted
 * so far is written first (the child counts from zero: fork). Should
 * daemon fail, the process goes on and counts nothing twice. */
int __pathcov_daemon(int nochdir, int noclose) {
  write_all("exit", 0);
  return daemon(nochdir, noclose);
}
