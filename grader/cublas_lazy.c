/* cublas_lazy.c: cuBLAS, loaded on first use.
 *
 * Linking libcublas makes every start of a program pay for its static
 * initialisation: 0.37 s on the 2-core machine, before main, even for
 * `mw-chapter list` or a refused argument, and again in every process a
 * check or a batch starts. The chapter programs need cuBLAS only for the
 * library baselines and the SGEMM point printed beside the roofs, so they
 * are not linked with it: the few cuBLAS functions they call are defined
 * here, with cuBLAS's own prototypes (cublas_v2.h), and each forwards to
 * the real one, found with dlopen and dlsym the first time any is called. When cuBLAS cannot be
 * loaded, each returns CUBLAS_STATUS_NOT_INITIALIZED after one line on
 * stderr saying why, and the caller reports the baseline unavailable. */
#define _GNU_SOURCE
#include <cublas_v2.h>

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define MW_STR2(x) #x
#define MW_STR(x) MW_STR2(x)
/* The toolkit's soname: libcublas.so.13 for CUDA 13, found through the
 * program's run path (the Makefile sets it to the toolkit's lib64). */
#define MW_CUBLAS_SONAME "libcublas.so." MW_STR(CUBLAS_VER_MAJOR)

static void *cublas_lib;
static pthread_once_t cublas_once = PTHREAD_ONCE_INIT;

static void load_cublas(void)
{
    cublas_lib = dlopen(MW_CUBLAS_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!cublas_lib)
        fprintf(stderr, "cuBLAS could not be loaded: %s\n", dlerror());
}

/* The real function `name`, or NULL (after saying why). */
static void *real(const char *name)
{
    pthread_once(&cublas_once, load_cublas);
    void *fn = cublas_lib ? dlsym(cublas_lib, name) : NULL;
    if (cublas_lib && !fn)
        fprintf(stderr, "cuBLAS has no %s: %s\n", name, dlerror());
    return fn;
}

/* Defines NAME(PARAMS) forwarding ARGS to the real NAME, resolved once. */
#define FORWARD(name, params, args)                                              \
    cublasStatus_t CUBLASWINAPI name params                                      \
    {                                                                            \
        typedef cublasStatus_t(CUBLASWINAPI * fn_t) params;                      \
        static fn_t fn;                                                          \
        if (!fn)                                                                 \
            fn = (fn_t)real(#name);                                              \
        return fn ? fn args : CUBLAS_STATUS_NOT_INITIALIZED;                     \
    }

FORWARD(cublasCreate_v2, (cublasHandle_t * handle), (handle))
FORWARD(cublasDestroy_v2, (cublasHandle_t handle), (handle))
FORWARD(cublasSetStream_v2, (cublasHandle_t handle, cudaStream_t stream), (handle, stream))
FORWARD(cublasSetMathMode, (cublasHandle_t handle, cublasMath_t mode), (handle, mode))
FORWARD(cublasSetPointerMode_v2, (cublasHandle_t handle, cublasPointerMode_t mode),
        (handle, mode))
FORWARD(cublasSscal_v2, (cublasHandle_t handle, int n, const float *alpha, float *x, int incx),
        (handle, n, alpha, x, incx))
FORWARD(cublasSgemm_v2,
        (cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
         int k, const float *alpha, const float *A, int lda, const float *B, int ldb,
         const float *beta, float *C, int ldc),
        (handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc))
FORWARD(cublasSgemmStridedBatched,
        (cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
         int k, const float *alpha, const float *A, int lda, long long int strideA,
         const float *B, int ldb, long long int strideB, const float *beta, float *C, int ldc,
         long long int strideC, int batchCount),
        (handle, transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc,
         strideC, batchCount))
FORWARD(cublasSgeam,
        (cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
         const float *alpha, const float *A, int lda, const float *beta, const float *B, int ldb,
         float *C, int ldc),
        (handle, transa, transb, m, n, alpha, A, lda, beta, B, ldb, C, ldc))
FORWARD(cublasGemmEx,
        (cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
         int k, const void *alpha, const void *A, cudaDataType Atype, int lda, const void *B,
         cudaDataType Btype, int ldb, const void *beta, void *C, cudaDataType Ctype, int ldc,
         cublasComputeType_t computeType, cublasGemmAlgo_t algo),
        (handle, transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb, beta, C, Ctype, ldc,
         computeType, algo))
FORWARD(cublasGemmStridedBatchedEx,
        (cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
         int k, const void *alpha, const void *A, cudaDataType Atype, int lda,
         long long int strideA, const void *B, cudaDataType Btype, int ldb,
         long long int strideB, const void *beta, void *C, cudaDataType Ctype, int ldc,
         long long int strideC, int batchCount, cublasComputeType_t computeType,
         cublasGemmAlgo_t algo),
        (handle, transa, transb, m, n, k, alpha, A, Atype, lda, strideA, B, Btype, ldb, strideB,
         beta, C, Ctype, ldc, strideC, batchCount, computeType, algo))

const char *CUBLASWINAPI cublasGetStatusName(cublasStatus_t status)
{
    typedef const char *(CUBLASWINAPI * fn_t)(cublasStatus_t);
    static fn_t fn;
    if (!fn)
        fn = (fn_t)real("cublasGetStatusName");
    return fn ? fn(status) : "CUBLAS_STATUS_NOT_INITIALIZED (cuBLAS could not be loaded)";
}
