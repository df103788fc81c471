/* library.c: chapter 05's library baselines (see library.h): attention as a
 * user composes it from library calls, the scores materialised in S, in
 * FP32 and in bf16; and cuDNN's fused attention (cudnn_sdpa.c) as a row.
 *
 *                     FP32 (mw05_lib_*)          bf16 (mw05_lib_bf16_*)
 *   S = scale Q K^T   cublasSgemmStridedBatched  cublasGemmStridedBatchedEx
 *   causal only:      mw05_causal_mask (mask.cu), S[i][j] = -inf for j > i
 *   P = softmax(S)    cudnnSoftmaxForward by rows, FP32, in place, chunked
 *   P to bf16         -                          mw05_rows_to_bf16 (mask.cu)
 *   O = P V           cublasSgemmStridedBatched  cublasGemmStridedBatchedEx
 *
 * All B*H heads in one call each. Everything is queued on the caller's
 * stream: no synchronisation and no allocation in either composition's
 * run; neither writes L. cuDNN's fused attention writes O and L, and may
 * synchronise at a shape's first run (library.h). */
#include "library.h"

#include "cudnn_sdpa.h"

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

/* The bf16 composition converts P in place inside the FP32 scores: the
 * same B*H*N*N floats. */
size_t mw05_lib_bf16_workspace(int B, int H, int N)
{
    return mw05_lib_workspace(B, H, N);
}

/* ---- cuDNN's fused attention as a row (cudnn_sdpa.c) -------------------------
 *
 * A thin wrapper: cudnn_sdpa.c builds without cuDNN too (its create then
 * fails with "cuDNN was not found at build time"), so nothing here depends
 * on MW_HAVE_CUDNN. */

int mw05_sdpa_lib_setup(void **state)
{
    char why[512];
    mw05_sdpa *sdpa = NULL;
    *state = NULL;
    if (mw05_sdpa_create(&sdpa, why, sizeof why) != 0) {
        fprintf(stderr, "cuDNN's fused attention is unavailable: %s\n", why);
        return -1;
    }
    *state = sdpa;
    return 0;
}

void mw05_sdpa_lib_teardown(void *state)
{
    mw05_sdpa_destroy(state); /* its cudaFree waits for the queued work */
}

cudaError_t mw05_sdpa_lib_run(void *state, const void *Q, const void *K, const void *V, void *O,
                              float *L, int B, int H, int N, int d, float scale, int causal,
                              cudaStream_t s)
{
    if (!state)
        return cudaErrorInvalidValue;
    /* The fused engines take head sizes that are multiples of 8 up to 256
     * (cudnn_sdpa.c); anything else is refused here, quietly and before a
     * plan build is tried, as a shape this row does not cover. */
    if (d < 8 || d > 256 || d % 8 != 0)
        return cudaErrorNotSupported;
    return mw05_sdpa_run(state, Q, K, V, O, L, B, H, N, d, scale, causal, s);
}

#ifndef MW_HAVE_CUDNN

/* Without cudnn.h at build time there is no softmax to compose with: both
 * compositions are reported unavailable and never run. */
static int refuse(void **state, const char *what)
{
    *state = NULL;
    fprintf(stderr, "cuDNN was not found at build time: the %s needs cudnnSoftmaxForward\n",
            what);
    return -1;
}

int mw05_lib_setup(void **state)
{
    return refuse(state, "library composition");
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

int mw05_lib_bf16_setup(void **state)
{
    return refuse(state, "bf16 library composition");
}

void mw05_lib_bf16_teardown(void *state)
{
    (void)state;
}

cudaError_t mw05_lib_bf16_run(void *state, const void *Q, const void *K, const void *V, void *O,
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

static void lib_free(lib_state *st)
{
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

/* A composition's handles, its cuBLAS doing its math in `math`; NULL after
 * printing why (`what` names the composition). */
static lib_state *lib_create(cublasMath_t math, const char *what)
{
    /* cudnnGetVersion: 8.x.y is 8000 + 100 x + y; 9.x.y is 90000 + 100 x + y;
     * 7.x.y (the last without the split libraries) 7000 + 100 x + y. */
    size_t version = cudnnGetVersion();
    if (version < 8000) {
        fprintf(stderr, "cuDNN %zu.%zu found at run time, older than 8.0: the %s needs cuDNN 8 "
                        "or later for cudnnSoftmaxForward\n",
                version / 1000, version % 1000 / 100, what);
        return NULL;
    }
    lib_state *st = calloc(1, sizeof *st);
    if (!st) {
        fprintf(stderr, "%s: out of host memory\n", what);
        return NULL;
    }
    MW_CUBLAS_TRY(cublasCreate(&st->blas), goto fail);
    MW_CUBLAS_TRY(cublasSetMathMode(st->blas, math), goto fail);
    MW_CUBLAS_TRY(cublasSetPointerMode(st->blas, CUBLAS_POINTER_MODE_HOST), goto fail);
    MW_CUDNN_TRY(cudnnCreate(&st->dnn), goto fail);
    MW_CUDNN_TRY(cudnnCreateTensorDescriptor(&st->rows), goto fail);
    return st;
fail:
    lib_free(st);
    return NULL;
}

void mw05_lib_teardown(void *state)
{
    lib_free(state);
}

int mw05_lib_setup(void **state)
{
    /* Plain FP32: no TF32 tensor cores, no reduced precision anywhere, the
     * arithmetic the exercises must use. */
    *state = lib_create(CUBLAS_PEDANTIC_MATH, "library composition");
    return *state ? 0 : -1;
}

void mw05_lib_bf16_teardown(void *state)
{
    lib_free(state);
}

int mw05_lib_bf16_setup(void **state)
{
    /* Default math: bf16 operands with CUBLAS_COMPUTE_32F run on the tensor
     * cores, FP32 accumulation. Split-K partial sums in FP32 as well, not
     * in the bf16 of O (library.h says why). */
    const cublasMath_t math =
        (cublasMath_t)(CUBLAS_DEFAULT_MATH | CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION);
    *state = lib_create(math, "bf16 library composition");
    return *state ? 0 : -1;
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
 * ---- the bf16 products --------------------------------------------------------
 *
 * cublasGemmStridedBatchedEx takes the same operands in the same order:
 * leading dimensions and batch strides count elements of each operand's own
 * type, so the trick above holds whatever their size; each operand also
 * names its type, and CUBLAS_COMPUTE_32F makes alpha and beta floats.
 *
 * S = scale Q K^T, as column-major S^T = K Q^T:
 *   A = the K buffer, CUDA_R_16BF, CUBLAS_OP_T, lda d, stride N*d;
 *   B = the Q buffer, CUDA_R_16BF, CUBLAS_OP_N, ldb d, stride N*d;
 *   C = S, CUDA_R_32F, ldc N, stride N*N; m = n = N, k = d: the FP32
 *   scores the mask and the FP32 softmax then work on, as above.
 *   With d a multiple of 8 (32, 64, 128), each row of Q and K and each
 *   head (N*d elements) starts 16-byte aligned, what the tensor cores' bf16
 *   loads want.
 *
 * O = P V, as column-major O^T = V^T P^T, with P in bf16 in place over S
 * (mw05_rows_to_bf16): row i of a head, whose floats were bytes
 * [4N i, 4N (i + 1)) of the head's block, now holds its N bf16 in the first
 * 2N of those bytes, so as bf16 elements row i starts at 2N i: P is a
 * row-major N x N bf16 matrix with a leading dimension of 2N (the second
 * half of each row, left over from the floats, is never read), and a
 * head's block is 4 N^2 bytes = 2 N*N bf16.
 *   A = the V buffer, CUDA_R_16BF, CUBLAS_OP_N, lda d, stride N*d;
 *   B = the S buffer, CUDA_R_16BF, CUBLAS_OP_N, ldb 2N, stride 2 N*N;
 *   C = O, CUDA_R_16BF, ldc d, stride N*d; m = d, n = N, k = N.
 *   Check: C[r + i d] = sum_j A[r + j d] B[j + i 2N]
 *                     = sum_j V[j][r] P[i][j]  = O[i][r] at i d + r.
 *   On paper, N = 2: S's floats p q r s (rows [p q] and [r s], 16 bytes)
 *   become the bf16 p' q' x x r' s' x x, x the untouched halves of the
 *   floats q and s; column-major with ldb 4 that is [p' r'; q' s'] = P'^T,
 *   as the FP32 product read [p r; q s] with ldb 2. The rows of P start
 *   every 4N bytes: 16-byte aligned when N is a multiple of 4 (every bench
 *   size); otherwise cuBLAS takes a slower path, with the same result.
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

/* P = softmax(S) along each of `rows` rows of N floats, in place, queued on
 * the stream cudnnSetStream gave st->dnn. 0, or -1 after printing. */
static int softmax_rows(lib_state *st, float *S, size_t rows, int N)
{
    const float zero = 0.f, one = 1.f;
    size_t chunk = kMaxSoftmaxElems / (size_t)N; /* >= 1: N <= INT_MAX */
    if (chunk >= 64) /* whole multiples of 64 rows: every chunk starts 256-byte aligned */
        chunk -= chunk % 64;
    for (size_t r0 = 0; r0 < rows; r0 += chunk) {
        const size_t n = rows - r0 < chunk ? rows - r0 : chunk;
        float *part = S + r0 * (size_t)N;
        MW_CUDNN_TRY(cudnnSetTensor4dDescriptor(st->rows, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT,
                                                (int)n, N, 1, 1),
                     return -1);
        MW_CUDNN_TRY(cudnnSoftmaxForward(st->dnn, CUDNN_SOFTMAX_ACCURATE,
                                         CUDNN_SOFTMAX_MODE_INSTANCE, &one, st->rows, part, &zero,
                                         st->rows, part),
                     return -1);
    }
    return 0;
}

/* Steps 2 and 3 of both compositions: the causal mask (when asked) and the
 * row softmax over the B*H heads' scores in S, queued on `stream`. */
static cudaError_t mask_and_softmax(lib_state *st, float *S, size_t heads, int N, int causal,
                                    cudaStream_t stream)
{
    MW_CUDNN_TRY(cudnnSetStream(st->dnn, stream), return cudaErrorUnknown);
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
    if (softmax_rows(st, S, heads * (size_t)N, N) != 0)
        return cudaErrorUnknown;
    return cudaSuccess;
}

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

    /* 1. S = scale Q K^T, as column-major S^T = K Q^T (see above). */
    MW_CUBLAS_TRY(cublasSgemmStridedBatched(st->blas, CUBLAS_OP_T, CUBLAS_OP_N, N, N, d, &scale,
                                            K, d, nd, Q, d, nd, &zero, S, N, nn, batch),
                  return cudaErrorUnknown);

    /* 2, 3. The mask and the softmax. */
    cudaError_t err = mask_and_softmax(st, S, heads, N, causal, stream);
    if (err != cudaSuccess)
        return err;

    /* 4. O = P V, as column-major O^T = V^T P^T (see above). */
    MW_CUBLAS_TRY(cublasSgemmStridedBatched(st->blas, CUBLAS_OP_N, CUBLAS_OP_N, d, N, N, &one, V,
                                            d, nd, S, N, nn, &zero, O, d, nd, batch),
                  return cudaErrorUnknown);
    return cudaGetLastError();
}

cudaError_t mw05_lib_bf16_run(void *state, const void *Q, const void *K, const void *V, void *O,
                              float *S, int B, int H, int N, int d, float scale, int causal,
                              cudaStream_t stream)
{
    lib_state *st = state;
    if (!st || B < 1 || H < 1 || N < 1 || d < 1)
        return cudaErrorInvalidValue;
    const size_t heads = (size_t)B * (size_t)H;
    /* cuBLAS's batch count and leading dimensions are ints: P's is 2N. */
    if (heads > (size_t)INT_MAX || N > INT_MAX / 2)
        return cudaErrorInvalidValue;
    const int batch = (int)heads;
    const long long nd = (long long)N * d, nn = (long long)N * N;
    const float zero = 0.f, one = 1.f;

    MW_CUBLAS_TRY(cublasSetStream(st->blas, stream), return cudaErrorUnknown);

    /* 1. S = scale Q K^T in FP32 from bf16 Q, K (see "the bf16 products"). */
    MW_CUBLAS_TRY(cublasGemmStridedBatchedEx(st->blas, CUBLAS_OP_T, CUBLAS_OP_N, N, N, d, &scale,
                                             K, CUDA_R_16BF, d, nd, Q, CUDA_R_16BF, d, nd, &zero,
                                             S, CUDA_R_32F, N, nn, batch, CUBLAS_COMPUTE_32F,
                                             CUBLAS_GEMM_DEFAULT),
                  return cudaErrorUnknown);

    /* 2, 3. The mask and the FP32 softmax, as in the FP32 composition. */
    cudaError_t err = mask_and_softmax(st, S, heads, N, causal, stream);
    if (err != cudaSuccess)
        return err;

    /* 4. P to bf16, each row into the first half of its own bytes. */
    err = mw05_rows_to_bf16(S, heads * (size_t)N, N, stream);
    if (err != cudaSuccess) {
        fprintf(stderr, "%s:%d: mw05_rows_to_bf16 failed: %s\n", __FILE__, __LINE__,
                cudaGetErrorName(err));
        return err;
    }

    /* 5. O = P V in bf16, FP32 accumulation; P with ldb 2N (see above). */
    MW_CUBLAS_TRY(cublasGemmStridedBatchedEx(st->blas, CUBLAS_OP_N, CUBLAS_OP_N, d, N, N, &one, V,
                                             CUDA_R_16BF, d, nd, S, CUDA_R_16BF, 2 * N, 2 * nn,
                                             &zero, O, CUDA_R_16BF, d, nd, batch,
                                             CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                  return cudaErrorUnknown);
    return cudaGetLastError();
}

#endif
