/* Exercise 04.3: the online softmax, for rows too long to hold on chip.
 *
 * One sweep over the row keeps a running max m and a running sum
 * l = sum exp(x - m). When a new element x exceeds m, every term summed so
 * far was scaled by exp(-m_old) and must now be scaled by exp(-x): so l is
 * rescaled, l = l * exp(m_old - x) + 1, and m = x. Otherwise l += exp(x - m).
 * Two partial results (m1, l1), (m2, l2) combine the same way:
 *   m = max(m1, m2),  l = l1 * exp(m1 - m) + l2 * exp(m2 - m).
 * A second sweep writes y = exp(x - m) / l. This recurrence is what flash
 * attention (chapter 05) runs over blocks of keys.
 *
 * Budget: 2 reads and 1 write, 12 bytes per element, whatever the row
 * length: one read fewer than 04.1. When all the rows in flight fit in the
 * L2 (50 MB on an H100; about 264 rows at once with 1024-thread blocks),
 * the second read hits there and DRAM sees nearly 8.
 *
 * Launch settings: one block of 1024 threads per row.
 *
 * Check it:  make check CH=04 EX=03      Time it:  make bench CH=04 */
#include "softmax.h"

#include <math.h>

// BEGIN SOLUTION
// TODO: per thread, a running (m, l) over its strided elements; combine the pairs across the
// TODO: block (warp shuffles, then shared memory); then write expf(x - m) / l in a second sweep.
// TODO: Take care with -inf: exp(-inf - (-inf)) is NaN, so skip -inf terms and guard m = -inf.
static const unsigned kThreads = 1024;

struct ml {
    float m, l;
};

/* (m1, l1) and (m2, l2) as one: the smaller max's sum is rescaled. */
__device__ __forceinline__ ml combine(ml a, ml b)
{
    float m = fmaxf(a.m, b.m);
    if (m == -INFINITY) /* no finite term on either side: l is 0, or NaN */
        return {m, a.l + b.l};
    return {m, a.l * __expf(a.m - m) + b.l * __expf(b.m - m)};
}

__device__ __forceinline__ ml add(ml s, float x)
{
    if (x == -INFINITY) /* contributes exp(-inf) = 0 */
        return s;
    if (x > s.m) /* the max grows: rescale what was summed */
        return {x, s.l * __expf(s.m - x) + 1.f};
    return {s.m, s.l + __expf(x - s.m)}; /* a NaN x makes l NaN, as it must */
}

__device__ ml block_combine(ml s)
{
    __shared__ ml shared[32];
    for (int offset = 16; offset > 0; offset /= 2) {
        ml o = {__shfl_xor_sync(0xffffffffu, s.m, offset), __shfl_xor_sync(0xffffffffu, s.l, offset)};
        s = combine(s, o);
    }
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0)
        shared[warp] = s;
    __syncthreads();
    s = lane < (int)(blockDim.x / 32) ? shared[lane] : ml{-INFINITY, 0.f};
    for (int offset = 16; offset > 0; offset /= 2) {
        ml o = {__shfl_xor_sync(0xffffffffu, s.m, offset), __shfl_xor_sync(0xffffffffu, s.l, offset)};
        s = combine(s, o);
    }
    return s;
}

__global__ void online_kernel(const float *x, float *y, size_t cols)
{
    const float *row = x + blockIdx.x * cols;
    float *out = y + blockIdx.x * cols;
    ml s = {-INFINITY, 0.f};
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
        s = add(s, row[c]);
    s = block_combine(s);
    const float inv = 1.f / s.l; /* all -inf: 1/0, and exp(NaN) below: NaN */
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
        out[c] = __expf(row[c] - s.m) * inv;
}
// END SOLUTION

cudaError_t softmax_online(const float *x, float *y, size_t rows, size_t cols,
                           cudaStream_t stream)
{
    // BEGIN SOLUTION
    // TODO: one block per row on `stream`; return cudaGetLastError().
    // STUB: return MW_NOT_IMPLEMENTED;
    online_kernel<<<(unsigned)rows, kThreads, 0, stream>>>(x, y, cols);
    return cudaGetLastError();
    // END SOLUTION
}
