/* baselines.h: chapter 02's own one-pass kernels (baselines.cu). */
#ifndef MW_02_BASELINES_H
#define MW_02_BASELINES_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t mw02_add(const float *x, const float *y, float *out, size_t n, cudaStream_t s);
cudaError_t mw02_relu(float *v, size_t n, cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
