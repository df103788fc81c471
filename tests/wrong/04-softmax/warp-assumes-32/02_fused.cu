/* Known wrong: one warp per row for short rows, reduced with shuffles over
 * all 32 lanes, but lanes past the row's end hold 0 instead of -inf (for
 * the max) and are not left out of the sum: right when cols is a multiple
 * of 32, wrong for 31 or 33 columns. */
#include "softmax.h"

#include <math.h>

__global__ void k(const float *x, float *y, size_t rows, size_t cols)
{
    size_t r = blockIdx.x * 8 + threadIdx.x / 32;
    if (r >= rows)
        return;
    int lane = threadIdx.x % 32;
    const float *in = x + r * cols;
    float v[32];
    float m = -INFINITY;
    for (int j = 0; j < 32; j++) {
        size_t c = lane + 32 * (size_t)j;
        v[j] = c < cols ? in[c] : 0.f;
        m = fmaxf(m, v[j]);
        if (32 * (size_t)(j + 1) >= cols)
            break;
    }
    for (int o = 16; o > 0; o /= 2)
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    float s = 0.f;
    for (int j = 0; j < 32; j++) {
        s += __expf(v[j] - m);
        if (32 * (size_t)(j + 1) >= cols)
            break;
    }
    for (int o = 16; o > 0; o /= 2)
        s += __shfl_xor_sync(0xffffffffu, s, o);
    for (int j = 0; j < 32; j++) {
        size_t c = lane + 32 * (size_t)j;
        if (c < cols)
            y[r * cols + c] = __expf(v[j] - m) / s;
        if (32 * (size_t)(j + 1) >= cols)
            break;
    }
}

/* Long rows: a plain block per row. */
__global__ void k_long(const float *x, float *y, size_t cols)
{
    __shared__ float partial[32];
    const float *in = x + blockIdx.x * cols;
    float m = -INFINITY, s = 0.f;
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
        m = fmaxf(m, in[c]);
    for (int o = 16; o > 0; o /= 2)
        m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, o));
    if (threadIdx.x % 32 == 0)
        partial[threadIdx.x / 32] = m;
    __syncthreads();
    m = -INFINITY;
    for (int w = 0; w < 32; w++)
        m = fmaxf(m, partial[w]);
    __syncthreads(); /* the sum's partials reuse partial[] */
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
        s += __expf(in[c] - m);
    for (int o = 16; o > 0; o /= 2)
        s += __shfl_xor_sync(0xffffffffu, s, o);
    if (threadIdx.x % 32 == 0)
        partial[threadIdx.x / 32] = s;
    __syncthreads();
    s = 0.f;
    for (int w = 0; w < 32; w++)
        s += partial[w];
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
        y[blockIdx.x * cols + c] = __expf(in[c] - m) / s;
}

cudaError_t softmax_fused(const float *x, float *y, size_t rows, size_t cols, cudaStream_t stream)
{
    if (cols <= 1024)
        k<<<(unsigned)((rows + 7) / 8), 256, 0, stream>>>(x, y, rows, cols);
    else
        k_long<<<(unsigned)rows, 1024, 0, stream>>>(x, y, cols);
    return cudaGetLastError();
}
