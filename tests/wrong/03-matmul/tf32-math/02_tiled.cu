/* Known wrong: the tiles rounded to TF32 as they are loaded, what a
 * tensor-core kernel does to its inputs (cvt.rna.tf32.f32, as
 * wmma::__float_to_tf32): 10 mantissa bits instead of 23. The products are
 * then exact and summed in FP32, but of the wrong inputs: off by up to
 * 2^-10 each. The integer cases still pass (small integers are exact in
 * TF32); the uniform ones fail. */
#include "matmul.h"

#define TILE 32

__device__ __forceinline__ float to_tf32(float x)
{
#if __CUDA_ARCH__ >= 800
    unsigned r;
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(x));
    return __uint_as_float(r);
#else /* no TF32 before sm_80: the same rounding by hand */
    return __uint_as_float((__float_as_uint(x) + 0x1000u) & 0xffffe000u);
#endif
}

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
        As[ty][tx] = m < M && k0 + tx < K ? to_tf32(A[(size_t)m * K + k0 + tx]) : 0.f;
        Bs[ty][tx] = k0 + ty < K && n < N ? to_tf32(B[(size_t)(k0 + ty) * N + n]) : 0.f;
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
