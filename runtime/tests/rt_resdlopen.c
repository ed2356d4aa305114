/* Loads the residual-mode library argv[1] with dlopen (an uninstrumented
 * executable without the runtime), runs a residual path, dlclose's it (the
 * library writes its report, reason exit, and puts SIGSEGV's previous
 * action back), then crashes with SIGSEGV: the library's handler must be
 * gone (its code is unmapped). */
#include <dlfcn.h>
#include <signal.h>
#include <stdio.h>

static volatile int *volatile nowhere;

static int segv_is_default(void) {
  struct sigaction sa;
  sigaction(SIGSEGV, NULL, &sa);
  return !(sa.sa_flags & SA_SIGINFO) && sa.sa_handler == SIG_DFL;
}

int main(int argc, char **argv) {
  if (argc != 2)
    return 1;
  printf("before dlopen: default %d\n", segv_is_default());
  void *handle = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    fprintf(stderr, "%s\n", dlerror());
    return 1;
  }
  void (*work)(int) = (void (*)(int))dlsym(handle, "reslib_work");
  if (!work)
    return 1;
  work(5);
  printf("loaded: default %d\n", segv_is_default());
  if (dlclose(handle) != 0)
    return 1;
  printf("after dlclose: default %d\n", segv_is_default());
  fflush(stdout);
  *nowhere = 1;
  return 0;
}
