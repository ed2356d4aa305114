/* __pathcov_site_history: pathcov_site_history(fn, id) (history.c), where
 * a path end's history entry falls on its ring's index 0: once a lap, and
 * at a thread's first path end (abi.h, PATHCOV_HISTORY_*). The call site
 * and the stub are those of path_miss_x86_64.S. Apart from it, so that
 * only the modules built with history=N, whose code names this stub, link
 * history.c. */
#if defined(__x86_64__) && defined(__ELF__)
        .text
#include "path_miss_stub.inc"

        PATH_MISS_STUB __pathcov_site_history, pathcov_site_history
#endif
        .section .note.GNU-stack,"",@progbits
