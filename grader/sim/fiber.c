/* fiber.c: the emulated threads' stacks and the switch between them.
 *
 * Every kernel thread is a fiber on the calling OS thread. A grid of 64
 * blocks of 256 threads with 16 barriers switches half a million times, so
 * x86-64 and aarch64 get a hand-written switch that saves only the
 * callee-saved registers; ucontext, whose swapcontext makes a system call
 * for the signal mask on every switch, is the fallback elsewhere (and with
 * -DMW_SIM_UCONTEXT, to test it). */
#define _GNU_SOURCE
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core.h"

#if !defined(MW_SIM_UCONTEXT) && !defined(__x86_64__) && !defined(__aarch64__)
#define MW_SIM_UCONTEXT 1
#endif

#ifdef MW_SIM_UCONTEXT
#include <ucontext.h>
#endif

int mw_sim_fiber_stack(mw_sim_fiber *f, size_t bytes)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    bytes = (bytes + page - 1) / page * page;
    /* NORESERVE: a thousand threads of 256 KiB touch a few pages each. */
    char *m = mmap(NULL, bytes + page, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return -1;
    mprotect(m, page, PROT_NONE); /* an overflow faults instead of corrupting */
    f->stack = m + page;
    f->stack_bytes = bytes;
    return 0;
}

void mw_sim_fiber_release(mw_sim_fiber *f)
{
    if (f->stack) {
        size_t page = (size_t)sysconf(_SC_PAGESIZE);
        munmap(f->stack - page, f->stack_bytes + page);
    }
    free(f->uc);
    f->stack = NULL;
    f->uc = NULL;
}

#ifdef MW_SIM_UCONTEXT

/* makecontext passes ints: the fiber's address travels in two halves. */
static void uc_start(unsigned lo, unsigned hi)
{
    mw_sim_fiber *f = (mw_sim_fiber *)(((uintptr_t)hi << 32) | lo);
    f->entry(f->arg);
    abort(); /* an entry never returns: it switches away for good */
}

static ucontext_t *uc_of(mw_sim_fiber *f)
{
    if (!f->uc && !(f->uc = calloc(1, sizeof(ucontext_t))))
        abort();
    return f->uc;
}

void mw_sim_fiber_prepare(mw_sim_fiber *f, void (*entry)(void *), void *arg)
{
    ucontext_t *uc = uc_of(f);
    f->entry = entry;
    f->arg = arg;
    getcontext(uc);
    uc->uc_stack.ss_sp = f->stack;
    uc->uc_stack.ss_size = f->stack_bytes;
    uc->uc_link = NULL;
    uintptr_t p = (uintptr_t)f;
    makecontext(uc, (void (*)(void))uc_start, 2, (unsigned)p, (unsigned)(p >> 32));
}

void mw_sim_fiber_switch(mw_sim_fiber *from, mw_sim_fiber *to)
{
    swapcontext(uc_of(from), uc_of(to));
}

#else

/* mw_sim_switch(&from->sp, to->sp): pushes the callee-saved registers,
 * saves the stack pointer, loads the other one and pops its registers. A
 * new fiber's stack is laid out as if it had switched away at the start of
 * mw_sim_fiber_boot, which calls entry(arg) from two registers. */
void mw_sim_switch(void **save, void *next);
void mw_sim_fiber_boot(void);

#if defined(__x86_64__)
__asm__(".text\n"
        ".globl mw_sim_switch\n"
        ".type mw_sim_switch,@function\n"
        "mw_sim_switch:\n"
        "  pushq %rbp\n  pushq %rbx\n  pushq %r12\n  pushq %r13\n  pushq %r14\n  pushq %r15\n"
        "  movq %rsp, (%rdi)\n"
        "  movq %rsi, %rsp\n"
        "  popq %r15\n  popq %r14\n  popq %r13\n  popq %r12\n  popq %rbx\n  popq %rbp\n"
        "  ret\n"
        ".size mw_sim_switch, .-mw_sim_switch\n"
        ".globl mw_sim_fiber_boot\n"
        ".type mw_sim_fiber_boot,@function\n"
        "mw_sim_fiber_boot:\n"
        "  movq %r12, %rdi\n"
        "  callq *%r13\n"
        "  ud2\n"
        ".size mw_sim_fiber_boot, .-mw_sim_fiber_boot\n");

void mw_sim_fiber_prepare(mw_sim_fiber *f, void (*entry)(void *), void *arg)
{
    /* After the six pops and the ret the stack pointer is 16-aligned, as the
     * call in mw_sim_fiber_boot needs. */
    uintptr_t top = ((uintptr_t)(f->stack + f->stack_bytes) & ~(uintptr_t)15) - 16;
    void **sp = (void **)(top - 7 * sizeof(void *));
    sp[0] = 0;                         /* r15 */
    sp[1] = 0;                         /* r14 */
    sp[2] = (void *)entry;             /* r13 */
    sp[3] = arg;                       /* r12 */
    sp[4] = 0;                         /* rbx */
    sp[5] = 0;                         /* rbp */
    sp[6] = (void *)mw_sim_fiber_boot; /* the return address */
    f->entry = entry;
    f->arg = arg;
    f->sp = sp;
}
#else /* __aarch64__ */
__asm__(".text\n"
        ".globl mw_sim_switch\n"
        ".type mw_sim_switch,%function\n"
        "mw_sim_switch:\n"
        "  sub sp, sp, #176\n"
        "  stp x19, x20, [sp, #0]\n  stp x21, x22, [sp, #16]\n  stp x23, x24, [sp, #32]\n"
        "  stp x25, x26, [sp, #48]\n  stp x27, x28, [sp, #64]\n  stp x29, x30, [sp, #80]\n"
        "  stp d8, d9, [sp, #96]\n  stp d10, d11, [sp, #112]\n  stp d12, d13, [sp, #128]\n"
        "  stp d14, d15, [sp, #144]\n"
        "  mov x2, sp\n  str x2, [x0]\n  mov sp, x1\n"
        "  ldp x19, x20, [sp, #0]\n  ldp x21, x22, [sp, #16]\n  ldp x23, x24, [sp, #32]\n"
        "  ldp x25, x26, [sp, #48]\n  ldp x27, x28, [sp, #64]\n  ldp x29, x30, [sp, #80]\n"
        "  ldp d8, d9, [sp, #96]\n  ldp d10, d11, [sp, #112]\n  ldp d12, d13, [sp, #128]\n"
        "  ldp d14, d15, [sp, #144]\n"
        "  add sp, sp, #176\n"
        "  ret\n"
        ".size mw_sim_switch, .-mw_sim_switch\n"
        ".globl mw_sim_fiber_boot\n"
        ".type mw_sim_fiber_boot,%function\n"
        "mw_sim_fiber_boot:\n"
        "  mov x0, x19\n"
        "  blr x20\n"
        "  brk #0\n"
        ".size mw_sim_fiber_boot, .-mw_sim_fiber_boot\n");

void mw_sim_fiber_prepare(mw_sim_fiber *f, void (*entry)(void *), void *arg)
{
    uintptr_t top = (uintptr_t)(f->stack + f->stack_bytes) & ~(uintptr_t)15;
    void **sp = (void **)(top - 176);
    for (int i = 0; i < 22; ++i)
        sp[i] = 0;
    sp[0] = arg;                        /* x19 */
    sp[1] = (void *)entry;              /* x20 */
    sp[11] = (void *)mw_sim_fiber_boot; /* x30, where ret goes */
    f->entry = entry;
    f->arg = arg;
    f->sp = sp;
}
#endif

void mw_sim_fiber_switch(mw_sim_fiber *from, mw_sim_fiber *to)
{
    mw_sim_switch(&from->sp, to->sp);
}

#endif
