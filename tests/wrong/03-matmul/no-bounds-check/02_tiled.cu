/* Known wrong: the tiled kernel with no edge checks: it loads past the rows
 * and columns of A and B when M, N or K is not a multiple of 32 (values of
 * the next row, or of the guard bands), and writes C for threads past M and
 * N: past the end of C, and into the next row where n >= N. */
#include "matmul.h"

#define TILE 32

__global__ void k(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    const int tiles_n = (N + TILE - 1) / TILE;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int m = (blockIdx.x / tiles_n) * TILE + ty;
    const int n = (blockIdx.x % tiles_n) * TILE + tx;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        As[ty][tx] = A[(size_t)m * K + k0 + tx];
        Bs[ty][tx] = B[(size_t)(k0 + ty) * N + n];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[(size_t)m * N + n] = acc;
}

cudaError_t matmul_tiled(const float *A, const float *B, float *C, int M, int N, int K,
                         cudaStream_t stream)
{
    const unsigned blocks = (unsigned)((N + TILE - 1) / TILE) * (unsigned)((M + TILE - 1) / TILE);
    k<<<blocks, dim3(TILE, TILE), 0, stream>>>(A, B, C, M, N, K);
    return cudaGetLastError();
}
