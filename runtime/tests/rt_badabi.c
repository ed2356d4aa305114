/* Descriptors the runtime must refuse without crashing: another ABI version,
 * and an array function without counters. Only fn_good is counted. */
#include "fake_plugin.h"

static uint64_t good_counters[FAKE_COUNTERS(2)];
FAKE_FUNCTION(fn_good, "good", 2, 0, good_counters);
FAKE_FUNCTION(fn_no_counters, "no_counters", 4, 0, 0);
static struct pathcov_function fn_future = {
    .abi_version = PATHCOV_ABI_VERSION + 98, .num_paths = 4,
    .identity = "future", .counters = good_counters};
static struct pathcov_function *const fn_future_entry
    __attribute__((section("pathcov_functions"), used)) = &fn_future;

int main(void) {
  fake_enter(&fn_good);
  fake_path(&fn_good, 0);
  __pathcov_record_path(&fn_no_counters, 1);
  __pathcov_record_path(&fn_future, 1);
  __pathcov_record_path(&fn_future, 100);
  return 0;
}
