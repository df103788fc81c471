/* Right, but not fused: one kernel adds into out, a second reads out back
 * and applies the ReLU: 20 bytes per element instead of 12. The grader must
 * pass it; the bench shows what it costs. */
#include "add_relu.h"

__global__ void add_kernel(const float *x, const float *y, float *out, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = x[i] + y[i];
}

__global__ void relu_kernel(float *v, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = v[i] < 0.f ? 0.f : v[i];
}

cudaError_t add_relu(const float *x, const float *y, float *out, size_t n, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    unsigned blocks = (unsigned)((n + 255) / 256);
    add_kernel<<<blocks, 256, 0, stream>>>(x, y, out, n);
    relu_kernel<<<blocks, 256, 0, stream>>>(out, n);
    return cudaGetLastError();
}
