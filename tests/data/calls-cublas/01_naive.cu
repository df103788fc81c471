/* An exercise that calls cuBLAS instead of writing the kernel: the build
 * must refuse it (exercise libraries link the CUDA runtime only). */
#include "vector_add.h"

#include <cublas_v2.h>

cudaError_t add_naive(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    (void)stream;
    const float one = 1.f;
    cublasHandle_t h;
    cublasCreate(&h);
    cudaMemcpy(c, b, n * sizeof(float), cudaMemcpyDeviceToDevice);
    cublasSaxpy(h, (int)n, &one, a, 1, c, 1);
    return cudaSuccess;
}
