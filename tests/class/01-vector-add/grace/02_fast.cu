/* Class fixture (chapter 01), student "grace", version 02_fast: right
 * answers, launched where the timer does not look.
 *
 * Why it exists: the side-stream timing escape. The kernel is correct, but
 * the launcher ignores `stream`: it launches on a stream of its own, made
 * with cudaStreamNonBlocking (so it does not even wait for the legacy
 * default stream), and returns without waiting. CUDA events recorded on the
 * given stream bracket nothing and would report a near-zero time. The
 * check records the given stream on each case's second run instead of
 * running it (grader/stream_rule.h): grace's kernel writes c anyway, so
 * every case with n >= 1 fails with "launch on the stream you are given".
 * Were it to reach the bench, the gap between the events and the wall
 * clock would flag the row "side-stream". */
#include "vector_add.h"

__global__ void grace_add4(const float *a, const float *b, float *c, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

cudaError_t add_fast(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    static cudaStream_t mine; /* created once per process, never destroyed */
    (void)stream;             /* the escape: the given stream is not used */
    if (n == 0)
        return cudaSuccess;
    if (!mine) {
        cudaError_t err = cudaStreamCreateWithFlags(&mine, cudaStreamNonBlocking);
        if (err != cudaSuccess)
            return err;
    }
    grace_add4<<<(unsigned)((n + 255) / 256), 256, 0, mine>>>(a, b, c, n);
    return cudaGetLastError(); /* no cudaStreamSynchronize(mine): nothing waits */
}
