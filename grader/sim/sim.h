/* sim.h: the CPU emulation of CUDA, the contract between its parts.
 *
 * Without a GPU (or with SIM=1), a student's .cu is rewritten by mw-simcc
 * (simcc.c: launches, inline PTX and __shared__ declarations become calls
 * into the emulation), compiled as C++ by the host compiler against the
 * stand-in toolkit headers of grader/sim/include/, and run by libmwsim:
 *
 *   include/cuda_runtime.h,   the toolkit headers the student and the
 *   cuda_runtime_api.h, ...   harness include: host API and types (C), and,
 *                             for C++, the kernel side (mw_sim_kernel.h)
 *   host.c                    the runtime API on the host: memory, copies,
 *                             streams, events, capture and graphs, errors,
 *                             the emulated device's properties
 *   sched.c ...               blocks and threads as fibers, barriers, warps
 *                             and their collectives, shared memory, the
 *                             order blocks and warps run in, a huge case's
 *                             sample of blocks
 *   checks.c                  faults a GPU hides: out-of-bounds accesses,
 *                             reads of unwritten shared memory, shared races
 *   lazy.c                    huge allocations mapped lazily, page by page
 *   ptx.c                     the inline PTX the exercises use
 *
 * Everything here is C, callable from the C++ kernel side. Nothing in it
 * is thread-safe: the emulation runs every kernel thread on the calling OS
 * thread, one at a time. */
#ifndef MW_SIM_H
#define MW_SIM_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- the emulated device (host.c) --------------------------------------- */

typedef struct mw_sim_device {
    const char *name;          /* what cudaGetDeviceProperties reports */
    int cc_major, cc_minor;
    int sms;                   /* multiprocessors: how many blocks run at once */
    int max_threads_per_block; /* 1024 */
    int max_threads_per_sm;    /* 2048 */
    int max_blocks_per_sm;     /* 32 */
    unsigned max_grid[3];      /* 2^31 - 1, 65535, 65535 */
    unsigned max_block[3];     /* 1024, 1024, 64 */
    size_t smem_default;       /* per block without opting in: 48 KiB */
    size_t smem_optin;         /* per block with cudaFuncSetAttribute */
    size_t smem_per_sm;
    size_t l2_bytes;
    int clock_khz;             /* the nominal clock clock64() counts at: 1980 MHz */
} mw_sim_device;

const mw_sim_device *mw_sim_device_get(void);

/* clock64() in a kernel (sched.c): the host's monotonic clock in cycles of
 * the device's nominal clock, and never the same value twice, so that a
 * loop that waits for a number of cycles ends, after about that time, as
 * on a GPU. clock(): its low 32 bits as a signed int, as the GPU's %clock,
 * in a kernel; outside one (host code in a kernel file) the C library's. */
long long mw_sim_clock64(void);
clock_t mw_sim_clock(void);

/* The dynamic shared memory a kernel may ask for: what
 * cudaFuncSetAttribute(func, cudaFuncAttributeMaxDynamicSharedMemorySize)
 * last set, else the default. */
size_t mw_sim_func_max_dynamic_smem(const void *func);

/* ---- errors (host.c) -------------------------------------------------------- */

/* Records err as the last error (what cudaGetLastError returns and clears);
 * a sticky one (a kernel's fault) is also returned by every later
 * synchronizing call, as on a GPU. detail: one line saying where and why
 * (NULL: none); kept until the next fault. */
void mw_sim_error_set(cudaError_t err, int sticky, const char *detail);
/* The last fault's line, or NULL. */
const char *mw_sim_error_detail(void);

/* ---- device memory (host.c) ------------------------------------------------- */

/* A device allocation, exactly as asked for: an access outside every region
 * (and outside shared memory, the thread's stack and the loaded programs'
 * own data) is a fault. */
typedef struct mw_sim_lazy mw_sim_lazy;

typedef struct mw_sim_region {
    char *base;
    size_t bytes;
    mw_sim_lazy *lazy; /* mapped lazily (lazy.c), or NULL: filled at once */
} mw_sim_region;

/* The live allocation holding addr, or NULL. */
const mw_sim_region *mw_sim_region_find(const void *addr);
/* Opens the device allocation holding p to the host (open 1) or closes it
 * again (0), as a grid's run does: for the harness's own helpers, which
 * run as plain loops (grader/device_emulated.c) and reach device memory
 * as the GPU's kernels would. Nothing for a pointer outside every one. */
void mw_sim_host_access(const void *p, int open);

/* ---- lazily mapped device memory (lazy.c) ------------------------------------ */

/* An allocation past this many bytes is mapped lazily: a page gets its
 * bytes when first touched. A huge case's buffers (tens of GiB) fit no
 * machine the emulation runs on, and its sample of blocks touches a few
 * thousand of their pages; below it, filling at once costs less than
 * keeping track. */
#define MW_SIM_LAZY_BYTES ((size_t)256 << 20)
/* At most this many touched pages in all lazy regions at once. Each
 * touched page inside a reservation is a mapping of its own to the kernel,
 * which allows about 65530 a process; a sample under the reference's
 * layout touches a few thousand. A kernel that scatters its accesses
 * further (outputs not where the sample looks) cannot run on a sample. */
#define MW_SIM_LAZY_MAX_PAGES 16384

/* What a range of a lazily mapped region holds: produce(ctx, dst, at, n)
 * writes to dst the n bytes that stand at device address at. ctx is the
 * content's own (copied with it); two contents are the same when their
 * produce and ctx bytes are (callers zero ctx before filling it in). */
typedef void (*mw_sim_produce)(const void *ctx, char *dst, const char *at, size_t n);
typedef struct mw_sim_content {
    mw_sim_produce produce;
    unsigned char ctx[48];
} mw_sim_content;

/* The content of a memset to `byte`; whether c is one, and its byte. */
void mw_sim_content_bytes(mw_sim_content *c, int byte);
int mw_sim_content_is_bytes(const mw_sim_content *c, int *byte);

/* host.c's side: a lazy region's bookkeeping for `bytes` bytes, which at
 * first hold 0xFF as cudaMalloc's do (NULL: out of memory); its release;
 * opening its touched pages to the host (1) or closing them (0); giving
 * the pages of [addr, addr + bytes) their bytes (0; -1: out of memory;
 * -2: past MW_SIM_LAZY_MAX_PAGES), as checks.c does before a kernel's
 * access reaches them. */
mw_sim_lazy *mw_sim_lazy_new(size_t bytes);
void mw_sim_lazy_free(mw_sim_lazy *lz);
void mw_sim_lazy_open(const mw_sim_region *r, int open);
int mw_sim_lazy_touch(const mw_sim_region *r, const void *addr, size_t bytes);

/* The harness's side (grader/device_emulated.c). Each returns 0 and does
 * nothing where p is not in a lazily mapped region.
 *
 * mw_sim_lazy_set: from now on bytes [p, p + bytes) hold c (touched pages
 * get it at once); 1, or -1 when out of memory.
 * mw_sim_lazy_piece: the length of the first piece of [p, p + bytes) that
 * is either memory to read (*content NULL: touched pages, readable while
 * the region is open to the host) or untouched and holding one content
 * alone (*content that content). It never ends inside an element whose
 * size divides the page size and p's offset.
 * mw_sim_lazy_read: copies bytes [p, p + bytes) to dst, touching nothing
 * that was not touched: 1. */
int mw_sim_lazy_set(void *p, size_t bytes, const mw_sim_content *c);
/* mw_sim_lazy_touched: for the view of count elements (elem bytes each)
 * at p, in a lazily mapped region, the view index of the first element of
 * each touched page it overlaps, into firsts (at most cap; cap + 1 when
 * there are more); 0 where p is not in a lazy region. */
size_t mw_sim_lazy_touched(const void *p, size_t count, size_t elem, size_t *firsts,
                           size_t cap);
size_t mw_sim_lazy_piece(const void *p, size_t bytes, const mw_sim_content **content);
int mw_sim_lazy_read(const void *p, void *dst, size_t bytes);

/* ---- a sample of a grid's blocks (sched.c) -------------------------------------- */

/* Asked at each grid's run, with its grid and block: the linear indices
 * (x fastest, then y, then z) of the blocks to run, sorted and unique, in
 * *blocks (malloc'd; the scheduler frees it), and their count; or
 * MW_SIM_GRID_TOO_SMALL when the grid cannot run on a sample (then
 * nothing of it runs). */
#define MW_SIM_GRID_TOO_SMALL ((size_t)-1)
typedef size_t (*mw_sim_block_pick)(void *arg, dim3 grid, dim3 block, uint64_t **blocks);
/* From now on every grid runs the blocks pick names (NULL: every block). */
void mw_sim_sample_blocks(mw_sim_block_pick pick, void *arg);
/* Since the last mw_sim_schedule_run: the blocks run, the blocks of the
 * grids they belong to, and whether a grid could not run on a sample:
 * MW_SIM_SAMPLE_TOO_SMALL (not run: no block of its own for some sampled
 * output) or MW_SIM_SAMPLE_SCATTERED (stopped: its blocks touched more
 * pages than MW_SIM_LAZY_MAX_PAGES), else 0. */
enum { MW_SIM_SAMPLE_TOO_SMALL = 1, MW_SIM_SAMPLE_SCATTERED = 2 };
void mw_sim_sample_count(uint64_t *ran, uint64_t *of, int *too_small);
/* From a kernel thread: stops the grid as MW_SIM_SAMPLE_SCATTERED, with no
 * CUDA error (the case is skipped, not failed). Never returns. */
#if defined(__cplusplus)
[[noreturn]]
#else
_Noreturn
#endif
void mw_sim_sample_scattered(void);

/* ---- launches ------------------------------------------------------------------ */

typedef struct mw_sim_launch {
    dim3 grid, block;
    size_t dynamic_smem;
    cudaStream_t stream;
    const void *func;              /* the kernel: the key of its attributes */
    const char *name;              /* the kernel as written at the launch */
    const char *file;              /* the launch site */
    int line;
    void (*body)(void *closure);   /* runs the kernel as the current thread */
    void *closure;                 /* the launch's arguments */
    void (*release)(void *closure);/* frees the closure once nothing will run it */
} mw_sim_launch;

/* host.c: checks the configuration against the device (threads per block,
 * grid and block dims, dynamic shared memory against the kernel's limit),
 * then runs the grid at once, or records it when its stream is being
 * captured. Takes the closure in every case (release is called exactly
 * once). Returns the launch's error, and leaves it for cudaGetLastError. */
cudaError_t mw_sim_launch_kernel(const mw_sim_launch *l);

/* sched.c: runs every block of an already checked launch, to the end or to
 * the first fault (then the fault's error: mw_sim_error_set has recorded
 * it, sticky). Does not call release. */
cudaError_t mw_sim_run_grid(const mw_sim_launch *l);

/* The order blocks and warps run in is drawn from this seed, the run and a
 * count of the grids run since the run began: grid n of run r runs in
 * order, reversed or shuffled as (n + r) mod 3 is 0, 1 or 2. So the two
 * runs of one case run each of their grids in two different orders, however
 * many grids run between them, and a seed replays them. schedule_seed
 * starts run 0; schedule_run starts run r. */
void mw_sim_schedule_seed(uint64_t seed);
void mw_sim_schedule_run(int run);

/* ---- the running thread (sched.c), for checks.c and ptx.c ------------------- */

/* 1 while a kernel thread runs (a hook called from host code returns at
 * once). */
int mw_sim_in_kernel(void);
/* Stops the grid: records err (sticky) with a line that starts with the
 * block, the thread and the kernel, then the text. Never returns. */
#if defined(__cplusplus)
[[noreturn]]
#else
_Noreturn
#endif
void mw_sim_kernel_fault(cudaError_t err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The lanes of the current warp that call it with the same `what` meet:
 * each gives `bytes` bytes and receives every lane's (32 slots of `bytes`
 * in lane order; slots of lanes outside mask are zero). Blocks until every
 * lane of mask has arrived; a lane of mask that exits or waits elsewhere
 * first is a fault naming `what`. The current lane must be in mask. */
void mw_sim_warp_exchange(unsigned mask, const void *mine, size_t bytes, void *all,
                          const char *what);
/* The current lane (0 to 31). */
int mw_sim_lane(void);

/* Shared memory as PTX sees it: a 32-bit offset into the current block's
 * window (what __cvta_generic_to_shared gives). The pointer to `bytes`
 * bytes at addr, or a fault when they leave the window. */
void *mw_sim_shared_ptr(uint32_t addr, size_t bytes);

/* A slot of the current thread for ptx.c's state (pending cp.async groups):
 * NULL when the thread starts; when it ends, mw_sim_ptx_thread_done gets
 * what the slot holds. */
void **mw_sim_ptx_slot(void);
void mw_sim_ptx_thread_done(void *state); /* ptx.c */

/* ---- shared memory (shared.c) ------------------------------------------------ */

/* A __shared__ variable's shape, so that a report names the element a
 * kernel touched as the kernel indexes it (tile[3][17]): the size of one
 * element, and the extents of up to 4 array dimensions (rank 0: not an
 * array, or more than 4 dimensions; an extern array's one extent is 0:
 * unknown). */
typedef struct mw_sim_shape {
    size_t elem;
    int rank;
    size_t extent[4];
} mw_sim_shape;

/* ---- checks (checks.c) ---------------------------------------------------------- */

/* What the compiler's instrumentation reports of the kernel code's own
 * loads and stores, and what ptx.c reports of its copies: checked against
 * the regions, the shared window (written? raced?) and alignment. A fault
 * never returns. */
void mw_sim_check_access(const void *addr, size_t bytes, int is_write, const void *pc);

#ifdef __cplusplus
}
#endif

#endif
