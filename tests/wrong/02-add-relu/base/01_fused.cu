/* A simple fused add and ReLU as a student might write it: one thread per
 * element, a bounds check, the ReLU as a compare that keeps a NaN. The
 * known-wrongs of 01_fused plant their mistakes in it: each folder's
 * `one-change` names this file as its base and replaces one hunk
 * (tests/lib.sh, wrong_source). */
#include "add_relu.h"

__global__ void k(const float *x, const float *y, float *out, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i] + y[i];
        out[i] = v < 0.f ? 0.f : v;
    }
}

cudaError_t add_relu(const float *x, const float *y, float *out, size_t n, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    k<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(x, y, out, n);
    return cudaGetLastError();
}
