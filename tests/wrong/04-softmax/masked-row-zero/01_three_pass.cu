/* Known wrong: a row whose every entry is -inf given 0s. Its softmax is
 * exp(-inf - (-inf)) / sum = NaN / NaN: NaN, as PyTorch gives; this kernel
 * adds the guard many write ("nothing to normalize: return 0"), which hides
 * a fully masked row from whatever comes next. Every other row is right. */
#include "softmax.h"

#include <math.h>

static const unsigned kThreads = 256;

__device__ float block_reduce(float v, int op, float *shared)
{
    for (int offset = 16; offset > 0; offset /= 2) {
        float other = __shfl_xor_sync(0xffffffffu, v, offset);
        v = op ? v + other : fmaxf(v, other);
    }
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0)
        shared[warp] = v;
    __syncthreads();
    const int warps = blockDim.x / 32;
    v = lane < warps ? shared[lane] : (op ? 0.f : -INFINITY);
    for (int offset = 16; offset > 0; offset /= 2) {
        float other = __shfl_xor_sync(0xffffffffu, v, offset);
        v = op ? v + other : fmaxf(v, other);
    }
    __syncthreads();
    return v;
}

__global__ void three_pass_kernel(const float *x, float *y, size_t cols)
{
    __shared__ float shared[32];
    const float *row = x + blockIdx.x * cols;
    float *out = y + blockIdx.x * cols;

    float m = -INFINITY;
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
        m = fmaxf(m, row[c]);
    m = block_reduce(m, 0, shared);
    if (m == -INFINITY) { /* BUG: a fully masked row is NaN, not 0 */
        for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
            out[c] = 0.f;
        return;
    }

    float sum = 0.f;
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
        sum += __expf(row[c] - m);
    sum = block_reduce(sum, 1, shared);

    const float inv = 1.f / sum;
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
        out[c] = __expf(row[c] - m) * inv;
}

cudaError_t softmax_three_pass(const float *x, float *y, size_t rows, size_t cols,
                               cudaStream_t stream)
{
    if (rows == 0 || cols == 0)
        return cudaSuccess;
    three_pass_kernel<<<(unsigned)rows, kThreads, 0, stream>>>(x, y, cols);
    return cudaGetLastError();
}
