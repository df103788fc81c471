/* Exercise 03.4 (optional, open): the tuned reference, FP32 SGEMM within
 * reach of cuBLAS.
 *
 * What it adds to 03.3 (register blocking), each worth measuring:
 *   - a warp tile: the block's BM x BN tile is cut into 64 x 32 warp tiles,
 *     and each lane's 8 x 8 block of C is four 4 x 4 pieces, 32 rows and 16
 *     columns apart, so that the lanes of a warp read 8 (A) and 4 (B)
 *     distinct float4s from shared memory per step: one wavefront each, no
 *     bank conflict, the rest broadcast;
 *   - A stored transposed in shared memory (As[k][m]), so a thread's 8 A
 *     values for one k are two float4 reads; its rows are padded by 4 floats
 *     so that the transposing stores of two k-halves land in different banks;
 *   - double buffering: the next K-slab is in flight while this one is
 *     multiplied out of shared memory, into the other shared buffer: one
 *     barrier per slab, not two. A comes through registers (it must be
 *     transposed on the way); B, when float4 applies, by asynchronous
 *     copies (cp.async) that hold no registers while they fly. Measured on
 *     an H100 at 4096^3: 79% of cuBLAS with both through registers (the
 *     128-register cap spilled the prefetched slab), 58% with both by
 *     cp.async (A then needs 4-byte copies to transpose), 91% this way;
 *   - blocks visited in groups of 8 block-rows, so that the blocks running
 *     at once share the same A rows and B columns in the 50 MB L2;
 *   - float4 global loads and stores when K and N are multiples of 4 and
 *     the pointers 16-byte aligned, scalar ones otherwise; every load and
 *     store is bounds-checked, so any M, N, K is correct (zero-filled edges);
 *   - packing, for large shapes that float4 cannot take (K or N not a
 *     multiple of 4, or a pointer off 16 bytes): A and B are first copied
 *     into scratch rows padded to a multiple of 4 floats, and the float4
 *     kernel runs on the copies (C keeps scalar stores if it must).
 *
 * Autotuning: the best tile shape depends on the GPU and on the problem (a
 * 128 x 128 tile leaves most of 132 SMs idle at 512^2). At the first call
 * for a shape class (M, N, K rounded up to powers of two, and whether float4
 * applies) on a GPU, every configuration below is timed on the caller's own
 * operands and the fastest is kept, in memory and in a cache file beside
 * this library (04_tuned.tune, or the file MW_TUNE_CACHE names), so that
 * later processes skip the search. The tuning calls write the same correct
 * C, and the call itself then runs the chosen configuration. MW_TUNED_CONFIG
 * forces one configuration by name (the tests check each one this way);
 * MW_TUNED_PACK=always packs every shape float4 cannot take, =never none.
 *
 * Check it:  make check CH=03 EX=04      Time it:  make bench CH=03 */
#include "matmul.h"

// TODO: this one is open: start from your 03.3 and measure each step (warp tiles, transposed A in
// TODO: shared memory, double buffering, float4 loads, block order for L2). The reference also
// TODO: picks its tile shape per GPU and problem by timing the candidates at first use.

cudaError_t matmul_tuned(const float *A, const float *B, float *C, int M, int N, int K,
                         cudaStream_t stream)
{
    // TODO: launch your fastest kernel on `stream` and return cudaGetLastError().
    return MW_NOT_IMPLEMENTED;
}
