/* Known wrong: the tiled kernel without the barrier after the compute loop.
 * It prefetches the next tiles into registers while it computes (so that
 * the loads' latency hides behind the arithmetic), then stores them into
 * shared memory at the top of the next step. Without the second barrier, a
 * warp that finishes its 32 multiply-adds first stores the next tiles over
 * the current ones at once, while other warps are still reading them:
 * which values they read depends on timing. */
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
    float a = m < M && tx < K ? A[(size_t)m * K + tx] : 0.f;
    float b = ty < K && n < N ? B[(size_t)ty * N + n] : 0.f;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        As[ty][tx] = a;
        Bs[ty][tx] = b;
        __syncthreads();
        const int k1 = k0 + TILE; /* the next step's tiles, loaded during this one */
        a = m < M && k1 + tx < K ? A[(size_t)m * K + k1 + tx] : 0.f;
        b = k1 + ty < K && n < N ? B[(size_t)(k1 + ty) * N + n] : 0.f;
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        /* missing: __syncthreads(); */
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
