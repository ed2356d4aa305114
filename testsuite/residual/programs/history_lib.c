/* A shared library built with history=N, loaded with dlopen by a program
 * that is not instrumented (check_history.py): its thread-local pointer
 * (initial exec) must fit the loader's static TLS surplus, and its report
 * holds the library's own paths. */
#include <pathcov/pathcov.h>

__attribute__((visibility("default"))) int lib_work(int n) {
  int total = 0;
  for (int i = 0; i < n; ++i)
    total += i & 1 ? i : -i; /* mark: lib-body */
  return total;
}

__attribute__((visibility("default"))) int lib_report(const char *path) {
  return pathcov_report_write(path);
}
