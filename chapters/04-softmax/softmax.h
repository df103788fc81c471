/* softmax.h: chapter 04's interface, row softmax in FP32.
 *
 *   y[r][c] = exp(x[r][c] - max_r) / sum_c exp(x[r][c] - max_r)
 *
 * for a row-major rows x cols matrix (row r starts at x + r * cols), any
 * rows from 1 to 2^31 - 1 (so one block per row always fits grid.x) and
 * any cols >= 1: a row may be longer than 2^31 elements. Semantics as in PyTorch: a NaN anywhere in a row
 * makes the whole row NaN; a -inf entry gives 0; a row that is all -inf
 * gives NaN. The harness allocates x and y (256-byte aligned), fills x,
 * poisons y with NaN and checks every element against a double-precision
 * reference. Do not write x; launch on `stream`; return cudaGetLastError(). */
#ifndef MW_SOFTMAX_H
#define MW_SOFTMAX_H

#include "student.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Exercise 04.1 (01_three_pass.cu): max, sum of exp, normalize: three
 * passes over x. */
cudaError_t softmax_three_pass(const float *x, float *y, size_t rows, size_t cols,
                               cudaStream_t stream);

/* Exercise 04.2 (02_fused.cu): one read of x and one write of y: the row
 * held on chip, warp and block reductions. */
cudaError_t softmax_fused(const float *x, float *y, size_t rows, size_t cols,
                          cudaStream_t stream);

/* Exercise 04.3 (03_online.cu): the online (running max and sum) form, for
 * rows too long to hold on chip. */
cudaError_t softmax_online(const float *x, float *y, size_t rows, size_t cols,
                           cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
