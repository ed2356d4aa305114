/* One array function, counted inline only, as the plugin emits it: only
 * the reference to __pathcov_runtime_missing_link_with_lpathcov_rt links the runtime in, and the
 * profile must still be written. */
#include <pathcov/abi.h>
#include <pathcov/pathcov.h> /* installed, and compiles */

static uint64_t counters[4]; /* abi.h: a power of two above num_paths */
static uint64_t calls;
static struct pathcov_function fn = {.abi_version = PATHCOV_ABI_VERSION,
                                     .num_paths = 3,
                                     .identity = "consumer",
                                     .counters = counters,
                                     .calls = &calls,
                                     .table_size = 3};
static struct pathcov_function *const entry
    __attribute__((section("pathcov_functions"), used)) = &fn;
static const void *const runtime_link __attribute__((used)) =
    &__pathcov_runtime_missing_link_with_lpathcov_rt;

int main(void) {
  ++calls;
  ++counters[2];
  return 0;
}
