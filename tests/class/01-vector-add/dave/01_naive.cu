/* Class fixture (chapter 01), student "dave", version 01_naive: correct.
 *
 * Why it exists: dave's 02_fast does not compile; this file does, and must
 * still be graded (and pass) on its own: one broken version must not sink
 * the other. */
#include "vector_add.h"

__global__ void dave_add(const float *a, const float *b, float *c, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

cudaError_t add_naive(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    dave_add<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(a, b, c, n);
    return cudaGetLastError();
}
