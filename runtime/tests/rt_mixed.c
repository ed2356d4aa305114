/* A module with functions of both modes, and a residual descriptor of
 * another ABI version: the profile lists the record-mode function only
 * (with invalid_descriptors 1), the report the residual paths of the
 * valid residual function only. Built with FAKE_RESIDUAL_UNIT
 * (rt_resbadabi), the module has no record-mode function and so no
 * record.c: the runtime still says so of the descriptor, and writes no
 * profile. */
#include "fake_plugin.h"

#ifndef FAKE_RESIDUAL_UNIT
static uint64_t rec_counters[FAKE_COUNTERS(4)];
FAKE_FUNCTION(fn_rec, "recorded", 4, 0, rec_counters);
#endif
static uint64_t res_table[2][2 + 1] = {{1, 2, UINT64_MAX}};
FAKE_RESIDUAL(fn_res, "residual", 0x0123456789abcdefull, 4, 0, res_table, 2);
static struct pathcov_function fn_old = {
    .abi_version = 1, .flags = PATHCOV_FN_RESIDUAL, .num_paths = 4,
    .identity = "old_abi"};
static struct pathcov_function *const fn_old_entry
    __attribute__((section("pathcov_functions"), used)) = &fn_old;

int main(void) {
#ifndef FAKE_RESIDUAL_UNIT
  fake_enter(&fn_rec);
  fake_path(&fn_rec, 2);
#endif
  fake_residual_end(&fn_res, 0, 1); /* tested */
  fake_residual_end(&fn_res, 1, 3); /* residual */
  fake_residual_end(&fn_res, 1, 3);
  __pathcov_residual_path(&fn_old, 1); /* ignored */
  __pathcov_residual_lookup(&fn_old, 2);
  return 0;
}
