/* The misses of instrumented code, with every general register preserved
 * (flags excepted), so that a path end's cold branch clobbers nothing and
 * costs its function's hot code no saved registers (residual_table.c says
 * why no vector register needs saving):
 *   __pathcov_residual_miss_below_red_zone: __pathcov_residual_path(fn, id),
 *     a residual path not yet in its seen slot;
 *   __pathcov_residual_word_below_red_zone: __pathcov_residual_word(fn,
 *     word), a seen word gone negative (its address in place of the id);
 *   __pathcov_record_miss_below_red_zone: __pathcov_record_miss(fn, id), a
 *     path of a hashed record-mode function not in its seen slot.
 *
 * The plugin calls them from inline assembly (plugin/PathMiss.cc,
 * buildMissAsm), which moves the stack pointer 128 bytes down first to step
 * over the red zone, then pushes id and fn: above the return address are
 * fn, id and the 128 bytes. Arguments on the stack tie no value of the
 * caller to %rdi and %rsi. `ret $144` pops them and steps back over the
 * red zone. (The names changed with that contract: an object compiled for
 * an earlier stub fails to link instead of running with a wrong stack.)
 * Their own frame is realigned for the call into C. */
#if defined(__x86_64__) && defined(__ELF__)
        .text

.macro PATH_MISS_STUB name, target
        .globl  \name
        .hidden \name
        .type   \name, @function
        .p2align 4
\name\():
        .cfi_startproc
        pushq   %rbp
        .cfi_def_cfa_offset 16
        .cfi_offset %rbp, -16
        movq    %rsp, %rbp
        .cfi_def_cfa_register %rbp
        pushq   %rax
        pushq   %rcx
        pushq   %rdx
        pushq   %rsi
        pushq   %rdi
        pushq   %r8
        pushq   %r9
        pushq   %r10
        pushq   %r11
        andq    $-16, %rsp
        movq    16(%rbp), %rdi
        movq    24(%rbp), %rsi
        call    \target
        leaq    -72(%rbp), %rsp
        popq    %r11
        popq    %r10
        popq    %r9
        popq    %r8
        popq    %rdi
        popq    %rsi
        popq    %rdx
        popq    %rcx
        popq    %rax
        popq    %rbp
        .cfi_def_cfa %rsp, 8
        ret     $144
        .cfi_endproc
        .size   \name, .-\name
.endm

        PATH_MISS_STUB __pathcov_residual_miss_below_red_zone, __pathcov_residual_path
        PATH_MISS_STUB __pathcov_residual_word_below_red_zone, __pathcov_residual_word
        PATH_MISS_STUB __pathcov_record_miss_below_red_zone, __pathcov_record_miss
#endif
        .section .note.GNU-stack,"",@progbits
