/* Exercise 03.4 (optional, open): a tuned SGEMM, still in plain FP32.
 *
 * PLACEHOLDER: until the tuned reference lands, this file is 03.3's
 * register-blocked kernel under the name matmul_tuned, so that the chapter
 * builds and grades; it will be replaced.
 *
 * Budget: whatever you can reach in plain FP32 (no TF32, no tensor cores):
 * per element of C at most the 2K/128 floats of 03.3, and the FP32 units
 * busy. The reference aims at 80% of cublasSgemm at 4096^3.
 *
 * Check it:  make check CH=03 EX=04      Time it:  make bench CH=03 */
#include "matmul.h"

#include <stdint.h>

// TODO: your fastest plain-FP32 GEMM: start from 03.3 and try double buffering, warp tiling,
// TODO: larger tiles or BK, and a block order that shares rows of A; measure each step.

cudaError_t matmul_tuned(const float *A, const float *B, float *C, int M, int N, int K,
                         cudaStream_t stream)
{
    // TODO: launch your kernel on `stream` (any M, N, K; views that may be unaligned) and
    // TODO: return cudaGetLastError().
    return MW_NOT_IMPLEMENTED;
}
