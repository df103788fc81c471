/* Exercise 01.1: naive vector add, c[i] = a[i] + b[i], one thread per element.
 *
 * Budget: one read of a[i], one read of b[i], one write of c[i]: 12 bytes
 * and 1 FLOP per element, so the kernel is bound by memory bandwidth, not
 * arithmetic (1/12 FLOP per byte, far below the GPU's ~20 FLOP/byte ridge).
 *
 * Launch settings: 256 threads per block (a multiple of the 32-thread warp;
 * 128 to 1024 all run at the same speed here, since the kernel waits on
 * memory), and enough blocks to give every element a thread.
 *
 * Check it:  make check CH=01 EX=01      Time it:  make bench CH=01 */
#include "vector_add.h"

__global__ void add_naive_kernel(const float *a, const float *b, float *c, size_t n)
{
    // BEGIN SOLUTION
    // TODO: compute this thread's global index i from blockIdx.x, blockDim.x and threadIdx.x
    // TODO: (in size_t: n can pass 2^31, where an int overflows), and if i < n, set c[i] = a[i] + b[i].
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) /* the last block usually runs past n: those threads must do nothing */
        c[i] = a[i] + b[i];
    // END SOLUTION
}

cudaError_t add_naive(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    // BEGIN SOLUTION
    // TODO: launch add_naive_kernel on `stream` with one thread per element: 256 threads per block
    // TODO: and the block count rounded up, (n + 255) / 256. A grid of 0 blocks is an error:
    // TODO: return cudaSuccess at once when n == 0. Return cudaGetLastError() after the launch.
    // STUB: return MW_NOT_IMPLEMENTED;
    if (n == 0)
        return cudaSuccess;
    const unsigned threads = 256;
    /* n = 2^31 + 3 needs 8.4 million blocks: well under grid.x's 2^31 - 1. */
    size_t blocks = (n + threads - 1) / threads;
    add_naive_kernel<<<(unsigned)blocks, threads, 0, stream>>>(a, b, c, n);
    return cudaGetLastError();
    // END SOLUTION
}
