/* Exercise 05.3 (optional): flash attention forward in bf16 on the tensor
 * cores (mma.sync m16n8k16, bf16 in, FP32 accumulate), sm_80 and later.
 * Q, K, V and O are bf16, L is FP32; the rest is attention.h's, as in
 * 02_flash. An open challenge: a stub neither fails a check nor costs
 * points.
 *
 * The algorithm, in FlashAttention-2 notation. Q is cut into Tr = ceil(N / Br)
 * query tiles Q_i of Br rows, K and V into Tc = ceil(N / Bc) tiles K_j, V_j of
 * Bc rows. One block per (b, h, i); each warp owns Br / WARPS rows of Q_i:
 *
 *   m_i = -inf, l_i = 0, O_i = 0                        (registers)
 *   for j = 0 .. Tc - 1 (causal: only tiles with a key <= Q_i's last row)
 *       S_ij  = Q_i K_j^T                               (FP32, registers)
 *       m_new = max(m_i, rowmax(S_ij))
 *       P_ij  = 2^(c S_ij - c m_new),  c = |scale| log2(e)
 *       l_i   = 2^(c m_i - c m_new) l_i + rowsum(P_ij)  (FP32 P_ij)
 *       O_i   = 2^(c m_i - c m_new) O_i + bf16(P_ij) V_j
 *       m_i   = m_new
 *   O_i = bf16(O_i / l_i),  L_i = ln(2) (c m_i + log2(l_i))
 *
 * Budget. Bytes: Q, K, V read and O written once, 8 B H N d, plus L, 4 B H N,
 * as long as the K_j, V_j that neighbouring blocks re-read come from the L2:
 * 268 MB at B = 4, H = 16, N = 4096, d = 128 (134 MB at d = 64). FLOPs: the
 * two products, 2 N^2 d each per (b, h): 4 B H N^2 d, halved when causal:
 * 550 GFLOP at that shape and d = 128, about 2000 FLOP per byte, so the
 * tensor cores set the pace, not DRAM. Next to them: B H N^2 exponentials
 * (1.07e9 at that shape), one MUFU.EX2 each. Per 32 scores a warp issues
 * d / 32 mma.sync (2 d FMAs a score, 2048 per m16n8k16) and one MUFU.EX2
 * plus about 5 other softmax instructions (max, FMA, sum, half a bf16 pack,
 * masks in a few tiles). An SM does 16 exp2 a clock and, by the H100's
 * dense bf16 peak, about one m16n8k16 a clock (mma.sync reaches a part of
 * that): at d = 64 the exponentials take about as long as the products,
 * at d = 128 half as long. That is why d = 64 runs slower, in FA2 too.
 *
 * Design steps, each with why:
 *  - mma.sync m16n8k16 bf16 -> FP32: the tensor cores (FP32 FMAs top out near
 *    52 TFLOP/s on an H100, cuBLAS SGEMM; attention in bf16 runs near 300);
 *  - WARPS warps split Q_i by rows (MT = Br / (16 WARPS) m16 tiles each), so
 *    a row of S_ij lives in one quad of lanes: row max and row sum are two
 *    xor-shuffles, no shared memory, no barrier inside the softmax;
 *  - two m16 tiles per warp (4 warps x 32 rows, Br = 128) share every K_j and
 *    V_j fragment a warp loads: half the ldmatrix traffic of 8 warps x 16;
 *  - P_ij stays in registers: the C fragment of S_ij, packed by pairs into
 *    bf16x2, is the A fragment of P_ij V_j (layouts below), no round trip
 *    through shared memory;
 *  - ldmatrix.x4 loads four 8x8 fragments in one instruction; .trans gives
 *    V_j's B fragment straight from V_j's row-major tile;
 *  - shared tiles keep rows of d bf16 as 16-byte chunks stored at
 *    chunk ^ (row & 7) (d = 32, 4 chunks a row: chunk ^ ((row >> 1) & 3)): the
 *    8 row addresses of one ldmatrix phase hit 8 different 16-byte bank
 *    groups, conflict free, without padding;
 *  - cp.async 16-byte copies, double-buffered K_j, V_j: tile j + 1 flies
 *    during all of tile j's math, one barrier per tile;
 *  - Q_i fragments: in registers for d <= 64 (MT d / 4 = 32 registers at
 *    d = 64), read from shared memory per k-step at d = 128 (64 registers
 *    would not fit next to O_i's 128);
 *  - exp2 with c folded into one FMA (P = 2^(fma(S, c, -c m))), by
 *    ex2.approx.ftz: one MUFU.EX2 per score;
 *  - l_i stays a per-lane partial sum; the quad adds it up once, at the end;
 *  - the O_i rescale (MT d / 2 FMULs a lane, 128 at d = 128) is skipped by
 *    a warp vote when no row max of the warp moved, most tiles after the
 *    first few;
 *  - causal: tiles above the diagonal are skipped, masks only in tiles that
 *    cross the diagonal or N (a template flag: the bulk of tiles carry no
 *    mask code), 16-key chunks above a warp's last row skipped in both
 *    products, query tiles launched longest first;
 *  - grid: one 1-D grid over (head, tile) (B H may pass gridDim.y's 65535):
 *    G heads at a time (G = resident blocks / Tr), each group's tiles
 *    longest first, so that the K, V in flight (G heads) stay in the L2 and
 *    the short causal tiles fill the end;
 *  - O_i leaves through shared memory (the warp's own rows of the Q_i tile)
 *    as 16-byte row-contiguous stores, not 4-byte scattered ones.
 *
 * Fragment layouts (PTX ISA, mma.m16n8k16 .bf16; lane = 4 g + t, g = lane / 4,
 * t = lane % 4; a register holds two bf16, the lower column in the low half):
 *   A (16 x 16, row): a0 = (g, 2t..2t+1), a1 = (g+8, 2t..2t+1),
 *                     a2 = (g, 2t+8..2t+9), a3 = (g+8, 2t+8..2t+9)
 *   B (16 x 8, col):  b0 = (k 2t..2t+1, n g), b1 = (k 2t+8..2t+9, n g)
 *   C (16 x 8, FP32): c0, c1 = (g, 2t), (g, 2t+1); c2, c3 = (g+8, 2t), (g+8, 2t+1)
 *   ldmatrix x4: lanes 8i..8i+7 give the row addresses of matrix i; lane l
 *     receives, of each 8x8 matrix, (row l/4, cols 2(l%4), 2(l%4)+1), or with
 *     .trans (rows 2(l%4), 2(l%4)+1, col l/4).
 *   Q_i (A of S): row = lane % 16, chunk = 2 kd + lane / 16 -> a0..a3.
 *   K_j (B of S, non-trans, keys are n): key = lane % 8 + 8 (lane / 16),
 *     chunk = 2 kd + (lane / 8) % 2 -> b0, b1 of keys 0-7, b0, b1 of keys 8-15.
 *   V_j (B of PV, .trans, keys are k): key = lane % 16, chunk = 2 dp + lane / 16
 *     -> b0, b1 of columns 0-7, b0, b1 of columns 8-15.
 *   P_ij (A of PV) for keys 16 kc .. 16 kc + 15, from the C fragments of S's
 *     n-tiles 2 kc and 2 kc + 1: a0 = (s[2kc].c0, c1), a1 = (s[2kc].c2, c3),
 *     a2 = (s[2kc+1].c0, c1), a3 = (s[2kc+1].c2, c3).
 *
 * Special values. Keys past N, and when causal keys after the row, get
 * S = -inf by a select (never arithmetic), so P = 2^-inf = 0 even where
 * S_ij was NaN. Rows of K_j, V_j past the last key the block attends
 * (min(N, q0 + Br) when causal) are zero-filled by cp.async (src-size 0),
 * so they are finite and P = 0 times them is 0. A row with no finite score
 * yet subtracts 0, not -inf. A negative scale is applied by negating Q_i in
 * shared memory once (sign flips are exact), so c > 0 and max(S) is max(c S).
 *   The remaining hazard is P = 0 times a NaN (or inf) V row inside the mma:
 *   a key j that one row of a warp attends and another does not. Per m16
 *   tile of rows r0 .. r0 + 15 the 16-key chunks are aligned with the rows
 *   (q0, k0 are multiples of 16), so chunks above the tile's diagonal are
 *   skipped outright (not multiplied), chunks below are attended by all 16
 *   rows, and only the diagonal chunk, keys r0 .. r0 + 15, is mixed. So, in
 *   a causal tile crossing a warp's rows, the warp scans V_j's rows for the
 *   keys in (rw0, rw0 + rows of the warp) for a non-finite bf16 (one warp
 *   vote, 16 shared loads a lane at d = 128, once or twice per query tile).
 *   Finite: the mma is exact about zeros (0 * finite = 0), go fast. Not
 *   finite (rare in real data; the checks' NaN cases take this path): that
 *   warp does this tile's P_ij V_j in FP32 FMAs, adding key j to row i only
 *   when j <= i, by a select, with the same bf16 P_ij (shuffled from the
 *   lane that holds it). Rows that attend the NaN get NaN, rows that do not
 *   never touch it.
 *   A NaN in Q row i or an attended K row makes S, then P, l_i and O row i
 *   NaN (fmaxf skips NaN, so m_i stays a number; P carries the NaN).
 *
 * Configurations: Cfg<D, BR, BC, WARPS, QREG, MINB>, the table kVariants at
 * the end (the driver's --config NAME runs one). Shared memory is Br d + 4 Bc d
 * bf16 (Q_i, two K_j, two V_j); registers as ptxas 13.0 reports them for
 * sm_90a, all without spills; blocks per SM on an H100 (64K registers,
 * 228 KB of shared memory):
 *   name       D   Br  Bc  warps x rows  Q_i     smem   regs  blocks  warps/SM
 *   d32        32  128 64  4 x 32        regs    24 KB  197   2       8  default
 *   d64        64  128 64  4 x 32        regs    48 KB  240   2       8  default
 *   d64-bc32   64  128 32  4 x 32        regs    32 KB  209   2       8
 *   d64-w8     64  128 64  8 x 16        regs    48 KB  128   2      16
 *   d64-qsmem  64  128 64  4 x 32        shared  48 KB  221   2       8
 *   d128       128 128 64  4 x 32        shared  96 KB  255   2       8  default
 *   d128-bc32  128 128 32  4 x 32        shared  64 KB  249   2       8
 *   d128-w8    128 128 64  8 x 16        shared  96 KB  174   1       8
 * Register pressure sets these: at d = 128, 4 x 32, O_i alone is 128 FP32
 * registers a thread and S_ij 64 more at Bc = 64. It fits in 255 without
 * spills because of four choices, each of which removes spills: one 64-bit
 * base per tile copy (not one pointer per cp.async), the EDGE tiles in a
 * loop of their own, the k-loop of Q_i K_j^T rolled, and the O_i rescale
 * under a warp vote. Bc = 128 at d = 64 (FA2's choice, S_ij 128 registers)
 * spills 100 bytes: not listed.
 *
 * Needs: sm_80 (mma.sync with bf16, ldmatrix, cp.async)
 *
 * Check it:  make check CH=05 EX=03
 * Time it:  make bench CH=05 (measured: the lesson's "Results in bf16") */
#include "attention.h"

// TODO: one block per query tile Q_i of one (b, h), as in 02_flash, with the two products on the
// TODO: tensor cores: mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 (S_ij = Q_i K_j^T, then
// TODO: O_i += P_ij V_j with P_ij rounded to bf16), fragments loaded by ldmatrix (.trans for V_j),
// TODO: K_j and V_j double-buffered by cp.async, shared tiles swizzled against bank conflicts.
// TODO: Keys a row does not attend never touch it, even NaN ones: mask S by a select, and mind
// TODO: that an mma multiplies a masked P = 0 by a NaN V row. O_i / l_i leaves as bf16.

cudaError_t attention_flash_bf16(const mw05_bf16 *Q, const mw05_bf16 *K, const mw05_bf16 *V,
                                 mw05_bf16 *O, float *L, int B, int H, int N, int d,
                                 float scale, int causal, cudaStream_t stream)
{
    // TODO: check d (32, 64 or 128) and B, H, N >= 1; launch your kernel on `stream` and return
    // TODO: cudaGetLastError().
    return MW_NOT_IMPLEMENTED;
}
