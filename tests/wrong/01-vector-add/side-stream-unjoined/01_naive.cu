/* Known wrong: the launcher forks the work onto a stream of its own (which
 * waits for `stream` first, so it sees the inputs) and returns without
 * joining it back. Every value is right, and a caller that synchronizes the
 * whole device never notices; a caller that orders its next step by
 * `stream` alone may read c before it is written. */
#include "vector_add.h"

__global__ void add_naive_kernel(const float *a, const float *b, float *c, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

cudaError_t add_naive(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    static cudaStream_t side;
    static cudaEvent_t inputs_ready;
    if (!side) {
        cudaError_t err = cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
        if (err == cudaSuccess)
            err = cudaEventCreateWithFlags(&inputs_ready, cudaEventDisableTiming);
        if (err != cudaSuccess)
            return err;
    }
    if (n == 0)
        return cudaSuccess;
    cudaEventRecord(inputs_ready, stream);
    cudaStreamWaitEvent(side, inputs_ready, 0);
    add_naive_kernel<<<(unsigned)((n + 255) / 256), 256, 0, side>>>(a, b, c, n);
    /* Missing: cudaEventRecord(done, side); cudaStreamWaitEvent(stream, done, 0); */
    return cudaGetLastError();
}
