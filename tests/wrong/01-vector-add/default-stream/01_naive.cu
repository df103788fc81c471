/* Known wrong: the kernel ignores the stream it is given and goes to the
 * legacy default stream. Every value is right, and a caller that
 * synchronizes the whole device never notices; a caller that orders its
 * next step by `stream` reads c before it is written. */
#include "vector_add.h"

__global__ void add_naive_kernel(const float *a, const float *b, float *c, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

cudaError_t add_naive(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    (void)stream;
    if (n == 0)
        return cudaSuccess;
    add_naive_kernel<<<(unsigned)((n + 255) / 256), 256>>>(a, b, c, n);
    return cudaGetLastError();
}
