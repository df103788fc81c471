/* Class fixture (chapter 01), student "frank", version 02_fast: writes far
 * out of bounds.
 *
 * Why it exists: an illegal address poisons the CUDA context of the process
 * that ran it. Each case with n >= 1 must be reported as an ERROR naming
 * cudaErrorIllegalAddress, and grading must go on in a fresh process (the
 * next case, frank's 01_naive, the next student). n = 0 launches nothing
 * and passes.
 *
 * The bug: the output index is scaled by 2^20 (a stride used where the
 * element index belongs), so thread i writes 4 MiB * i past c, and the last
 * threads land terabytes past any allocation. The element 0 write is in
 * bounds; element n-1 is not for any n >= 2, and for n = 1 the extra write
 * at c + 2^40 floats is. */
#include "vector_add.h"

__global__ void frank_add(const float *a, const float *b, float *c, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) {
        c[i << 20] = a[i] + b[i];
        if (i == n - 1)
            c[i + ((size_t)1 << 40)] = 0.f; /* 4 TiB past c: never mapped */
    }
}

cudaError_t add_fast(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    frank_add<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(a, b, c, n);
    return cudaGetLastError();
}
