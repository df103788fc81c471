/* vector_add.h: chapter 01's interface, c[i] = a[i] + b[i] for i < n.
 *
 * You write the launchers below (and the kernels they launch) in
 * exercises/01-vector-add/. The harness owns everything else: it allocates
 * a, b and c, fills a and b with random floats, poisons c with NaN, passes
 * views that may start at any float address (offset from 16-byte alignment),
 * calls your launcher on `stream`, and checks every element of c against a
 * double-precision reference.
 *
 * Rules: n may be 0, 1, or past 2^31; a, b, c never overlap; do not write a
 * or b; launch on `stream`; return cudaGetLastError() after the launch (the
 * harness synchronizes and names any error). */
#ifndef MW_VECTOR_ADD_H
#define MW_VECTOR_ADD_H

#include "student.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Exercise 01.1 (01_naive.cu): one thread per element. */
cudaError_t add_naive(const float *a, const float *b, float *c, size_t n, cudaStream_t stream);

/* Exercise 01.2 (02_fast.cu): 16-byte loads and stores, any n, any alignment,
 * at the memory roof. */
cudaError_t add_fast(const float *a, const float *b, float *c, size_t n, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
