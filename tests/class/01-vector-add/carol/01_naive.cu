/* Class fixture (chapter 01), student "carol", version 01_naive: wrong on
 * the tail.
 *
 * Why it exists: the commonest bug of the chapter. The block count is
 * n / 256, rounded down (kept at least 1, so small n still launches), so the
 * last n % 256 elements get no thread and stay NaN: every case whose n is
 * not a multiple of 256 fails, the small ones and the powers of two pass. */
#include "vector_add.h"

__global__ void carol_add(const float *a, const float *b, float *c, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

cudaError_t add_naive(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    size_t blocks = n / 256; /* BUG: should be (n + 255) / 256 */
    if (blocks == 0)
        blocks = 1;
    carol_add<<<(unsigned)blocks, 256, 0, stream>>>(a, b, c, n);
    return cudaGetLastError();
}
