/*
 * fiber.c - switching between stacks in user space.
 *
 * Why not glibc's swapcontext: it saves and restores the signal mask with a
 * system call on every switch, and a scripted statement costs two switches
 * (measured on this project's VM: 870 ns an event against 65 for the
 * switch below, at 2 connections). On x86-64 the switch is the System V
 * ABI's callee-saved registers pushed on the old stack and popped from the
 * new one; elsewhere swapcontext still does it.
 *
 * The sanitizers and valgrind are told about each stack and each switch,
 * so `make asan`, `make tsan` and valgrind runs see them as stacks.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/fiber.h"

#if defined(__SANITIZE_ADDRESS__)
#define FIBER_ASAN 1
#include <sanitizer/common_interface_defs.h>
#endif
#if defined(__SANITIZE_THREAD__)
#define FIBER_TSAN 1
#include <sanitizer/tsan_interface.h>
#endif
#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#define FIBER_VALGRIND 1
#include <valgrind/valgrind.h>
#endif
#endif

#if defined(__x86_64__)
/* fiber_swap(void **save, void *to): push rbp, rbx, r12-r15 and the SSE and
 * x87 control words, save rsp in *save, load to, pop the same. */
void fiber_swap(void **save, void *to);
__asm__(".text\n"
        ".globl fiber_swap\n"
        ".type fiber_swap,@function\n"
        "fiber_swap:\n"
        "    pushq %rbp\n"
        "    pushq %rbx\n"
        "    pushq %r12\n"
        "    pushq %r13\n"
        "    pushq %r14\n"
        "    pushq %r15\n"
        "    subq $8, %rsp\n"
        "    stmxcsr (%rsp)\n"
        "    fnstcw 4(%rsp)\n"
        "    movq %rsp, (%rdi)\n"
        "    movq %rsi, %rsp\n"
        "    ldmxcsr (%rsp)\n"
        "    fldcw 4(%rsp)\n"
        "    addq $8, %rsp\n"
        "    popq %r15\n"
        "    popq %r14\n"
        "    popq %r13\n"
        "    popq %r12\n"
        "    popq %rbx\n"
        "    popq %rbp\n"
        "    ret\n"
        ".size fiber_swap,.-fiber_swap\n"
        /* a new fiber's first frame: its struct is in rbp; no caller
         * above it, for unwinders */
        ".globl fiber_entry\n"
        ".type fiber_entry,@function\n"
        "fiber_entry:\n"
        "    .cfi_startproc\n"
        "    .cfi_undefined rip\n"
        "    movq %rbp, %rdi\n"
        "    xorl %ebp, %ebp\n"
        "    andq $-16, %rsp\n"
        "    call fiber_start\n"
        "    ud2\n"
        "    .cfi_endproc\n"
        ".size fiber_entry,.-fiber_entry\n");
void fiber_entry(void);
void fiber_start(struct fiber *f);
#else
#include <ucontext.h>
#endif

/* Where a new fiber begins: run its function, which must not return. */
void fiber_start(struct fiber *f)
{
#ifdef FIBER_ASAN
    __sanitizer_finish_switch_fiber(NULL, NULL, NULL);
#endif
    f->fn(f->arg);
    abort();
}

void fiber_self(struct fiber *self)
{
    memset(self, 0, sizeof *self);
#ifdef FIBER_ASAN
    pthread_attr_t a;
    if (pthread_getattr_np(pthread_self(), &a) == 0) {
        pthread_attr_getstack(&a, &self->bottom, &self->size);
        pthread_attr_destroy(&a);
    }
#endif
#ifdef FIBER_TSAN
    self->tsan = __tsan_get_current_fiber();
#endif
}

#if !defined(__x86_64__)
static void uc_start(unsigned lo, unsigned hi)
{
    fiber_start((struct fiber *)(((uintptr_t)hi << 32) | lo));
}
#endif

int fiber_create(struct fiber *f, size_t stack, void (*fn)(void *), void *arg)
{
    memset(f, 0, sizeof *f);
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    stack = (stack + page - 1) / page * page;
    f->map_len = stack + page;
    f->map = mmap(NULL, f->map_len, PROT_READ | PROT_WRITE,
                  MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
    if (f->map == MAP_FAILED) {
        f->map = NULL;
        return -1;
    }
    if (mprotect(f->map, page, PROT_NONE) < 0) { /* an overflow faults, never corrupts */
        int e = errno;
        munmap(f->map, f->map_len);
        f->map = NULL;
        errno = e;
        return -1;
    }
    f->bottom = (char *)f->map + page;
    f->size = stack;
    f->fn = fn;
    f->arg = arg;
#ifdef FIBER_VALGRIND
    f->vg_id = VALGRIND_STACK_REGISTER(f->bottom, (char *)f->bottom + f->size);
#endif
#ifdef FIBER_TSAN
    f->tsan = __tsan_create_fiber(0);
#endif
#if defined(__x86_64__)
    /* what fiber_swap pops: the control words, six registers (rbp = f),
     * then the return into fiber_entry */
    void **sp = (void **)(((uintptr_t)f->bottom + f->size) & ~(uintptr_t)15);
    *--sp = NULL;
    *--sp = (void *)fiber_entry;
    *--sp = f; /* rbp */
    for (int i = 0; i < 5; i++)
        *--sp = NULL; /* rbx, r12-r15 */
    --sp;
    uint32_t cw[2] = {0, 0};
    __asm__ volatile("stmxcsr %0" : "=m"(cw[0]));
    __asm__ volatile("fnstcw %0" : "=m"(cw[1]));
    memcpy(sp, cw, sizeof cw);
    f->sp = sp;
#else
    ucontext_t *uc = calloc(1, sizeof *uc);
    if (!uc || getcontext(uc) < 0) {
        free(uc);
        fiber_destroy(f);
        errno = ENOMEM;
        return -1;
    }
    uc->uc_stack.ss_sp = f->bottom;
    uc->uc_stack.ss_size = f->size;
    uintptr_t p = (uintptr_t)f;
    makecontext(uc, (void (*)(void))uc_start, 2, (unsigned)p, (unsigned)(p >> 32));
    f->sp = uc;
#endif
    return 0;
}

void fiber_switch(struct fiber *from, struct fiber *to)
{
#ifdef FIBER_ASAN
    void *fake = NULL;
    __sanitizer_start_switch_fiber(&fake, to->bottom, to->size);
#endif
#ifdef FIBER_TSAN
    __tsan_switch_to_fiber(to->tsan, 0);
#endif
#if defined(__x86_64__)
    fiber_swap(&from->sp, to->sp);
#else
    if (!from->sp)
        from->sp = calloc(1, sizeof(ucontext_t));
    swapcontext(from->sp, to->sp);
#endif
#ifdef FIBER_ASAN
    __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
}

void fiber_destroy(struct fiber *f)
{
    if (!f->map)
        return;
#ifdef FIBER_VALGRIND
    VALGRIND_STACK_DEREGISTER(f->vg_id);
#endif
#ifdef FIBER_TSAN
    __tsan_destroy_fiber(f->tsan);
#endif
#if !defined(__x86_64__)
    free(f->sp);
#endif
    munmap(f->map, f->map_len);
    f->map = NULL;
}
