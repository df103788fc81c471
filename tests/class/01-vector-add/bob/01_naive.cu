/* Class fixture (chapter 01), student "bob", version 01_naive: correct.
 *
 * Why it exists: bob's submission is right everywhere and slow where it
 * counts (02_fast); his naive version is an ordinary correct one, 128
 * threads per block, so that only 02_fast separates him from alice. */
#include "vector_add.h"

__global__ void bob_add(const float *a, const float *b, float *c, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

cudaError_t add_naive(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    bob_add<<<(unsigned)((n + 127) / 128), 128, 0, stream>>>(a, b, c, n);
    return cudaGetLastError();
}
