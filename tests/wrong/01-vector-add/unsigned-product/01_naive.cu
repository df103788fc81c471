/* Known wrong: a size_t index whose product is still 32-bit. blockIdx.x and
 * blockDim.x are unsigned int, so blockIdx.x * blockDim.x is computed in 32
 * bits and wraps at 2^32 before it is widened. Right for every n up to 2^32;
 * past it, the threads meant for elements 2^32 and on write the elements
 * 2^32 below them again, and every element from 2^32 on is never written.
 * Caught where the GPU holds n = 2^32 + 3 (51.5 GB); skipped elsewhere. */
#include "vector_add.h"

__global__ void add_naive_kernel(const float *a, const float *b, float *c, size_t n)
{
    size_t i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

cudaError_t add_naive(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    add_naive_kernel<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(a, b, c, n);
    return cudaGetLastError();
}
