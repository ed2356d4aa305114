/* A residual-mode module (no record-mode unit: record.c is not linked)
 * with a descriptor of another ABI version: the runtime says so on stderr,
 * as a record-mode module's does, and reports the residual paths of the
 * valid function only. */
#define FAKE_RESIDUAL_UNIT
#include "fake_plugin.h"

static uint64_t res_table[2][2 + 1] = {{1, 2, UINT64_MAX}};
FAKE_RESIDUAL(fn_res, "residual", 0x0123456789abcdefull, 4, 0, res_table, 2);
static struct pathcov_function fn_old = {
    .abi_version = 1, .flags = PATHCOV_FN_RESIDUAL, .num_paths = 4,
    .identity = "old_abi"};
static struct pathcov_function *const fn_old_entry
    __attribute__((section("pathcov_functions"), used)) = &fn_old;

int main(void) {
  fake_residual_end(&fn_res, 0, 1); /* tested */
  fake_residual_end(&fn_res, 1, 3); /* residual */
  __pathcov_residual_path(&fn_old, 1); /* ignored */
  return 0;
}
