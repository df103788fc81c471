/* cudnn_sdpa.h: cuDNN's fused scaled-dot-product attention (flash attention)
 * forward, bf16 in and out, FP32 compute, called through the cuDNN *backend*
 * C API only (no cudnn-frontend C++ headers).
 *
 *   O = softmax(scale * Q K^T [+ causal mask]) V      L = logsumexp of each row
 *
 * Chapter 05's library row for exercise 05.3 wraps it (library.h,
 * mw05_sdpa_lib_*). Built without cuDNN 9 headers (no MW_HAVE_CUDNN, or
 * cuDNN 8), the calls are stubs and mw05_sdpa_create says why: "cuDNN was
 * not found at build time".
 *
 * Contract of the calls below, in short:
 *  - one state per device (the current device at create) and, because the
 *    workspace is shared by all cached plans, per stream (or serialise the
 *    streams yourself);
 *  - the graph for a shape (B,H,N,d,causal,L given or not) is built,
 *    its engine chosen and its plan finalised at its first run (slow: the
 *    engine compiles a kernel at run time, tens of ms to ~1 s), then cached,
 *    16 plans, least recently used evicted;
 *  - scale is a by-value scalar of the graph, read at each run: it is NOT
 *    part of the cache key, any value reuses the plan;
 *  - L may be NULL: the graph then keeps the softmax statistics virtual
 *    (the inference variant of the graph; its own cache entry).
 */
#ifndef MW05_CUDNN_SDPA_H
#define MW05_CUDNN_SDPA_H

#include <stddef.h>
#include <cuda_runtime.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mw05_sdpa mw05_sdpa; /* opaque: cuDNN handle, plan cache, workspace */

/* 0 and *out set when cuDNN's fused attention can run here; else -1, *out
 * NULL and a one-line reason in why[] (no cuDNN 9 at build time, cuDNN
 * older than 9.0 at run time, no CUDA device, GPU older than sm_80, or no engine found for a small probe
 * graph, B=1 H=1 N=128 d=64 non-causal, whose plan stays in the cache). */
int mw05_sdpa_create(mw05_sdpa **out, char *why, size_t why_len);

/* Frees the plans, the workspace and the handle. NULL is fine. Make sure the
 * work queued by mw05_sdpa_run has finished (it uses the workspace). */
void mw05_sdpa_destroy(mw05_sdpa *s);

/* O = softmax(scale Q K^T [+ causal mask]) V on `stream`, no synchronisation.
 *  Q, K, V, O: [B,H,N,d] bf16, row-major contiguous: element (b,h,n,k) at
 *              ((b*H + h)*N + n)*d + k; 16-byte aligned (cudaMalloc is).
 *  L:          [B,H,N] FP32, natural-log logsumexp of the scaled, masked row
 *              (what a backward pass needs); may be NULL.
 *  d:          a multiple of 8, at most 256 (what the engine takes, see
 *              cudnn_sdpa.c); N: any >= 1.
 *  causal:     0 or 1; 1 masks key j > query i (top-left diagonal, N_q = N_kv).
 * Returns cudaSuccess, cudaErrorInvalidValue for bad arguments, or the
 * error of the failing step; a cuDNN failure prints one line to stderr with
 * the status string and maps to cudaErrorNotSupported (no engine / not
 * supported) or cudaErrorUnknown (the stubs without cuDNN 9:
 * cudaErrorNotSupported). The first call for a shape may synchronise (plan
 * build, workspace growth); later ones only queue work. */
cudaError_t mw05_sdpa_run(mw05_sdpa *s, const void *Q, const void *K, const void *V, void *O, float *L,
                          int B, int H, int N, int d, float scale, int causal, cudaStream_t stream);

/* The engine of the last plan built or used ("cuDNN 9.19.0 eng7 (heur A 1/2)")
 * or, after a failure, why it failed. For a bench label. */
const char *mw05_sdpa_engine_name(const mw05_sdpa *s);

#ifdef __cplusplus
}
#endif

#endif /* MW05_CUDNN_SDPA_H */
