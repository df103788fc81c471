/* Exercise 04.2: a fused softmax: one read of x, one write of y.
 *
 * Budget: 8 bytes per element, the least possible: the row is loaded once
 * into registers, reduced twice (max, then sum of exp) without going back to
 * memory, and written once. At that budget softmax moves as many bytes as a
 * copy, so the copy roof is its roof.
 *
 * The strategy follows the row length (n below counts float4s when cols is
 * a multiple of 4 and the pointers are 16-byte aligned, else floats):
 *   cols <= 1024     one warp per row, each lane holding up to 8 float4s (or
 *                    32 floats); reductions are warp shuffles only; 8 rows
 *                    per block of 256 threads;
 *   cols <= 16384    one block per row, each thread holding 4 float4s (or
 *                    16 floats); reductions are shuffles, then 32 partials
 *                    through shared memory;
 *   longer rows      too long for registers: the online form of 04.3.
 * Holding values in a register array needs compile-time indices: the loops
 * over it are unrolled (templates on the count), or the array would move to
 * local memory (DRAM traffic again).
 *
 * Check it:  make check CH=04 EX=02      Time it:  make bench CH=04 */
#include "softmax.h"

#include <math.h>
#include <stdint.h>

// BEGIN SOLUTION
// TODO: hold each row in registers (a warp per short row, a block per longer row), reduce the
// TODO: max and then the sum of expf(x - max) with warp shuffles (and shared memory across warps),
// TODO: and write expf(x - max) / sum: one read and one write per element. Rows too long to hold
// TODO: on chip can fall back to the online form of 04.3.

/* VEC floats as one access: 4 (float4) or 1. */
template <int VEC> struct access;
template <> struct access<4> {
    static __device__ void load(const float *p, size_t i, float *v)
    {
        float4 q = reinterpret_cast<const float4 *>(p)[i];
        v[0] = q.x; v[1] = q.y; v[2] = q.z; v[3] = q.w;
    }
    static __device__ void store(float *p, size_t i, const float *v)
    {
        reinterpret_cast<float4 *>(p)[i] = make_float4(v[0], v[1], v[2], v[3]);
    }
};
template <> struct access<1> {
    static __device__ void load(const float *p, size_t i, float *v) { v[0] = p[i]; }
    static __device__ void store(float *p, size_t i, const float *v) { p[i] = v[0]; }
};

__device__ __forceinline__ float warp_max(float v)
{
    for (int o = 16; o > 0; o /= 2)
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}

__device__ __forceinline__ float warp_sum(float v)
{
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

/* Across the block: warps reduce, lane 0s meet in shared memory, warp 0
 * reduces those and broadcasts. Two barriers: one before reading the
 * partials, one before the shared slots can be written again. */
__device__ float block_max(float v, float *shared)
{
    v = warp_max(v);
    if (threadIdx.x % 32 == 0)
        shared[threadIdx.x / 32] = v;
    __syncthreads();
    v = threadIdx.x < blockDim.x / 32 ? shared[threadIdx.x] : -INFINITY;
    v = warp_max(v);
    if (threadIdx.x == 0)
        shared[32] = v;
    __syncthreads();
    return shared[32];
}

__device__ float block_sum(float v, float *shared)
{
    v = warp_sum(v);
    __syncthreads(); /* block_max's readers are done with shared[] */
    if (threadIdx.x % 32 == 0)
        shared[threadIdx.x / 32] = v;
    __syncthreads();
    v = threadIdx.x < blockDim.x / 32 ? shared[threadIdx.x] : 0.f;
    v = warp_sum(v);
    if (threadIdx.x == 0)
        shared[33] = v;
    __syncthreads();
    return shared[33];
}

/* Given the row's values (valid[k] says which exist), the max, exp, sum and
 * scale, in registers. Returns nothing: v holds y afterwards. */
template <int N, bool BLOCK>
__device__ void softmax_registers(float (&v)[N], const bool (&valid)[N], float *shared)
{
    float m = -INFINITY;
#pragma unroll
    for (int i = 0; i < N; i++)
        m = valid[i] ? fmaxf(m, v[i]) : m;
    m = BLOCK ? block_max(m, shared) : warp_max(m);
    float sum = 0.f;
#pragma unroll
    for (int i = 0; i < N; i++) {
        v[i] = valid[i] ? __expf(v[i] - m) : 0.f; /* NaN stays NaN: the row turns NaN */
        sum += v[i];
    }
    sum = BLOCK ? block_sum(sum, shared) : warp_sum(sum);
    const float inv = 1.f / sum;
#pragma unroll
    for (int i = 0; i < N; i++)
        v[i] *= inv;
}

/* One warp per row; K accesses of VEC floats per lane. */
template <int VEC, int K>
__global__ void warp_rows(const float *x, float *y, size_t rows, size_t cols)
{
    const size_t r = blockIdx.x * (size_t)(blockDim.x / 32) + threadIdx.x / 32;
    if (r >= rows) /* r is the same for the whole warp */
        return;
    const int lane = threadIdx.x % 32;
    const size_t n = cols / VEC;
    const float *in = x + r * cols;
    float *out = y + r * cols;
    float v[K * VEC];
    bool valid[K * VEC];
#pragma unroll
    for (int k = 0; k < K; k++) {
        const size_t i = lane + 32 * (size_t)k;
        if (i < n)
            access<VEC>::load(in, i, &v[k * VEC]);
#pragma unroll
        for (int j = 0; j < VEC; j++)
            valid[k * VEC + j] = i < n;
    }
    softmax_registers<K * VEC, false>(v, valid, nullptr);
#pragma unroll
    for (int k = 0; k < K; k++) {
        const size_t i = lane + 32 * (size_t)k;
        if (i < n)
            access<VEC>::store(out, i, &v[k * VEC]);
    }
}

/* One block per row; K accesses of VEC floats per thread. */
template <int VEC, int K>
__global__ void block_rows(const float *x, float *y, size_t cols)
{
    __shared__ float shared[34];
    const size_t n = cols / VEC;
    const float *in = x + blockIdx.x * cols;
    float *out = y + blockIdx.x * cols;
    float v[K * VEC];
    bool valid[K * VEC];
#pragma unroll
    for (int k = 0; k < K; k++) {
        const size_t i = threadIdx.x + blockDim.x * (size_t)k;
        if (i < n)
            access<VEC>::load(in, i, &v[k * VEC]);
#pragma unroll
        for (int j = 0; j < VEC; j++)
            valid[k * VEC + j] = i < n;
    }
    softmax_registers<K * VEC, true>(v, valid, shared);
#pragma unroll
    for (int k = 0; k < K; k++) {
        const size_t i = threadIdx.x + blockDim.x * (size_t)k;
        if (i < n)
            access<VEC>::store(out, i, &v[k * VEC]);
    }
}

/* Rows too long for registers: the online form (see 03_online.cu). */
struct ml {
    float m, l;
};

__device__ __forceinline__ ml combine(ml a, ml b)
{
    float m = fmaxf(a.m, b.m);
    if (m == -INFINITY) /* no finite term on either side: l is 0, or NaN */
        return {m, a.l + b.l};
    return {m, a.l * __expf(a.m - m) + b.l * __expf(b.m - m)};
}

__global__ void online_rows(const float *x, float *y, size_t cols)
{
    __shared__ ml shared[32];
    const float *in = x + blockIdx.x * cols;
    float *out = y + blockIdx.x * cols;
    ml s = {-INFINITY, 0.f};
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x) {
        const float v = in[c];
        if (v == -INFINITY)
            continue;
        s = v > s.m ? ml{v, s.l * __expf(s.m - v) + 1.f} : ml{s.m, s.l + __expf(v - s.m)};
    }
    for (int o = 16; o > 0; o /= 2)
        s = combine(s, ml{__shfl_xor_sync(0xffffffffu, s.m, o), __shfl_xor_sync(0xffffffffu, s.l, o)});
    if (threadIdx.x % 32 == 0)
        shared[threadIdx.x / 32] = s;
    __syncthreads();
    /* Every warp combines the 32 partials, so every thread gets the total. */
    const unsigned lane = threadIdx.x % 32;
    s = lane < blockDim.x / 32 ? shared[lane] : ml{-INFINITY, 0.f};
    for (int o = 16; o > 0; o /= 2)
        s = combine(s, ml{__shfl_xor_sync(0xffffffffu, s.m, o), __shfl_xor_sync(0xffffffffu, s.l, o)});
    const float inv = 1.f / s.l;
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
        out[c] = __expf(in[c] - s.m) * inv;
}

/* The smallest power of two K with 32 * K >= n (n <= 32 * KMAX). */
static int lanes_needed(size_t n)
{
    int k = 1;
    while (32 * (size_t)k < n)
        k *= 2;
    return k;
}

template <int VEC>
static void launch_warp(const float *x, float *y, size_t rows, size_t cols, cudaStream_t s)
{
    const unsigned threads = 256, blocks = (unsigned)((rows + 7) / 8);
    switch (lanes_needed(cols / VEC)) {
    case 1: warp_rows<VEC, 1><<<blocks, threads, 0, s>>>(x, y, rows, cols); break;
    case 2: warp_rows<VEC, 2><<<blocks, threads, 0, s>>>(x, y, rows, cols); break;
    case 4: warp_rows<VEC, 4><<<blocks, threads, 0, s>>>(x, y, rows, cols); break;
    case 8: warp_rows<VEC, 8><<<blocks, threads, 0, s>>>(x, y, rows, cols); break;
    case 16: warp_rows<VEC, 16><<<blocks, threads, 0, s>>>(x, y, rows, cols); break;
    default: warp_rows<VEC, 32><<<blocks, threads, 0, s>>>(x, y, rows, cols); break;
    }
}
// END SOLUTION

cudaError_t softmax_fused(const float *x, float *y, size_t rows, size_t cols,
                          cudaStream_t stream)
{
    // BEGIN SOLUTION
    // TODO: pick the kernel by row length, launch it on `stream`, return cudaGetLastError().
    // STUB: return MW_NOT_IMPLEMENTED;
    const bool vec4 = cols % 4 == 0 && (((uintptr_t)x | (uintptr_t)y) & 15) == 0;
    if (cols <= 1024) {
        if (vec4)
            launch_warp<4>(x, y, rows, cols, stream);
        else
            launch_warp<1>(x, y, rows, cols, stream);
    } else if (cols <= 16384) {
        /* 4 float4s (or 16 floats) per thread: 16 values in registers. */
        const size_t n = vec4 ? cols / 4 : cols;
        const size_t per_thread = vec4 ? 4 : 16;
        unsigned threads = (unsigned)((n + per_thread - 1) / per_thread);
        threads = (threads + 31) / 32 * 32;
        if (vec4)
            block_rows<4, 4><<<(unsigned)rows, threads, 0, stream>>>(x, y, cols);
        else
            block_rows<1, 16><<<(unsigned)rows, threads, 0, stream>>>(x, y, cols);
    } else {
        online_rows<<<(unsigned)rows, 1024, 0, stream>>>(x, y, cols);
    }
    return cudaGetLastError();
    // END SOLUTION
}
