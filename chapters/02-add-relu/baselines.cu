/* baselines.cu: the workbook's own one-pass kernels, for chapter 02's
 * unfused baselines: out = x + y, and ReLU in place. An unfused chain built
 * from them should lose to the fused kernel only by its extra bytes, so each
 * is written to stream at the memory roof: every thread loads four elements,
 * a block's width apart, before it stores any, which keeps 16 bytes per
 * input in flight per thread, as many as one float4 would.
 *
 * Scalar accesses, on purpose: this file ships in the student edition, and
 * chapter 01's exercises (one element per thread; float4 for an aligned
 * body) are the student's to write. Scalar accesses also take any pointer,
 * so no alignment is assumed; a warp's 32 lanes still touch 32 consecutive
 * floats at each of the four steps. */
#include "baselines.h"

static const unsigned kThreads = 256;
static const unsigned kPerThread = 4; /* elements in flight per thread */

/* PyTorch's ReLU: NaN propagates. */
__device__ __forceinline__ float relu(float v)
{
    return v < 0.f ? 0.f : v;
}

/* out = x + y (y == NULL: out = relu(x), in place allowed). Every load of a
 * thread comes before its first store: in place, out is x, and the compiler
 * may not move a load of x past a store to out. */
__global__ void map_kernel(const float *x, const float *y, float *out, size_t n)
{
    const size_t first = blockIdx.x * (size_t)(kThreads * kPerThread) + threadIdx.x;
    float v[kPerThread];
#pragma unroll
    for (unsigned k = 0; k < kPerThread; k++) {
        const size_t j = first + (size_t)k * kThreads;
        v[k] = j >= n ? 0.f : y ? x[j] + y[j] : relu(x[j]);
    }
#pragma unroll
    for (unsigned k = 0; k < kPerThread; k++) {
        const size_t j = first + (size_t)k * kThreads;
        if (j < n)
            out[j] = v[k];
    }
}

static cudaError_t launch(const float *x, const float *y, float *out, size_t n, cudaStream_t s)
{
    if (n == 0)
        return cudaSuccess;
    /* n = 2^33 needs 2^23 blocks of 1024 elements: under grid.x's 2^31 - 1. */
    const size_t per_block = (size_t)kThreads * kPerThread;
    map_kernel<<<(unsigned)((n + per_block - 1) / per_block), kThreads, 0, s>>>(x, y, out, n);
    return cudaGetLastError();
}

extern "C" cudaError_t mw02_add(const float *x, const float *y, float *out, size_t n,
                                cudaStream_t s)
{
    return launch(x, y, out, n, s);
}

extern "C" cudaError_t mw02_relu(float *v, size_t n, cudaStream_t s)
{
    return launch(v, NULL, v, n, s);
}
