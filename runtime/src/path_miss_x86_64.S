/* The misses of instrumented code, with every general register preserved
 * (flags excepted), so that a path end's cold branch clobbers nothing and
 * costs its function's hot code no saved registers (residual_table.c says
 * why no vector register needs saving):
 *   __pathcov_site_residual_path: __pathcov_residual_path(fn, id), a
 *     residual path not yet in its seen slot;
 *   __pathcov_site_residual_word: __pathcov_residual_word(fn, id), a seen
 *     word gone negative;
 *   __pathcov_site_record_miss: __pathcov_record_miss(fn, id), a path of a
 *     hashed record-mode function not in its seen slot.
 *
 * The plugin calls them from inline assembly (plugin/PathMiss.cc,
 * callStub), which moves the stack pointer 128 bytes down first to step
 * over the red zone, pushes a value v and calls. The call returns to a
 * 2-byte jump over two 32-bit words of data: the descriptor's address less
 * the first word's, and a constant c; the id is v + c. So the call site
 * needs no register of its own, and its descriptor costs 6 bytes (the
 * word and the jump), not the 8 of an address loaded and pushed. The
 * stub returns where it was called
 * from (a shadow stack and the return predictor see a plain return), and
 * `ret $136` pops v and steps back over the red zone. (The names change
 * with that contract: an object compiled for another stub fails to link
 * instead of running with a wrong stack.) Their own frame is realigned for
 * the call into C. */
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
        movq    8(%rbp), %rax   /* the call site's jump over its data */
        movslq  2(%rax), %rdi
        leaq    2(%rax,%rdi), %rdi /* fn */
        movslq  6(%rax), %rsi
        addq    16(%rbp), %rsi  /* id = v + c */
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
        ret     $136
        .cfi_endproc
        .size   \name, .-\name
.endm

        PATH_MISS_STUB __pathcov_site_residual_path, __pathcov_residual_path
        PATH_MISS_STUB __pathcov_site_residual_word, __pathcov_residual_word
        PATH_MISS_STUB __pathcov_site_record_miss, __pathcov_record_miss
#endif
        .section .note.GNU-stack,"",@progbits
