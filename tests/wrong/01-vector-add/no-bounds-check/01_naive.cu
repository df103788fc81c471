/* Known wrong: no bounds check. The last block runs past n and writes
 * beyond the end of c. */
#include "vector_add.h"

__global__ void add_naive_kernel(const float *a, const float *b, float *c, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    c[i] = a[i] + b[i];
}

cudaError_t add_naive(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    add_naive_kernel<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(a, b, c, n);
    return cudaGetLastError();
}
