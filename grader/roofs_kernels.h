/* roofs_kernels.h: the roofs' microkernels (grader/roofs_kernels.cu),
 * C-callable. Each launcher starts one kernel on stream s and returns the
 * launch's error; roofs_measure.c times them and turns the work below into
 * a rate. What each counts:
 *   ffma    2 FLOPs x threads x MW_ROOFK_FFMA_CHAINS x iters (one FFMA: 2)
 *   mma     per warp and iteration, MW_ROOFK_MMA_ACCS instructions of
 *           2*16*8*16 = 4096 FLOPs (m16n8k16 bf16) or 2*16*8*8 = 2048
 *           (m16n8k8 tf32)
 *   wgmma   per block (one warpgroup) and iteration, MW_ROOFK_WGMMA_BATCH
 *           instructions of 2*64*256*16 = 524288 FLOPs (m64n256k16 bf16) or
 *           2*64*256*8 = 262144 (m64n256k8 tf32)
 *   read    `bytes` read, in 16-byte loads (plus one word per block written)
 *   write   `bytes` written, in 16-byte stores */
#ifndef MW_ROOFS_KERNELS_H
#define MW_ROOFS_KERNELS_H

#include <stddef.h>

#include "gpu.h" /* cudaError_t, cudaStream_t, mw_gpu_take_error */

#ifdef __cplusplus
extern "C" {
#endif

#define MW_ROOFK_FFMA_CHAINS 16 /* independent FFMA chains per thread */
#define MW_ROOFK_MMA_ACCS 8     /* independent mma.sync accumulators per warp */
#define MW_ROOFK_WGMMA_BATCH 16 /* wgmma per commit group */

/* What the kernels the GPU at hand runs were built with (mw_roofk_probe). */
#define MW_ROOFK_HAS_MMA 1   /* mma.sync bf16 and tf32: built for sm_80 or newer */
#define MW_ROOFK_HAS_WGMMA 2 /* wgmma: built for sm_90a */

/* *mask (device memory) = the MW_ROOFK_HAS_ bits of the code this GPU runs. */
cudaError_t mw_roofk_probe(int *mask, cudaStream_t s);
/* out: device memory of `blocks` floats, written only if a result takes a
 * value it never takes: it keeps the work, it holds nothing. */
cudaError_t mw_roofk_ffma(unsigned blocks, unsigned threads, int iters, float *out,
                          cudaStream_t s);
/* tf32: 1 for m16n8k8 tf32, 0 for m16n8k16 bf16. threads: a multiple of 32. */
cudaError_t mw_roofk_mma(int tf32, unsigned blocks, unsigned threads, int iters, float *out,
                         cudaStream_t s);
/* Blocks of 128 threads, one warpgroup each. */
cudaError_t mw_roofk_wgmma(int tf32, unsigned blocks, int iters, float *out, cudaStream_t s);
/* bytes: a multiple of 16; out: `blocks` words of device memory. */
cudaError_t mw_roofk_read(const void *src, size_t bytes, unsigned blocks, unsigned threads,
                          unsigned *out, cudaStream_t s);
cudaError_t mw_roofk_write(void *dst, size_t bytes, unsigned blocks, unsigned threads,
                           cudaStream_t s);

#ifdef __cplusplus
}
#endif

#endif
