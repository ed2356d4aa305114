/* An instrumented shared library in residual mode, with its own copy of the
 * runtime (and its own report). */
#include <signal.h>
#include <string.h>

#include <pathcov/pathcov.h>

#define FAKE_RESIDUAL_UNIT
#include "fake_plugin.h"

FAKE_RESIDUAL(fn_lib, "lib_untested", 0xabcdefabcdefabcdull, 100, 0, 0, 0);

__attribute__((visibility("default"))) void reslib_work(int n) {
  fake_residual_end(&fn_lib, 0, 50 + (uint64_t)n);
}

/* This library's report, whatever the executable exports. */
__attribute__((visibility("default"))) size_t reslib_report(char *buf,
                                                            size_t size) {
  return pathcov_report_buffer(buf, size);
}
