/* library.c: chapter 05's library baseline (see library.h): attention as a
 * user composes it from library calls, the scores materialised in S.
 *
 *   cublasSgemmStridedBatched  S = scale Q K^T      all B*H heads, one call
 *   mw05_causal_mask           S[i][j] = -inf, j > i  (causal only; mask.cu)
 *   cudnnSoftmaxForward        P = softmax(S) rows    in place, chunked
 *   cublasSgemmStridedBatched  O = P V              all B*H heads, one call
 *
 * Everything is queued on the caller's stream: no synchronisation and no
 * allocation in mw05_lib_run. L is not written. */
#include "library.h"

#ifdef MW_HAVE_CUDNN
#define MW_WITH_CUBLAS
#define MW_WITH_CUDNN
#endif
#include "cuda_check.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

size_t mw05_lib_workspace(int B, int H, int N)
{
    if (B < 1 || H < 1 || N < 1)
        return 0;
    return (size_t)B * (size_t)H * (size_t)N * (size_t)N;
}

#ifndef MW_HAVE_CUDNN

/* Without cudnn.h at build time there is no softmax to compose with: the
 * composition is reported unavailable and never runs. */
int mw05_lib_setup(void **state)
{
    *state = NULL;
    fprintf(stderr, "cuDNN was not found at build time: the library composition needs "
                    "cudnnSoftmaxForward\n");
    return -1;
}

void mw05_lib_teardown(void *state)
{
    (void)state;
}

cudaError_t mw05_lib_run(void *state, const float *Q, const float *K, const float *V, float *O,
                         float *S, int B, int H, int N, int d, float scale, int causal,
                         cudaStream_t stream)
{
    (void)state, (void)Q, (void)K, (void)V, (void)O, (void)S, (void)B, (void)H, (void)N;
    (void)d, (void)scale, (void)causal, (void)stream;
    return cudaErrorNotSupported;
}

#else

typedef struct lib_state {
    cublasHandle_t blas;
    cudnnHandle_t dnn;
    cudnnTensorDescriptor_t rows; /* n rows x N columns x 1 x 1, set per call */
} lib_state;

void mw05_lib_teardown(void *state)
{
    lib_state *st = state;
    if (!st)
        return;
    if (st->rows)
        cudnnDestroyTensorDescriptor(st->rows);
    if (st->dnn)
        cudnnDestroy(st->dnn);
    if (st->blas)
        cublasDestroy(st->blas);
    free(st);
}

int mw05_lib_setup(void **state)
{
    *state = NULL;
    /* cudnnGetVersion: 8.x.y is 8000 + 100 x + y; 9.x.y is 90000 + 100 x + y;
     * 7.x.y (the last without the split libraries) 7000 + 100 x + y. */
    size_t version = cudnnGetVersion();
    if (version < 8000) {
        fprintf(stderr, "cuDNN %zu.%zu found at run time, older than 8.0: the library "
                        "composition needs cuDNN 8 or later for cudnnSoftmaxForward\n",
                version / 1000, version % 1000 / 100);
        return -1;
    }
    lib_state *st = calloc(1, sizeof *st);
    if (!st) {
        fprintf(stderr, "library composition: out of host memory\n");
        return -1;
    }
    MW_CUBLAS_TRY(cublasCreate(&st->blas), goto fail);
    /* Plain FP32: no TF32 tensor cores, no reduced precision anywhere, the
     * arithmetic the exercises must use. */
    MW_CUBLAS_TRY(cublasSetMathMode(st->blas, CUBLAS_PEDANTIC_MATH), goto fail);
    MW_CUBLAS_TRY(cublasSetPointerMode(st->blas, CUBLAS_POINTER_MODE_HOST), goto fail);
    MW_CUDNN_TRY(cudnnCreate(&st->dnn), goto fail);
    MW_CUDNN_TRY(cudnnCreateTensorDescriptor(&st->rows), goto fail);
    *state = st;
    return 0;
fail:
    mw05_lib_teardown(st);
    return -1;
}

/* ---- the row-major trick ----------------------------------------------------
 *
 * cuBLAS is column-major: a matrix of r rows and c columns with leading
 * dimension ld has element (x, y) at x + y * ld. Read with ld = its row
 * length, a row-major matrix is that same memory seen column-major as its
 * transpose: row-major Q (N x d, row i at i*d) is column-major Q^T (d x N,
 * ld d). So no data moves; only the order of the operands changes:
 *
 * S = Q K^T (row-major N x N, ld N) is stored as column-major S^T = K Q^T.
 *   C = S^T: m = N (keys j), n = N (queries i), ldc = N.
 *   op(A) = K (N x d): A is the K buffer, seen as K^T (d x N, lda d), with
 *           CUBLAS_OP_T; its inner dimension k = d.
 *   op(B) = Q^T (d x N): the Q buffer as it is (ldb d), CUBLAS_OP_N.
 *   Check: C[j + i N] = sum_k A[k + j d] B[k + i d]
 *                     = sum_k K[j][k] Q[i][k]   = S[i][j] at i N + j.
 *
 * O = P V (row-major N x d, ld d) is stored as column-major O^T = V^T P^T.
 *   C = O^T: m = d, n = N (queries i), ldc = d.
 *   op(A) = V^T (d x N): the V buffer as it is (lda d), CUBLAS_OP_N.
 *   op(B) = P^T (N x N): the P buffer as it is (ldb N), CUBLAS_OP_N; k = N.
 *   Check: C[r + i d] = sum_j A[r + j d] B[j + i N]
 *                     = sum_j V[j][r] P[i][j]  = O[i][r] at i d + r.
 *
 * On paper, N = 2, d = 3: Q = [a0 a1 a2; b0 b1 b2] is memory a0 a1 a2 b0 b1 b2,
 * which cuBLAS with lda 3 reads as the 3 x 2 matrix [a0 b0; a1 b1; a2 b2] =
 * Q^T; likewise K = [c; e] gives K^T = [c0 e0; c1 e1; c2 e2]. The first GEMM
 * forms op(K^T buffer) = (K^T)^T = K (2 x 3) times Q^T (3 x 2): the 2 x 2
 * column-major C = [c.a c.b; e.a e.b], memory c.a e.a c.b e.b, which read
 * row-major with ld 2 is [a.c a.e; b.c b.e] = Q K^T. The second, with
 * P = [p q; r s] (memory p q r s, column-major ld 2: [p r; q s] = P^T) and
 * V = [v; w] (memory v0 v1 v2 w0 w1 w2, column-major ld 3: [v0 w0; v1 w1;
 * v2 w2] = V^T): C = V^T P^T is the 3 x 2 matrix whose first column is
 * p v + q w and second r v + s w; memory p v + q w then r v + s w, which
 * read row-major with ld 3 is the rows of P V. The batch strides are one
 * head's matrices: N*d for Q, K, V, O and N*N for S, as long long.
 *
 * ---- the softmax, in chunks -------------------------------------------------
 *
 * cuDNN's legacy tensor descriptors take int dimensions and strides, and its
 * softmax misbehaves (or refuses) past 2^31 elements. S has B*H*N*N, past
 * 2^31 at N = 16384 from 9 heads. So the softmax runs over whole rows, at
 * most 2^31 - 1 elements per call: the rows are independent, and a chunk
 * boundary between two heads does not matter. Chunks are a multiple of 64
 * rows, so each starts 256-byte aligned as S does (1 call below about 2^31
 * elements; 9 at B*H = 64, N = 16384). The descriptor is host state
 * read when the call is made, so resetting it between the (asynchronous)
 * calls is safe. */

static const size_t kMaxSoftmaxElems = (size_t)INT_MAX; /* 2^31 - 1 */

cudaError_t mw05_lib_run(void *state, const float *Q, const float *K, const float *V, float *O,
                         float *S, int B, int H, int N, int d, float scale, int causal,
                         cudaStream_t stream)
{
    lib_state *st = state;
    if (!st || B < 1 || H < 1 || N < 1 || d < 1)
        return cudaErrorInvalidValue;
    const size_t heads = (size_t)B * (size_t)H;
    if (heads > (size_t)INT_MAX) /* cuBLAS's batch count is an int */
        return cudaErrorInvalidValue;
    const int batch = (int)heads;
    const long long nd = (long long)N * d, nn = (long long)N * N;
    const float zero = 0.f, one = 1.f;

    MW_CUBLAS_TRY(cublasSetStream(st->blas, stream), return cudaErrorUnknown);
    MW_CUDNN_TRY(cudnnSetStream(st->dnn, stream), return cudaErrorUnknown);

    /* 1. S = scale Q K^T, as column-major S^T = K Q^T (see above). */
    MW_CUBLAS_TRY(cublasSgemmStridedBatched(st->blas, CUBLAS_OP_T, CUBLAS_OP_N, N, N, d, &scale,
                                            K, d, nd, Q, d, nd, &zero, S, N, nn, batch),
                  return cudaErrorUnknown);

    /* 2. The causal mask over the full product. */
    if (causal) {
        cudaError_t err = mw05_causal_mask(S, heads, N, stream);
        if (err != cudaSuccess) {
            fprintf(stderr, "%s:%d: mw05_causal_mask failed: %s\n", __FILE__, __LINE__,
                    cudaGetErrorName(err));
            return err;
        }
    }

    /* 3. P = softmax(S) along rows, in place: instance mode over a
     *    rows x N x 1 x 1 tensor, whole rows, at most 2^31 - 1 elements a call. */
    const size_t rows = heads * (size_t)N;
    size_t chunk = kMaxSoftmaxElems / (size_t)N; /* >= 1: N <= INT_MAX */
    if (chunk >= 64) /* whole multiples of 64 rows: every chunk starts 256-byte aligned */
        chunk -= chunk % 64;
    for (size_t r0 = 0; r0 < rows; r0 += chunk) {
        const size_t n = rows - r0 < chunk ? rows - r0 : chunk;
        float *part = S + r0 * (size_t)N;
        MW_CUDNN_TRY(cudnnSetTensor4dDescriptor(st->rows, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT,
                                                (int)n, N, 1, 1),
                     return cudaErrorUnknown);
        MW_CUDNN_TRY(cudnnSoftmaxForward(st->dnn, CUDNN_SOFTMAX_ACCURATE,
                                         CUDNN_SOFTMAX_MODE_INSTANCE, &one, st->rows, part, &zero,
                                         st->rows, part),
                     return cudaErrorUnknown);
    }

    /* 4. O = P V, as column-major O^T = V^T P^T (see above). */
    MW_CUBLAS_TRY(cublasSgemmStridedBatched(st->blas, CUBLAS_OP_N, CUBLAS_OP_N, d, N, N, &one, V,
                                            d, nd, S, N, nn, &zero, O, d, nd, batch),
                  return cudaErrorUnknown);
    return cudaGetLastError();
}

#endif
