/* library.h: chapter 05's library baselines (library.c, with the kernels of
 * mask.cu): the unfused attention a user composes from library calls, in
 * FP32 and, for exercise 05.3, in bf16; and cuDNN's fused attention in bf16
 * (cudnn_sdpa.c), the library a bf16 user calls.
 *
 * ---- the FP32 composition ----------------------------------------------------
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

/* ---- exercise 05.3: the bf16 composition --------------------------------------
 *
 * The same composition on bf16 Q, K, V and O ([B,H,N,d], attention.h's
 * mw05_bf16), its two products on the tensor cores, all B*H heads at once:
 *   1. cublasGemmStridedBatchedEx  S = scale * Q K^T: A, B bf16, C FP32,
 *                                  CUBLAS_COMPUTE_32F
 *   2. causal only: mw05_causal_mask, as above
 *   3. cudnnSoftmaxForward         P = softmax(S) by rows, FP32, in place (as
 *                                  above)
 *   4. mw05_rows_to_bf16           P rounded to bf16 in place: each row's N
 *                                  bf16 in the first half of its own 4N bytes
 *   5. cublasGemmStridedBatchedEx  O = P V: A, B, C bf16, CUBLAS_COMPUTE_32F,
 *                                  P read with a leading dimension of 2N
 * Every product and sum is in FP32; what is rounded to bf16 is what 05.3's
 * kernel rounds: P before P V (2^-9 relative at most) and O on the way out.
 * cuBLAS in its default math mode, which runs bf16 operands with FP32
 * accumulation on the tensor cores (no TF32 question arises: the operands
 * are bf16 already), with CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION:
 * a split-K P V (k = N up to 32768 against only d output columns, the shape
 * cuBLAS splits) then adds its partial sums in FP32, not in O's bf16, which
 * would be a third 2^-9 rounding where tolerance.h allows for two.
 *
 * It writes O only, like the FP32 composition (L is left out of its
 * validation). Special values as there: P V is a full product with
 * P[i][j] = 0 for the keys a causal row does not attend to, and 0 * NaN is
 * NaN on the tensor cores too: a NaN in V[j][k] makes O[i][k] NaN for every
 * row i, masked from key j or not, where attention.h asks for the masked
 * keys to be skipped. NaN in Q or K behaves as attention.h says (the mask
 * overwrites masked scores; the rounding to bf16 keeps a NaN a NaN).
 *
 * Its workspace is the FP32 composition's, B*H*N*N floats: P in bf16 takes
 * the first half of each row's bytes, so no second N x N buffer is needed.
 * Without cuDNN at build time it is unavailable, as above. */

/* Returns 0 and an opaque state (a cuBLAS handle in the default math mode,
 * a cuDNN handle), or -1 after printing (to stderr) one line that says why
 * the composition is unavailable. */
int mw05_lib_bf16_setup(void **state);
void mw05_lib_bf16_teardown(void *state);

/* Floats of workspace for this shape: B*H*N*N, as mw05_lib_workspace. */
size_t mw05_lib_bf16_workspace(int B, int H, int N);

/* One bf16 attention forward on `stream`: Q, K, V, O are [B,H,N,d] bf16
 * (mw05_bf16, 16-bit; each head 16-byte aligned when d is a multiple of 8,
 * as 32, 64 and 128 are); O only (no L). S is the workspace, 256-byte
 * aligned. Returns cudaSuccess or an error (a cuBLAS/cuDNN failure maps to
 * cudaErrorUnknown after printing which call failed and its status name);
 * without cuDNN at build time, cudaErrorNotSupported. */
cudaError_t mw05_lib_bf16_run(void *state, const void *Q, const void *K, const void *V, void *O,
                              float *S, int B, int H, int N, int d, float scale, int causal,
                              cudaStream_t stream);

/* ---- exercise 05.3: cuDNN's fused attention (cudnn_sdpa.c) ----------------------
 *
 * The library a bf16 user calls: cuDNN's scaled dot-product attention, one
 * fused flash-attention kernel through the cuDNN backend API (graph and
 * limits: cudnn_sdpa.c), bf16 Q, K, V and O, FP32 compute; it writes O and
 * L (the natural-log logsumexp, [B,H,N] FP32), so both are validated. No
 * workspace from the caller: cuDNN's own is allocated inside.
 *
 * Cost at first call: each new shape (B, H, N, d, causal) builds its plan
 * at its first run: cuDNN's heuristics pick an engine that compiles its
 * kernel at run time (tens of ms to about 1 s), and a larger cuDNN
 * workspace synchronises the stream and reallocates. The plan is then
 * cached (16 shapes, least recently used evicted; the scale is not part of
 * the key), and later runs only queue the kernel: run a shape once before
 * timing it. Setup itself builds one small plan (B=1 H=1 N=128 d=64) as a
 * probe that an engine exists on this GPU.
 *
 * Needs cuDNN 9 (at build and run time, not 9.10.0 or 9.10.1) and an sm_80
 * or newer GPU; without them setup prints why and returns -1. One state per
 * device and per stream (its workspace is shared by its plans). */

/* Returns 0 and an opaque state, or -1 after printing (to stderr) one line
 * that says why cuDNN's fused attention is unavailable ("cuDNN was not
 * found at build time", a cuDNN or GPU too old, no engine). */
int mw05_sdpa_lib_setup(void **state);
void mw05_sdpa_lib_teardown(void *state);

/* One bf16 attention forward on `s`: O ([B,H,N,d] bf16) and L ([B,H,N]
 * FP32; NULL: O only, another plan). Pointers 16-byte aligned. Returns
 * cudaSuccess; cudaErrorNotSupported for a shape it cannot take, so the
 * caller can tell it from a failure: d not a multiple of 8 or above 256
 * (refused here, before cuDNN is asked), or a graph for which cuDNN finds
 * no engine or an engine refuses (printed to stderr); cudaErrorInvalidValue
 * for bad arguments (B, H or N < 1, NULL Q, K, V or O, causal not 0 or 1,
 * a misaligned pointer); another error for a failure, after one line on
 * stderr. */
cudaError_t mw05_sdpa_lib_run(void *state, const void *Q, const void *K, const void *V, void *O,
                              float *L, int B, int H, int N, int d, float scale, int causal,
                              cudaStream_t s);

/* ---- mask.cu's kernels, for library.c -------------------------------------------- */

/* S[i][j] = -inf for j > i in each of `heads` row-major N x N matrices laid
 * end to end. Launches on `stream`; returns cudaGetLastError(). */
cudaError_t mw05_causal_mask(float *S, size_t heads, int N, cudaStream_t stream);

/* Each of `rows` rows of N floats laid end to end from S (256-byte
 * aligned) rounded to bf16 (to nearest even, NaN kept NaN), in place: row
 * r's N bf16 go to the first 2N of its own 4N bytes, bf16 element r*2N + j
 * of S seen as bf16, so the result is a row-major bf16 matrix with a
 * leading dimension of 2N. The second half of each row is left as it was.
 * Launches on `stream`; returns cudaGetLastError(). */
cudaError_t mw05_rows_to_bf16(float *S, size_t rows, int N, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
