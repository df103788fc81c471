/* Exercise 03.3: register blocking: each thread computes an 8 x 8 block of
 * C.
 *
 * In 03.2 every multiply-add reads two floats from shared memory: shared
 * memory, not the FP32 units, sets the pace. Here a block of 256 threads
 * computes a 128 x 128 tile of C, each thread 8 x 8 elements of it. For
 * each k the thread reads 8 floats of A's tile and 8 of B's tile into
 * registers and does 8 x 8 = 64 multiply-adds with them: 16 shared loads for
 * 64 FMAs instead of 128. The 64 sums live in registers all along.
 *
 * Budget: per element of C, 2K/128 floats read from global memory (each
 * float of a 128 x 8 tile of A serves a whole row of 128 outputs): at
 * 4096^3, 4.3 GB asked for where the naive kernel asks 550 GB. The block
 * tile is also 16 times the area of 03.2's, so fewer blocks re-read the
 * same rows and columns from DRAM when they do not fit in the L2.
 *
 * Layout, per block (BM = BN = 128, BK = 8):
 *  - loads: the A tile (128 x 8) and the B tile (8 x 128) are 256 float4
 *    each, one per thread; with float4 (16-byte) loads a warp reads 512
 *    bytes of each in one instruction. A is stored transposed,
 *    As[k][m], so that a thread's 4 consecutive rows of A are one float4 in
 *    shared memory too. Each row of As is padded by 4 floats: the transposed
 *    stores of two threads would otherwise hit the same bank (a 2-way
 *    conflict); with 132 floats per row they land 16 banks apart;
 *  - compute: thread (ty, tx), ty = tid / 16 and tx = tid % 16, owns rows
 *    4 ty .. 4 ty + 3 and 64 + 4 ty .. 64 + 4 ty + 3 of the tile, and the
 *    same split of columns with tx. Two groups of 4, 64 apart, rather than 8
 *    consecutive: the 16 lanes of a warp that read B's row then read 16
 *    consecutive float4s (256 bytes) with no bank conflict; with 8
 *    consecutive columns each they would read every other float4, 2-way
 *    conflicts. The same split makes the stores of C 256 contiguous bytes
 *    per half-warp and row;
 *  - float4 only when it is safe: every row of A starts 16-byte aligned only
 *    if A is and K is a multiple of 4, and likewise B and C with N. The
 *    launcher checks and otherwise runs the same kernel with scalar loads
 *    and stores (a template flag). Edges: loads past the matrix give 0,
 *    stores past it are skipped, as in 03.2.
 *
 * Not done here, and what 03.4 can try: double buffering (load the next
 * tiles into registers while computing on these, one barrier per step),
 * warp tiling, a larger BK, an autotuned tile shape, and a block order that
 * keeps neighbouring blocks on the same rows of A.
 *
 * Launch settings: 256 threads, 8.3 KB of shared memory and up to 128
 * registers per thread (__launch_bounds__(256, 2): two blocks per SM); a
 * 1-D grid of ceil(N/128) x ceil(M/128) blocks, n-tiles fastest.
 *
 * Check it:  make check CH=03 EX=03      Time it:  make bench CH=03 */
#include "matmul.h"

#include <stdint.h>

// BEGIN SOLUTION
// TODO: a kernel for one 128 x 128 tile of C per block of 256 threads, each thread an 8 x 8
// TODO: block of it in registers. For each 8-wide step of K: load a 128 x 8 tile of A and an
// TODO: 8 x 128 tile of B into shared memory (0 past the matrix; float4 only when the rows are
// TODO: 16-byte aligned), __syncthreads(), then for each k read 8 floats of each tile into
// TODO: registers and do the 64 multiply-adds, __syncthreads(). Write C where inside M x N.
#define BM 128
#define BN 128
#define BK 8
#define THREADS 256
#define APAD 4 /* floats of padding per row of As */

/* Row r, columns c .. c+3 of a rows x cols row-major matrix into v, 0 past
 * its edges. VEC: one float4 (the caller guarantees alignment and cols % 4
 * == 0, so a float4 is either wholly inside or wholly outside). */
template <bool VEC>
__device__ __forceinline__ void load4(const float *P, int rows, int cols, int r, int c, float *v)
{
    if (VEC) {
        float4 q = make_float4(0.f, 0.f, 0.f, 0.f);
        if (r < rows && c < cols)
            q = *reinterpret_cast<const float4 *>(P + (size_t)r * cols + c);
        v[0] = q.x, v[1] = q.y, v[2] = q.z, v[3] = q.w;
    } else {
        for (int i = 0; i < 4; ++i)
            v[i] = r < rows && c + i < cols ? P[(size_t)r * cols + c + i] : 0.f;
    }
}

/* v into row r, columns c .. c+3 of C, the part inside rows x cols. */
template <bool VEC>
__device__ __forceinline__ void store4(float *P, int rows, int cols, int r, int c, const float *v)
{
    if (r >= rows)
        return;
    if (VEC) {
        if (c < cols)
            *reinterpret_cast<float4 *>(P + (size_t)r * cols + c) = make_float4(v[0], v[1], v[2], v[3]);
    } else {
        for (int i = 0; i < 4; ++i)
            if (c + i < cols)
                P[(size_t)r * cols + c + i] = v[i];
    }
}

template <bool VEC>
__global__ void __launch_bounds__(THREADS, 2)
    regblock_kernel(const float *__restrict__ A, const float *__restrict__ B,
                    float *__restrict__ C, int M, int N, int K)
{
    __shared__ __align__(16) float As[BK][BM + APAD]; /* A's tile, transposed: As[k][m] */
    __shared__ __align__(16) float Bs[BK][BN];
    const int tiles_n = (N + BN - 1) / BN;
    const int m0 = (blockIdx.x / tiles_n) * BM, n0 = (blockIdx.x % tiles_n) * BN;
    const int tid = threadIdx.x, tx = tid % 16, ty = tid / 16;
    const int a_m = tid / 2, a_k = (tid % 2) * 4;   /* this thread's float4 of A's tile */
    const int b_k = tid / 32, b_n = (tid % 32) * 4; /* and of B's tile */

    float acc[8][8];
#pragma unroll
    for (int i = 0; i < 8; ++i)
#pragma unroll
        for (int j = 0; j < 8; ++j)
            acc[i][j] = 0.f;

    for (int k0 = 0; k0 < K; k0 += BK) {
        float a[4], b[4];
        load4<VEC>(A, M, K, m0 + a_m, k0 + a_k, a);
        load4<VEC>(B, K, N, k0 + b_k, n0 + b_n, b);
#pragma unroll
        for (int i = 0; i < 4; ++i)
            As[a_k + i][a_m] = a[i];
        *reinterpret_cast<float4 *>(&Bs[b_k][b_n]) = make_float4(b[0], b[1], b[2], b[3]);
        __syncthreads(); /* the tiles are complete */

#pragma unroll
        for (int k = 0; k < BK; ++k) {
            const float4 a0 = *reinterpret_cast<const float4 *>(&As[k][4 * ty]);
            const float4 a1 = *reinterpret_cast<const float4 *>(&As[k][64 + 4 * ty]);
            const float4 b0 = *reinterpret_cast<const float4 *>(&Bs[k][4 * tx]);
            const float4 b1 = *reinterpret_cast<const float4 *>(&Bs[k][64 + 4 * tx]);
            const float ar[8] = {a0.x, a0.y, a0.z, a0.w, a1.x, a1.y, a1.z, a1.w};
            const float br[8] = {b0.x, b0.y, b0.z, b0.w, b1.x, b1.y, b1.z, b1.w};
#pragma unroll
            for (int i = 0; i < 8; ++i)
#pragma unroll
                for (int j = 0; j < 8; ++j)
                    acc[i][j] += ar[i] * br[j];
        }
        __syncthreads(); /* everyone is done with the tiles */
    }

#pragma unroll
    for (int i = 0; i < 8; ++i) {
        const int r = m0 + (i < 4 ? 4 * ty + i : 64 + 4 * ty + i - 4);
        store4<VEC>(C, M, N, r, n0 + 4 * tx, &acc[i][0]);
        store4<VEC>(C, M, N, r, n0 + 64 + 4 * tx, &acc[i][4]);
    }
}

static bool aligned16(const void *p)
{
    return (uintptr_t)p % 16 == 0;
}
// END SOLUTION

cudaError_t matmul_regblock(const float *A, const float *B, float *C, int M, int N, int K,
                            cudaStream_t stream)
{
    // BEGIN SOLUTION
    // TODO: launch one block of 256 threads per 128 x 128 tile of C on `stream` (a 1-D grid),
    // TODO: the float4 kernel only when A, B and C are 16-byte aligned and K and N are multiples
    // TODO: of 4, else the scalar one; return cudaGetLastError().
    // STUB: return MW_NOT_IMPLEMENTED;
    const unsigned blocks = (unsigned)((N + BN - 1) / BN) * (unsigned)((M + BM - 1) / BM);
    const bool vec = aligned16(A) && aligned16(B) && aligned16(C) && K % 4 == 0 && N % 4 == 0;
    if (vec)
        regblock_kernel<true><<<blocks, THREADS, 0, stream>>>(A, B, C, M, N, K);
    else
        regblock_kernel<false><<<blocks, THREADS, 0, stream>>>(A, B, C, M, N, K);
    return cudaGetLastError();
    // END SOLUTION
}
