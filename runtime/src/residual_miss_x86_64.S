/* __pathcov_residual_miss_below_red_zone(fn in %rdi, id in %rsi):
 * __pathcov_residual_path for instrumented code, with every general
 * register preserved (flags excepted), so that the residual check's cold
 * branch clobbers nothing and costs its function's hot code no saved
 * registers (residual_table.c says why no vector register needs saving).
 *
 * The plugin calls it from inline assembly, which moves the stack pointer
 * 128 bytes down first to step over the red zone; the stub's `ret $128`
 * moves it back, which saves every call site an 8-byte `lea` (the name
 * changed with that contract, so an object compiled for the old stub, which
 * moved the stack pointer back itself, fails to link instead of running
 * with a wrong stack). Its own frame is realigned for the call into C. */
#if defined(__x86_64__) && defined(__ELF__)
        .text
        .globl  __pathcov_residual_miss_below_red_zone
        .hidden __pathcov_residual_miss_below_red_zone
        .type   __pathcov_residual_miss_below_red_zone, @function
        .p2align 4
__pathcov_residual_miss_below_red_zone:
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
        call    __pathcov_residual_path
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
        ret     $128
        .cfi_endproc
        .size   __pathcov_residual_miss_below_red_zone, .-__pathcov_residual_miss_below_red_zone
#endif
        .section .note.GNU-stack,"",@progbits
