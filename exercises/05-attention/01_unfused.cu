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

// TODO: three kernels, each launched on `stream`:
// TODO:  1. scores: S = scale * Q K^T for each (b, h), a 32 x 32 shared-memory tiled product
// TODO:     like 03.2 (K's rows are B's columns), with S[i][j] = -inf where causal and j > i;
// TODO:  2. a row softmax over S (a warp per row, the online (m, l) of 04.3) that writes P
// TODO:     over S and L[i] = m + log(l);
// TODO:  3. O = P V, tiled like 1; when causal, row i sums only j <= i: a V row it does not
// TODO:     attend to may hold NaN, and 0 * NaN is NaN.
// TODO: Index S with size_t: B*H*N*N passes 2^31.

cudaError_t attention_unfused(const float *Q, const float *K, const float *V, float *O,
                              float *L, float *S, int B, int H, int N, int d, float scale,
                              int causal, cudaStream_t stream)
{
    // TODO: check d (32, 64 or 128) and B, H, N >= 1; launch the three kernels in order on
    // TODO: `stream` (1-D grids: gridDim.y and z stop at 65535) and return cudaGetLastError().
    return MW_NOT_IMPLEMENTED;
}
