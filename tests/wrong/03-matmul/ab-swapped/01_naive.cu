/* Known wrong: the indices of A and B swapped, as if both were column-major
 * (A[k*M + m] for A[m][k], B[n*K + k] for B[k][n]). Every read stays inside
 * its matrix, so the answer is wrong everywhere but nothing crashes. */
#include "matmul.h"

__global__ void k(const float *A, const float *B, float *C, int M, int N, int K)
{
    const int blocks_n = (N + 31) / 32;
    const int n = (blockIdx.x % blocks_n) * 32 + threadIdx.x;
    const int m = (blockIdx.x / blocks_n) * 8 + threadIdx.y;
    if (m >= M || n >= N)
        return;
    float acc = 0.f;
    for (int k = 0; k < K; ++k)
        acc += A[(size_t)k * M + m] * B[(size_t)n * K + k];
    C[(size_t)m * N + n] = acc;
}

cudaError_t matmul_naive(const float *A, const float *B, float *C, int M, int N, int K,
                         cudaStream_t stream)
{
    const unsigned blocks = (unsigned)((N + 31) / 32) * (unsigned)((M + 7) / 8);
    k<<<blocks, dim3(32, 8), 0, stream>>>(A, B, C, M, N, K);
    return cudaGetLastError();
}
