// Calls that replace or duplicate the process (exec*, vfork), redirected to
// the runtime's wrappers (runtime/src/exec.c).
#pragma once

#include "GccIncludes.h"

namespace pathcov {

// Makes fun's calls to execl, execle, execlp, execv, execve, execvp,
// execvpe and fexecve calls to __pathcov_<name>, which write the process's
// profiles and reports first, and its calls to vfork calls to
// __pathcov_vfork (fork). Returns the TODO flags the change needs (0 if
// nothing changed).
unsigned redirectProcessCalls(function *fun);

// Keeps the wrappers' declarations alive across garbage collections.
void registerProcessCallRoots(const char *pluginName);

} // namespace pathcov
