/* Known wrong: a shared-memory tree reduction without the barrier between
 * its steps: threads read partial sums other warps have not written yet. */
#include "softmax.h"

#include <math.h>

__device__ float reduce(float v, bool sum, float *partial)
{
    partial[threadIdx.x] = v;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            partial[threadIdx.x] = sum ? partial[threadIdx.x] + partial[threadIdx.x + half]
                                       : fmaxf(partial[threadIdx.x], partial[threadIdx.x + half]);
        /* missing: __syncthreads(); */
    }
    __syncthreads();
    float r = partial[0];
    __syncthreads();
    return r;
}

__global__ void k(const float *x, float *y, size_t cols)
{
    __shared__ float partial[256];
    const float *in = x + blockIdx.x * cols;
    float m = -INFINITY, s = 0.f;
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
        m = fmaxf(m, in[c]);
    m = reduce(m, false, partial);
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
        s += __expf(in[c] - m);
    s = reduce(s, true, partial);
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
        y[blockIdx.x * cols + c] = __expf(in[c] - m) / s;
}

cudaError_t softmax_three_pass(const float *x, float *y, size_t rows, size_t cols,
                               cudaStream_t stream)
{
    k<<<(unsigned)rows, 256, 0, stream>>>(x, y, cols);
    return cudaGetLastError();
}
