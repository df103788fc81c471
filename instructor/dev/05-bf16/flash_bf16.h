/* flash_bf16.h: the bf16 flash-attention forward of instructor/dev/05-bf16, and the
 * handles the driver uses to check and time each configuration alone.
 *
 * attention_flash_bf16 has the semantics of chapters/05-attention/attention.h
 * with bf16 Q, K, V, O (FP32 L): it picks the default configuration for d.
 * The variant functions run one named configuration (an ablation table). */
#ifndef MW_DEV05_FLASH_BF16_H
#define MW_DEV05_FLASH_BF16_H

#include <cuda_bf16.h>
#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t attention_flash_bf16(const __nv_bfloat16 *Q, const __nv_bfloat16 *K,
                                 const __nv_bfloat16 *V, __nv_bfloat16 *O, float *L, int B,
                                 int H, int N, int d, float scale, int causal,
                                 cudaStream_t stream);

/* The configurations: how many, and for each its name, its d, whether it is
 * the default for that d, and a one-line description. */
int attention_flash_bf16_variants(void);
const char *attention_flash_bf16_variant_info(int v, int *d, int *is_default,
                                              const char **what);

/* attention_flash_bf16 with configuration v (its d must equal d). */
cudaError_t attention_flash_bf16_variant(int v, const __nv_bfloat16 *Q,
                                         const __nv_bfloat16 *K, const __nv_bfloat16 *V,
                                         __nv_bfloat16 *O, float *L, int B, int H, int N, int d,
                                         float scale, int causal, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
