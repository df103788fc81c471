/* A simple relu(a x + y) * s as a student might write it: one thread per
 * element, a bounds check, every operand read for every a and s. The
 * known-wrongs of 02_chain plant their mistakes in it: each folder's
 * `one-change` names this file as its base and replaces one hunk
 * (tests/lib.sh, wrong_source). */
#include "add_relu.h"

__global__ void k(const float *x, const float *y, float a, float s, float *out, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) {
        float v = a * x[i] + y[i];
        out[i] = (v < 0.f ? 0.f : v) * s;
    }
}

cudaError_t axpy_relu_scale(const float *x, const float *y, float a, float s, float *out,
                            size_t n, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    k<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(x, y, a, s, out, n);
    return cudaGetLastError();
}
