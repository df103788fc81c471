/* Known wrong: the loop over K runs K / TILE times, rounded down: when K is
 * not a multiple of 32 the last, partial tile is never added (and for
 * K < 32, no tile at all). */
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
    for (int t = 0; t < K / TILE; ++t) {
        const int k0 = t * TILE;
        As[ty][tx] = m < M && k0 + tx < K ? A[(size_t)m * K + k0 + tx] : 0.f;
        Bs[ty][tx] = k0 + ty < K && n < N ? B[(size_t)(k0 + ty) * N + n] : 0.f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (m < M && n < N)
        C[(size_t)m * N + n] = acc;
}

cudaError_t matmul_tiled(const float *A, const float *B, float *C, int M, int N, int K,
                         cudaStream_t stream)
{
    const unsigned blocks = (unsigned)((N + TILE - 1) / TILE) * (unsigned)((M + TILE - 1) / TILE);
    k<<<blocks, dim3(TILE, TILE), 0, stream>>>(A, B, C, M, N, K);
    return cudaGetLastError();
}
