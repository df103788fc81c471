/* library.h: chapter 05's library baseline, the unfused attention a user
 * composes from library calls (library.c, with the mask kernel of mask.cu).
 *
 * Per (b, h), all B*H heads at once:
 *   1. cublasSgemmStridedBatched   S = scale * Q K^T        (N x N, in S)
 *   2. causal only: mw05_causal_mask, S[i][j] = -inf for j > i (what
 *      masked_fill does; the full N x N product is still computed)
 *   3. cudnnSoftmaxForward         P = softmax(S) by rows, in place over S
 *   4. cublasSgemmStridedBatched   O = P V
 * FP32 throughout: cuBLAS in CUBLAS_PEDANTIC_MATH (no TF32), cuDNN's
 * accurate (max-subtracting) softmax.
 *
 * It writes O only: the logsumexp L is not computed (neither does
 * PyTorch's math path), so L is left out of its validation.
 *
 * Special values: it computes P V as a full product, P[i][j] = 0 for the
 * keys a causal row does not attend to, and 0 * NaN is NaN: a NaN in V row
 * j makes O row i NaN for every i, masked or not. attention.h asks for the
 * masked keys to be skipped; this composition (like any built from a GEMM,
 * PyTorch's included) does not. NaN in Q or K behaves as attention.h says:
 * the mask overwrites masked scores, NaN or not.
 *
 * The workspace S holds B*H*N*N floats (137 GB at B*H = 32, N = 32768:
 * more than the GPU holds); the caller allocates it (mw05_lib_workspace).
 *
 * Without cuDNN at build time (no MW_HAVE_CUDNN) the composition is
 * unavailable: setup prints why and returns -1. */
#ifndef MW_05_LIBRARY_H
#define MW_05_LIBRARY_H

#include <cuda_runtime_api.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Returns 0 and an opaque state, or -1 after printing (to stderr) one line
 * that says why the composition is unavailable. */
int mw05_lib_setup(void **state);
void mw05_lib_teardown(void *state);

/* Floats of workspace the composition needs for this shape: B*H*N*N. */
size_t mw05_lib_workspace(int B, int H, int N);

/* One attention forward on `stream`: O only (L is not written). S is the
 * workspace. Returns cudaSuccess or an error (a cuBLAS/cuDNN failure maps to
 * cudaErrorUnknown after printing which call failed and its status name). */
cudaError_t mw05_lib_run(void *state, const float *Q, const float *K, const float *V, float *O,
                         float *S, int B, int H, int N, int d, float scale, int causal,
                         cudaStream_t stream);

/* mask.cu, for library.c: S[i][j] = -inf for j > i in each of `heads`
 * row-major N x N matrices laid end to end. Launches on `stream`; returns
 * cudaGetLastError(). */
cudaError_t mw05_causal_mask(float *S, size_t heads, int N, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
