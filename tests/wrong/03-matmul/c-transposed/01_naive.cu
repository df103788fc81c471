/* Known wrong: C written transposed, C[n * M + m] for C[m][n]. Every value
 * is computed right and lands in the wrong place; on a square matrix the
 * result is C transposed, on any other shape a scramble. The grader names
 * it by value: each wrong element holds the answer for (i % M, i / M). */
#include "matmul.h"

static const int kBlockX = 32, kBlockY = 8;

__global__ void naive_kernel(const float *A, const float *B, float *C, int M, int N, int K)
{
    const int blocks_n = (N + kBlockX - 1) / kBlockX;
    const int n = (blockIdx.x % blocks_n) * kBlockX + threadIdx.x;
    const int m = (blockIdx.x / blocks_n) * kBlockY + threadIdx.y;
    if (m >= M || n >= N)
        return;
    float acc = 0.f;
    for (int k = 0; k < K; ++k)
        acc += A[(size_t)m * K + k] * B[(size_t)k * N + n];
    C[(size_t)n * M + m] = acc; /* BUG: C[m][n] is C[m * N + n] */
}

cudaError_t matmul_naive(const float *A, const float *B, float *C, int M, int N, int K,
                         cudaStream_t stream)
{
    const unsigned blocks = (unsigned)((N + kBlockX - 1) / kBlockX) *
                            (unsigned)((M + kBlockY - 1) / kBlockY);
    if (blocks == 0)
        return cudaSuccess;
    naive_kernel<<<blocks, dim3(kBlockX, kBlockY), 0, stream>>>(A, B, C, M, N, K);
    return cudaGetLastError();
}
