/* Known wrong: the launcher reads a device pointer on the host, which is a
 * segmentation fault. The grader must report a crash and go on. */
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
    if (n > 1000 && a[0] != a[0]) /* a host read of device memory */
        return cudaErrorUnknown;
    add_naive_kernel<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(a, b, c, n);
    return cudaGetLastError();
}
