/* Known wrong: the sum kept in half precision. Each product is rounded to
 * half and added to a __half accumulator: 11 significant bits, so after a
 * few hundred terms each addition loses most of the new term. Small-integer
 * inputs still come out exact (integers up to 2048 are exact in half); the
 * uniform ones do not, and the grader names the accumulator by value. */
#include "matmul.h"

#include <cuda_fp16.h>

static const int kBlockX = 32, kBlockY = 8;

__global__ void naive_kernel(const float *A, const float *B, float *C, int M, int N, int K)
{
    const int blocks_n = (N + kBlockX - 1) / kBlockX;
    const int n = (blockIdx.x % blocks_n) * kBlockX + threadIdx.x;
    const int m = (blockIdx.x / blocks_n) * kBlockY + threadIdx.y;
    if (m >= M || n >= N)
        return;
    __half acc = __float2half(0.f); /* BUG: accumulate in float */
    for (int k = 0; k < K; ++k)
        acc = __hadd(acc, __float2half(A[(size_t)m * K + k] * B[(size_t)k * N + n]));
    C[(size_t)m * N + n] = __half2float(acc);
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
