/* Class fixture (chapter 01), student "alice", version 01_naive: correct.
 *
 * Why it exists: the baseline of the class. A plain one-thread-per-element
 * add with size_t indices and a rounded-up grid; every case must pass. */
#include "vector_add.h"

__global__ void alice_add(const float *__restrict__ a, const float *__restrict__ b,
                          float *__restrict__ c, size_t n)
{
    size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

cudaError_t add_naive(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess; /* a grid of 0 blocks is a launch error */
    const unsigned threads = 512;
    const size_t blocks = (n + threads - 1) / threads; /* 2^31 + 3 -> 4.2M blocks: fine */
    alice_add<<<(unsigned)blocks, threads, 0, stream>>>(a, b, c, n);
    return cudaGetLastError();
}
