/* Known wrong: the sum is right, but it is stored into a first (the cast
 * throws away const). A kernel must leave its inputs as it found them. */
#include "vector_add.h"

__global__ void add_naive_kernel(const float *a, const float *b, float *c, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) {
        float *scratch = const_cast<float *>(a);
        scratch[i] = a[i] + b[i];
        c[i] = scratch[i];
    }
}

cudaError_t add_naive(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    add_naive_kernel<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(a, b, c, n);
    return cudaGetLastError();
}
