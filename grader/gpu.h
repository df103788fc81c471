/* gpu.h: the grader's one way to the GPU.
 *
 * Every CUDA runtime call the harness makes goes through these functions
 * (grader/gpu.c), so that another backend, a CPU emulation say, can stand
 * in for the GPU by implementing this file and nothing else of grader/.
 * The exceptions: the harness's own kernels (device.cu, launched through
 * device.h), the student interface (student.h: the student's .cu includes
 * the runtime itself), and the library baselines' calls into cuBLAS and
 * cuDNN (cublas_lazy.c, the chapters), which a backend without those
 * libraries leaves out rather than emulates. tests/t0109-gpu-boundary.t
 * keeps it so.
 *
 * Errors are cudaError_t, not a type of the grader's own: the student's
 * launchers return cudaError_t, and the harness passes their errors and its
 * own along the same paths to the same messages (mw_format_cuda_error), so
 * a second type would only be translated back. For the same reason streams
 * are cudaStream_t. A backend provides both types and the cudaError_t
 * values the grader names (cudaSuccess, cudaErrorMemoryAllocation,
 * cudaErrorInsufficientDriver, cudaErrorStreamCaptureUnjoined, ...), as it
 * must for the student's code anyway; events and graphs are the boundary's
 * own (mw_gpu_event, mw_gpu_graph), opaque to the grader.
 *
 * The contract, for every call below unless it says otherwise:
 *   - it returns cudaSuccess or the error of the one runtime call it stands
 *     for, and leaves that error as the runtime leaves it (a later
 *     mw_gpu_take_error() may see it again, as after cudaMalloc);
 *   - a stream argument of 0 is the default (legacy) stream, which
 *     synchronizes with every other blocking stream;
 *   - device pointers are those mw_gpu_alloc gave, or a student launcher's
 *     own cudaMalloc; host pointers are ordinary memory.
 * Each function is one runtime call (or the fixed few its comment names, in
 * that order), so the grader's calls and their order are those it would
 * make to the runtime directly. */
#ifndef MW_GPU_H
#define MW_GPU_H

#include <stddef.h>
#include <stdint.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef cudaEvent_t mw_gpu_event;
typedef cudaGraph_t mw_gpu_graph;

/* ---- device queries (device 0) ------------------------------------------ */

/* What devinfo records of device 0. */
typedef struct mw_gpu_props {
    char name[256]; /* "NVIDIA H100 80GB HBM3" */
    int sms;        /* streaming multiprocessors */
    int cc_major, cc_minor;
    size_t l2_bytes;
    char uuid[48];  /* "GPU-8c3f0a1e-...": how nvidia-smi -i names this device, whatever
                       CUDA_VISIBLE_DEVICES maps to device 0 */
} mw_gpu_props;

/* Devices present; the first call initializes the runtime. Without a driver
 * (or one too old) returns cudaErrorInsufficientDriver. */
cudaError_t mw_gpu_query_count(int *count);
/* Device 0's properties; *p is untouched on failure. */
cudaError_t mw_gpu_query_device(mw_gpu_props *p);
/* Device 0's free and total memory, bytes. Callers that ignore the error
 * preset both to 0, so that a failure reads as no memory free. */
cudaError_t mw_gpu_query_memory(size_t *free_b, size_t *total_b);
/* The driver's and the runtime's CUDA versions (13000 = 13.0); the
 * driver's is 0 when there is no driver. Errors are not reported: these
 * only label results (env.csv). */
void mw_gpu_query_versions(int *driver_api, int *runtime);
/* Shared memory per block on device 0, bytes: without opting in, and the
 * most with cudaFuncSetAttribute. Asks the first, then the second only if
 * the first succeeded. */
cudaError_t mw_gpu_query_smem(int *dflt, int *optin);

/* ---- scheduling ------------------------------------------------------------ */

/* The order the next kernels' blocks and warps run in, drawn from seed (a
 * case's): a GPU picks its own, so this does nothing there; the CPU
 * emulation varies it on purpose between the runs of a case, and a seed
 * replays it (mw_sim_schedule_seed). */
void mw_gpu_schedule_seed(uint64_t seed);
/* The next kernels are run `run` of the case (0 or 1): on the emulation
 * each of its grids runs in another order than in the other run
 * (mw_sim_schedule_run); nothing on a GPU. */
void mw_gpu_schedule_run(int run);
/* The blocks of a grid of grid[0..2] blocks of block[0..2] threads to
 * run: their linear indices (x fastest), sorted and unique, in *blocks
 * (malloc'd, freed by the caller), and their count; MW_GPU_GRID_TOO_SMALL
 * when the grid cannot run on a sample. */
#define MW_GPU_GRID_TOO_SMALL ((size_t)-1)
typedef size_t (*mw_gpu_block_pick)(void *arg, const unsigned grid[3], const unsigned block[3],
                                    uint64_t **blocks);
/* On the emulation, the grids launched from now on run only the blocks
 * pick names (a huge case's sample, emulation.h; mw_sim_sample_blocks);
 * NULL: every block. Nothing on a GPU, which runs every block. */
void mw_gpu_sample_blocks(mw_gpu_block_pick pick, void *arg);
/* The most pages (4 KiB) of its lazily mapped buffers a grid on a sample
 * may touch: past them it is stopped as MW_GPU_SAMPLE_SCATTERED
 * (MW_SIM_LAZY_MAX_PAGES, sim.h). */
#define MW_GPU_SAMPLE_PAGES 16384
/* Since the last mw_gpu_schedule_run: the blocks run, the blocks of their
 * grids, and whether a grid could not run on a sample: 1 too small (not
 * run), MW_GPU_SAMPLE_SCATTERED its blocks reached too many pages
 * (stopped); 0 when all ran. Zero on a GPU. */
enum { MW_GPU_SAMPLE_SCATTERED = 2 };
void mw_gpu_sample_count(uint64_t *ran, uint64_t *of, int *too_small);
/* On a sample: the view index of the first element of each page of the
 * view of count elements (elem bytes each) at p that a kernel touched,
 * into firsts (at most cap; cap + 1 when more). 0 on a GPU. */
size_t mw_gpu_sample_touched(const void *p, size_t count, size_t elem, size_t *firsts,
                             size_t cap);
/* 1 when the backend is the CPU emulation (grader/sim/): its results are
 * emulated, it runs the cases within the chapter's emulation budget, and
 * it times nothing. 0 on a GPU. */
int mw_gpu_emulated(void);

/* ---- memory --------------------------------------------------------------- */

/* *p = device memory of `bytes` bytes, 256-byte aligned, contents
 * undefined; *p is unspecified on failure (cudaErrorMemoryAllocation,
 * which also stays behind for mw_gpu_take_error). */
cudaError_t mw_gpu_alloc(void **p, size_t bytes);
/* Frees what mw_gpu_alloc gave; NULL is a no-op. May wait for the device,
 * as cudaFree does, so never while a stream is being captured. */
cudaError_t mw_gpu_free(void *p);
/* Blocking copies: they wait for the default stream's earlier work, and
 * return when the bytes have arrived. */
cudaError_t mw_gpu_copy_to_host(void *dst, const void *src, size_t bytes);
cudaError_t mw_gpu_copy_to_device(void *dst, const void *src, size_t bytes);
/* Device to device, queued on s. */
cudaError_t mw_gpu_copy_async(void *dst, const void *src, size_t bytes, cudaStream_t s);
/* Sets `bytes` bytes at p to the low byte of `byte`, queued on s. */
cudaError_t mw_gpu_memset_async(void *p, int byte, size_t bytes, cudaStream_t s);

/* ---- synchronization and errors ------------------------------------------ */

/* Waits for all work on the device; returns the first error a kernel met
 * (sticky ones stay for every later call). */
cudaError_t mw_gpu_sync(void);
/* Waits for the work queued on s. */
cudaError_t mw_gpu_stream_sync(cudaStream_t s);
/* The last error any call or launch left behind, and clears it (unless it
 * is sticky): a failed launch shows here, not at the launch. */
cudaError_t mw_gpu_take_error(void);
/* "cudaErrorIllegalAddress", and its sentence; static strings, never NULL. */
const char *mw_gpu_error_name(cudaError_t err);
const char *mw_gpu_error_string(cudaError_t err);
/* Where the kernel fault behind err happened, one line (block, thread,
 * kernel, variable, file:line), or NULL: a GPU does not say; the CPU
 * emulation does (mw_sim_error_detail). */
const char *mw_gpu_error_detail(cudaError_t err);

/* ---- streams and events --------------------------------------------------- */

/* A stream that does not synchronize with the default stream. */
cudaError_t mw_gpu_stream_create(cudaStream_t *s);
cudaError_t mw_gpu_stream_destroy(cudaStream_t s);
/* Events that time (elapsed time between two recorded on one stream). */
cudaError_t mw_gpu_event_create(mw_gpu_event *e);
cudaError_t mw_gpu_event_destroy(mw_gpu_event e);
/* Records e on s: it completes when the work queued on s before it has. */
cudaError_t mw_gpu_event_record(mw_gpu_event e, cudaStream_t s);
/* Milliseconds from start to stop, both recorded and completed. */
cudaError_t mw_gpu_event_elapsed_ms(float *ms, mw_gpu_event start, mw_gpu_event stop);

/* ---- capture (the stream rule, stream_rule.h) ---------------------------- */

/* Puts s in relaxed capture mode: work queued on s (and on streams that
 * joined it through events) is recorded, not run, and calls such as
 * cudaMalloc stay allowed. */
cudaError_t mw_gpu_capture_begin(cudaStream_t s);
/* Ends the capture; *g is the recorded graph, or NULL. Work forked onto
 * another stream and never joined back fails with
 * cudaErrorStreamCaptureUnjoined. */
cudaError_t mw_gpu_capture_end(cudaStream_t s, mw_gpu_graph *g);
/* Runs g once on s and waits for it: instantiate, launch, synchronize s,
 * each only if the one before succeeded, then frees the instance. */
cudaError_t mw_gpu_graph_replay(mw_gpu_graph g, cudaStream_t s);
/* Frees g; NULL is not allowed. */
cudaError_t mw_gpu_graph_destroy(mw_gpu_graph g);

#ifdef __cplusplus
}
#endif

#endif
