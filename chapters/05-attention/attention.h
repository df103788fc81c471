/* attention.h: chapter 05's interface, self-attention forward in FP32 (and,
 * in exercise 05.3, in bf16).
 *
 * For each batch b < B and head h < H, with Q, K, V, O the N x d matrices
 * of that (b, h):
 *
 *   S = scale * Q K^T                  N x N scores
 *   S[i][j] = -inf where causal and j > i   (token i attends to keys j <= i)
 *   P = softmax(S) along each row
 *   O = P V                            N x d
 *   L[i] = log(sum_j exp(S[i][j]))     natural-log logsumexp of row i
 *
 * Layout: Q, K, V and O are [B, H, N, d] row-major and contiguous, so the
 * (b, h) matrix starts at ((size_t)b * H + h) * N * d and its row i at
 * that plus i * d; L is [B, H, N]. d is 32, 64 or 128; N is any value
 * >= 1 (not a multiple of your tile, often); B * H >= 1. Callers pass
 * scale = 1 / sqrt(d), but the grader also passes other values: use the
 * argument. Every buffer starts 256-byte aligned.
 *
 * Sizes: each dimension fits an int, but products do not: B*H*N*d is
 * checked past 2^31 (2 x 65537 heads of 128 x 128) and the unfused
 * workspace holds B*H*N*N floats, past 2^31 at N = 16384. Index with
 * size_t where a product can be large.
 *
 * L is what the backward pass needs, and it lets the grader tell a wrong
 * normalisation (L wrong) from a wrong weighted sum (L right, O wrong).
 *
 * Special values, as a double-precision reference computes them:
 *  - a NaN in Q row i, or in a row of K that row i attends to, makes
 *    S[i][.] NaN: O row i and L[i] are NaN;
 *  - a NaN in V[j][k], j a key row i attends to, makes O[i][k] NaN (the
 *    other columns of O row i stay finite); L[i] does not involve V;
 *  - keys a row does not attend to (j > i when causal) never touch it,
 *    NaN or not: skip them, do not multiply them by 0 (0 * NaN is NaN).
 * Scores can be large (inputs of magnitude 10 give scores past 88, where
 * expf overflows): subtract the row max before exp.
 *
 * The harness allocates every buffer, fills Q, K, V with fresh random
 * values, poisons O, L (and the workspace) with NaN, and checks O and L
 * against a double-precision reference. Do not write Q, K or V; launch on
 * `stream`; return cudaGetLastError(). */
#ifndef MW_ATTENTION_H
#define MW_ATTENTION_H

#include "student.h"

/* bf16 for exercise 05.3: cuda_bf16.h's type in CUDA C++; in the grader's C,
 * which only passes the pointers on, a 16-bit stand-in of the same size. */
#ifdef __cplusplus
#include <cuda_bf16.h>
typedef __nv_bfloat16 mw05_bf16;
#else
#include <stdint.h>
typedef uint16_t mw05_bf16;
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Exercise 05.1 (01_unfused.cu): standard attention, materialising the
 * scores in `S`, a workspace of B*H*N*N floats the harness allocates:
 * a scores kernel (S = scale Q K^T, masked), a row softmax over S (writing
 * P over S, and L), and a P V kernel. */
cudaError_t attention_unfused(const float *Q, const float *K, const float *V, float *O,
                              float *L, float *S, int B, int H, int N, int d, float scale,
                              int causal, cudaStream_t stream);

/* Exercise 05.2 (02_flash.cu): flash attention forward: one kernel, the
 * scores never leave the chip; O and L written once. */
cudaError_t attention_flash(const float *Q, const float *K, const float *V, float *O, float *L,
                            int B, int H, int N, int d, float scale, int causal,
                            cudaStream_t stream);

/* Exercise 05.3 (03_flash_bf16.cu, optional): flash attention forward on the
 * tensor cores: Q, K, V and O in bf16 (mw05_bf16 is __nv_bfloat16), L in
 * FP32, the products accumulated in FP32 (mma.sync m16n8k16 on sm_80 and
 * later). The same semantics and special values as above; P is rounded to
 * bf16 for P V and O on the way out, and the check allows for that
 * (tolerance.h, mw05_tolerance_bf16). */
cudaError_t attention_flash_bf16(const mw05_bf16 *Q, const mw05_bf16 *K, const mw05_bf16 *V,
                                 mw05_bf16 *O, float *L, int B, int H, int N, int d,
                                 float scale, int causal, cudaStream_t stream);

/* Exercise 05.4 (04_flash_wgmma.cu, optional, sm_90a): 05.3's function on
 * Hopper's own instructions (wgmma, TMA, mbarriers): the same arguments,
 * semantics and tolerance. */
cudaError_t attention_flash_wgmma(const mw05_bf16 *Q, const mw05_bf16 *K, const mw05_bf16 *V,
                                  mw05_bf16 *O, float *L, int B, int H, int N, int d,
                                  float scale, int causal, cudaStream_t stream);

#ifdef __cplusplus
}
#endif

#endif
