/* mask.cu: the library composition's causal mask (library.c), what a user
 * writes as scores.masked_fill(j > i, -inf): S[i][j] = -inf for every key
 * j > i, whatever S held there (NaN included), over B*H row-major N x N
 * score matrices laid end to end. Writes only the masked upper triangle
 * (about 2 N^2 bytes per head) and reads nothing: a masked_fill that reads
 * a boolean mask and rewrites every element moves more.
 *
 * One warp per row, grid-stride over the B*H*N rows: a warp's 32 lanes
 * store 32 consecutive floats, so short and long rows both coalesce. The
 * score matrix passes 2^31 elements at N = 16384 with a few heads: offsets
 * are size_t. */
#include "library.h"

#include <math.h>

static const unsigned kThreads = 256;              /* 8 warps, 8 rows per pass */
static const unsigned kWarps = kThreads / 32;
static const size_t kMaxBlocks = (size_t)1 << 16;  /* then grid-stride */

static __global__ void causal_mask_kernel(float *S, size_t rows, unsigned N)
{
    const unsigned lane = threadIdx.x % 32;
    const size_t warps = (size_t)gridDim.x * (blockDim.x / 32);
    for (size_t r = (size_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; r < rows;
         r += warps) {
        const size_t i = r % N; /* the query: row i of its head */
        float *row = S + r * N;
        for (size_t j = i + 1 + lane; j < N; j += 32)
            row[j] = -INFINITY;
    }
}

extern "C" cudaError_t mw05_causal_mask(float *S, size_t heads, int N, cudaStream_t stream)
{
    if (N < 1)
        return cudaErrorInvalidValue;
    const size_t rows = heads * (size_t)N;
    if (N == 1 || rows == 0) /* nothing above the diagonal */
        return cudaGetLastError();
    size_t blocks = (rows + kWarps - 1) / kWarps;
    if (blocks > kMaxBlocks)
        blocks = kMaxBlocks;
    causal_mask_kernel<<<(unsigned)blocks, kThreads, 0, stream>>>(S, rows, (unsigned)N);
    return cudaGetLastError();
}
