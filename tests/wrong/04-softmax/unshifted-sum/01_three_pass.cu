/* Known wrong: the numerator is shifted by the max, the sum is not:
 * y = exp(x - max) / sum exp(x), off by a factor exp(max) per row. */
#include "softmax.h"

#include <math.h>

__global__ void k(const float *x, float *y, size_t cols)
{
    __shared__ float partial[256];
    const float *in = x + blockIdx.x * cols;
    float m = -INFINITY, s = 0.f;
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
        m = fmaxf(m, in[c]);
    partial[threadIdx.x] = m;
    __syncthreads();
    for (int half = 128; half > 0; half /= 2) {
        if (threadIdx.x < half)
            partial[threadIdx.x] = fmaxf(partial[threadIdx.x], partial[threadIdx.x + half]);
        __syncthreads();
    }
    m = partial[0];
    __syncthreads();
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
        s += expf(in[c]);
    partial[threadIdx.x] = s;
    __syncthreads();
    for (int half = 128; half > 0; half /= 2) {
        if (threadIdx.x < half)
            partial[threadIdx.x] += partial[threadIdx.x + half];
        __syncthreads();
    }
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
        y[blockIdx.x * cols + c] = expf(in[c] - m) / partial[0];
}

cudaError_t softmax_three_pass(const float *x, float *y, size_t rows, size_t cols,
                               cudaStream_t stream)
{
    k<<<(unsigned)rows, 256, 0, stream>>>(x, y, cols);
    return cudaGetLastError();
}
