/* Exercise 03.1: the naive matmul, one thread per element of C.
 *
 *   C[m][n] = sum over k of A[m][k] * B[k][n]
 *
 * Thread (m, n) walks row m of A and column n of B: K multiply-adds, and
 * 2K floats loaded from global memory (8K bytes) for one float of C.
 *
 * Budget: 2K floats read per element of C, 2 M N K in all, against the
 * 4 (M K + K N + M N) bytes a GEMM must move: at 4096^3 that is 550 GB
 * asked for where 201 MB would do, 2700 times the minimum. Only the caches
 * keep it from reaching DRAM: the 32 threads of a warp share one A[m][k]
 * (one address, broadcast), and the warps of a block reuse the same row of
 * B out of L1. What limits this kernel is the bandwidth between the caches
 * and the SMs, not the arithmetic; 03.2 cuts the loads by 32.
 *
 * Coalescing: threadIdx.x runs along n, so the 32 lanes of a warp read
 * B[k][n0 .. n0+31], 128 consecutive bytes, one transaction, and write C
 * the same way. Flip it (threadIdx.x along m) and each lane reads its own
 * row of A, K floats apart: 32 separate 32-byte sectors per warp load, of
 * which 4 bytes each are used, an eighth of every sector; the B loads
 * become broadcasts. Such a kernel runs several times slower (siboehm's
 * SGEMM_CUDA measures 6.6x on an A6000).
 *
 * Launch settings: blocks of 32 x 8 threads (256), a warp along n; a 1-D
 * grid of ceil(N/32) x ceil(M/8) blocks, n-blocks fastest, because grid.y
 * stops at 65535 and M can be a million.
 *
 * Check it:  make check CH=03 EX=01      Time it:  make bench CH=03 */
#include "matmul.h"

// TODO: a kernel with one thread per element of C: threadIdx.x along n (coalesced B and C),
// TODO: rows of a block along m; each thread checks m < M and n < N, sums A[m*K + k] * B[k*N + n]
// TODO: over k in a float, and writes C[m*N + n].

cudaError_t matmul_naive(const float *A, const float *B, float *C, int M, int N, int K,
                         cudaStream_t stream)
{
    // TODO: launch it on `stream` with blocks of 32 x 8 threads, enough blocks to cover M x N
    // TODO: (grid.y stops at 65535: M can be larger), and return cudaGetLastError().
    return MW_NOT_IMPLEMENTED;
}
