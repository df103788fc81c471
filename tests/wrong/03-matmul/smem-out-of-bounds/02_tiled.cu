/* Known wrong: a shared tile indexed past its row. The inner loop reads
 * As[ty][k + 1]: one column to the right, and at k = 31 the element after
 * the row (the next row's first, or for the last row the first of B's
 * tile, which follows A's in the one shared array). Every read stays inside
 * the block's shared memory, so nothing traps: the sums are simply wrong.
 * compute-sanitizer sees no error either (the address is allocated): only
 * the values show it. */
#include "matmul.h"

#define TILE 32

__global__ void k(const float *A, const float *B, float *C, int M, int N, int K)
{
    __shared__ float tiles[2][TILE][TILE]; /* A's tile, then B's */
    float(*As)[TILE] = tiles[0];
    float(*Bs)[TILE] = tiles[1];
    const int tiles_n = (N + TILE - 1) / TILE;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int m = (blockIdx.x / tiles_n) * TILE + ty;
    const int n = (blockIdx.x % tiles_n) * TILE + tx;
    float acc = 0.f;
    for (int k0 = 0; k0 < K; k0 += TILE) {
        As[ty][tx] = m < M && k0 + tx < K ? A[(size_t)m * K + k0 + tx] : 0.f;
        Bs[ty][tx] = k0 + ty < K && n < N ? B[(size_t)(k0 + ty) * N + n] : 0.f;
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k + 1] * Bs[k][tx];
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
