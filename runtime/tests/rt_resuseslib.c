/* An executable in residual mode using an instrumented library (linked):
 * two modules, two reports, at exit or (argv[1] "crash") on SIGSEGV, which
 * goes through both modules' handlers ("term": SIGTERM, "alarm": SIGALRM,
 * with PATHCOV_SIGNALS). With "api", prints the library's
 * report and its own, asked for through the API (built with
 * ENABLE_EXPORTS: the library's call must still reach the library's copy
 * of the runtime). With "exec", execs /bin/true (as the plugin compiles
 * execv) instead of exiting: both reports must be written before. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pathcov/pathcov.h>

#define FAKE_RESIDUAL_UNIT
#include "fake_plugin.h"

void reslib_work(int n);
size_t reslib_report(char *buf, size_t size);
int __pathcov_execv(const char *path, char *const argv[]);

FAKE_RESIDUAL(fn_exe, "exe_untested", 0x1234123412341234ull, 10, 0, 0, 0);

static volatile int *volatile nowhere;

static void print(size_t (*report)(char *, size_t)) {
  size_t n = report(NULL, 0);
  char *buf = malloc(n + 4096);
  report(buf, n + 4096);
  fputs(buf, stdout);
  free(buf);
}

int main(int argc, char **argv) {
  const char *how = argc > 1 ? argv[1] : "";
  reslib_work(1);
  reslib_work(1);
  reslib_work(2);
  fake_residual_end(&fn_exe, 0, 7);
  if (strcmp(how, "crash") == 0) {
    *nowhere = 1;
  } else if (strcmp(how, "term") == 0) {
    kill(getpid(), SIGTERM);
  } else if (strcmp(how, "alarm") == 0) { /* the kernel's: si_code > 0 */
    alarm(1);
    pause();
  } else if (strcmp(how, "api") == 0) {
    print(reslib_report);
    printf("----\n");
    print(pathcov_report_buffer);
  } else if (strcmp(how, "exec") == 0) {
    char *const true_argv[] = {"true", NULL};
    __pathcov_execv("/bin/true", true_argv);
    return 1;
  }
  return 0;
}
