/* An instrumented executable using an instrumented library (linked, not
 * dlopen'ed), both flushing once. Built with ENABLE_EXPORTS, so that this
 * executable exports its own pathcov_flush: the library's call must still
 * reach the library's copy. `rt_useslib exec` ends with the executable's
 * exec of /bin/true (as the plugin compiles execv) instead of exit: both
 * modules' profiles must be written before it. */
#include <pathcov/pathcov.h>
#include <string.h>

#include "fake_plugin.h"

void shlib_work(int n);
int shlib_flush(void);

static uint64_t e_counters[FAKE_COUNTERS(2)];
FAKE_FUNCTION(fn_e, "exe_array", 2, 0, e_counters);

int __pathcov_execv(const char *path, char *const argv[]);

int main(int argc, char **argv) {
  shlib_work(1);
  shlib_work(2);
  fake_enter(&fn_e);
  fake_path(&fn_e, 1);
  if (pathcov_flush() != 0 || shlib_flush() != 0)
    return 1;
  shlib_work(3);
  fake_enter(&fn_e);
  fake_path(&fn_e, 0);
  if (argc > 1 && strcmp(argv[1], "exec") == 0) {
    char *const true_argv[] = {"true", NULL};
    __pathcov_execv("/bin/true", true_argv);
    return 1;
  }
  return 0;
}
