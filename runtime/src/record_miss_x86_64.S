/* Record mode's miss (path_miss_x86_64.S says how the stubs are called):
 *   __pathcov_site_record_miss: __pathcov_record_miss(fn, id), a path of a
 *     hashed record-mode function not in its seen slot. */
#if defined(__x86_64__) && defined(__ELF__)
        .text

#include "path_miss_stub.inc"

        PATH_MISS_STUB __pathcov_site_record_miss, __pathcov_record_miss
#endif
        .section .note.GNU-stack,"",@progbits
