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

// TODO: a kernel for one 128 x 128 tile of C per block of 256 threads, each thread an 8 x 8
// TODO: block of it in registers. For each 8-wide step of K: load a 128 x 8 tile of A and an
// TODO: 8 x 128 tile of B into shared memory (0 past the matrix; float4 only when the rows are
// TODO: 16-byte aligned), __syncthreads(), then for each k read 8 floats of each tile into
// TODO: registers and do the 64 multiply-adds, __syncthreads(). Write C where inside M x N.

cudaError_t matmul_regblock(const float *A, const float *B, float *C, int M, int N, int K,
                            cudaStream_t stream)
{
    // TODO: launch one block of 256 threads per 128 x 128 tile of C on `stream` (a 1-D grid),
    // TODO: the float4 kernel only when A, B and C are 16-byte aligned and K and N are multiples
    // TODO: of 4, else the scalar one; return cudaGetLastError().
    return MW_NOT_IMPLEMENTED;
}
