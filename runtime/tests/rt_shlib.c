/* An instrumented shared library with its own copy of the runtime. */
#include <pathcov/pathcov.h>

#include "fake_plugin.h"

static uint64_t l1_counters[FAKE_COUNTERS(4)];
FAKE_FUNCTION(fn_l1, "lib_array", 4, 0, l1_counters);
FAKE_FUNCTION(fn_l2, "lib_hashed", 100000, PATHCOV_FN_HASHED, 0);

__attribute__((visibility("default"))) void shlib_work(int n) {
  fake_enter(&fn_l1);
  fake_path(&fn_l1, (uint64_t)n % 4);
  fake_enter(&fn_l2);
  fake_path(&fn_l2, 1000 + (uint64_t)n);
}

/* Flushes this library's profile, whatever the executable exports. */
__attribute__((visibility("default"))) int shlib_flush(void) {
  return pathcov_flush();
}
