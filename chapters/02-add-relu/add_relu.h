/* add_relu.h: chapter 02's interface: fused elementwise chains.
 *
 * You write the launchers below (and their kernels) in exercises/02-add-relu/.
 * As in chapter 01, the harness allocates and fills the buffers, passes views
 * that may start at any float address, poisons the output with NaN, calls
 * your launcher on `stream`, and checks every element against a
 * double-precision reference. n may be 0, 1 or past 2^31; do not write x or
 * y; return cudaGetLastError() after the launch.
 *
 * ReLU here is PyTorch's: relu(v) = v for v >= 0, 0 for v < 0, and NaN for a
 * NaN (it propagates). fmaxf(v, 0.f) returns 0 for a NaN: not this ReLU. */
#ifndef MW_ADD_RELU_H
#define MW_ADD_RELU_H

#include "student.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Exercise 02.1 (01_fused.cu): out[i] = relu(x[i] + y[i]) in one pass. */
cudaError_t add_relu(const float *x, const float *y, float *out, size_t n, cudaStream_t stream);

/* Exercise 02.2 (02_chain.cu): out[i] = relu(a * x[i] + y[i]) * s in one pass;
 * three library calls (cublasSgeam, cudnnActivationForward, cublasSscal)
 * would make three. */
cudaError_t axpy_relu_scale(const float *x, const float *y, float a, float s, float *out,
                            size_t n, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
