/* Known wrong: the max pass takes four elements a step, and its first
 * load reads in[c + 1] where in[c] is due (a slip in hand-unrolled code).
 * Column 0 of every 1024 never enters the max (column 256 enters twice);
 * the sum and the write passes are right. Softmax does not care which max
 * it subtracts as long as exp does not overflow, so this passes every case
 * where the missed column is not alone at the top of its row: only a lone
 * +100 there (the lone inputs) leaves a max near 1, and exp(99) overflows. */
#include "softmax.h"

#include <math.h>

/* Tree reduction over 256 threads; op 0 max, 1 sum. */
__device__ float reduce256(float v, int op, float *partial)
{
    partial[threadIdx.x] = v;
    __syncthreads();
    for (int half = 128; half > 0; half /= 2) {
        if (threadIdx.x < half) {
            float a = partial[threadIdx.x], b = partial[threadIdx.x + half];
            partial[threadIdx.x] = op ? a + b : fmaxf(a, b);
        }
        __syncthreads();
    }
    float r = partial[0];
    __syncthreads();
    return r;
}

__global__ void k(const float *x, float *y, size_t cols)
{
    __shared__ float partial[256];
    const float *in = x + blockIdx.x * cols;
    const size_t s = blockDim.x;
    size_t c = threadIdx.x;
    float m = -INFINITY, sum = 0.f;
    for (; c + 3 * s < cols; c += 4 * s)
        m = fmaxf(fmaxf(m, fmaxf(in[c + 1], in[c + s])), fmaxf(in[c + 2 * s], in[c + 3 * s]));
    for (; c < cols; c += s)
        m = fmaxf(m, in[c]);
    m = reduce256(m, 0, partial);
    for (c = threadIdx.x; c < cols; c += s)
        sum += expf(in[c] - m);
    sum = reduce256(sum, 1, partial);
    for (c = threadIdx.x; c < cols; c += s)
        y[blockIdx.x * cols + c] = expf(in[c] - m) / sum;
}

cudaError_t softmax_three_pass(const float *x, float *y, size_t rows, size_t cols,
                               cudaStream_t stream)
{
    k<<<(unsigned)rows, 256, 0, stream>>>(x, y, cols);
    return cudaGetLastError();
}
