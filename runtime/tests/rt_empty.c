/* A module that links the runtime but has nothing instrumented (no section
 * pathcov_functions: the runtime's weak __start_/__stop_ symbols are null):
 * it links, the API works, and no profile is written. */
#include <pathcov/pathcov.h>

int main(void) { return pathcov_flush() != 0 || pathcov_reset() != 0; }
