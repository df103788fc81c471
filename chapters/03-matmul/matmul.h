/* matmul.h: chapter 03's interface, C = A * B in FP32.
 *
 *   C[m][n] = sum over k of A[m][k] * B[k][n]
 *
 * Row-major, leading dimensions equal to the row lengths: A is M x K
 * (A[m][k] is A[m * K + k]), B is K x N (B[k][n] is B[k * N + n]), C is
 * M x N (C[m][n] is C[m * N + n]). Any M, N, K >= 1, not necessarily
 * multiples of anything. Each of M, N, K fits an `int`, but a product of
 * two may not: the grader multiplies past 2^31 in each matrix (M * K,
 * K * N and M * N), so compute an index as (size_t)m * K + k.
 *
 * The harness allocates A, B and C, fills A and B, poisons C with NaN,
 * calls your launcher on `stream` and checks C against a double-precision
 * reference. The views may start a few floats past an aligned address (1, 2
 * or 3 floats, on any of the three buffers): a kernel that uses float4 must
 * check that the address is 16-byte aligned, and that the row length keeps
 * every row aligned, and fall back to scalar accesses otherwise.
 *
 * Plain FP32 arithmetic: no TF32 and no tensor cores. An answer computed
 * from inputs rounded to TF32 fails the tolerance. Do not write A or B;
 * launch on `stream`; return cudaGetLastError() after the launch. */
#ifndef MW_MATMUL_H
#define MW_MATMUL_H

#include "student.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Exercise 03.1 (01_naive.cu): one thread per element of C, reading its
 * row of A and its column of B from global memory. */
cudaError_t matmul_naive(const float *A, const float *B, float *C, int M, int N, int K,
                         cudaStream_t stream);

/* Exercise 03.2 (02_tiled.cu): shared-memory tiles, each element of A and B
 * loaded once per tile instead of once per multiply-add. */
cudaError_t matmul_tiled(const float *A, const float *B, float *C, int M, int N, int K,
                         cudaStream_t stream);

/* Exercise 03.3 (03_regblock.cu): register blocking: each thread computes a
 * small block of C from values held in registers. */
cudaError_t matmul_regblock(const float *A, const float *B, float *C, int M, int N, int K,
                            cudaStream_t stream);

/* Exercise 03.4 (04_tuned.cu, optional and open): as fast as you can make
 * it, still in plain FP32. */
cudaError_t matmul_tuned(const float *A, const float *B, float *C, int M, int N, int K,
                         cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
