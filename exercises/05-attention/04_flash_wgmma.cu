/* Exercise 05.4 (optional): flash attention forward in bf16 on Hopper's own
 * instructions: wgmma (warpgroup matrix multiply from shared-memory matrix
 * descriptors), TMA (cp.async.bulk.tensor with a tensor map) and mbarriers.
 * The interface, semantics and special values are 05.3's (attention.h);
 * sm_90a only. An open challenge: a stub neither fails a check nor costs
 * points.
 *
 * The algorithm is 05.3's (FlashAttention-2 order, one block per query
 * tile); what changes is how the products and the loads are issued:
 *  - one warpgroup (4 warps, 128 threads) per query tile of Br = 64 rows:
 *    wgmma's M is 64, each warp owns 16 rows of every accumulator;
 *  - S_ij = Q_i K_j^T by wgmma m64n64k16 (Bc = 64 keys), D / 16 k-steps,
 *    both operands from shared memory through descriptors;
 *  - O_i += P_ij V_j by wgmma m64nDk16, Bc / 16 k-steps, P_ij from
 *    registers (the accumulator of S_ij, rounded to bf16, is the A operand's
 *    register fragment), V_j from shared memory read transposed;
 *  - Q_i, K_j, V_j land in shared memory by TMA, in the 128-byte swizzled
 *    layout wgmma's descriptors read (64-byte at d = 32), completing on an
 *    mbarrier; K_j, V_j in two stages: tile j + 1 flies during tile j's
 *    math;
 *  - the tensor map's third dimension is the head, so a tile's rows past N
 *    are zero-filled by the TMA (never the next head's rows);
 *  - grid order: causal, the heads in groups whose K and V fit the L2,
 *    each group's query tiles longest first, so that the short ones fill
 *    the SMs at the end; without a mask, head by head.
 *
 * Layouts (PTX ISA 8.x, "Asynchronous Warpgroup Level Matrix Multiply-
 * Accumulate"; lane = 4 g + t within warp w of the warpgroup):
 *   accumulator (m64nN, FP32): register 4 c + e holds row 16 w + g + 8 (e / 2),
 *     column 8 c + 2 t + e % 2 ("Register fragment: matrix D");
 *   A from registers (m64nNk16 bf16): a0 = (16 w + g, 2t..2t+1),
 *     a1 = (+8, 2t..), a2 = (16 w + g, 2t+8..), a3 = (+8, 2t+8..) ("Register
 *     fragment: matrix A"), the same as mma.m16n8k16's per warp: P's keys
 *     16 kc .. 16 kc + 15 are S's register chunks 2 kc and 2 kc + 1;
 *   shared-memory tiles ("Shared memory matrix layout", "Matrix descriptor"):
 *     rows of SW = min(2 d, 128) bytes, d = 128 cut into two column blocks of
 *     64 rows each; the 16-byte chunk k of row r sits at chunk k ^ (r % 8)
 *     (128-byte swizzle; 64-byte: k ^ ((r / 2) % 4)), the pattern TMA's
 *     CU_TENSOR_MAP_SWIZZLE_128B writes from a 1024-byte aligned base.
 *     K-major (Q_i as A, K_j as B of S): stride byte offset = 8 rows = 8 SW,
 *     leading byte offset unused; a k-step of 16 columns is + 32 bytes on the
 *     start address within a column block. MN-major (V_j as B of P V, keys
 *     are K, d is N): stride byte offset = 8 keys = 8 SW, leading byte offset
 *     = one column block (64 SW); a k-step of 16 keys is + 16 SW.
 *
 * Special values, as 05.3: masked scores become -inf by a select; a causal
 * tile that crosses the diagonal multiplies P = 0 by V rows other rows
 * attend, so when such a V_j tile holds a non-finite value the block does
 * that tile's P_ij V_j in FP32 FMAs with a select per key (rows that do not
 * attend a NaN never touch it).
 *
 * The reference runs FlashAttention-3's structure by default and keeps the
 * kernel above and the steps between for the lesson's ablation (not in the
 * graded build, make grade's, with MW_GRADED defined: auto alone); the
 * environment variable MW_FLASH_WGMMA, read once, picks the kernel:
 *   unset, empty or auto  ws; step1 if causal, d = 64, N <= 4096 (faster);
 *   ws        warp specialisation: a producer warpgroup (one thread
 *             issues every TMA load into a ring of K stages and one
 *             of V stages, each stage with "full" and "empty" mbarriers;
 *             setmaxnreg.dec) and consumer warpgroups of 64 query rows
 *             each (setmaxnreg.inc), with the intra-warpgroup overlap
 *             (S_{j+1} = Q K_{j+1}^T issued with P_j V_j, waited by
 *             wgmma.wait_group 1). d = 128: two consumers (a block of 128
 *             rows) and ping-pong (they take turns at the tensor cores,
 *             each one's softmax under the other's GEMMs), key tiles of
 *             Bc = 176 without a mask and 128 with one; d <= 64: three
 *             consumers (192 rows), Bc = 128, taking turns at the tensor
 *             cores in a ring without a mask and none with one. The softmax is
 *             lazy (FlashAttention-4's rule): a warp moves its rows'
 *             maxima, and rescales O and l, only when one grows by more
 *             than 8 (P up to 2^8). Without a mask: a persistent grid,
 *             a block an SM running query tile after query tile,
 *             the next tile's Q_i, K_j, V_j loading under this one's last
 *             products and stores; otherwise a block a query tile;
 *   step1     the kernel described above: one warpgroup, loads and math;
 *   ws-eager  ws rescaling O at every tile, as FlashAttention-3 does;
 *   ws2       FlashAttention-3's schedule: ws-eager with two consumers,
 *             ping-pong and key tiles of 128 at every d;
 *   ws-nopp   ws2 without ping-pong;
 *   ws-noov   ws2 without the overlap;
 *   ws-plain  ws2 with neither;
 *   ws-bc64   ws2 with step 1's key tiles of Bc = 64;
 *   ws-heads  ws in plain head-major grid order when causal too, each
 *             head's tiles longest first;
 *   ws-ring   ws with its consumers taking turns at the tensor cores in a
 *             ring at every d and mask: at d <= 64 its three with the mask
 *             too, at d = 128 ws itself;
 *   ws-noring  ws with no turns at d <= 64, with or without the mask (at
 *             d = 128 ws itself);
 *   ws-persist  ws with a persistent grid at every d and mask (causal:
 *             each block's tiles alternate long and short, block_tile);
 *   ws-nopersist  ws with a block a query tile at every d and mask;
 *   anything else: the launcher returns cudaErrorInvalidValue.
 * Every kernel tests keys against N and the causal diagonal only in the
 * tiles that reach past either. Kernels with the same key tiles and
 * rescaling do the same arithmetic in the same order: O is bitwise the same
 * for step1 and ws-bc64, for ws, ws-heads, ws-persist and ws-nopersist
 * (the grid moves blocks, not sums) and ws-ring and ws-noring (turns move
 * time, and the extra causal tiles of turns add P = 0), and for ws2,
 * ws-nopp, ws-noov, ws-plain and ws-eager (where its key tiles are 128).
 *
 * Needs: sm_90a (wgmma, TMA)
 *
 * Check it:  make check CH=05 EX=04
 * Time it:  make bench CH=05 */
#include "attention.h"

// TODO: one warpgroup per 64 query rows; Q_i, K_j, V_j loaded by cp.async.bulk.tensor (a tensor
// TODO: map from cuTensorMapEncodeTiled, reached through cudaGetDriverEntryPointByVersion) into
// TODO: 128-byte swizzled shared memory, completing on mbarriers; S_ij = Q_i K_j^T and
// TODO: O_i += bf16(P_ij) V_j by wgmma.mma_async; the online softmax of 05.3 on the accumulator
// TODO: fragment. Keys a row does not attend never touch it, even NaN ones.

cudaError_t attention_flash_wgmma(const mw05_bf16 *Q, const mw05_bf16 *K, const mw05_bf16 *V,
                                  mw05_bf16 *O, float *L, int B, int H, int N, int d,
                                  float scale, int causal, cudaStream_t stream)
{
    // TODO: check d (32, 64 or 128) and B, H, N >= 1; make the tensor maps, launch your kernel on
    // TODO: `stream` and return cudaGetLastError().
    return MW_NOT_IMPLEMENTED;
}
