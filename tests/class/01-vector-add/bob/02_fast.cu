/* Class fixture (chapter 01), student "bob", version 02_fast: correct and
 * slow.
 *
 * Why it exists: a right answer is not a fast one. This "fast" version is a
 * scalar grid-stride loop on a fixed grid of 32 blocks of 128 threads: 4096
 * threads, 128 warps, on a GPU that keeps 132 SMs x 64 warps in flight.
 * Most SMs sit idle and the few loads in flight cannot cover DRAM latency,
 * so it runs several times slower than the reference (an H100 needs tens of
 * thousands of outstanding 16-byte loads to reach 3 TB/s). Every case
 * passes; the bench must time it, not flag it, and rank it well below
 * alice. */
#include "vector_add.h"

__global__ void bob_add_strided(const float *a, const float *b, float *c, size_t n)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride)
        c[i] = a[i] + b[i];
}

cudaError_t add_fast(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    bob_add_strided<<<32, 128, 0, stream>>>(a, b, c, n);
    return cudaGetLastError();
}
