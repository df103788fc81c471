/* roofs_measure.c: measuring this GPU's roofs, one function per roof of the
 * table in roofs.c: the copy by cudaMemcpy, every other roof by its
 * microkernel (roofs_kernels.cu), each timed the same way as everything
 * else. Beside them, cuBLAS's FP32 GEMM rate as what it is, a library's
 * measured point: printed for comparison (a microkernel below a real GEMM is
 * broken), never a roof, never cached. */
#define _POSIX_C_SOURCE 200809L
#ifndef MW_SIM
#define MW_WITH_CUBLAS
#endif
#include "roofs_cache.h"

#include "cuda_check.h"
#include "device.h"
#include "devinfo.h"
#include "roofs_kernels.h"
#include "timing.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct copy_args {
    void *dst;
    const void *src;
    size_t bytes;
} copy_args;

static cudaError_t copy_call(void *ctx, cudaStream_t s)
{
    copy_args *a = ctx;
    return mw_gpu_copy_async(a->dst, a->src, a->bytes, s);
}

/* 1 GiB each way: 20x the H100's L2, so that every byte comes from DRAM. */
static const size_t stream_bytes = (size_t)1 << 30;

double mw_measure_copy(mw_timer *t)
{
    copy_args a = {NULL, NULL, stream_bytes};
    MW_CUDA(mw_gpu_alloc(&a.dst, stream_bytes));
    MW_CUDA(mw_gpu_alloc((void **)&a.src, stream_bytes));
    MW_CUDA(mw_dev_fill((void *)a.src, MW_F32, stream_bytes / 4, 1, 1, 0, 1.f, 0));
    mw_timing r;
    MW_CUDA(mw_time(t, copy_call, &a, &r));
    mw_gpu_free(a.dst);
    mw_gpu_free((void *)a.src);
    return 2.0 * (double)stream_bytes / (r.median_ms * 1e-3) / 1e9;
}

/* The microkernels and cuBLAS are GPU code alone: the CPU emulation (MW_SIM)
 * measures no roof (mw_cmd_roofs). */
#ifndef MW_SIM
/* One microkernel launch: which kernel, its grid, and its buffers. */
typedef enum { K_FFMA, K_MMA_TF32, K_MMA_BF16, K_WGMMA_TF32, K_WGMMA_BF16, K_READ, K_WRITE } kind;

typedef struct kernel_args {
    kind k;
    unsigned blocks, threads;
    int iters;
    void *buf;   /* the stream's 1 GiB (read, write) */
    void *out;   /* one word per block */
} kernel_args;

static cudaError_t kernel_call(void *ctx, cudaStream_t s)
{
    kernel_args *a = ctx;
    switch (a->k) {
    case K_FFMA:
        return mw_roofk_ffma(a->blocks, a->threads, a->iters, a->out, s);
    case K_MMA_TF32:
    case K_MMA_BF16:
        return mw_roofk_mma(a->k == K_MMA_TF32, a->blocks, a->threads, a->iters, a->out, s);
    case K_WGMMA_TF32:
    case K_WGMMA_BF16:
        return mw_roofk_wgmma(a->k == K_WGMMA_TF32, a->blocks, a->iters, a->out, s);
    case K_READ:
        return mw_roofk_read(a->buf, stream_bytes, a->blocks, a->threads, a->out, s);
    case K_WRITE:
        return mw_roofk_write(a->buf, stream_bytes, a->blocks, a->threads, s);
    }
    return cudaErrorInvalidValue;
}

static int sm_count(void)
{
    mw_gpu_props p;
    MW_CUDA(mw_gpu_query_device(&p));
    return p.sms;
}

/* The MW_ROOFK_HAS_ bits of the microkernels this GPU runs. */
static int built_with(void)
{
    int *dev, mask = 0;
    MW_CUDA(mw_gpu_alloc((void **)&dev, sizeof *dev));
    MW_CUDA(mw_roofk_probe(dev, 0));
    MW_CUDA(mw_gpu_copy_to_host(&mask, dev, sizeof mask));
    mw_gpu_free(dev);
    return mask;
}

/* The median time of the launch a describes, in seconds. */
static double time_kernel(mw_timer *t, kernel_args *a)
{
    MW_CUDA(mw_gpu_alloc(&a->out, (size_t)a->blocks * sizeof(float)));
    mw_timing r;
    MW_CUDA(mw_time(t, kernel_call, a, &r));
    mw_gpu_free(a->out);
    return r.median_ms * 1e-3;
}

/* Grids of whole waves: `per_sm` blocks on every SM at once, so that no SM
 * idles while another finishes a second wave. */
static kernel_args grid(kind k, int per_sm, unsigned threads, int iters)
{
    return (kernel_args){k, (unsigned)(per_sm * sm_count()), threads, iters, NULL, NULL};
}

double mw_measure_ffma(mw_timer *t)
{
    /* 8 blocks of 256: 2048 threads, the most an SM holds (32 registers each). */
    kernel_args a = grid(K_FFMA, 8, 256, 16384);
    double threads = (double)a.blocks * a.threads;
    return 2.0 * threads * MW_ROOFK_FFMA_CHAINS * a.iters / time_kernel(t, &a) / 1e9;
}

/* 4 blocks of 256 threads per SM: 32 warps, 8 per scheduler. */
static double measure_mma(mw_timer *t, int tf32)
{
    if (!(built_with() & MW_ROOFK_HAS_MMA))
        return NAN;
    kernel_args a = grid(tf32 ? K_MMA_TF32 : K_MMA_BF16, 4, 256, 4096);
    double warps = (double)a.blocks * a.threads / 32;
    double flops_per_mma = tf32 ? 2.0 * 16 * 8 * 8 : 2.0 * 16 * 8 * 16;
    return warps * MW_ROOFK_MMA_ACCS * a.iters * flops_per_mma / time_kernel(t, &a) / 1e9;
}

double mw_measure_tf32_mma(mw_timer *t)
{
    return measure_mma(t, 1);
}

double mw_measure_bf16_mma(mw_timer *t)
{
    return measure_mma(t, 0);
}

/* 2 warpgroups per SM (about 154 registers a thread holds the 64 x 256
 * accumulator tile): one issues while the other waits for its group. */
static double measure_wgmma(mw_timer *t, int tf32)
{
    if (!(built_with() & MW_ROOFK_HAS_WGMMA))
        return NAN;
    kernel_args a = grid(tf32 ? K_WGMMA_TF32 : K_WGMMA_BF16, 2, 128, 1024);
    double flops_per_wgmma = tf32 ? 2.0 * 64 * 256 * 8 : 2.0 * 64 * 256 * 16;
    return (double)a.blocks * MW_ROOFK_WGMMA_BATCH * a.iters * flops_per_wgmma /
           time_kernel(t, &a) / 1e9;
}

double mw_measure_tf32_wgmma(mw_timer *t)
{
    return measure_wgmma(t, 1);
}

double mw_measure_bf16_wgmma(mw_timer *t)
{
    return measure_wgmma(t, 0);
}

/* 8 blocks of 256 per SM, grid-stride over the whole GiB. */
static double measure_stream(mw_timer *t, kind k)
{
    kernel_args a = grid(k, 8, 256, 0);
    MW_CUDA(mw_gpu_alloc(&a.buf, stream_bytes));
    MW_CUDA(mw_dev_fill(a.buf, MW_F32, stream_bytes / 4, 1, 1, 0, 1.f, 0));
    double s = time_kernel(t, &a);
    mw_gpu_free(a.buf);
    return (double)stream_bytes / s / 1e9;
}

double mw_measure_read(mw_timer *t)
{
    return measure_stream(t, K_READ);
}

double mw_measure_write(mw_timer *t)
{
    return measure_stream(t, K_WRITE);
}

/* ---- a library's measured point, printed beside the roofs ---------------- */

typedef struct gemm_args {
    cublasHandle_t handle;
    int n;
    const float *a, *b;
    float *c;
} gemm_args;

static cudaError_t sgemm_call(void *ctx, cudaStream_t s)
{
    gemm_args *g = ctx;
    const float one = 1.f, zero = 0.f;
    cublasSetStream(g->handle, s);
    cublasStatus_t st = cublasSgemm(g->handle, CUBLAS_OP_N, CUBLAS_OP_N, g->n, g->n, g->n, &one,
                                    g->a, g->n, g->b, g->n, &zero, g->c, g->n);
    return st == CUBLAS_STATUS_SUCCESS ? cudaSuccess : cudaErrorUnknown;
}

/* GFLOP/s of cublasSgemm on 8192^3 FP32 matrices, pedantic math (plain
 * FP32, no tensor cores): FFMA's own work, so the FFMA roof is above it. */
static double measure_sgemm(mw_timer *t)
{
    gemm_args g = {NULL, 8192, NULL, NULL, NULL};
    size_t elems = (size_t)g.n * g.n, bytes = elems * sizeof(float);
    MW_CUBLAS(cublasCreate(&g.handle));
    MW_CUBLAS(cublasSetMathMode(g.handle, CUBLAS_PEDANTIC_MATH));
    MW_CUDA(mw_gpu_alloc((void **)&g.a, bytes));
    MW_CUDA(mw_gpu_alloc((void **)&g.b, bytes));
    MW_CUDA(mw_gpu_alloc((void **)&g.c, bytes));
    /* Random inputs: zeros run faster. */
    MW_CUDA(mw_dev_fill((void *)g.a, MW_F32, elems, 2, 1, 0, 1.f, 0));
    MW_CUDA(mw_dev_fill((void *)g.b, MW_F32, elems, 2, 2, 0, 1.f, 0));
    mw_timing r;
    MW_CUDA(mw_time(t, sgemm_call, &g, &r));
    mw_gpu_free((void *)g.a);
    mw_gpu_free((void *)g.b);
    mw_gpu_free(g.c);
    cublasDestroy(g.handle);
    return 2.0 * g.n * (double)g.n * g.n / (r.median_ms * 1e-3) / 1e9;
}
#endif

/* Measures roof i and prints its line, so that a slow roof shows progress. */
static int measure_roof(int i, mw_timer *t, mw_roof_values *c)
{
    const mw_roof *r = &mw_roofs.roof[i];
    if (!r->measure) {
        fprintf(stderr, "roofs: no measurement of roof '%s' is linked\n", r->name);
        return -1;
    }
    char value[64];
    c->value[i] = r->measure(t);
    if (isnan(c->value[i]))
        printf("  %-14s %-24s %14s   needs %s\n", r->name, r->instruction, "not on this GPU",
               r->needs ? r->needs : "another GPU");
    else {
        mw_roof_format(r, c->value[i], value, sizeof value);
        printf("  %-14s %-24s %14s   %s\n", r->name, r->instruction, value, r->detail);
    }
    fflush(stdout);
    return 0;
}

int mw_roofs_measure(mw_roof_values *c)
{
    mw_devinfo info;
    char why[512];
    if (mw_devinfo_get(&info, why, sizeof why) != 0) {
        fprintf(stderr, "roofs: %s\n", why);
        return -1;
    }
    mw_timer t;
    MW_CUDA(mw_timer_init(&t, info.l2_bytes, 0));
    printf("measuring the roofs of %s...\n", info.name);
    fflush(stdout);
    int failed = 0;
    for (int i = 0; i < mw_roofs.count && !failed; i++)
        failed = measure_roof(i, &t, c) != 0;
#ifndef MW_SIM
    if (!failed) {
        char value[64];
        const mw_roof *fp32 = mw_roof_find(&mw_roofs, "fp32");
        mw_roof_format(fp32, measure_sgemm(&t), value, sizeof value);
        printf("a library's measured point, not a roof:\n  %-14s %-24s %14s   %s\n",
               "cublasSgemm", "FP32 GEMM 8192^3", value, "CUBLAS_PEDANTIC_MATH, median");
        fflush(stdout);
    }
#endif
    snprintf(c->date, sizeof c->date, "%s", info.date);
    mw_timer_free(&t);
    return failed ? -1 : 0;
}

int mw_roof_cache_get(const char *results_dir, const char *gpu_dir, const char *gpu, int force,
                      mw_roof_values *c)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/roofs.csv", results_dir, gpu_dir);
    if (!force && mw_roof_cache_load(path, c) == 0)
        return 0;
    if (mw_roofs_measure(c) != 0)
        return -1;
    if (mw_roof_cache_save(path, c, gpu) != 0)
        return -1;
    printf("  cached in %s\n", path);
    return 0;
}

int mw_cmd_roofs(const char *results_root, int force)
{
#ifdef MW_SIM
    (void)results_root, (void)force;
    printf("roofs: measured on a GPU; the CPU emulation has none; skipped\n");
    mw_roofs_list(stdout);
    return 77;
#endif
    mw_devinfo info;
    char why[512];
    if (mw_devinfo_get(&info, why, sizeof why) != 0) {
        printf("roofs: %s; skipped\n", why);
        mw_roofs_list(stdout);
        return 77;
    }
    mw_roof_values roofs;
    return mw_roof_cache_get(results_root, info.dir, info.name, force, &roofs) == 0 ? 0 : 2;
}
