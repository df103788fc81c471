/* gpu.c: the CUDA runtime behind gpu.h, one call (or the few named) each. */
#include "gpu.h"

#include <stdio.h>

#ifdef MW_SIM
#include "sim.h"
#endif

void mw_gpu_schedule_seed(uint64_t seed)
{
#ifdef MW_SIM
    mw_sim_schedule_seed(seed);
#else
    (void)seed;
#endif
}

void mw_gpu_schedule_run(int run)
{
#ifdef MW_SIM
    mw_sim_schedule_run(run);
#else
    (void)run;
#endif
}

#ifdef MW_SIM
static mw_gpu_block_pick sample_pick;

static size_t pick_dims(void *arg, dim3 grid, dim3 block, uint64_t **blocks)
{
    const unsigned g[3] = {grid.x, grid.y, grid.z}, b[3] = {block.x, block.y, block.z};
    return sample_pick(arg, g, b, blocks);
}
#endif

void mw_gpu_sample_blocks(mw_gpu_block_pick pick, void *arg)
{
#ifdef MW_SIM
    sample_pick = pick;
    mw_sim_sample_blocks(pick ? pick_dims : NULL, arg);
#else
    (void)pick, (void)arg;
#endif
}

void mw_gpu_sample_count(uint64_t *ran, uint64_t *of, int *too_small)
{
#ifdef MW_SIM
    _Static_assert((int)MW_GPU_SAMPLE_SCATTERED == (int)MW_SIM_SAMPLE_SCATTERED, "one code, two names");
    _Static_assert(MW_GPU_SAMPLE_PAGES == MW_SIM_LAZY_MAX_PAGES, "one limit, two names");
    mw_sim_sample_count(ran, of, too_small);
#else
    *ran = *of = 0;
    *too_small = 0;
#endif
}

size_t mw_gpu_sample_touched(const void *p, size_t count, size_t elem, size_t *firsts,
                             size_t cap)
{
#ifdef MW_SIM
    return mw_sim_lazy_touched(p, count, elem, firsts, cap);
#else
    (void)p, (void)count, (void)elem, (void)firsts, (void)cap;
    return 0;
#endif
}

int mw_gpu_emulated(void)
{
#ifdef MW_SIM
    return 1;
#else
    return 0;
#endif
}

cudaError_t mw_gpu_query_count(int *count)
{
    return cudaGetDeviceCount(count);
}

cudaError_t mw_gpu_query_device(mw_gpu_props *p)
{
    struct cudaDeviceProp prop;
    cudaError_t err = cudaGetDeviceProperties(&prop, 0);
    if (err != cudaSuccess)
        return err;
    snprintf(p->name, sizeof p->name, "%s", prop.name);
    p->sms = prop.multiProcessorCount;
    p->cc_major = prop.major;
    p->cc_minor = prop.minor;
    p->l2_bytes = (size_t)prop.l2CacheSize;
    const unsigned char *u = (const unsigned char *)prop.uuid.bytes;
    snprintf(p->uuid, sizeof p->uuid,
             "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1],
             u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
    return cudaSuccess;
}

cudaError_t mw_gpu_query_memory(size_t *free_b, size_t *total_b)
{
    return cudaMemGetInfo(free_b, total_b);
}

void mw_gpu_query_versions(int *driver_api, int *runtime)
{
    cudaDriverGetVersion(driver_api);
    cudaRuntimeGetVersion(runtime);
}

cudaError_t mw_gpu_query_smem(int *dflt, int *optin)
{
    cudaError_t err = cudaDeviceGetAttribute(dflt, cudaDevAttrMaxSharedMemoryPerBlock, 0);
    if (err == cudaSuccess)
        err = cudaDeviceGetAttribute(optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
    return err;
}

cudaError_t mw_gpu_alloc(void **p, size_t bytes)
{
    return cudaMalloc(p, bytes);
}

cudaError_t mw_gpu_free(void *p)
{
    return cudaFree(p);
}

cudaError_t mw_gpu_copy_to_host(void *dst, const void *src, size_t bytes)
{
    return cudaMemcpy(dst, src, bytes, cudaMemcpyDeviceToHost);
}

cudaError_t mw_gpu_copy_to_device(void *dst, const void *src, size_t bytes)
{
    return cudaMemcpy(dst, src, bytes, cudaMemcpyHostToDevice);
}

cudaError_t mw_gpu_copy_async(void *dst, const void *src, size_t bytes, cudaStream_t s)
{
    return cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s);
}

cudaError_t mw_gpu_memset_async(void *p, int byte, size_t bytes, cudaStream_t s)
{
    return cudaMemsetAsync(p, byte, bytes, s);
}

cudaError_t mw_gpu_sync(void)
{
    return cudaDeviceSynchronize();
}

cudaError_t mw_gpu_stream_sync(cudaStream_t s)
{
    return cudaStreamSynchronize(s);
}

cudaError_t mw_gpu_take_error(void)
{
    return cudaGetLastError();
}

const char *mw_gpu_error_name(cudaError_t err)
{
    return cudaGetErrorName(err);
}

const char *mw_gpu_error_string(cudaError_t err)
{
    return cudaGetErrorString(err);
}

const char *mw_gpu_error_detail(cudaError_t err)
{
#ifdef MW_SIM
    /* The emulation keeps the line of its last fault, which is sticky: the
     * line is err's while err is the error every call returns. */
    return err != cudaSuccess && cudaPeekAtLastError() == err ? mw_sim_error_detail() : NULL;
#else
    (void)err;
    return NULL;
#endif
}

cudaError_t mw_gpu_stream_create(cudaStream_t *s)
{
    return cudaStreamCreateWithFlags(s, cudaStreamNonBlocking);
}

cudaError_t mw_gpu_stream_destroy(cudaStream_t s)
{
    return cudaStreamDestroy(s);
}

cudaError_t mw_gpu_event_create(mw_gpu_event *e)
{
    return cudaEventCreate(e);
}

cudaError_t mw_gpu_event_destroy(mw_gpu_event e)
{
    return cudaEventDestroy(e);
}

cudaError_t mw_gpu_event_record(mw_gpu_event e, cudaStream_t s)
{
    return cudaEventRecord(e, s);
}

cudaError_t mw_gpu_event_elapsed_ms(float *ms, mw_gpu_event start, mw_gpu_event stop)
{
    return cudaEventElapsedTime(ms, start, stop);
}

cudaError_t mw_gpu_capture_begin(cudaStream_t s)
{
    return cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
}

cudaError_t mw_gpu_capture_end(cudaStream_t s, mw_gpu_graph *g)
{
    return cudaStreamEndCapture(s, g);
}

cudaError_t mw_gpu_graph_replay(mw_gpu_graph g, cudaStream_t s)
{
    cudaGraphExec_t exec = NULL;
    cudaError_t err = cudaGraphInstantiate(&exec, g, 0);
    if (err == cudaSuccess)
        err = cudaGraphLaunch(exec, s);
    if (err == cudaSuccess)
        err = cudaStreamSynchronize(s);
    if (exec)
        cudaGraphExecDestroy(exec);
    return err;
}

cudaError_t mw_gpu_graph_destroy(mw_gpu_graph g)
{
    return cudaGraphDestroy(g);
}
