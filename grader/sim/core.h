/* core.h: what the emulation's core files (fiber.c, sched.c, warp.c,
 * shared.c, checks.c, atomics.c) share; nothing outside them includes it. */
#ifndef MW_SIM_CORE_H
#define MW_SIM_CORE_H

#include "sim.h"

/* ---- fibers (fiber.c) ---- */

typedef struct mw_sim_fiber {
    void *sp;    /* the saved stack pointer (hand-written switch) */
    void *uc;    /* a ucontext_t (fallback switch), or NULL */
    char *stack; /* the usable stack, above its guard page */
    size_t stack_bytes;
    void (*entry)(void *);
    void *arg;
} mw_sim_fiber;

/* A stack of `bytes` with a guard page below it; 0, or -1 when mmap fails. */
int mw_sim_fiber_stack(mw_sim_fiber *f, size_t bytes);
void mw_sim_fiber_release(mw_sim_fiber *f);
/* The next switch to f runs entry(arg) from the top of its stack. */
void mw_sim_fiber_prepare(mw_sim_fiber *f, void (*entry)(void *), void *arg);
/* Saves the running context in from, resumes to. */
void mw_sim_fiber_switch(mw_sim_fiber *from, mw_sim_fiber *to);

/* ---- blocks and threads (sched.c) ---- */

enum mw_sim_thread_state {
    MW_T_READY,   /* runnable */
    MW_T_BARRIER, /* waits at __syncthreads */
    MW_T_WARP,    /* waits in a warp collective (warp.c) */
    MW_T_DONE,    /* has returned from the kernel */
};

struct mw_sim_block;

typedef struct mw_sim_thread {
    mw_sim_fiber fiber;
    struct mw_sim_block *block;
    int tid; /* linear in the block: x + y*bx + z*bx*by */
    int warp, lane;
    uint3 idx;
    enum mw_sim_thread_state state;
    /* a pending warp collective: */
    const char *wait_what;
    unsigned wait_mask;
    const void *wait_mine;
    void *wait_all;
    size_t wait_bytes;
    const void *wait_pc; /* where it waits (barrier or collective), for reports */
    void *ptx_state;
} mw_sim_thread;

typedef struct mw_sim_warp_sync {
    uint32_t count;        /* collectives completed in this warp */
    uint32_t last[32][32]; /* the count of the last one both lanes took part in */
} mw_sim_warp_sync;

typedef struct mw_sim_block {
    uint3 idx;
    uint64_t linear;
    int nthreads, nwarps;
    int live;      /* threads not done */
    int exited;    /* threads done */
    int arrived;   /* threads at the current barrier */
    int bar_count; /* predicates true at it */
    int bar_result_count, bar_result_and, bar_result_or;
    uint32_t epoch; /* barriers completed */
    int *warp_order;
    mw_sim_thread *threads;
    mw_sim_warp_sync *wsync; /* one a warp */
    /* the shared window (shared.c) */
    char *smem;
    uint8_t *written;          /* a byte per byte of the window */
    struct mw_sim_word *words; /* a record per 2 bytes, for races */
} mw_sim_block;

/* The last accesses to 2 bytes of shared memory that another thread may
 * race with. */
typedef struct mw_sim_word {
    int32_t writer; /* tid + 1, 0: none this epoch */
    uint32_t write_epoch, write_wcount;
    int32_t reader; /* tid + 1 of the last reader, 0: none */
    uint32_t read_epoch, read_wcount;
    uint8_t write_bytes, read_bytes; /* which of the 2 bytes (bit i: byte i) */
    const void *write_pc, *read_pc;
} mw_sim_word;

typedef struct mw_sim_grid {
    const mw_sim_launch *launch;
    mw_sim_block *block;   /* the block running now */
    mw_sim_thread *thread; /* the thread running now */
    size_t smem_limit;     /* bytes the window may hold */
    size_t smem_used;      /* the window's layout so far: static + dynamic */
    size_t smem_window;    /* what each block's window holds: the limit, red zones, slack */
} mw_sim_grid;

/* The grid being run, or NULL outside a kernel. */
extern mw_sim_grid *mw_sim_cur;

/* A launch error found while running: not sticky. Never returns. */
_Noreturn void mw_sim_launch_error(cudaError_t err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* Blocks the running thread (its state already set) until the scheduler
 * resumes it. */
void mw_sim_block_thread(void);
/* "block (x,y,z), thread (x,y,z), kernel NAME" for reports. */
void mw_sim_where(char *buf, size_t len, const mw_sim_thread *t);
/* The source line of pc: "file:line" (addr2line) or "object(function+0xoff)". */
void mw_sim_pc_line(const void *pc, char *buf, size_t len);

/* ---- warps (warp.c) ---- */

/* Called when t stops being able to take part in a collective (it exits or
 * waits at a barrier): a lane that waits for it in its warp is a fault. */
void mw_sim_warp_check_leaving(mw_sim_thread *t, const char *why);
/* Describes what t waits on, for a deadlock report. */
void mw_sim_warp_describe(const mw_sim_thread *t, char *buf, size_t len);

/* ---- shared memory (shared.c) ---- */

/* Sizes the window for a launch: cudaSuccess, or cudaErrorInvalidValue
 * (recorded) when the dynamic shared memory alone is past the limit. */
cudaError_t mw_sim_shared_grid_start(mw_sim_grid *g);
void mw_sim_shared_grid_end(void);
/* Fills the window of a block that starts (0xFF) and forgets what was written. */
void mw_sim_shared_block_start(mw_sim_block *b);
void mw_sim_shared_block_free(mw_sim_block *b);
/* What window offset off is, for a report: the variable and the element
 * as the kernel indexes it ("tile[3][17]", "smem[4096]", "s_max"), with
 * "(byte k of it)" for a byte inside an element; past the last variable,
 * the one below with an index past its end. */
void mw_sim_shared_describe(size_t off, char *buf, size_t len);
/* 1 when any of the `bytes` bytes at window offset off is no variable's:
 * past the layout, in a red zone or padding between two variables. */
int mw_sim_shared_outside(size_t off, size_t bytes);
/* The same description, then the variable below off and its end:
 * "row[32], past the end of row (128 bytes)". */
void mw_sim_shared_describe_outside(size_t off, char *buf, size_t len);

/* ---- checks (checks.c) ---- */

void mw_sim_checks_grid_start(void);
/* An atomic's access: bounds and alignment, marks shared bytes written,
 * never a race. */
void mw_sim_check_atomic(const void *addr, size_t bytes, const void *pc);

#endif
