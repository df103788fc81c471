/* Class fixture (chapter 01), student "heidi", version 02_fast: calls
 * cuBLAS instead of writing the kernel.
 *
 * Why it exists: the exercise is to write the kernel, and the library is
 * what it is measured against. Exercise libraries are linked against the
 * CUDA runtime only, with -z defs, so this file must fail to build: the
 * link error names cublasSaxpy (and cublasCreate_v2, cublasSetStream_v2),
 * and the grader reports a build failure for 02_fast, not a pass.
 *
 * What she wrote: c = b, then c += 1 * a with cublasSaxpy. (It would also
 * be wrong past 2^31 - 1 elements: cuBLAS's classic API takes an int n.) */
#include "vector_add.h"

#include <cublas_v2.h>

cudaError_t add_fast(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    static cublasHandle_t handle;
    const float one = 1.f;
    if (n == 0)
        return cudaSuccess;
    if (!handle && cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS)
        return cudaErrorUnknown;
    cublasSetStream(handle, stream);
    cudaError_t err = cudaMemcpyAsync(c, b, n * sizeof(float), cudaMemcpyDeviceToDevice, stream);
    if (err != cudaSuccess)
        return err;
    if (cublasSaxpy(handle, (int)n, &one, a, 1, c, 1) != CUBLAS_STATUS_SUCCESS)
        return cudaErrorUnknown;
    return cudaGetLastError();
}
