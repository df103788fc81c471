/* Exercise 05.2: flash attention forward: one kernel, and the scores never
 * leave the chip.
 *
 * The algorithm, in the FlashAttention papers' notation (the loop order of
 * FlashAttention-2). Q is cut into Tr = ceil(N / Br) query tiles Q_i of Br
 * rows, K and V into Tc = ceil(N / Bc) tiles K_j, V_j of Bc rows. One block
 * per (b, h, i):
 *
 *   load Q_i, times scale * log2(e)                  (S_ij comes out in base 2)
 *   m_i = -inf, l_i = 0, O_i = 0                      (registers)
 *   for j = 0 .. Tc - 1 (causal: only tiles with a key <= Q_i's last row)
 *       S_ij  = Q_i K_j^T                             (Br x Bc, registers)
 *       m_new = max(m_i, rowmax(S_ij))
 *       P_ij  = 2^(S_ij - m_new)
 *       l_i   = 2^(m_i - m_new) l_i + rowsum(P_ij)
 *       O_i   = 2^(m_i - m_new) O_i + P_ij V_j
 *       m_i   = m_new
 *   write O_i / l_i, and L_i = ln(2) (m_i + log2(l_i))
 *
 * Budget: Q, K, V read and O, L written once, 4 B H N (4d + 1) bytes, when
 * the K and V of the (b, h)s in flight stay in the 50 MB L2 (2 MB each at
 * N = 4096, d = 64): 269 MB at B = 4, H = 16, N = 4096, d = 64, where 05.1
 * moves 17 GB more. FLOPs: 4 B H N^2 d (two products of 2 N^2 d each per
 * (b, h)), half when causal, plus B H N^2 exponentials: 275 GFLOP at that
 * shape, about 1000 FLOP per byte. The FP32 units set the pace, not DRAM:
 * the two products must run like an SGEMM (03.3, 03.4).
 *
 * How, and what each step was worth (d = 64, non-causal unless said):
 *  - register blocks: a row group of TPR lanes of one warp owns 8 rows of
 *    the tile; each lane computes an 8 x 8 block of S_ij (8 keys, TPR apart)
 *    and an 8 x 8 block of O_i. Per 4 values of k, 8 float4 loads of K_j rows
 *    and 8 of Q_i^T feed 256 FMAs; per key, 2 float4s of P_ij^T and 2 of V_j
 *    feed 64: one shared load per 16 FMAs in both products;
 *  - Q_i and P_ij are stored transposed (Q_i^T, P_ij^T), so that a lane's
 *    rows are float4s; K_j and V_j stay as in memory, loaded by cp.async;
 *  - the row maxima are warp shuffles within the row group; l_i stays a
 *    per-lane partial sum until the end; P_ij goes through shared memory,
 *    but each row group reads back only its own rows;
 *  - padding: rows of Q_i^T, P_ij^T and K_j are 4 floats longer than their
 *    data, so that consecutive rows start 4 banks apart and the float4s of 8
 *    lanes in 8 different rows cover the 32 banks once. Without it: 20.3
 *    TFLOP/s instead of 42.2 (2.1x);
 *  - pipelining: V_j is copied (cp.async) while S_ij is computed and K_j+1
 *    while the softmax and P_ij V_j are: single buffers, 3 barriers per
 *    tile, 99 KB of shared memory so that 2 blocks fit on an SM. Loading
 *    both at the top of each tile instead: 39.4;
 *  - causal: the tiles above the diagonal are skipped, masks are applied
 *    only in the tiles that cross it (or pass N), and the longest query
 *    tiles run first: 41.5 TFLOP/s (3.31 ms), 37.5 in the natural order;
 *  - exp2f with the scale and log2(e) folded into Q_i: one MUFU.EX2 per
 *    score against 128 FMAs; the same time as ex2.approx.ftz by hand.
 *
 * Special values: keys past N or after the row (causal) get S = -inf by a
 * select, never by arithmetic, so P = 2^-inf = 0 even where S was NaN; rows
 * of K_j, V_j past N are zero-filled by cp.async (P = 0 times V = 0); in a
 * tile crossing the diagonal, P_ij V_j adds key c to row r only when
 * c <= r, by a select (V_j's row may be NaN, and 0 * NaN is NaN). A row with
 * no finite score yet subtracts 0, not -inf (-inf - -inf is NaN). A NaN in
 * Q_i or an attended K row makes S, then P, l and O NaN (fmaxf skips NaN,
 * so m stays a number; it does not matter).
 *
 * Launch settings: a 1-D grid. Non-causal: persistent, as many blocks as
 * the GPU holds at once, each taking the next query tile from a counter in
 * (b, h)-major order, so that the tiles in flight span two or three heads
 * whose K and V stay in the L2 (one block per tile: ncu counted 43x the
 * minimum bytes at N = 16384, as blocks drifted over many heads). Causal:
 * one block per query tile, the longest first.
 *   d = 64:  Br = 128, Bc = 64, 128 threads (16 row groups of 8 lanes), 99 KB
 *            of shared memory (Q_i^T 33, K_j 17, V_j 16, P_ij^T 33), 249
 *            registers (__launch_bounds__(128, 2)): 2 blocks, 8 warps per SM;
 *   d = 128: Br = 128, Bc = 64, 256 threads (16 lanes a row: 8 x 4 of S_ij,
 *            8 x 8 of O_i), 164 KB, 255 registers: 1 block, 8 warps per SM;
 *   d = 32:  Br = 128, Bc = 64, 128 threads (8 lanes a row: 8 x 8 of S_ij,
 *            8 x 4 of O_i), 66.5 KB, 255 registers: 2 blocks per SM.
 * When those give one block per SM or fewer (B H ceil(N / 128) <= 132 SMs),
 * a twin with Br = 64 runs instead, twice the blocks: 0.079 ms instead of
 * 0.125 at B = H = 1, N = 1000, d = 64. Other shapes measured at d = 64:
 * 256 x 64 with 256 threads 42.0 TFLOP/s; 128 x 32, 3 blocks per SM, 39.7;
 * 128 x 128 with 256 threads 39.2; 64 x 64 38.3; 128 x 64 with 256 threads
 * and 8 x 4 per lane 36.2 (37.8 capped at 128 registers for 2 blocks per SM,
 * which spills 24 bytes).
 *
 * Measured on an H100 80GB HBM3 (132 SMs, CUDA 13.0), B = 4, H = 16,
 * N = 4096, median of 20 runs, L2 flushed before each:
 *            non-causal               causal
 *   d = 32:   3.57 ms  38.5 TFLOP/s    1.82 ms  37.7 TFLOP/s
 *   d = 64:   6.51 ms  42.2            3.31 ms  41.5   (1.97x faster)
 *   d = 128: 13.44 ms  40.9            6.82 ms  40.3
 *   N = 16384, B = 1, H = 16, d = 64: 25.9 ms 42.5, causal 12.7 ms 43.2.
 * d = 128 on the tensor-core path (the default on the H100): 8.90 ms 61.7
 * TFLOP/s, causal 5.37 ms 51.2; N = 16384: 141 ms 62.5, causal 71.3 ms 61.7.
 * For scale: PyTorch's FP32 scaled_dot_product_attention, same GPU, d = 64:
 * 7.93 ms (34.7 TFLOP/s), causal 4.25 ms; d = 128: 11.68 ms (47.1), causal
 * 6.04 ms. cuBLAS SGEMM peaks at 51.7 TFLOP/s; 05.1 takes 56.6 ms.
 *
 * On the H100 and H200 the reference runs d = 128 on tensor cores instead,
 * in 3xTF32 (the lesson's "d = 128: past the FFMA roof"; MW_FLASH_TF32X3=never
 * turns it off). Your kernel is graded at d = 64.
 *
 * Tuned for: sm_90a (wgmma: the 3xTF32 path at d = 128)
 *
 * Check it:  make check CH=05 EX=02      Time it:  make bench CH=05 */
#include "attention.h"

// TODO: one block per query tile Q_i (Br rows) of one (b, h): load Q_i into shared memory once,
// TODO: keep O_i, m_i, l_i in registers, and stream the K_j, V_j tiles (Bc rows) through shared
// TODO: memory: S_ij = Q_i K_j^T; m_new = max(m_i, rowmax(S_ij)); P_ij = exp(S_ij - m_new);
// TODO: l_i = l_i exp(m_i - m_new) + rowsum(P_ij); O_i = O_i exp(m_i - m_new) + P_ij V_j.
// TODO: At the end write O_i / l_i and L_i = m_i + log(l_i). Causal: skip the tiles above the
// TODO: diagonal, mask (select, never multiply by 0) in the diagonal ones. Then make it fast:
// TODO: each thread a register block of S_ij and of O_i, like the SGEMM of 03.3.

cudaError_t attention_flash(const float *Q, const float *K, const float *V, float *O, float *L,
                            int B, int H, int N, int d, float scale, int causal,
                            cudaStream_t stream)
{
    // TODO: check d (32, 64 or 128) and B, H, N >= 1; launch one block per query tile of each
    // TODO: (b, h) on `stream` and return cudaGetLastError().
    return MW_NOT_IMPLEMENTED;
}
