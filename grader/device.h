/* device.h: the harness's own GPU helpers (grader/device.cu), C-callable. */
#ifndef MW_DEVICE_H
#define MW_DEVICE_H

#include <stddef.h>
#include <stdint.h>

#include "bf16.h" /* MW_F32, MW_BF16 */
#include "gpu.h"  /* cudaError_t, cudaStream_t */

#ifdef __cplusplus
extern "C" {
#endif

/* Each helper takes the element type of p (MW_F32 or MW_BF16, bf16.h) and
 * counts n and indices in elements of that type. */

/* p[i] = mw_gen(seed, stream, i, kind, scale) for i < n, rounded to bf16
 * (mw_bf16_round) in a bf16 buffer. */
cudaError_t mw_dev_fill(void *p, int type, size_t n, uint64_t seed, uint32_t stream, int kind,
                        float scale, cudaStream_t s);
/* Counts elements of p[0..n) whose bits differ from what mw_dev_fill wrote;
 * result[0] = count, result[1] = first such index (host memory). */
cudaError_t mw_dev_verify_fill(const void *p, int type, size_t n, uint64_t seed,
                               uint32_t stream, int kind, float scale,
                               unsigned long long result[2]);
/* Counts elements of p[0..n) whose bits are not `bits` (its low 16 bits in a
 * bf16 buffer: MW_GUARD_BITS and MW_POISON_BITS are bytes repeated, so
 * their low halves are the bf16 patterns); result[0] = count, result[1] =
 * first index, result[2] = last index (host memory). */
cudaError_t mw_dev_count_not(const void *p, int type, size_t n, uint32_t bits,
                             unsigned long long result[3]);
/* out[j] = p[idx[j]] for j < m (idx and out in device memory), as floats:
 * a bf16 element widened by mw_bf16_widen (its poison to the FP32 one). */
cudaError_t mw_dev_gather(const void *p, int type, const size_t *idx, size_t m, float *out,
                          cudaStream_t s);
/* A kernel that does nothing, on a grid of k blocks: ncu sees its grid size
 * and the traffic tool uses it to bracket measured launches. */
cudaError_t mw_dev_marker(unsigned k, cudaStream_t s);
/* An empty kernel: the harness's own launch overhead. */
cudaError_t mw_dev_empty(cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
