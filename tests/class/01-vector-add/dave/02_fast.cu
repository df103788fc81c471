/* Class fixture (chapter 01), student "dave", version 02_fast: does not
 * compile (on purpose).
 *
 * Why it exists: a compile error must be reported as a build failure of
 * this version (exit 2, nvcc's message with this file and line), while
 * dave's 01_naive is still built and graded. The error: a missing ')' in
 * the launch's argument list and a missing ';' after the index. */
#include "vector_add.h"

__global__ void dave_add4(const float *a, const float *b, float *c, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x
    if (i < n)
        c[i] = a[i] + b[i];
}

cudaError_t add_fast(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    dave_add4<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(a, b, c, n;
    return cudaGetLastError();
}
