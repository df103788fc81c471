/* roofs_measure.c: measuring this GPU's roofs, one function per roof of the
 * table in roofs.c (copy bandwidth, cuBLAS FP32, TF32 and bf16 GEMM rates),
 * each timed the same way as everything else. */
#define _POSIX_C_SOURCE 200809L
#ifndef MW_SIM
#define MW_WITH_CUBLAS
#endif
#include "roofs_cache.h"

#include "cuda_check.h"
#include "device.h"
#include "devinfo.h"
#include "timing.h"

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

/* The GEMM roofs are cuBLAS's: the CPU emulation (MW_SIM) has none, and
 * measures no roof (mw_cmd_roofs). */
#ifndef MW_SIM
/* A square GEMM of n, its matrices in one element type (MW_F32 or MW_BF16). */
typedef struct gemm_args {
    cublasHandle_t handle;
    int n;
    const void *a, *b;
    void *c;
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

/* bf16 A, B and C, products summed in FP32 (so alpha and beta are floats):
 * the tensor cores' bf16 path, as a bf16 kernel uses it. */
static cudaError_t bf16_gemm_call(void *ctx, cudaStream_t s)
{
    gemm_args *g = ctx;
    const float one = 1.f, zero = 0.f;
    cublasSetStream(g->handle, s);
    cublasStatus_t st = cublasGemmEx(g->handle, CUBLAS_OP_N, CUBLAS_OP_N, g->n, g->n, g->n, &one,
                                     g->a, CUDA_R_16BF, g->n, g->b, CUDA_R_16BF, g->n, &zero,
                                     g->c, CUDA_R_16BF, g->n, CUBLAS_COMPUTE_32F,
                                     CUBLAS_GEMM_DEFAULT);
    return st == CUBLAS_STATUS_SUCCESS ? cudaSuccess : cudaErrorUnknown;
}

#endif

double mw_measure_copy(mw_timer *t)
{
    const size_t bytes = (size_t)1 << 30; /* 1 GiB each way: 20x the L2 */
    copy_args a = {NULL, NULL, bytes};
    MW_CUDA(mw_gpu_alloc(&a.dst, bytes));
    MW_CUDA(mw_gpu_alloc((void **)&a.src, bytes));
    MW_CUDA(mw_dev_fill((void *)a.src, MW_F32, bytes / 4, 1, 1, 0, 1.f, 0));
    mw_timing r;
    MW_CUDA(mw_time(t, copy_call, &a, &r));
    mw_gpu_free(a.dst);
    mw_gpu_free((void *)a.src);
    return 2.0 * (double)bytes / (r.median_ms * 1e-3) / 1e9;
}

#ifndef MW_SIM
/* GFLOP/s of `call` on 8192^3 matrices of `type` in math mode `mode`. */
static double measure_gemm(mw_timer *t, cublasMath_t mode, int type, mw_timed_fn call)
{
    gemm_args g = {NULL, 8192, NULL, NULL, NULL};
    size_t elems = (size_t)g.n * g.n, bytes = elems * mw_type_size(type);
    MW_CUBLAS(cublasCreate(&g.handle));
    MW_CUBLAS(cublasSetMathMode(g.handle, mode));
    MW_CUDA(mw_gpu_alloc((void **)&g.a, bytes));
    MW_CUDA(mw_gpu_alloc((void **)&g.b, bytes));
    MW_CUDA(mw_gpu_alloc(&g.c, bytes));
    MW_CUDA(mw_dev_fill((void *)g.a, type, elems, 2, 1, 0, 1.f, 0)); /* random: zeros run faster */
    MW_CUDA(mw_dev_fill((void *)g.b, type, elems, 2, 2, 0, 1.f, 0));
    mw_timing r;
    MW_CUDA(mw_time(t, call, &g, &r));
    mw_gpu_free((void *)g.a);
    mw_gpu_free((void *)g.b);
    mw_gpu_free(g.c);
    cublasDestroy(g.handle);
    return 2.0 * g.n * (double)g.n * g.n / (r.median_ms * 1e-3) / 1e9;
}

double mw_measure_fp32_gemm(mw_timer *t)
{
    return measure_gemm(t, CUBLAS_PEDANTIC_MATH, MW_F32, sgemm_call);
}

double mw_measure_tf32_gemm(mw_timer *t)
{
    return measure_gemm(t, CUBLAS_TF32_TENSOR_OP_MATH, MW_F32, sgemm_call);
}

/* Default math: bf16 inputs with FP32 sums are the tensor cores' own path,
 * which cuBLAS takes unasked (TF32 needs a mode to allow its rounding). */
double mw_measure_bf16_gemm(mw_timer *t)
{
    return measure_gemm(t, CUBLAS_DEFAULT_MATH, MW_BF16, bf16_gemm_call);
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
    mw_roof_format(r, c->value[i], value, sizeof value);
    printf("  %-10s %14s   %s\n", r->label, value, r->detail);
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
    printf("roofs: measured on a GPU (copy bandwidth, cuBLAS GEMM rates); the CPU emulation has "
           "none; skipped\n");
    return 77;
#endif
    mw_devinfo info;
    char why[512];
    if (mw_devinfo_get(&info, why, sizeof why) != 0) {
        printf("roofs: %s; skipped\n", why);
        return 77;
    }
    mw_roof_values roofs;
    return mw_roof_cache_get(results_root, info.dir, info.name, force, &roofs) == 0 ? 0 : 2;
}
