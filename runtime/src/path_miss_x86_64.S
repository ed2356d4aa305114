/* The misses of instrumented code, with every general register preserved
 * (flags excepted), so that a path end's cold branch clobbers nothing and
 * costs its function's hot code no saved registers (residual_table.c says
 * why no vector register needs saving):
 *   __pathcov_site_residual_path: __pathcov_residual_path(fn, id), a
 *     residual path not yet in its seen slot;
 *   __pathcov_site_residual_word: __pathcov_residual_word(fn, id), a seen
 *     word gone negative;
 *   (both through pathcov_site_*, which also get the stub's frame, where
 *   context.c's walk of the path end's calling context starts;)
 *   and record mode's, in record_miss_x86_64.S (apart, so that each mode's
 *   binaries link only their own runtime).
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

#include "path_miss_stub.inc"

        PATH_MISS_STUB __pathcov_site_residual_path, pathcov_site_residual_path
        PATH_MISS_STUB __pathcov_site_residual_word, pathcov_site_residual_word

/* pathcov_preserving_vectors(fn, arg): fn(arg) with every vector, x87
 * and mask register saved around it (XSAVE, or FXSAVE where the system has
 * no XSAVE), for the code behind the stubs, which must leave them alone,
 * to call code that does not (glibc's _dl_find_object, context.c). The save area
 * is on the stack, 64-byte aligned, its size the processor's for the
 * enabled state components (CPUID leaf 0xD, asked once). */
        .globl  pathcov_preserving_vectors
        .hidden pathcov_preserving_vectors
        .type   pathcov_preserving_vectors, @function
        .p2align 4
pathcov_preserving_vectors:
        .cfi_startproc
        pushq   %rbp
        .cfi_def_cfa_offset 16
        .cfi_offset %rbp, -16
        movq    %rsp, %rbp
        .cfi_def_cfa_register %rbp
        pushq   %rbx
        pushq   %r12
        pushq   %r13
        .cfi_offset %rbx, -24
        .cfi_offset %r12, -32
        .cfi_offset %r13, -40
        movq    %rdi, %r12
        movq    %rsi, %r13
        /* The save area's size, found once (CPUID traps to the hypervisor
         * in a virtual machine): 1 for FXSAVE. */
        movl    xsave_size(%rip), %ebx
        testl   %ebx, %ebx
        jnz     1f
        movl    $1, %eax
        cpuid
        btl     $27, %ecx       /* OSXSAVE */
        movl    $1, %ebx
        jnc     0f
        movl    $0xd, %eax
        xorl    %ecx, %ecx
        cpuid                   /* ebx: the XSAVE area's size */
0:      movl    %ebx, xsave_size(%rip)
1:      cmpl    $1, %ebx
        je      2f
        subq    %rbx, %rsp
        andq    $-64, %rsp
        xorl    %eax, %eax      /* the XSAVE header must start zeroed */
        movq    %rax, 512(%rsp)
        movq    %rax, 520(%rsp)
        movq    %rax, 528(%rsp)
        movq    %rax, 536(%rsp)
        movq    %rax, 544(%rsp)
        movq    %rax, 552(%rsp)
        movq    %rax, 560(%rsp)
        movq    %rax, 568(%rsp)
        movl    $0xe7, %eax     /* x87, SSE, AVX, AVX-512: not AMX's tiles */
        xorl    %edx, %edx
        xsave   (%rsp)
        movq    %r13, %rdi
        call    *%r12
        movl    $0xe7, %eax
        xorl    %edx, %edx
        xrstor  (%rsp)
        jmp     3f
2:      subq    $512, %rsp
        andq    $-16, %rsp
        fxsave  (%rsp)
        movq    %r13, %rdi
        call    *%r12
        fxrstor (%rsp)
3:      leaq    -24(%rbp), %rsp
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        .cfi_def_cfa %rsp, 8
        ret
        .cfi_endproc
        .size   pathcov_preserving_vectors, .-pathcov_preserving_vectors

        .local  xsave_size
        .comm   xsave_size, 4, 4
#endif
        .section .note.GNU-stack,"",@progbits
