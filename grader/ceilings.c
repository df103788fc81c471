/* ceilings.c: measuring this GPU's roofs (copy bandwidth, cuBLAS FP32 and
 * TF32 GEMM rates), timed the same way as everything else. */
#define _POSIX_C_SOURCE 200809L
#define MW_WITH_CUBLAS
#include "ceilings.h"

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
    return cudaMemcpyAsync(a->dst, a->src, a->bytes, cudaMemcpyDeviceToDevice, s);
}

typedef struct gemm_args {
    cublasHandle_t handle;
    int n;
    const float *a, *b;
    float *c;
} gemm_args;

static cudaError_t gemm_call(void *ctx, cudaStream_t s)
{
    gemm_args *g = ctx;
    const float one = 1.f, zero = 0.f;
    cublasSetStream(g->handle, s);
    cublasStatus_t st = cublasSgemm(g->handle, CUBLAS_OP_N, CUBLAS_OP_N, g->n, g->n, g->n, &one,
                                    g->a, g->n, g->b, g->n, &zero, g->c, g->n);
    return st == CUBLAS_STATUS_SUCCESS ? cudaSuccess : cudaErrorUnknown;
}

static double measure_copy(mw_timer *t)
{
    const size_t bytes = (size_t)1 << 30; /* 1 GiB each way: 20x the L2 */
    copy_args a = {NULL, NULL, bytes};
    MW_CUDA(cudaMalloc(&a.dst, bytes));
    MW_CUDA(cudaMalloc((void **)&a.src, bytes));
    MW_CUDA(mw_dev_fill((float *)a.src, bytes / 4, 1, 1, 0, 1.f, 0));
    mw_timing r;
    MW_CUDA(mw_time(t, copy_call, &a, &r));
    cudaFree(a.dst);
    cudaFree((void *)a.src);
    return 2.0 * (double)bytes / (r.median_ms * 1e-3) / 1e9;
}

static double measure_gemm(mw_timer *t, cublasMath_t mode)
{
    gemm_args g = {NULL, 8192, NULL, NULL, NULL};
    size_t elems = (size_t)g.n * g.n;
    MW_CUBLAS(cublasCreate(&g.handle));
    MW_CUBLAS(cublasSetMathMode(g.handle, mode));
    MW_CUDA(cudaMalloc((void **)&g.a, elems * sizeof(float)));
    MW_CUDA(cudaMalloc((void **)&g.b, elems * sizeof(float)));
    MW_CUDA(cudaMalloc((void **)&g.c, elems * sizeof(float)));
    MW_CUDA(mw_dev_fill((float *)g.a, elems, 2, 1, 0, 1.f, 0)); /* random: zeros run faster */
    MW_CUDA(mw_dev_fill((float *)g.b, elems, 2, 2, 0, 1.f, 0));
    mw_timing r;
    MW_CUDA(mw_time(t, gemm_call, &g, &r));
    cudaFree((void *)g.a);
    cudaFree((void *)g.b);
    cudaFree(g.c);
    cublasDestroy(g.handle);
    return 2.0 * g.n * (double)g.n * g.n / (r.median_ms * 1e-3) / 1e9;
}

int mw_ceilings_measure(mw_ceilings *c)
{
    mw_devinfo info;
    char why[512];
    if (mw_devinfo_get(&info, why, sizeof why) != 0) {
        fprintf(stderr, "ceilings: %s\n", why);
        return -1;
    }
    mw_timer t;
    MW_CUDA(mw_timer_init(&t, info.l2_bytes, 0));
    printf("measuring the roofs of %s (copy bandwidth, cuBLAS FP32 and TF32 GEMM)...\n",
           info.name);
    fflush(stdout);
    c->copy_gbps = measure_copy(&t);
    c->fp32_gflops = measure_gemm(&t, CUBLAS_PEDANTIC_MATH);
    c->tf32_gflops = measure_gemm(&t, CUBLAS_TF32_TENSOR_OP_MATH);
    snprintf(c->date, sizeof c->date, "%s", info.date);
    printf("  copy (device to device, read + write)  %8.0f GB/s\n", c->copy_gbps);
    printf("  cublasSgemm FP32 (pedantic), 8192^3     %8.1f TFLOP/s\n", c->fp32_gflops / 1e3);
    printf("  cublasSgemm TF32 tensor cores, 8192^3   %8.1f TFLOP/s\n", c->tf32_gflops / 1e3);
    mw_timer_free(&t);
    return 0;
}

int mw_ceilings_get(const char *results_dir, const char *gpu_dir, const char *gpu, int force,
                    mw_ceilings *c)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s/ceilings.csv", results_dir, gpu_dir);
    if (!force && mw_ceilings_load(path, c) == 0)
        return 0;
    if (mw_ceilings_measure(c) != 0)
        return -1;
    if (mw_ceilings_save(path, c, gpu) != 0)
        return -1;
    printf("  cached in %s\n", path);
    return 0;
}
