/* A simple vector add as a student might write it: one thread per element,
 * a 64-bit index, a bounds check, 256 threads a block on the stream given.
 * The known-wrongs of 01_naive plant their mistakes in it: each folder's
 * `one-change` names this file as its base and replaces one hunk
 * (tests/lib.sh, wrong_source). */
#include "vector_add.h"

__global__ void add_naive_kernel(const float *a, const float *b, float *c, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
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
