/* sched.c: a grid's blocks and threads as fibers, barriers, and the order
 * they run in.
 *
 * Up to (SMs x blocks per SM by occupancy) blocks are resident at once; a
 * block that ends lets the next one in, so blocks that wait on each other
 * through global memory make progress as on the GPU. The scheduler visits
 * the resident blocks, their warps and lanes in turn; a thread runs until
 * it blocks (barrier, warp collective, __nanosleep) or ends. The order the
 * blocks are admitted in and the order of the warps within a block follow
 * the seed and a count of the grids run (in order, reversed, shuffled), so
 * that a kernel whose result depends on scheduling gives two answers in the
 * two runs of a case, and a seed replays them. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core.h"

/* What the kernel side reads through mw_sim_kernel.h's accessors. */
uint3 mw_sim_threadIdx, mw_sim_blockIdx;
dim3 mw_sim_blockDim, mw_sim_gridDim;

mw_sim_grid *mw_sim_cur;

static mw_sim_fiber sched_fiber; /* the scheduler's own context */
static cudaError_t abort_err;    /* why the grid stops, once set */
static uint64_t sched_seed = 0x6d77u;
static uint64_t grids_run;
static int sched_run; /* which run of the case: shifts every grid's order */
/* A huge case runs a sample of each grid's blocks (mw_sim_sample_blocks),
 * counted since the run began. */
static mw_sim_block_pick sample_pick;
static void *sample_arg;
static uint64_t sample_ran, sample_of;
static int sample_too_small;

enum { STACK_BYTES = 256 * 1024 };

/* Stacks, kept between blocks and grids: mapping them is the slow part. */
static mw_sim_fiber *stack_pool;
static size_t stack_pool_len;

static int stacks_reserve(size_t n)
{
    if (n <= stack_pool_len)
        return 0;
    mw_sim_fiber *p = realloc(stack_pool, n * sizeof *p);
    if (!p)
        return -1;
    stack_pool = p;
    for (; stack_pool_len < n; ++stack_pool_len) {
        memset(&p[stack_pool_len], 0, sizeof *p);
        if (mw_sim_fiber_stack(&p[stack_pool_len], STACK_BYTES) != 0)
            return -1;
    }
    return 0;
}

void mw_sim_schedule_seed(uint64_t seed)
{
    sched_seed = seed;
    grids_run = 0;
    sched_run = 0;
}

void mw_sim_schedule_run(int run)
{
    grids_run = 0;
    sched_run = run;
    sample_ran = sample_of = 0;
    sample_too_small = 0;
}

void mw_sim_sample_blocks(mw_sim_block_pick pick, void *arg)
{
    sample_pick = pick;
    sample_arg = arg;
}

void mw_sim_sample_count(uint64_t *ran, uint64_t *of, int *too_small)
{
    *ran = sample_ran;
    *of = sample_of;
    *too_small = sample_too_small;
}

int mw_sim_in_kernel(void)
{
    return mw_sim_cur && mw_sim_cur->thread;
}

int mw_sim_lane(void)
{
    return mw_sim_cur && mw_sim_cur->thread ? mw_sim_cur->thread->lane : 0;
}

void **mw_sim_ptx_slot(void)
{
    static void *outside;
    return mw_sim_in_kernel() ? &mw_sim_cur->thread->ptx_state : &outside;
}

void mw_sim_where(char *buf, size_t len, const mw_sim_thread *t)
{
    if (!t) {
        snprintf(buf, len, "kernel %s", mw_sim_cur ? mw_sim_cur->launch->name : "?");
        return;
    }
    snprintf(buf, len, "block (%u,%u,%u), thread (%u,%u,%u), kernel %s", t->block->idx.x,
             t->block->idx.y, t->block->idx.z, t->idx.x, t->idx.y, t->idx.z,
             mw_sim_cur->launch->name);
}

/* ---- order ---- */

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t gcd(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t r = a % b;
        a = b;
        b = r;
    }
    return a;
}

/* A permutation of 0..n-1: in order, reversed or shuffled. Grids too large
 * to hold one as an array shuffle by an affine map i -> a*i + c mod n. */
typedef struct order {
    int mode; /* 0 in order, 1 reversed, 2 shuffled */
    uint64_t n, a, c;
    uint32_t *perm;
} order;

enum { PERM_MAX = 1u << 22 };

static void order_make(order *o, uint64_t n, int mode, uint64_t rng)
{
    memset(o, 0, sizeof *o);
    o->mode = mode;
    o->n = n;
    if (mode != 2 || n < 2)
        return;
    if (n <= PERM_MAX && (o->perm = malloc(n * sizeof *o->perm))) {
        for (uint64_t i = 0; i < n; ++i)
            o->perm[i] = (uint32_t)i;
        for (uint64_t i = n - 1; i > 0; --i) {
            uint64_t j = splitmix(&rng) % (i + 1);
            uint32_t tmp = o->perm[i];
            o->perm[i] = o->perm[j];
            o->perm[j] = tmp;
        }
        return;
    }
    do
        o->a = splitmix(&rng) % n;
    while (o->a == 0 || gcd(o->a, n) != 1);
    o->c = splitmix(&rng) % n;
}

static uint64_t order_at(const order *o, uint64_t i)
{
    if (o->mode == 1)
        return o->n - 1 - i;
    if (o->mode == 2 && o->perm)
        return o->perm[i];
    if (o->mode == 2 && o->n > 1)
        return (uint64_t)(((unsigned __int128)o->a * i + o->c) % o->n);
    return i;
}

/* ---- faults ---- */

/* abort_err's value while a grid stops because it cannot run on a sample:
 * no CUDA error is recorded, and mw_sim_run_grid returns success. */
#define SAMPLE_STOP cudaErrorNotReady

/* Stops the grid from inside a kernel thread: back to the scheduler, which
 * drops the grid's fibers. */
_Noreturn static void grid_abort(cudaError_t err, int sticky, const char *line)
{
    mw_sim_error_set(err, sticky, line);
    abort_err = err;
    mw_sim_fiber_switch(&mw_sim_cur->thread->fiber, &sched_fiber);
    abort(); /* a dropped fiber never resumes */
}

void mw_sim_kernel_fault(cudaError_t err, const char *fmt, ...)
{
    char where[256], text[1536], line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    if (!mw_sim_in_kernel()) {
        /* a check from host code: record it, the caller cannot be stopped */
        mw_sim_error_set(err, 1, text);
        abort();
    }
    mw_sim_where(where, sizeof where, mw_sim_cur->thread);
    snprintf(line, sizeof line, "%s: %s", where, text);
    grid_abort(err, 1, line);
}

void mw_sim_sample_scattered(void)
{
    sample_too_small = MW_SIM_SAMPLE_SCATTERED;
    abort_err = SAMPLE_STOP;
    mw_sim_fiber_switch(&mw_sim_cur->thread->fiber, &sched_fiber);
    abort(); /* a dropped fiber never resumes */
}

/* A launch error found while running (the shared window past its limit):
 * not sticky, as the GPU refuses such a launch before it runs. */
void mw_sim_launch_error(cudaError_t err, const char *fmt, ...)
{
    char text[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    grid_abort(err, 0, text);
}

void mw_sim_block_thread(void)
{
    mw_sim_fiber_switch(&mw_sim_cur->thread->fiber, &sched_fiber);
}

/* ---- barriers ---- */

static void barrier_release(mw_sim_block *b)
{
    b->bar_result_count = b->bar_count;
    b->bar_result_and = b->bar_count == b->nthreads;
    b->bar_result_or = b->bar_count > 0;
    b->arrived = 0;
    b->bar_count = 0;
    b->epoch++;
    for (int i = 0; i < b->nthreads; ++i)
        if (b->threads[i].state == MW_T_BARRIER)
            b->threads[i].state = MW_T_READY;
}

/* Every live thread is at the barrier: it opens, unless some thread of the
 * block has exited without reaching it (synccheck's error on a GPU). */
static void barrier_try(mw_sim_block *b)
{
    if (b->arrived == 0 || b->arrived != b->live)
        return;
    if (b->exited == 0) {
        barrier_release(b);
        return;
    }
    const mw_sim_thread *gone = NULL, *waiting = NULL;
    for (int i = 0; i < b->nthreads; ++i) {
        if (!gone && b->threads[i].state == MW_T_DONE)
            gone = &b->threads[i];
        if (!waiting && b->threads[i].state == MW_T_BARRIER)
            waiting = &b->threads[i];
    }
    /* Named after a thread that waits, where the barrier is, not after
     * the thread whose exit made the count final. */
    char at[512], where[256], line[2048];
    mw_sim_pc_line(waiting->wait_pc, at, sizeof at);
    mw_sim_where(where, sizeof where, waiting);
    snprintf(line, sizeof line,
             "%s: barrier some threads of the block never reach: __syncthreads at %s waits for %d "
             "threads that exited, thread (%u,%u,%u) the first",
             where, at, b->exited, gone->idx.x, gone->idx.y, gone->idx.z);
    grid_abort(cudaErrorLaunchFailure, 1, line);
}

int mw_sim_syncthreads(int kind, int pred)
{
    const void *pc = __builtin_return_address(0);
    mw_sim_thread *t = mw_sim_cur->thread;
    mw_sim_block *b = t->block;
    t->wait_pc = pc;
    mw_sim_warp_check_leaving(t, "__syncthreads");
    t->state = MW_T_BARRIER;
    b->arrived++;
    b->bar_count += pred != 0;
    barrier_try(b);
    if (t->state == MW_T_BARRIER)
        mw_sim_block_thread();
    switch (kind) {
    case 1:
        return b->bar_result_count;
    case 2:
        return b->bar_result_and;
    case 3:
        return b->bar_result_or;
    default:
        return 0;
    }
}

/* __nanosleep: lets every other resident thread run first. */
void mw_sim_yield(void)
{
    mw_sim_block_thread();
}

/* clock64 and clock in a kernel (sim.h). */
long long mw_sim_clock64(void)
{
    static long long last;
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    long long khz = mw_sim_device_get()->clock_khz;
    long long now = (long long)t.tv_sec * khz * 1000 + (long long)t.tv_nsec * khz / 1000000;
    /* Two reads a few nanoseconds apart may fall in one nanosecond; a GPU's
     * counter has moved on by then. */
    last = now > last ? now : last + 1;
    return last;
}

clock_t mw_sim_clock(void)
{
    if (!mw_sim_in_kernel())
        return clock();
    return (clock_t)(int32_t)(uint32_t)mw_sim_clock64();
}

/* ---- threads ---- */

_Noreturn static void thread_exit(mw_sim_thread *t)
{
    mw_sim_block *b = t->block;
    if (t->ptx_state) {
        mw_sim_ptx_thread_done(t->ptx_state);
        t->ptx_state = NULL;
    }
    mw_sim_warp_check_leaving(t, "exited");
    t->state = MW_T_DONE;
    b->live--;
    b->exited++;
    barrier_try(b);
    mw_sim_fiber_switch(&t->fiber, &sched_fiber);
    abort();
}

static void thread_main(void *arg)
{
    mw_sim_thread *t = arg;
    mw_sim_cur->launch->body(mw_sim_cur->launch->closure);
    thread_exit(t);
}

/* ---- blocks ---- */

typedef struct slot {
    mw_sim_block block;
    int busy;
} slot;

static int block_alloc(mw_sim_block *b, const mw_sim_launch *l, size_t first_stack)
{
    b->nthreads = (int)(l->block.x * l->block.y * l->block.z);
    b->nwarps = (b->nthreads + 31) / 32;
    b->threads = calloc((size_t)b->nthreads, sizeof *b->threads);
    b->wsync = malloc((size_t)b->nwarps * sizeof *b->wsync);
    b->warp_order = malloc((size_t)b->nwarps * sizeof *b->warp_order);
    if (!b->threads || !b->wsync || !b->warp_order)
        return -1;
    for (int i = 0; i < b->nthreads; ++i) {
        mw_sim_thread *t = &b->threads[i];
        t->fiber = stack_pool[first_stack + (size_t)i];
        t->block = b;
        t->tid = i;
        t->warp = i / 32;
        t->lane = i % 32;
        t->idx.x = (unsigned)i % l->block.x;
        t->idx.y = (unsigned)i / l->block.x % l->block.y;
        t->idx.z = (unsigned)i / (l->block.x * l->block.y);
    }
    return 0;
}

static void block_free(mw_sim_block *b, size_t first_stack)
{
    if (b->threads)
        for (int i = 0; i < b->nthreads; ++i)
            stack_pool[first_stack + (size_t)i] = b->threads[i].fiber; /* the ucontext too */
    mw_sim_shared_block_free(b);
    free(b->threads);
    free(b->wsync);
    free(b->warp_order);
}

static void block_start(mw_sim_block *b, const mw_sim_launch *l, uint64_t linear, int mode,
                        uint64_t rng)
{
    b->linear = linear;
    b->idx.x = (unsigned)(linear % l->grid.x);
    b->idx.y = (unsigned)(linear / l->grid.x % l->grid.y);
    b->idx.z = (unsigned)(linear / ((uint64_t)l->grid.x * l->grid.y));
    b->live = b->nthreads;
    b->exited = b->arrived = b->bar_count = 0;
    b->epoch = 0;
    order o;
    order_make(&o, (uint64_t)b->nwarps, mode, rng ^ (linear * 0x2545f4914f6cdd1dull));
    for (int w = 0; w < b->nwarps; ++w)
        b->warp_order[w] = (int)order_at(&o, (uint64_t)w);
    free(o.perm);
    for (int w = 0; w < b->nwarps; ++w)
        b->wsync[w].count = 0;
    memset(b->wsync, 0, (size_t)b->nwarps * sizeof *b->wsync);
    for (int i = 0; i < b->nthreads; ++i) {
        mw_sim_thread *t = &b->threads[i];
        t->state = MW_T_READY;
        t->wait_what = NULL;
        t->ptx_state = NULL;
        mw_sim_fiber_prepare(&t->fiber, thread_main, t);
    }
    mw_sim_shared_block_start(b);
}

/* The threads of a block that ends early (a fault) still hold ptx.c's state. */
static void block_drop(mw_sim_block *b)
{
    for (int i = 0; i < b->nthreads; ++i)
        if (b->threads[i].ptx_state) {
            mw_sim_ptx_thread_done(b->threads[i].ptx_state);
            b->threads[i].ptx_state = NULL;
        }
}

static int blocks_per_sm(const mw_sim_device *d, const mw_sim_launch *l, size_t smem)
{
    unsigned threads = l->block.x * l->block.y * l->block.z;
    unsigned warps_threads = (threads + 31) / 32 * 32;
    int n = d->max_blocks_per_sm;
    if (warps_threads && (int)(d->max_threads_per_sm / (int)warps_threads) < n)
        n = d->max_threads_per_sm / (int)warps_threads;
    if (smem && d->smem_per_sm / smem < (size_t)n)
        n = (int)(d->smem_per_sm / smem);
    return n < 1 ? 1 : n;
}

/* Every resident thread waits and none can go on: a fault naming what each
 * warp waits on. */
static void deadlock(slot *slots, int nslots)
{
    char text[1536] = "deadlock, every resident thread waits:";
    size_t used = strlen(text);
    mw_sim_thread *first = NULL;
    for (int s = 0; s < nslots && used < sizeof text - 200; ++s) {
        if (!slots[s].busy)
            continue;
        mw_sim_block *b = &slots[s].block;
        for (int w = 0; w < b->nwarps && used < sizeof text - 200; ++w) {
            for (int i = w * 32; i < b->nthreads && i < w * 32 + 32; ++i) {
                mw_sim_thread *t = &b->threads[i];
                if (t->state == MW_T_DONE)
                    continue;
                char what[400];
                mw_sim_warp_describe(t, what, sizeof what);
                used += (size_t)snprintf(text + used, sizeof text - used,
                                         " block (%u,%u,%u) warp %d %s;", b->idx.x, b->idx.y,
                                         b->idx.z, w, what);
                if (!first)
                    first = t;
                break;
            }
        }
    }
    mw_sim_cur->thread = first;
    char where[256], line[2048];
    mw_sim_where(where, sizeof where, first);
    snprintf(line, sizeof line, "%s: %s", where, text);
    mw_sim_error_set(cudaErrorLaunchFailure, 1, line);
    abort_err = cudaErrorLaunchFailure;
}

static void run_thread(mw_sim_thread *t)
{
    mw_sim_block *b = t->block;
    mw_sim_cur->thread = t;
    mw_sim_cur->block = b;
    mw_sim_threadIdx = t->idx;
    mw_sim_blockIdx = b->idx;
    mw_sim_fiber_switch(&sched_fiber, &t->fiber);
    mw_sim_cur->thread = NULL;
}

/* The linear index of the i-th block to run: the order's, through the
 * sample's list where the grid runs on a sample. */
static uint64_t block_at(const order *bo, const uint64_t *sample, uint64_t i)
{
    uint64_t at = order_at(bo, i);
    return sample ? sample[at] : at;
}

/* Runs the resident blocks until every block of the grid (or of its
 * sample) has run; 0 or the error that stopped it. */
static cudaError_t run_blocks(slot *slots, int nslots, const order *bo, const uint64_t *sample,
                              int mode, uint64_t rng)
{
    const mw_sim_launch *l = mw_sim_cur->launch;
    uint64_t nblocks = bo->n, next = 0;
    int resident = 0;
    for (;;) {
        for (int s = 0; s < nslots && next < nblocks; ++s)
            if (!slots[s].busy) {
                block_start(&slots[s].block, l, block_at(bo, sample, next++), mode, rng);
                slots[s].busy = 1;
                resident++;
            }
        if (resident == 0)
            return cudaSuccess;
        int progress = 0;
        for (int s = 0; s < nslots; ++s) {
            if (!slots[s].busy)
                continue;
            mw_sim_block *b = &slots[s].block;
            for (int wi = 0; wi < b->nwarps; ++wi) {
                int w = b->warp_order[wi];
                int end = w * 32 + 32 < b->nthreads ? w * 32 + 32 : b->nthreads;
                for (int i = w * 32; i < end; ++i) {
                    if (b->threads[i].state != MW_T_READY)
                        continue;
                    progress = 1;
                    run_thread(&b->threads[i]);
                    if (abort_err != cudaSuccess)
                        return abort_err;
                }
            }
            if (b->live == 0) {
                slots[s].busy = 0;
                resident--;
                if (next < nblocks) {
                    block_start(b, l, block_at(bo, sample, next++), mode, rng);
                    slots[s].busy = 1;
                    resident++;
                }
            }
        }
        if (!progress) {
            deadlock(slots, nslots);
            return abort_err;
        }
    }
}

cudaError_t mw_sim_run_grid(const mw_sim_launch *l)
{
    const mw_sim_device *d = mw_sim_device_get();
    uint64_t nblocks = (uint64_t)l->grid.x * l->grid.y * l->grid.z;
    unsigned threads = l->block.x * l->block.y * l->block.z;
    if (nblocks == 0 || threads == 0)
        return cudaSuccess;
    uint64_t *sample = NULL;
    if (sample_pick) {
        size_t picked = sample_pick(sample_arg, l->grid, l->block, &sample);
        if (picked == MW_SIM_GRID_TOO_SMALL) {
            sample_too_small = MW_SIM_SAMPLE_TOO_SMALL;
            return cudaSuccess;
        }
        sample_ran += picked;
        sample_of += nblocks;
        nblocks = picked;
        if (nblocks == 0) {
            free(sample);
            return cudaSuccess;
        }
    }
    mw_sim_grid g = {.launch = l};
    mw_sim_grid *outer = mw_sim_cur;
    mw_sim_cur = &g;
    abort_err = cudaSuccess;
    mw_sim_blockDim = l->block;
    mw_sim_gridDim = l->grid;
    if (mw_sim_shared_grid_start(&g) != cudaSuccess) {
        mw_sim_cur = outer;
        free(sample);
        return cudaErrorInvalidValue;
    }
    mw_sim_checks_grid_start();

    int mode = (int)((grids_run + (uint64_t)sched_run) % 3);
    uint64_t rng = (sched_seed + (uint64_t)sched_run * 0x632be59bd9b4e019ull) * 0x9e3779b97f4a7c15ull +
                   grids_run;
    grids_run++;
    uint64_t want = (uint64_t)d->sms * (uint64_t)blocks_per_sm(d, l, g.smem_used);
    int nslots = (int)(nblocks < want ? nblocks : want);
    slot *slots = calloc((size_t)nslots, sizeof *slots);
    cudaError_t err = cudaErrorMemoryAllocation;
    order bo;
    order_make(&bo, nblocks, mode, rng);
    if (slots && stacks_reserve((size_t)nslots * threads) == 0) {
        int ok = 1;
        for (int s = 0; s < nslots && ok; ++s)
            ok = block_alloc(&slots[s].block, l, (size_t)s * threads) == 0;
        err = ok ? run_blocks(slots, nslots, &bo, sample, mode, rng) : cudaErrorMemoryAllocation;
    }
    if (err == cudaErrorMemoryAllocation && abort_err == cudaSuccess)
        mw_sim_error_set(err, 0, "the emulation could not allocate a grid's threads");
    if (err == SAMPLE_STOP && abort_err == SAMPLE_STOP)
        err = cudaSuccess; /* the case is skipped, saying why (mw_sim_sample_count) */
    for (int s = 0; slots && s < nslots; ++s) {
        if (slots[s].busy)
            block_drop(&slots[s].block);
        block_free(&slots[s].block, (size_t)s * threads);
    }
    free(slots);
    free(bo.perm);
    free(sample);
    mw_sim_shared_grid_end();
    mw_sim_cur = outer;
    return err;
}
