/* Exercise 05.1: standard attention: three kernels, and the N x N scores
 * go through DRAM.
 *
 * For each (b, h): S = scale Q K^T (N x N), P = softmax(S) by rows, O = P V,
 * with S and P written to a workspace in DRAM between kernels: the
 * "standard attention implementation" the FlashAttention paper starts from.
 *  1. scores_kernel: a 32 x 32 tile of S per block of 32 x 32 threads, the
 *     tiled product of 03.2 with K's rows as B's columns: tiles of Q and K
 *     in shared memory, d / 32 steps. Causal: a tile wholly above the
 *     diagonal only writes -inf; in the diagonal tiles S = -inf where j > i
 *     by a select (K's row j may be NaN).
 *  2. softmax_kernel: a warp per row of S: one sweep for the online (m, l)
 *     of 04.3, a second writes P = exp(S - m) / l over S; L = m + log(l).
 *  3. pv_kernel: O = P V, a 32 x 32 tile of O (32 rows, 32 of the d
 *     columns) per block, like 1. Causal: row i's sum stops at key i (a
 *     bound per warp, a warp being one row), so the V rows after i never
 *     enter it, NaN or not, and the tiles of P past the diagonal are not read.
 *
 * Budget: the minimum, Q, K, V read and O, L written once (4 B H N (4d + 1)
 * bytes), plus the scores: S written, read, written again as P and read:
 * 4 x 4 B H N^2 bytes. At B = 4, H = 16, N = 4096, d = 64 that is 17.2 GB
 * on top of 269 MB, 5.7 ms at 3 TB/s before any arithmetic, and a 4.3 GB
 * workspace. The softmax here reads each row twice, and the second sweep
 * misses the 50 MB L2 too (64 rows of 16 KB in flight per SM, 135 MB in
 * all): Nsight Compute counts 12.9 GB for the softmax, 21.7 GB in all.
 * FLOPs: 4 B H N^2 d (two products), as in 05.2; causal, the products
 * halve (tiles above the diagonal are skipped), the S traffic does not.
 *
 * Launch settings: scores and P V, 32 x 32 threads (1024) and 8.3 KB of
 * shared memory per block, 1-D grids (gridDim.y and z stop at 65535: the
 * scores grid is B H (N / 32)^2 blocks, 1,048,576 at the shape above);
 * softmax, 256 threads, 8 rows per block.
 *
 * Measured on an H100 80GB HBM3 (CUDA 13.0) at B = 4, H = 16, N = 4096,
 * d = 64: 56.6 ms (4.9 TFLOP/s), causal 32.9 ms; 05.2 takes 6.5 ms and
 * 3.3 ms. Nsight Compute's split (non-causal, at its locked clocks): scores
 * 26.1 ms, softmax 4.9 ms, P V 35.7 ms. The two products of 03.2, with two
 * shared loads per FMA, cost far more than the DRAM traffic of S.
 *
 * Check it:  make check CH=05 EX=01      Time it:  make bench CH=05 */
#include "attention.h"

// BEGIN SOLUTION
// TODO: three kernels, each launched on `stream`:
// TODO:  1. scores: S = scale * Q K^T for each (b, h), a 32 x 32 shared-memory tiled product
// TODO:     like 03.2 (K's rows are B's columns), with S[i][j] = -inf where causal and j > i;
// TODO:  2. a row softmax over S (a warp per row, the online (m, l) of 04.3) that writes P
// TODO:     over S and L[i] = m + log(l);
// TODO:  3. O = P V, tiled like 1; when causal, row i sums only j <= i: a V row it does not
// TODO:     attend to may hold NaN, and 0 * NaN is NaN.
// TODO: Index S with size_t: B*H*N*N passes 2^31.
#include <math.h>

#define TILE 32

/* S[i][j] = scale * Q[i] . K[j] for one 32 x 32 tile of one (b, h), -inf
 * where causal and j > i. Block (ty, tx) = (row, key) within the tile. */
__global__ void scores_kernel(const float *Q, const float *K, float *S, int N, int d,
                              float scale, int causal)
{
    __shared__ float Qs[TILE][TILE + 1], Ks[TILE][TILE + 1];
    const int tiles = (N + TILE - 1) / TILE;
    const int tj = blockIdx.x % tiles, ti = (blockIdx.x / tiles) % tiles;
    const size_t bh = blockIdx.x / tiles / tiles;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i = ti * TILE + ty, j = tj * TILE + tx;
    float *Srow = S + (bh * N + i) * N;
    if (causal && tj > ti) { /* the whole tile is above the diagonal: no product */
        if (i < N && j < N)
            Srow[j] = -INFINITY;
        return; /* the whole block leaves: no barrier is skipped */
    }
    const float *Qb = Q + bh * N * d, *Kb = K + bh * N * d;
    const int krow = tj * TILE + ty; /* the K row this thread loads */
    float acc = 0.f;
    for (int k0 = 0; k0 < d; k0 += TILE) { /* d is a multiple of 32 */
        Qs[ty][tx] = i < N ? Qb[(size_t)i * d + k0 + tx] : 0.f;
        Ks[ty][tx] = krow < N ? Kb[(size_t)krow * d + k0 + tx] : 0.f;
        __syncthreads();
        /* Qs[ty][k]: one address per warp; Ks[tx][k]: 33 floats apart, 32 banks. */
        for (int k = 0; k < TILE; k++)
            acc += Qs[ty][k] * Ks[tx][k];
        __syncthreads();
    }
    if (i < N && j < N)
        Srow[j] = causal && j > i ? -INFINITY : scale * acc; /* a select: K[j] may be NaN */
}

/* The online (m, l) pair of 04.3: l = sum exp(x - m). */
struct ml {
    float m, l;
};

__device__ __forceinline__ ml combine(ml a, ml b)
{
    const float m = fmaxf(a.m, b.m);
    if (m == -INFINITY) /* nothing finite on either side */
        return {m, a.l + b.l};
    return {m, a.l * expf(a.m - m) + b.l * expf(b.m - m)};
}

__device__ __forceinline__ ml add(ml s, float x)
{
    if (x == -INFINITY) /* a masked score adds nothing */
        return s;
    if (x > s.m)
        return {x, s.l * expf(s.m - x) + 1.f};
    return {s.m, s.l + expf(x - s.m)}; /* NaN x: l becomes NaN, as it must */
}

static const int kRowsPerBlock = 8; /* a warp per row, 256 threads */

/* One warp per row of S: (m, l) in one sweep, P = exp(S - m) / l over S in
 * a second, L = m + log(l). */
__global__ void softmax_kernel(float *S, float *L, size_t rows, int N)
{
    const size_t row = (size_t)blockIdx.x * kRowsPerBlock + threadIdx.x / 32;
    const int lane = threadIdx.x % 32;
    if (row >= rows)
        return; /* no barrier below: a warp may leave */
    float *s = S + row * N;
    ml t = {-INFINITY, 0.f};
    for (int j = lane; j < N; j += 32)
        t = add(t, s[j]);
    for (int offset = 16; offset > 0; offset /= 2) {
        const ml o = {__shfl_xor_sync(0xffffffffu, t.m, offset),
                      __shfl_xor_sync(0xffffffffu, t.l, offset)};
        t = combine(t, o);
    }
    const float inv = 1.f / t.l;
    for (int j = lane; j < N; j += 32)
        s[j] = expf(s[j] - t.m) * inv; /* -inf gives 0 */
    if (lane == 0)
        L[row] = t.m + logf(t.l);
}

/* O = P V for one 32 x 32 tile of O (rows i, columns n of d) of one (b, h). */
__global__ void pv_kernel(const float *P, const float *V, float *O, int N, int d, int causal)
{
    __shared__ float Ps[TILE][TILE + 1], Vs[TILE][TILE];
    const int col_tiles = d / TILE, row_tiles = (N + TILE - 1) / TILE;
    const int tn = blockIdx.x % col_tiles, ti = (blockIdx.x / col_tiles) % row_tiles;
    const size_t bh = blockIdx.x / col_tiles / row_tiles;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int i = ti * TILE + ty, n = tn * TILE + tx;
    const float *Prow = P + (bh * N + i) * N, *Vb = V + bh * N * d;
    /* The keys this tile's rows attend: all N, or up to its last row. */
    const int end = causal ? min(N, ti * TILE + TILE) : N;
    float acc = 0.f;
    for (int j0 = 0; j0 < end; j0 += TILE) {
        Ps[ty][tx] = i < N && j0 + tx < end ? Prow[j0 + tx] : 0.f;
        Vs[ty][tx] = j0 + ty < end ? Vb[(size_t)(j0 + ty) * d + n] : 0.f;
        __syncthreads();
        /* Causal: keys j0 + k <= i only, a bound per warp (a warp is one
         * row): the V rows after i never enter the sum, NaN or not. */
        const int kmax = causal ? max(0, min(TILE, i - j0 + 1)) : TILE;
        for (int k = 0; k < kmax; k++)
            acc += Ps[ty][k] * Vs[k][tx];
        __syncthreads();
    }
    if (i < N)
        O[(bh * N + i) * d + n] = acc;
}
// END SOLUTION

cudaError_t attention_unfused(const float *Q, const float *K, const float *V, float *O,
                              float *L, float *S, int B, int H, int N, int d, float scale,
                              int causal, cudaStream_t stream)
{
    // BEGIN SOLUTION
    // TODO: check d (32, 64 or 128) and B, H, N >= 1; launch the three kernels in order on
    // TODO: `stream` (1-D grids: gridDim.y and z stop at 65535) and return cudaGetLastError().
    // STUB: return MW_NOT_IMPLEMENTED;
    if (B < 1 || H < 1 || N < 1 || (d != 32 && d != 64 && d != 128))
        return cudaErrorInvalidValue;
    const size_t BH = (size_t)B * H, tiles = (N + TILE - 1) / TILE;
    const size_t score_blocks = BH * tiles * tiles, pv_blocks = BH * tiles * (d / TILE);
    const size_t rows = BH * N, softmax_blocks = (rows + kRowsPerBlock - 1) / kRowsPerBlock;
    if (score_blocks > 0x7fffffffu || softmax_blocks > 0x7fffffffu)
        return cudaErrorInvalidValue;
    scores_kernel<<<(unsigned)score_blocks, dim3(TILE, TILE), 0, stream>>>(Q, K, S, N, d, scale,
                                                                          causal);
    softmax_kernel<<<(unsigned)softmax_blocks, 32 * kRowsPerBlock, 0, stream>>>(S, L, rows, N);
    pv_kernel<<<(unsigned)pv_blocks, dim3(TILE, TILE), 0, stream>>>(S, V, O, N, d, causal);
    return cudaGetLastError();
    // END SOLUTION
}
