/* vector_libs.c: shared library baselines for the elementwise chapters.
 * The CPU emulation (MW_SIM) has no cuBLAS: it builds the copy roof alone. */
#ifndef MW_SIM
#define MW_WITH_CUBLAS
#endif
#include "vector_libs.h"

#include "cuda_check.h"

#ifndef MW_SIM
int mw_cublas_setup(void **state)
{
    cublasHandle_t h;
    MW_CUBLAS_TRY(cublasCreate(&h), return -1);
    *state = h;
    return 0;
}

void mw_cublas_teardown(void *state)
{
    cublasDestroy((cublasHandle_t)state);
}
#endif

void mw_matrix_shape(size_t n, int *rows, int *cols)
{
    size_t c = 1;
    while ((c * 2) * (c * 2) <= n && n % (c * 2) == 0)
        c *= 2;
    *rows = (int)(n / c);
    *cols = (int)c;
}

#ifndef MW_SIM
cudaError_t mw_geam(void *cublas, float alpha, const float *x, float beta, const float *y,
                    float *out, size_t n, cudaStream_t s)
{
    cublasHandle_t h = cublas;
    int rows, cols;
    mw_matrix_shape(n, &rows, &cols);
    cublasSetStream(h, s);
    cublasStatus_t st = cublasSgeam(h, CUBLAS_OP_N, CUBLAS_OP_N, rows, cols, &alpha, x, rows,
                                    &beta, y, rows, out, rows);
    return st == CUBLAS_STATUS_SUCCESS ? cudaSuccess : cudaErrorUnknown;
}
#endif

int mw_copy_setup(void **state)
{
    *state = NULL;
    return 0;
}

cudaError_t mw_copy_into(float *const *bufs, int out, const mw_case *c, cudaStream_t s)
{
    return mw_gpu_copy_async(bufs[out], bufs[0], c->dim[0] * sizeof(float), s);
}

void mw_copy_model(const mw_case *c, double *read, double *write, double *flops)
{
    *read = 4.0 * (double)c->dim[0];
    *write = 4.0 * (double)c->dim[0];
    *flops = 0;
}
