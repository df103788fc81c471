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

// BEGIN SOLUTION
// TODO: one warpgroup per 64 query rows; Q_i, K_j, V_j loaded by cp.async.bulk.tensor (a tensor
// TODO: map from cuTensorMapEncodeTiled, reached through cudaGetDriverEntryPointByVersion) into
// TODO: 128-byte swizzled shared memory, completing on mbarriers; S_ij = Q_i K_j^T and
// TODO: O_i += bf16(P_ij) V_j by wgmma.mma_async; the online softmax of 05.3 on the accumulator
// TODO: fragment. Keys a row does not attend never touch it, even NaN ones.

#include <cuda.h>
#include <atomic>
#include <math.h>
#include <stdint.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef MW_GRADED
/* The graded build holds auto alone (chosen_kernel below): step 1's kernel
 * at d = 32 and 128 is then declared and never used. */
#pragma nv_diag_suppress 177
#endif

namespace {

constexpr float kLog2e = 1.4426950408889634f;
constexpr float kLn2 = 0.6931471805599453f;
/* log2 of the largest P a lazy softmax lets through (FlashAttention-4's 256) */
constexpr float kLazyBound = 8.f;
constexpr int BR = 64, BC = 64, THREADS = 128;

template <int D_> struct Cfg {
    static constexpr int D = D_;
    static constexpr int SW = D * 2 < 128 ? D * 2 : 128; /* swizzle span: bytes of a row */
    static constexpr int COLS = SW / 2;                  /* columns of a column block */
    static constexpr int CB = D / COLS;                  /* column blocks */
    static constexpr int TILE = 64 * D * 2;              /* bytes of a 64-row tile */
    static constexpr int BLOCK = 64 * SW;                /* bytes of one column block */
    static constexpr uint64_t LAYOUT = SW == 128 ? 1 : 2; /* descriptor: 128B or 64B swizzle */
    static constexpr int SMEM = 1024 + 5 * TILE;          /* Q_i, 2 K_j, 2 V_j, alignment */
    static_assert(D == 32 || D == 64 || D == 128, "head dimension");
};

/* ---- PTX wrappers ---------------------------------------------------------- */

__device__ __forceinline__ uint32_t smem_u32(const void *p)
{
    return (uint32_t)__cvta_generic_to_shared(p);
}

/* A shared-memory matrix descriptor: start address, leading and stride byte
 * offsets (all >> 4), swizzle mode in bits 62-63 (1: 128B, 2: 64B). */
__device__ __forceinline__ uint64_t desc(uint32_t addr, uint32_t lbo, uint32_t sbo, uint64_t layout)
{
    return (uint64_t)((addr & 0x3ffff) >> 4) | ((uint64_t)((lbo >> 4) & 0x3fff) << 16) |
           ((uint64_t)((sbo >> 4) & 0x3fff) << 32) | (layout << 62);
}

/* Descriptor d moved `bytes` further into shared memory: one 32-bit add to
 * the start address field (address / 16, bits 0-13), which never carries
 * out of it (shared memory ends below 256 KB). Step the k-slabs of a tile
 * this way, from one descriptor a tile, rather than building each. */
__device__ __forceinline__ uint64_t desc_at(uint64_t d, uint32_t bytes)
{
    return (d & 0xffffffff00000000ull) | (uint32_t)((uint32_t)d + (bytes >> 4));
}

__device__ __forceinline__ void wgmma_fence()
{
    asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
}

__device__ __forceinline__ void mbar_init(uint32_t bar, int count)
{
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(bar), "r"(count) : "memory");
}

__device__ __forceinline__ void mbar_expect_tx(uint32_t bar, uint32_t bytes)
{
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;\n" ::"r"(bar), "r"(bytes)
                 : "memory");
}

/* Waits until the mbarrier's phase `parity` has completed. */
__device__ __forceinline__ void mbar_wait(uint32_t bar, uint32_t parity)
{
    asm volatile("{\n.reg .pred done;\nwait_%=:\n"
                 "mbarrier.try_wait.parity.shared::cta.b64 done, [%0], %1;\n"
                 "@!done bra wait_%=;\n}\n" ::"r"(bar),
                 "r"(parity)
                 : "memory");
}

/* One box of the tensor map: columns x0 .., rows y0 .., head z, into dst. */
__device__ __forceinline__ void tma_load(uint32_t dst, const CUtensorMap *map, int x0, int y0,
                                         int z, uint32_t bar)
{
    asm volatile("cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
                 " [%0], [%1, {%2, %3, %4}], [%5];\n" ::"r"(dst),
                 "l"(reinterpret_cast<uint64_t>(map)), "r"(x0), "r"(y0), "r"(z), "r"(bar)
                 : "memory");
}

/* A 64-row tile (all its column blocks) of rows y0 .. of head z. */
template <class C>
__device__ __forceinline__ void load_tile(uint32_t dst, const CUtensorMap *map, int y0, int z,
                                          uint32_t bar)
{
#pragma unroll
    for (int cb = 0; cb < C::CB; cb++)
        tma_load(dst + cb * C::BLOCK, map, cb * C::COLS, y0, z, bar);
}

__device__ __forceinline__ float ex2(float x)
{
    float y;
    asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
    return y;
}

__device__ __forceinline__ uint32_t pack_bf16(float lo, float hi)
{
    const __nv_bfloat162 v = __floats2bfloat162_rn(lo, hi);
    return *reinterpret_cast<const uint32_t *>(&v);
}

__device__ __forceinline__ float bf16_half(uint32_t u, int hi)
{
    return __uint_as_float(hi ? (u & 0xffff0000u) : (u << 16));
}

__device__ __forceinline__ bool nonfinite2(uint32_t w)
{
    return (w & 0x7f80u) == 0x7f80u || (w & 0x7f800000u) == 0x7f800000u;
}

/* ---- wgmma, one wrapper per N ----------------------------------------------- */

/* The accumulator as operands: "+f" for d[b] .. d[b + 15]; and the names of
 * the first 16, 32 or 64 operands, the instruction's D list. */
#define MW_ACC4(d, b) "+f"(d[b]), "+f"(d[b + 1]), "+f"(d[b + 2]), "+f"(d[b + 3])
#define MW_ACC16(d, b) MW_ACC4(d, b), MW_ACC4(d, b + 4), MW_ACC4(d, b + 8), MW_ACC4(d, b + 12)
#define MW_D16 "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15"
#define MW_D32 MW_D16 ", %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, " \
                      "%30, %31"
#define MW_D64 MW_D32 ", %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, " \
                      "%46, %47, %48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, "   \
                      "%60, %61, %62, %63"
#define MW_D88 MW_D64 ", %64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, " \
                      "%78, %79, %80, %81, %82, %83, %84, %85, %86, %87"

#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || !defined(__CUDA_ARCH__)
/* d += A B, m64nNk16 (N = 32, 64, 128: d holds N / 2 a thread): A from
 * registers (four bf16x2 a thread), B from shared memory MN-major
 * (imm-trans-b = 1). */
__device__ __forceinline__ void wgmma_rs(float (&d)[16], const uint32_t (&a)[4], uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %21, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n32k16.f32.bf16.bf16 {" MW_D16 "}, "
                 "{%16, %17, %18, %19}, %20, p, 1, 1, 1;\n}\n"
                 : MW_ACC16(d, 0)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(1));
}

__device__ __forceinline__ void wgmma_rs(float (&d)[32], const uint32_t (&a)[4], uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %37, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {" MW_D32 "}, "
                 "{%32, %33, %34, %35}, %36, p, 1, 1, 1;\n}\n"
                 : MW_ACC16(d, 0), MW_ACC16(d, 16)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(1));
}

__device__ __forceinline__ void wgmma_rs(float (&d)[64], const uint32_t (&a)[4], uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {" MW_D64 "}, "
                 "{%64, %65, %66, %67}, %68, p, 1, 1, 1;\n}\n"
                 : MW_ACC16(d, 0), MW_ACC16(d, 16), MW_ACC16(d, 32), MW_ACC16(d, 48)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(1));
}

/* d = A B + (scale_d ? d : 0), m64nNk16 (N = 64, 128, 176): A and B from
 * shared memory (descriptors), both K-major. */
__device__ __forceinline__ void wgmma_ss(float (&d)[32], uint64_t da, uint64_t db, int scale_d)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n64k16.f32.bf16.bf16 {" MW_D32 "}, "
                 "%32, %33, p, 1, 1, 0, 0;\n}\n"
                 : MW_ACC16(d, 0), MW_ACC16(d, 16)
                 : "l"(da), "l"(db), "r"(scale_d));
}

__device__ __forceinline__ void wgmma_ss(float (&d)[64], uint64_t da, uint64_t db, int scale_d)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {" MW_D64 "}, "
                 "%64, %65, p, 1, 1, 0, 0;\n}\n"
                 : MW_ACC16(d, 0), MW_ACC16(d, 16), MW_ACC16(d, 32), MW_ACC16(d, 48)
                 : "l"(da), "l"(db), "r"(scale_d));
}

__device__ __forceinline__ void wgmma_ss(float (&d)[88], uint64_t da, uint64_t db, int scale_d)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %90, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n176k16.f32.bf16.bf16 {" MW_D88 "}, "
                 "%88, %89, p, 1, 1, 0, 0;\n}\n"
                 : MW_ACC16(d, 0), MW_ACC16(d, 16), MW_ACC16(d, 32), MW_ACC16(d, 48),
                   MW_ACC16(d, 64), MW_ACC4(d, 80), MW_ACC4(d, 84)
                 : "l"(da), "l"(db), "r"(scale_d));
}

__device__ __forceinline__ void wgmma_commit()
{
    asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
}

/* Waits until at most PENDING committed groups are in flight; the "+f"
 * operands keep the compiler from touching d (the accumulator of the group
 * waited for) before the wait. */
template <int PENDING, int K> __device__ __forceinline__ void wgmma_wait_pending(float (&d)[K])
{
    asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(PENDING) : "memory");
#pragma unroll
    for (int i = 0; i < K; i++)
        asm volatile("" : "+f"(d[i])::"memory");
}

/* Commits the wgmma issued so far and waits for all of them. */
template <int K> __device__ __forceinline__ void wgmma_wait(float (&d)[K])
{
    wgmma_commit();
    wgmma_wait_pending<0>(d);
}

#endif
#undef MW_ACC4
#undef MW_ACC16
#undef MW_D16
#undef MW_D32
#undef MW_D64
#undef MW_D88

/* ---- the kernel -------------------------------------------------------------- */

/* Adds P_ij V_j in FP32 FMAs, key by key, only where key <= row (causal):
 * for a V_j tile of NK keys with a non-finite value in a tile that crosses
 * the diagonal. P comes from the lane of the quad that holds it, as bf16,
 * the value the wgmma would have used. */
template <class C, int NK>
__device__ void pv_guarded(float (&o)[C::D / 2], const uint32_t (&pa)[NK / 16][4],
                           const unsigned char *vtile, int k0, int row0, int lane)
{
    const int g = lane >> 2, t = lane & 3;
#pragma unroll
    for (int kc = 0; kc < NK / 16; kc++)
#pragma unroll 1
        for (int kk16 = 0; kk16 < 16; kk16++) {
            const int kk = 16 * kc + kk16, src = 4 * g + ((kk16 & 7) >> 1);
            const uint32_t u0 = kk16 >= 8 ? pa[kc][2] : pa[kc][0];
            const uint32_t u1 = kk16 >= 8 ? pa[kc][3] : pa[kc][1];
            const float p0 = bf16_half(__shfl_sync(0xffffffffu, u0, src), kk & 1);
            const float p1 = bf16_half(__shfl_sync(0xffffffffu, u1, src), kk & 1);
            const int key = k0 + kk;
            const bool ok0 = key <= row0, ok1 = key <= row0 + 8;
            const int sw = C::SW == 128 ? (kk & 7) : ((kk >> 1) & 3);
#pragma unroll
            for (int c = 0; c < C::D / 8; c++) {
                const int byte = (8 * c + 2 * t) * 2, cb = byte / C::SW, inrow = byte % C::SW;
                const int chunk = ((inrow >> 4) ^ sw) << 4;
                const uint32_t vv = *reinterpret_cast<const uint32_t *>(
                    vtile + cb * NK * C::SW + kk * C::SW + (chunk | (inrow & 15)));
                const float v0 = bf16_half(vv, 0), v1 = bf16_half(vv, 1);
                if (ok0) {
                    o[4 * c + 0] = fmaf(p0, v0, o[4 * c + 0]);
                    o[4 * c + 1] = fmaf(p0, v1, o[4 * c + 1]);
                }
                if (ok1) {
                    o[4 * c + 2] = fmaf(p1, v0, o[4 * c + 2]);
                    o[4 * c + 3] = fmaf(p1, v1, o[4 * c + 3]);
                }
            }
        }
}

/* ---- pieces both kernels use ---------------------------------------------------- */

#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || !defined(__CUDA_ARCH__)
/* Issues S_ij = Q_i K_j^T into s, not waited: k-step kd reads columns
 * 16 kd .. of both tiles; the first overwrites s (scale-d = 0). Q_i's
 * column blocks hold 64 rows, K_j's NK. */
template <class C, int NK>
__device__ __forceinline__ void issue_qk(float (&s)[NK / 2], uint32_t sQ, uint32_t sK)
{
    const uint64_t dq = desc(sQ, 16, 8 * C::SW, C::LAYOUT), dk = desc(sK, 16, 8 * C::SW, C::LAYOUT);
    wgmma_fence();
#pragma unroll
    for (int kd = 0; kd < C::D / 16; kd++) {
        const uint32_t cb = (kd * 32) / C::SW, inrow = (kd * 32) % C::SW;
        wgmma_ss(s, desc_at(dq, cb * C::BLOCK + inrow), desc_at(dk, cb * NK * C::SW + inrow),
                 kd > 0);
    }
}

/* Issues O_i += P_ij V_j, not waited: k-step kc reads keys 16 kc .. of V_j,
 * whose column blocks (NK keys each) are NK SW bytes apart. */
template <class C, int NK>
__device__ __forceinline__ void issue_pv(float (&o)[C::D / 2], const uint32_t (&pa)[NK / 16][4],
                                         uint32_t sV)
{
    const uint64_t dv = desc(sV, NK * C::SW, 8 * C::SW, C::LAYOUT);
    wgmma_fence();
#pragma unroll
    for (int kc = 0; kc < NK / 16; kc++)
        wgmma_rs(o, pa[kc], desc_at(dv, kc * 16 * C::SW));
}

#endif

/* The online softmax of one tile of NK keys on the accumulator fragment, in
 * place: register 4 cc + e of s is row row0 + 8 (e / 2), key k0 + 8 cc +
 * 2 t + e % 2. cp = |scale| log2(e) >= 0 (a negative scale has been moved
 * into Q_i: flip_q), so scores are x = cp S and P = 2^(x - mu). s leaves as
 * P, 0 where masked; m and l move to the new maximum, and alpha is the
 * factor O needs before P V is added to it.
 * MASK = false, for a tile the caller knows needs no key tests (every key
 * < N, none past a causal row; most tiles): the maximum of x is cp times
 * the maximum of S (cp >= 0, rounding is monotonic), and P is one FFMA and
 * one ex2 an element. MASK = true: x = cp S first, -inf where masked, then
 * P = 2^(x - mu), so that a masked key is 0 whatever cp is (-inf 0 would
 * be a NaN). */
template <int NK, bool MASK, bool LAZY>
__device__ __forceinline__ bool softmax_tile(float (&s)[NK / 2], float (&m)[2], float (&l)[2],
                                             float (&alpha)[2], int k0, int row0, int N,
                                             int causal, float cp, int t)
{
    /* two running maxima a row: half the length of the dependent chain */
    float mx[2][2] = {{-INFINITY, -INFINITY}, {-INFINITY, -INFINITY}};
#pragma unroll
    for (int i = 0; i < NK / 2; i++) {
        const int r = (i >> 1) & 1;
        if (MASK) {
            const int key = k0 + 8 * (i >> 2) + 2 * t + (i & 1);
            s[i] = key < N && (!causal || key <= row0 + 8 * r) ? s[i] * cp : -INFINITY;
        }
        mx[r][(i >> 2) & 1] = fmaxf(mx[r][(i >> 2) & 1], s[i]);
    }
    float mu[2], x[2];
    bool grow = false;
#pragma unroll
    for (int r = 0; r < 2; r++) {
        x[r] = fmaxf(mx[r][0], mx[r][1]);
        x[r] = fmaxf(x[r], __shfl_xor_sync(0xffffffffu, x[r], 1));
        x[r] = fmaxf(x[r], __shfl_xor_sync(0xffffffffu, x[r], 2));
        if (!MASK)
            x[r] = x[r] == -INFINITY ? -INFINITY : x[r] * cp; /* cp = 0: -inf, not a NaN */
        grow |= x[r] > m[r] + kLazyBound; /* m = -inf: any finite x */
    }
    /* LAZY: the warp keeps its maxima unless a row's grows by more than
     * kLazyBound; P is then up to 2^kLazyBound, exact enough in bf16 and
     * FP32, and O and l need no rescale (the caller skips it). */
    const bool moved = !LAZY || __any_sync(0xffffffffu, grow);
#pragma unroll
    for (int r = 0; r < 2; r++) {
        const float mn = moved ? fmaxf(m[r], x[r]) : m[r];
        mu[r] = mn == -INFINITY ? 0.f : mn; /* no finite score yet: subtract 0 */
        alpha[r] = moved ? ex2(m[r] - mu[r]) : 1.f; /* m = -inf: 0 */
        m[r] = mn;
        l[r] *= alpha[r];
    }
#pragma unroll
    for (int i = 0; i < NK / 2; i += 2) {
        const int r = (i >> 1) & 1;
        s[i] = ex2(MASK ? s[i] - mu[r] : fmaf(s[i], cp, -mu[r]));
        s[i + 1] = ex2(MASK ? s[i + 1] - mu[r] : fmaf(s[i + 1], cp, -mu[r]));
        l[r] += s[i] + s[i + 1];
    }
    return moved;
}

/* A negative scale goes into Q_i: with Q_i's signs flipped (exact in
 * bf16), S = Q_i K_j^T comes out negated and scale S = |scale| (-S). The
 * threads [tid, n) of the rows' warps flip their tile in shared memory; the
 * tensor cores read it next, so each writer fences the async proxy before
 * the caller's barrier. */
__device__ __forceinline__ void flip_q(unsigned char *tile, int bytes, int tid, int n)
{
    uint4 *w = reinterpret_cast<uint4 *>(tile);
    for (int i = tid; i < bytes / 16; i += n) {
        uint4 v = w[i];
        v.x ^= 0x80008000u, v.y ^= 0x80008000u, v.z ^= 0x80008000u, v.w ^= 0x80008000u;
        w[i] = v;
    }
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
}

/* softmax_tile with the key tests only where a tile needs them: a tile
 * reaching past N, or (causal) past the first row rowmin of the rows that
 * share the tile. Uniform over those rows' warps. */
template <int NK, bool LAZY = false>
__device__ __forceinline__ bool softmax_any(float (&s)[NK / 2], float (&m)[2], float (&l)[2],
                                            float (&alpha)[2], int k0, int row0, int rowmin,
                                            int N, int causal, float cp, int t)
{
    if (k0 + NK > N || (causal && k0 + NK - 1 > rowmin))
        return softmax_tile<NK, true, LAZY>(s, m, l, alpha, k0, row0, N, causal, cp, t);
    return softmax_tile<NK, false, LAZY>(s, m, l, alpha, k0, row0, N, causal, cp, t);
}

/* P as the A operand's register fragment: chunk cc = i / 4 of the
 * accumulator is key chunk kc = cc / 2, half cc % 2: a0/a1 or a2/a3. */
template <int NK>
__device__ __forceinline__ void pack_p(const float (&p)[NK / 2], uint32_t (&pa)[NK / 16][4])
{
#pragma unroll
    for (int i = 0; i < NK / 2; i += 2)
        pa[i >> 3][((i >> 2) & 1) * 2 + ((i >> 1) & 1)] = pack_bf16(p[i], p[i + 1]);
}

template <class C>
__device__ __forceinline__ void scale_o(float (&o)[C::D / 2], const float (&alpha)[2])
{
#pragma unroll
    for (int i = 0; i < C::D / 2; i++)
        o[i] *= alpha[(i >> 1) & 1];
}

/* Whether this thread's share of a tile of `bytes` bytes (16-byte words
 * tid, tid + n, ...) holds a non-finite value; the callers OR it over the
 * threads that share the tile's math. */
__device__ __forceinline__ bool tile_nonfinite_part(const unsigned char *tile, int bytes, int tid,
                                                    int n)
{
    bool bad = false;
    const uint4 *vw = reinterpret_cast<const uint4 *>(tile);
    for (int i = tid; i < bytes / 16; i += n) {
        const uint4 w = vw[i];
        bad |= nonfinite2(w.x) || nonfinite2(w.y) || nonfinite2(w.z) || nonfinite2(w.w);
    }
    return bad;
}

/* Epilogue: l summed over the quad, L, O / l as bf16 pairs; rows past N
 * are not written. */
template <class C>
__device__ __forceinline__ void store_rows(const float (&o)[C::D / 2], const float (&m)[2],
                                           const float (&l)[2], __nv_bfloat16 *__restrict__ O,
                                           float *__restrict__ L, size_t base, int row0, int N,
                                           int t)
{
#pragma unroll
    for (int r = 0; r < 2; r++) {
        float lt = l[r];
        lt += __shfl_xor_sync(0xffffffffu, lt, 1);
        lt += __shfl_xor_sync(0xffffffffu, lt, 2);
        const float inv = 1.f / lt;
        const int row = row0 + 8 * r;
        if (row >= N)
            continue;
        if (t == 0)
            L[base + row] = ((m[r] == -INFINITY ? 0.f : m[r]) + log2f(lt)) * kLn2;
        __nv_bfloat16 *orow = O + (base + row) * C::D;
#pragma unroll
        for (int cc = 0; cc < C::D / 8; cc++)
            *reinterpret_cast<uint32_t *>(orow + 8 * cc + 2 * t) =
                pack_bf16(o[4 * cc + 2 * r] * inv, o[4 * cc + 2 * r + 1] * inv);
    }
}

/* Tile b's head bh and query tile qt, of the B H Tr tiles of a call,
 * whose heads fall into `groups` consecutive groups of B H / groups heads or
 * one more (the larger first). A group's blocks come tile by tile, the
 * longest causal tiles first, its heads interleaved within each tile: the
 * GPU starts blocks roughly in index order, so the shortest tiles of the
 * last group fill the SMs at the end (longest job first), while the K and
 * V in flight are those of one group, which the launcher sizes to the L2
 * (head_groups). groups = B H is plain head-major order, each head's tiles
 * longest first. FOLD (persistent blocks, which the GPU does not start in
 * index order but which take their tiles round by round, round_tile):
 * each group's list folded, longest, shortest, second longest, second
 * shortest..., so that a block taking every other tile of it runs, in two
 * rounds, a long causal tile and a short one whose key tiles add up to
 * about the same for every block. */
struct BlockTile {
    int bh, qt;
};
template <bool FOLD = false>
__device__ __forceinline__ BlockTile block_tile(int b, int BH, int Tr, int groups)
{
    const int q = BH / groups, r = BH % groups;
    const int big = r * (q + 1) * Tr; /* the blocks of the r groups of q + 1 heads */
    const int gh = b < big ? q + 1 : q;
    /* Past the large groups, b - r Tr counts blocks as if every group
     * before b had q heads; the r large ones add a head each. */
    const int h0 = b < big ? b / (gh * Tr) * gh : r + (b - r * Tr) / (gh * Tr) * gh;
    int idx = b - h0 * Tr;
    if (FOLD) /* position idx of the group's gh Tr tiles: from the front or the back */
        idx = idx & 1 ? gh * Tr - 1 - (idx >> 1) : idx >> 1;
    return {h0 + idx % gh, Tr - 1 - idx / gh};
}

/* One block (one warpgroup) per (b, h, query tile of 64 rows), in
 * block_tile's order. c = scale log2(e), signed: scores are x = c S,
 * P = 2^(x - max x). */
template <class C>
__global__ void __launch_bounds__(THREADS, 1)
    flash_wgmma_kernel(const __grid_constant__ CUtensorMap mq,
                       const __grid_constant__ CUtensorMap mk,
                       const __grid_constant__ CUtensorMap mv, __nv_bfloat16 *__restrict__ O,
                       float *__restrict__ L, int N, int BH, int Tr, int groups, float c,
                       int causal)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    extern __shared__ unsigned char smem_raw[];
    __shared__ __align__(8) uint64_t bars[3]; /* Q_i; K_j, V_j of stage 0 and 1 */
    /* The swizzle pattern is a function of the address bits 4-9: tiles start
     * on 1024-byte boundaries so that TMA and wgmma agree on it. */
    unsigned char *smem = reinterpret_cast<unsigned char *>(
        (reinterpret_cast<uintptr_t>(smem_raw) + 1023) & ~(uintptr_t)1023);
    const uint32_t sQ = smem_u32(smem), sK = sQ + C::TILE, sV = sK + 2 * C::TILE;
    const uint32_t barQ = smem_u32(&bars[0]), barKV = smem_u32(&bars[1]);
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31, g = lane >> 2, t = lane & 3;

    const BlockTile tile = block_tile((int)blockIdx.x, BH, Tr, groups);
    const int bh = tile.bh, qt = tile.qt;
    const int q0 = qt * BR;
    const int kv_end = causal ? min(N, q0 + BR) : N;
    const int Tc = (kv_end + BC - 1) / BC;
    constexpr uint32_t KV_TX = 2 * C::TILE;

    if (tid == 0) {
        mbar_init(barQ, 1);
        mbar_init(barKV, 1);
        mbar_init(barKV + 8, 1);
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    }
    __syncthreads();
    if (tid == 0) {
        mbar_expect_tx(barQ, C::TILE);
        load_tile<C>(sQ, &mq, q0, bh, barQ);
        for (int s = 0; s < 2 && s < Tc; s++) {
            mbar_expect_tx(barKV + 8 * s, KV_TX);
            load_tile<C>(sK + s * C::TILE, &mk, s * BC, bh, barKV + 8 * s);
            load_tile<C>(sV + s * C::TILE, &mv, s * BC, bh, barKV + 8 * s);
        }
    }

    const int row0 = q0 + 16 * warp + g; /* this thread's rows: row0, row0 + 8 */
    float o[C::D / 2], m[2] = {-INFINITY, -INFINITY}, l[2] = {0.f, 0.f};
#pragma unroll
    for (int i = 0; i < C::D / 2; i++)
        o[i] = 0.f;

    mbar_wait(barQ, 0);
    const float cp = fabsf(c);
    if (c < 0) {
        flip_q(smem, C::TILE, tid, THREADS);
        __syncthreads();
    }
    for (int j = 0; j < Tc; j++) {
        const int st = j & 1, k0 = j * BC;
        const uint32_t sKj = sK + st * C::TILE, sVj = sV + st * C::TILE;
        mbar_wait(barKV + 8 * st, (j >> 1) & 1);

        float s[BC / 2], alpha[2];
        uint32_t pa[BC / 16][4];
        issue_qk<C, BC>(s, sQ, sKj);
        wgmma_wait(s);
        softmax_any<BC>(s, m, l, alpha, k0, row0, q0, N, causal, cp, t);
        pack_p<BC>(s, pa);
        scale_o<C>(o, alpha);

        /* A causal tile with keys past the block's first row: P = 0 where a
         * row does not attend, which the tensor core multiplies by V anyway. */
        bool guarded = false;
        if (causal && k0 + BC - 1 > q0) {
            const bool bad = tile_nonfinite_part(smem + (sVj - sQ), C::TILE, tid, THREADS);
            guarded = __syncthreads_or(bad) != 0;
        }
        if (guarded) {
            pv_guarded<C, BC>(o, pa, smem + (sVj - sQ), k0, row0, lane);
        } else {
            issue_pv<C, BC>(o, pa, sVj);
            wgmma_wait(o);
        }

        /* Everyone is done with stage st: refill it with tile j + 2. The
         * proxy fence orders this block's ordinary reads of V_j (the guard
         * above) before the TMA's writes. */
        __syncthreads();
        if (tid == 0 && j + 2 < Tc) {
            asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
            mbar_expect_tx(barKV + 8 * st, KV_TX);
            load_tile<C>(sKj, &mk, k0 + 2 * BC, bh, barKV + 8 * st);
            load_tile<C>(sVj, &mv, k0 + 2 * BC, bh, barKV + 8 * st);
        }
    }

    store_rows<C>(o, m, l, O, L, (size_t)bh * (size_t)N, row0, N, t);
#else
    (void)N, (void)BH, (void)Tr, (void)groups, (void)c, (void)causal, (void)O, (void)L;
#endif
}

/* ---- step 2: warp specialisation and FA3's two schedules ------------------------ */

/* A block of three warpgroups per (b, h, query tile of 128 rows): warpgroup 0
 * produces (one thread issues every TMA load), warpgroups 1 and 2 consume,
 * 64 query rows each. K_j and V_j (NK keys a tile) flow through two rings
 * of stages, each stage with a "full" mbarrier (the producer's expect_tx,
 * completed by the TMA's bytes) and an "empty" one (each consumer warp
 * arrives after its last read of the stage). K and V have rings of their
 * own because they are done with at different times: K_j once S_j is
 * computed, V_j once P_j V_j is, a whole slot later under the overlap. With
 * one ring for both, K_{j+1} would wait for P_{j-1} V_{j-1}, and with two
 * stages it would arrive only as it is needed. */
constexpr int WS_NK = 128, WS_NK_WIDE = 176, WS_MAX_STAGES = 3, WS_PRODUCER_REGS = 24;

/* A block's team: a producer warpgroup and NC consumers of 64 rows. The
 * block holds 128 (NC + 1) x (65536 / (128 (NC + 1))) registers at launch
 * (the cap of __launch_bounds__(THREADS, 1): 168 for NC = 2, 128 for 3);
 * setmaxnreg moves them from the producer to the consumers: 128 x 24 +
 * 256 x 240 = 384 x 168, and 128 x 24 + 384 x 160 <= 512 x 128. */
template <int NC> struct WsTeam {
    static constexpr int BR = 64 * NC, THREADS = 128 * (NC + 1);
    static constexpr int EMPTY_ARRIVALS = 4 * NC; /* one a consumer warp */
    static constexpr int CONSUMER_REGS = NC == 2 ? 240 : 160;
    static_assert(NC == 2 || NC == 3, "consumer warpgroups");
};
/* Named barriers (0 is __syncthreads): consumer w waits for its turn at the
 * tensor cores on TURN_BAR + w; WG_BAR + w is its own reductions. */
constexpr int TURN_BAR = 1, WG_BAR = TURN_BAR + 3;
constexpr int SMEM_LIMIT = 227 * 1024; /* a block's dynamic shared memory on sm_90 */

/* Key tiles of NK = 128 halve the softmax's row reductions, barriers and
 * rescales of O per key against NK = 64, and S's wgmma grows to m64n128.
 * K_j and V_j tiles hold NK rows in each column block (a 128-key box of the
 * tensor map per column block), so a descriptor steps through them as
 * through step 1's 64-row tiles. */
template <class C, int NK, int NC> struct WsCfg {
    static constexpr int KV_TILE = NK * C::D * 2;  /* bytes of a K_j or V_j tile */
    /* The zero tile, for the guarded path of causal calls; the wide key
     * tiles serve non-causal calls alone (the launcher's choice), and
     * their two rings fill shared memory without it. */
    static constexpr bool CAUSAL = NK <= WS_NK;
    static constexpr int ZERO = CAUSAL ? KV_TILE : 0;
    static constexpr int bytes(int stages, int q_stages)
    {
        return 1024 + q_stages * NC * C::TILE + 2 * stages * KV_TILE + ZERO;
    }
    /* Three stages where they fit; at d = 128 with NK = 128 they would take
     * 257 KB of the 227, so two. */
    static constexpr int STAGES = bytes(WS_MAX_STAGES, 1) <= SMEM_LIMIT ? WS_MAX_STAGES : 2;
    /* A persistent block's Q in two stages where they fit (the next tile's
     * Q lands during this one's), else one (the next Q starts once this
     * tile's last S is computed): two at d = 64 and at d = 128 with a
     * mask; the wide key tiles leave no room. */
    static constexpr int Q_STAGES = bytes(STAGES, 2) <= SMEM_LIMIT ? 2 : 1;
    static constexpr int smem(bool persist) { return bytes(STAGES, persist ? Q_STAGES : 1); }
    static_assert(smem(true) <= SMEM_LIMIT, "shared memory");
};

__device__ __forceinline__ void mbar_arrive(uint32_t bar)
{
    asm volatile("mbarrier.arrive.shared::cta.b64 _, [%0];\n" ::"r"(bar) : "memory");
}

/* A ring of STAGES tiles, `bytes` each from `base`, with its full[] and
 * empty[] mbarriers (8 bytes apart). Tile j sits in stage j % STAGES, as
 * that stage's use u = j / STAGES. Every wait takes its parity from u: the
 * "full" phase of use u has parity u & 1; refilling a stage for use u waits
 * for the "empty" phase of use u - 1, parity (u - 1) & 1. */
template <int STAGES> struct Ring {
    uint32_t base, bytes, full, empty;
    int arrivals; /* on empty[]: one a consumer warp */

    __device__ __forceinline__ uint32_t tile(int j) const { return base + (j % STAGES) * bytes; }
    __device__ __forceinline__ uint32_t full_bar(int j) const { return full + 8 * (j % STAGES); }
    __device__ __forceinline__ uint32_t use_parity(int j) const { return (j / STAGES) & 1u; }

    __device__ __forceinline__ void init() const
    {
        for (int s = 0; s < STAGES; s++) {
            mbar_init(full + 8 * s, 1);
            mbar_init(empty + 8 * s, arrivals);
        }
    }
    /* Producer: before filling tile j's stage, wait until the consumers
     * released tile j - STAGES; the proxy fence orders their ordinary reads
     * of it (the guard's) before the TMA's writes. */
    __device__ __forceinline__ void wait_empty(int j) const
    {
        if (j < STAGES)
            return;
        mbar_wait(empty + 8 * (j % STAGES), use_parity(j) ^ 1u);
        asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    }
    /* Producer: key rows k0 .. k0 + NK - 1 of head bh as the ring's tile
     * j, one box of NK rows a column block, once the stage is free. */
    template <class C, int NK>
    __device__ __forceinline__ void fill(int j, const CUtensorMap *map, int k0, int bh) const
    {
        wait_empty(j);
        mbar_expect_tx(full_bar(j), bytes);
#pragma unroll
        for (int cb = 0; cb < C::CB; cb++)
            tma_load(tile(j) + cb * NK * C::SW, map, cb * C::COLS, k0, bh, full_bar(j));
    }
    __device__ __forceinline__ void wait_full(int j) const
    {
        mbar_wait(full_bar(j), use_parity(j));
    }
    /* A consumer warp gives tile j back: one arrival a warp, after every
     * lane's reads (the FP32 path's ordinary loads; the tensor cores' reads
     * are done once wgmma.wait_group returns). */
    __device__ __forceinline__ void release(int j, int lane) const
    {
        __syncwarp();
        if (lane == 0)
            mbar_arrive(empty + 8 * (j % STAGES));
    }
};

__device__ __forceinline__ void bar_sync(int id, int threads)
{
    asm volatile("bar.sync %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

__device__ __forceinline__ void bar_arrive(int id, int threads)
{
    asm volatile("bar.arrive %0, %1;\n" ::"r"(id), "r"(threads) : "memory");
}

/* OR of v over the `threads` threads at barrier id, as lane 0 has it (warp-uniform to ptxas). */
__device__ __forceinline__ bool bar_any(bool v, int id, int threads)
{
    uint32_t r;
    asm volatile("{\n.reg .pred p, q;\nsetp.ne.b32 p, %1, 0;\n"
                 "bar.red.or.pred q, %2, %3, p;\nselp.u32 %0, 1, 0, q;\n}\n"
                 : "=r"(r)
                 : "r"((uint32_t)v), "r"(id), "r"(threads)
                 : "memory");
    return __shfl_sync(0xffffffffu, r, 0) != 0;
}

/* Ping-pong: the NC consumers take turns at issuing their GEMMs, in a
 * ring, so that each one's softmax runs while the others' products occupy
 * the tensor cores. Consumer w waits on TURN_BAR + w and, its GEMMs issued,
 * lets w + 1 (mod NC) go; the last consumer opens (start) and does not
 * pass the turn after its last slot, so every arrival is matched by a
 * wait. A barrier is one consumer's wait and the one before it's arrival:
 * 256 threads. */
template <bool PINGPONG, int NC> struct Turns {
    int w;
    __device__ __forceinline__ void start() const
    {
        if (PINGPONG && w == NC - 1)
            bar_arrive(TURN_BAR, 256);
    }
    __device__ __forceinline__ void begin() const
    {
        if (PINGPONG)
            bar_sync(TURN_BAR + w, 256);
    }
    __device__ __forceinline__ void end(bool last) const
    {
        if (PINGPONG && !(last && w == NC - 1))
            bar_arrive(TURN_BAR + (w + 1) % NC, 256);
    }
};

/* Whether a consumer's P V of a tile must take the FP32 path: a causal tile
 * with keys past the consumer's first row q0w, whose V holds a non-finite
 * value (05.3's rule; both kernels' reason in pv_guarded). Uniform over the
 * warpgroup: its 128 threads scan the tile and OR on named barrier id. */
template <class C, int NK, int NC>
__device__ __forceinline__ bool ws_guarded(const unsigned char *vtile, int k0, int q0w, int causal,
                                           int ct, int id)
{
    if (!causal || k0 + NK - 1 <= q0w)
        return false;
    return bar_any(tile_nonfinite_part(vtile, WsCfg<C, NK, NC>::KV_TILE, ct, 128), id, 128);
}

/* The tile a block runs in its round `it`: one block a tile (a grid of B H
 * Tr), round 0 alone; PERSIST, a grid of as many blocks as the SMs hold,
 * each taking tile it G + k in its even rounds and it G + G - 1 - k in
 * its odd ones (block k of G): a snake through block_tile's folded order,
 * in which a block's tiles alternate between the two ends of a group's
 * list, whatever the parity of G. Past the last tile: -1. */
template <bool PERSIST> __device__ __forceinline__ int round_tile(int it, int tiles)
{
    /* unsigned: it G + G - 1 - k stays below 2 tiles + G, under 2^32 */
    const unsigned G = gridDim.x, k = blockIdx.x, u = (unsigned)it;
    const unsigned b = PERSIST ? u * G + (u & 1 ? G - 1 - k : k) : (u == 0 ? k : (unsigned)tiles);
    return b < (unsigned)tiles ? (int)b : -1;
}

/* One block per (b, h, query tile of 64 NC rows), in block_tile's order as
 * step 1; key tiles of NK. PINGPONG: the consumers take turns at the tensor
 * cores (Turns), so each runs every tile of the block (past its rows a
 * causal tile is all -inf, P = 0) and their turns match. OVERLAP: slot j
 * issues S_j = Q K_j^T, then P_{j-1} V_{j-1}, and runs S_j's softmax (after
 * wait_group 1) while P_{j-1} V_{j-1} is in flight. LAZY: O is rescaled
 * only when the softmax moves its maxima (softmax_tile). PERSIST: a block
 * runs tile after tile (round_tile) on its SM, its rings running on: the
 * producer loads the next tile's Q, K_0, V_0 while the consumers finish
 * this one, and the block's start is paid once an SM. Every consumer
 * releases every tile of the ring, computed or not. warp and bar_any's OR
 * come from lane 0 (__shfl_sync): ptxas then keeps the descriptors built
 * from them in the uniform registers wgmma reads (1.01 to 1.08x, H200). */
template <class C, int NK, int NC, bool PINGPONG, bool OVERLAP, bool LAZY, bool PERSIST>
__global__ void __launch_bounds__(WsTeam<NC>::THREADS, 1)
    flash_ws_kernel(const __grid_constant__ CUtensorMap mq, const __grid_constant__ CUtensorMap mk,
                    const __grid_constant__ CUtensorMap mv, __nv_bfloat16 *__restrict__ O,
                    float *__restrict__ L, int N, int BH, int Tr, int groups, float c, int causal)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    using W = WsCfg<C, NK, NC>;
    using T = WsTeam<NC>;
    static_assert(TURN_BAR + NC <= WG_BAR, "a turn barrier for each consumer");
    constexpr int STAGES = W::STAGES, Q_STAGES = PERSIST ? W::Q_STAGES : 1;
    extern __shared__ unsigned char smem_raw[];
    /* Q's full[] and empty[]; K's; V's */
    __shared__ __align__(8) uint64_t bars[4 + 4 * WS_MAX_STAGES];
    unsigned char *smem = reinterpret_cast<unsigned char *>(
        (reinterpret_cast<uintptr_t>(smem_raw) + 1023) & ~(uintptr_t)1023);
    constexpr uint32_t Q_BYTES = NC * C::TILE; /* a block's Q_i: each consumer's 64 rows */
    const uint32_t sQ = smem_u32(smem), sK = sQ + Q_STAGES * Q_BYTES,
                   sV = sK + STAGES * W::KV_TILE, sZero = sV + STAGES * W::KV_TILE;
    const uint32_t barQ = smem_u32(&bars[0]), barK = barQ + 16 * Q_STAGES,
                   barV = barK + 16 * STAGES;
    const Ring<Q_STAGES> ringQ{sQ, Q_BYTES, barQ, barQ + 8 * Q_STAGES, T::EMPTY_ARRIVALS};
    const Ring<STAGES> ringK{sK, (uint32_t)W::KV_TILE, barK, barK + 8 * STAGES, T::EMPTY_ARRIVALS};
    const Ring<STAGES> ringV{sV, (uint32_t)W::KV_TILE, barV, barV + 8 * STAGES, T::EMPTY_ARRIVALS};
    const int tid = threadIdx.x, warp = __shfl_sync(0xffffffffu, tid >> 5, 0), lane = tid & 31;
    const int tiles = BH * Tr; /* make_maps keeps it an int */
    /* Tile b's head, first row and key tiles, for the producer and the
     * consumers alike: the rings' positions follow from the Tc of every
     * tile before. */
    struct Tile {
        int bh, q0, Tc;
    };
    const auto tile_at = [&](int b) {
        const BlockTile bt = block_tile<PERSIST && W::CAUSAL>(b, BH, Tr, groups);
        const int q0 = bt.qt * T::BR;
        return Tile{bt.bh, q0, ((causal ? min(N, q0 + T::BR) : N) + NK - 1) / NK};
    };

    if (tid == 0) {
        ringQ.init();
        ringK.init();
        ringV.init();
        asm volatile("fence.mbarrier_init.release.cluster;\n" ::: "memory");
    }
    /* The zero tile: the V a consumer's P V reads when the FP32 path has
     * done that product, so that no wgmma sits on a branch (a branch around
     * one makes the compiler serialise every wgmma of the kernel). Written
     * by ordinary stores, read by the tensor cores: the proxy fence. */
    for (int i = tid; i < W::ZERO / 16; i += T::THREADS)
        reinterpret_cast<uint4 *>(smem + (sZero - sQ))[i] = make_uint4(0, 0, 0, 0);
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();

    if (warp < 4) { /* producer */
        asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(WS_PRODUCER_REGS));
        if (tid != 0)
            return;
        /* Round it's tile takes the rings' tiles j0 .. j0 + Tc - 1. */
        for (int it = 0, j0 = 0, b; (b = round_tile<PERSIST>(it, tiles)) >= 0; it++) {
            const Tile tile = tile_at(b);
            const int q0 = tile.q0, Tc = tile.Tc;
            /* A consumer's rows past N are never written: where all of
             * them are, it reads consumer 0's rows rather than a box
             * wholly outside the tensor. */
            ringQ.wait_empty(it);
            mbar_expect_tx(ringQ.full_bar(it), Q_BYTES);
            for (int w = 0; w < NC; w++)
                load_tile<C>(ringQ.tile(it) + w * C::TILE, &mq, q0 + 64 * w < N ? q0 + 64 * w : q0,
                             tile.bh, ringQ.full_bar(it));
            for (int j = 0; j < Tc; j++) {
                ringK.template fill<C, NK>(j0 + j, &mk, j * NK, tile.bh);
                ringV.template fill<C, NK>(j0 + j, &mv, j * NK, tile.bh);
            }
            j0 += Tc;
        }
        return;
    }

    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(T::CONSUMER_REGS));
    const int w = warp / 4 - 1, ct = tid - 128 * (w + 1), g = lane >> 2, t = lane & 3;
    const Turns<PINGPONG, NC> turns{w};
    const float cp = fabsf(c);
    for (int it = 0, j0 = 0, b; (b = round_tile<PERSIST>(it, tiles)) >= 0; it++) {
        const Tile tile = tile_at(b);
        const int q0 = tile.q0, Tc = tile.Tc;
        const int q0w = q0 + 64 * w, row0 = q0w + 16 * (warp & 3) + g;
        const uint32_t sQw = ringQ.tile(it) + w * C::TILE;
        /* The rings' tile of this query tile's key tile j, and V_j for
         * ordinary loads (the guard and the FP32 path) */
        const auto ring_j = [&](int j) { return j0 + j; };
        const auto vtile = [&](int j) { return smem + (ringV.tile(ring_j(j)) - sQ); };
        float o[C::D / 2], m[2] = {-INFINITY, -INFINITY}, l[2] = {0.f, 0.f}, alpha[2];
        bool moved; /* whether O needs alpha (LAZY: warp-uniform) */
#pragma unroll
        for (int i = 0; i < C::D / 2; i++)
            o[i] = 0.f;
        float s[NK / 2];
        uint32_t pa[NK / 16][4];

        ringQ.wait_full(it);
        if (c < 0) {
            flip_q(smem + (sQw - sQ), C::TILE, ct, 128);
            bar_sync(WG_BAR + w, 128);
        }
        /* The tiles this consumer computes: causal, the keys up to its last
         * row; the block's later tiles are all -inf for it, P = 0, and it
         * only hands their stages back. A consumer whose rows are all past
         * N (the last query tile of a head, where N is not a multiple of
         * the block's rows) computes one tile, stored nowhere, rather than
         * none, which would put its products on a branch. Under ping-pong
         * every consumer keeps every turn. */
        const int Tw = PINGPONG               ? Tc
                       : q0w >= N             ? 1
                       : !causal              ? Tc
                                              : min(Tc, (min(N, q0w + 64) + NK - 1) / NK);
        turns.start();
        if (!OVERLAP) {
            for (int j = 0; j < Tw; j++) {
                const int k0 = j * NK;
                ringK.wait_full(ring_j(j));
                turns.begin();
                issue_qk<C, NK>(s, sQw, ringK.tile(ring_j(j)));
                wgmma_commit();
                turns.end(false);
                wgmma_wait_pending<0>(s);
                ringK.release(ring_j(j), lane);
                moved = softmax_any<NK, LAZY>(s, m, l, alpha, k0, row0, q0w, N, causal, cp, t);
                pack_p<NK>(s, pa);
                if (moved)
                    scale_o<C>(o, alpha);

                ringV.wait_full(ring_j(j));
                const bool guarded =
                    ws_guarded<C, NK, NC>(vtile(j), k0, q0w, causal, ct, WG_BAR + w);
                if (guarded)
                    pv_guarded<C, NK>(o, pa, vtile(j), k0, row0, lane);
                turns.begin();
                issue_pv<C, NK>(o, pa, guarded ? sZero : ringV.tile(ring_j(j)));
                wgmma_commit();
                turns.end(j == Tw - 1);
                wgmma_wait_pending<0>(o);
                ringV.release(ring_j(j), lane);
            }
            ringQ.release(it, lane); /* every S of the tile is computed */
        } else {
            /* Tile 0: S_0 and its softmax; P_0 V_0 goes with S_1. */
            ringK.wait_full(ring_j(0));
            turns.begin();
            issue_qk<C, NK>(s, sQw, ringK.tile(ring_j(0)));
            wgmma_commit();
            turns.end(false);
            wgmma_wait_pending<0>(s);
            ringK.release(ring_j(0), lane);
            moved = softmax_any<NK, LAZY>(s, m, l, alpha, 0, row0, q0w, N, causal, cp, t);
            pack_p<NK>(s, pa);

            for (int j = 1; j < Tw; j++) {
                const int k0 = j * NK;
                ringK.wait_full(ring_j(j));
                ringV.wait_full(ring_j(j - 1));
                const bool guarded =
                    ws_guarded<C, NK, NC>(vtile(j - 1), k0 - NK, q0w, causal, ct, WG_BAR + w);

                /* O is scaled (and the FP32 path done) while no wgmma is in
                 * flight. Two groups: S_j, then P_{j-1} V_{j-1}, so that
                 * wait_group 1 is S_j's. */
                if (moved)
                    scale_o<C>(o, alpha);
                if (guarded)
                    pv_guarded<C, NK>(o, pa, vtile(j - 1), k0 - NK, row0, lane);
                turns.begin();
                issue_qk<C, NK>(s, sQw, ringK.tile(ring_j(j)));
                wgmma_commit();
                issue_pv<C, NK>(o, pa, guarded ? sZero : ringV.tile(ring_j(j - 1)));
                wgmma_commit();
                turns.end(false);

                wgmma_wait_pending<1>(s);
                ringK.release(ring_j(j), lane);
                moved = softmax_any<NK, LAZY>(s, m, l, alpha, k0, row0, q0w, N, causal, cp, t);
                wgmma_wait_pending<0>(o);
                ringV.release(ring_j(j - 1), lane);
                pack_p<NK>(s, pa); /* P_{j-1}'s registers are free once its product is done */
            }
            ringQ.release(it, lane); /* every S of the tile is computed */

            const int jl = Tw - 1;
            ringV.wait_full(ring_j(jl));
            const bool guarded =
                ws_guarded<C, NK, NC>(vtile(jl), jl * NK, q0w, causal, ct, WG_BAR + w);
            if (moved)
                scale_o<C>(o, alpha);
            if (guarded)
                pv_guarded<C, NK>(o, pa, vtile(jl), jl * NK, row0, lane);
            turns.begin();
            issue_pv<C, NK>(o, pa, guarded ? sZero : ringV.tile(ring_j(jl)));
            wgmma_commit();
            turns.end(true);
            wgmma_wait_pending<0>(o);
            ringV.release(ring_j(jl), lane);
        }
        for (int j = Tw; j < Tc; j++) {
            ringK.wait_full(ring_j(j)); /* its phase has begun: the release counts for tile j */
            ringK.release(ring_j(j), lane);
            ringV.wait_full(ring_j(j));
            ringV.release(ring_j(j), lane);
        }

        store_rows<C>(o, m, l, O, L, (size_t)tile.bh * (size_t)N, row0, N, t);
        j0 += Tc;
    }
#else
    (void)N, (void)BH, (void)Tr, (void)groups, (void)c, (void)causal, (void)O, (void)L;
#endif
}

/* ---- host side ----------------------------------------------------------------- */

typedef CUresult (*encode_fn)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *,
                              const cuuint64_t *, const cuuint64_t *, const cuuint32_t *,
                              const cuuint32_t *, CUtensorMapInterleave, CUtensorMapSwizzle,
                              CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

/* The driver's cuTensorMapEncodeTiled, through the runtime (no link to libcuda). */
encode_fn tensor_map_encoder(void)
{
    static encode_fn fn;
    if (!fn) {
        void *p = nullptr;
        cudaDriverEntryPointQueryResult q;
        if (cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000, cudaEnableDefault,
                                             &q) == cudaSuccess &&
            q == cudaDriverEntryPointSuccess)
            fn = reinterpret_cast<encode_fn>(p);
    }
    return fn;
}

/* A [BH][N][D] bf16 tensor, boxes of one column block x `rows` rows x 1
 * head, swizzled as the descriptors read it; out-of-range rows read as
 * zeros. */
template <class C> bool make_map(CUtensorMap *map, const void *base, int N, size_t BH, int rows)
{
    encode_fn enc = tensor_map_encoder();
    if (!enc)
        return false;
    const cuuint64_t dims[3] = {(cuuint64_t)C::D, (cuuint64_t)N, (cuuint64_t)BH};
    const cuuint64_t strides[2] = {(cuuint64_t)C::D * 2, (cuuint64_t)N * C::D * 2};
    const cuuint32_t box[3] = {(cuuint32_t)C::COLS, (cuuint32_t)rows, 1}, elem[3] = {1, 1, 1};
    return enc(map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 3, const_cast<void *>(base), dims, strides,
               box, elem, CU_TENSOR_MAP_INTERLEAVE_NONE,
               C::SW == 128 ? CU_TENSOR_MAP_SWIZZLE_128B : CU_TENSOR_MAP_SWIZZLE_64B,
               CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
               CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

/* The three tensor maps (Q in boxes of 64 rows, K and V of nk), after the
 * checks every kernel's grid needs: Tr = ceil(N / br) query tiles a head,
 * B H Tr blocks in an int. */
template <class C>
bool make_maps(CUtensorMap (&maps)[3], const __nv_bfloat16 *Q, const __nv_bfloat16 *K,
               const __nv_bfloat16 *V, size_t BH, int N, int br, int nk, int *Tr)
{
    *Tr = (N + br - 1) / br;
    if (BH * (size_t)*Tr > (size_t)INT_MAX || BH > (size_t)INT_MAX)
        return false;
    return make_map<C>(&maps[0], Q, N, BH, 64) && make_map<C>(&maps[1], K, N, BH, nk) &&
           make_map<C>(&maps[2], V, N, BH, nk);
}

/* The grid's order (block_tile): GROUPED, causal calls in groups of heads
 * sized to the L2, longest tiles first (head_groups); HEADS, plain
 * head-major order, each head's tiles longest first. */
enum GridOrder { ORDER_GROUPED, ORDER_HEADS };

/* A positive number the runtime gives for the current device that stays
 * the same for the process (its L2 size, its SMs, a kernel's blocks an SM
 * holds), asked on the device's first call only. make bench times a call
 * from an idle GPU, host side included: asking at every call (the opt-in
 * too) cost 1 to 6 us of host time a call on an H200 (time.cu's medians
 * at N = 4096), against 17 us for a whole call at N = 256. Threads that
 * ask at once store the same answer. */
struct DeviceFact {
    static constexpr int kDevices = 64; /* past it, asked every call */
    std::atomic<int> known[kDevices] = {};

    template <class Ask> cudaError_t get(int *value, Ask ask)
    {
        int dev = 0;
        cudaError_t err = cudaGetDevice(&dev);
        if (err != cudaSuccess)
            return err;
        const bool slot = dev >= 0 && dev < kDevices;
        if (slot && (*value = known[dev].load(std::memory_order_relaxed)) > 0)
            return cudaSuccess;
        err = ask(dev, value);
        if (err == cudaSuccess && slot && *value > 0)
            known[dev].store(*value, std::memory_order_relaxed);
        return err;
    }
};

/* The number of head groups of a grid of BH heads (block_tile). Without a
 * mask every block does the same work, and head-major order (BH groups)
 * keeps each head's K and V in the L2 while its tiles run. Causal blocks
 * range from one key tile to Tc: longest first over a whole group of G
 * heads lets the shortest fill the end, where head-major order ends every
 * SM on some head's longest tiles: 10% past the ideal finish at N = 4096,
 * d = 64 on 132 SMs, against 1% in groups, in a list-scheduling model of
 * the blocks' key tiles (instructor/dev/05-wgmma/grid-order.sh). A group
 * must span several waves (of one wave it gains nothing); G is the most
 * heads whose K and V, twice over, fit the L2: at a group's end the blocks
 * in flight read two groups'. Groups half as large ran 1.01x at d = 128
 * and 0.99x at d = 64 (H200, N = 4096 and 8192): within the noise. */
cudaError_t head_groups(size_t BH, int N, int d, int causal, GridOrder order, int *groups)
{
    *groups = (int)BH;
    if (!causal || order == ORDER_HEADS)
        return cudaSuccess;
    static DeviceFact l2_bytes;
    int l2 = 0;
    const cudaError_t err = l2_bytes.get(&l2, [](int dev, int *v) {
        return cudaDeviceGetAttribute(v, cudaDevAttrL2CacheSize, dev);
    });
    if (err != cudaSuccess)
        return err;
    const size_t kv_bytes = 2 * (size_t)N * (size_t)d * 2; /* one head's K and V, bf16 */
    size_t G = (size_t)l2 / (2 * kv_bytes);
    G = G < 1 ? 1 : (G > BH ? BH : G);
    *groups = (int)((BH + G - 1) / G);
    return cudaSuccess;
}

/* Step 1's kernel (KernelFn) or one of step 2's, with its block, key tile
 * and shared memory. */
typedef void (*KernelFn)(const CUtensorMap, const CUtensorMap, const CUtensorMap, __nv_bfloat16 *,
                         float *, int, int, int, int, float, int);

/* The blocks of a grid of `tiles` query tiles: one a tile, or (persist)
 * as many as every SM holds at once, the kernel's blocks looping over the
 * tiles (round_tile). per_sm: the kernel's blocks an SM holds. */
cudaError_t grid_blocks(int per_sm, bool persist, size_t tiles, unsigned *blocks)
{
    *blocks = (unsigned)tiles;
    if (!persist)
        return cudaSuccess;
    static DeviceFact sm_count;
    int sms = 0;
    const cudaError_t err = sm_count.get(&sms, [](int dev, int *v) {
        return cudaDeviceGetAttribute(v, cudaDevAttrMultiProcessorCount, dev);
    });
    if (err != cudaSuccess)
        return err;
    const size_t resident = (size_t)sms * (size_t)per_sm;
    *blocks = (unsigned)(resident < tiles ? resident : tiles);
    return cudaSuccess;
}

/* The opt-in to `smem` bytes of dynamic shared memory for `kernel`, at
 * every call (a cudaDeviceReset forgets it), then its blocks an SM holds
 * (at least 1, else the launch could not run) into *per_sm, asked once a
 * device (the kernel's own DeviceFact). */
cudaError_t prepare_kernel(DeviceFact &fact, KernelFn kernel, int threads, int smem, int *per_sm)
{
    cudaError_t err =
        cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, smem);
    if (err == cudaSuccess)
        err = fact.get(per_sm, [&](int, int *v) {
            return cudaOccupancyMaxActiveBlocksPerMultiprocessor(v, kernel, threads, smem);
        });
    if (err == cudaSuccess && *per_sm < 1)
        return cudaErrorInvalidConfiguration;
    return err;
}

template <class C>
cudaError_t launch_kernel(KernelFn kernel, DeviceFact &fact, int br, int nk, int threads, int smem,
                          GridOrder order, bool persist, const __nv_bfloat16 *Q,
                          const __nv_bfloat16 *K, const __nv_bfloat16 *V, __nv_bfloat16 *O,
                          float *L, int B, int H, int N, float scale, int causal,
                          cudaStream_t stream)
{
    const size_t BH = (size_t)B * (size_t)H;
    CUtensorMap maps[3];
    int Tr, groups;
    if (!make_maps<C>(maps, Q, K, V, BH, N, br, nk, &Tr))
        return cudaErrorInvalidValue;
    int per_sm = 0;
    cudaError_t err = head_groups(BH, N, C::D, causal, order, &groups);
    if (err == cudaSuccess)
        err = prepare_kernel(fact, kernel, threads, smem, &per_sm);
    unsigned blocks = 0;
    if (err == cudaSuccess)
        err = grid_blocks(per_sm, persist, BH * (size_t)Tr, &blocks);
    if (err != cudaSuccess)
        return err;
    kernel<<<blocks, threads, smem, stream>>>(maps[0], maps[1], maps[2], O, L, N, (int)BH, Tr,
                                              groups, scale * kLog2e, causal ? 1 : 0);
    return cudaGetLastError();
}

/* MW_FLASH_WGMMA: which kernel the launcher runs, in kKernelNames' order. */
enum {
    KERNEL_AUTO,
    KERNEL_WS,
    KERNEL_STEP1,
    KERNEL_WS2,
    KERNEL_WS_NOPP,
    KERNEL_WS_NOOV,
    KERNEL_WS_PLAIN,
    KERNEL_WS_BC64,
    KERNEL_WS_EAGER,
    KERNEL_WS_HEADS,
    KERNEL_WS_RING,
    KERNEL_WS_PERSIST,
    KERNEL_WS_NOPERSIST,
    KERNEL_WS_NORING,
    KERNELS
};
#ifndef MW_GRADED
const char *const kKernelNames[KERNELS] = {"auto",     "ws",       "step1",
                                           "ws2",      "ws-nopp",  "ws-noov",
                                           "ws-plain", "ws-bc64",  "ws-eager",
                                           "ws-heads", "ws-ring",  "ws-persist",
                                           "ws-nopersist", "ws-noring"};

/* MW_FLASH_WGMMA's kernel: its index, or -1 for a name that is none of
 * them (said on stderr). */
int read_kernel_choice(void)
{
    const char *name = getenv("MW_FLASH_WGMMA");
    if (!name || !*name)
        return KERNEL_AUTO;
    for (int i = 0; i < KERNELS; i++)
        if (strcmp(name, kKernelNames[i]) == 0)
            return i;
    fprintf(stderr, "attention_flash_wgmma: MW_FLASH_WGMMA=%s is not one of:", name);
    for (int i = 0; i < KERNELS; i++)
        fprintf(stderr, " %s", kKernelNames[i]);
    fprintf(stderr, "\n");
    return -1;
}

#endif

/* Read once, on the first call (a function-local static: thread-safe). The
 * graded build (make lib GRADED=1, as make grade builds a submission) has
 * no switch: it holds auto alone (ws's 6 kernels and step 1's at d = 64,
 * 7 of the 35), which cuts the build of this file to a fraction, and the
 * grade never depends on an environment variable. */
int chosen_kernel(void)
{
#ifdef MW_GRADED
    return KERNEL_AUTO;
#else
    static const int chosen = read_kernel_choice();
    return chosen;
#endif
}

/* One of step 2's kernels, with its block (64 NC query rows, NC + 1
 * warpgroups), key tile and shared memory. */
template <class C, int NK, int NC, bool PINGPONG, bool OVERLAP, bool LAZY, bool PERSIST = false>
cudaError_t launch_ws_kernel(GridOrder order, const __nv_bfloat16 *Q, const __nv_bfloat16 *K,
                             const __nv_bfloat16 *V, __nv_bfloat16 *O, float *L, int B, int H,
                             int N, float scale, int causal, cudaStream_t stream)
{
    static DeviceFact fact;
    return launch_kernel<C>(flash_ws_kernel<C, NK, NC, PINGPONG, OVERLAP, LAZY, PERSIST>, fact,
                            WsTeam<NC>::BR, NK, WsTeam<NC>::THREADS,
                            WsCfg<C, NK, NC>::smem(PERSIST), order, PERSIST, Q, K, V, O, L, B, H,
                            N, scale, causal, stream);
}

/* Which of ws's kernels run a persistent grid (flash_ws_kernel's PERSIST):
 * none, those without a mask (ws's choice), or all. */
enum Persist { PERSIST_NONE, PERSIST_UNMASKED, PERSIST_ALL };

/* When ws's three consumers (d <= 64) take turns at the tensor cores
 * (flash_ws_kernel's PINGPONG): without a mask (ws's choice), always
 * (ws-ring) or never (ws-noring). */
enum RingTurns { RING_UNMASKED, RING_ALWAYS, RING_NEVER };

/* The default kernel, ws: its team, key tile and grid for this d and mask.
 * A persistent grid pays without a mask: 1.01 to 1.04x on an H200 at
 * N = 4096 and 16384, d = 64 and 128 (ws against ws-nopersist), as a
 * block's start and its last tile's products and stores no longer leave
 * the SM idle. With the mask its blocks go round by round and it loses,
 * 0.91 to 0.99x (ws-persist): one block a tile lets the GPU start each
 * next tile wherever an SM frees, and taking each next tile from a
 * counter instead (FA3's scheduler) ran 0.88 to 1.03x of that, and
 * with one loop over a block's tiles besides (the next tile's S_0 issued
 * with this one's last P V) 0.85 to 0.94x at d = 128. No kernel spills:
 * the three consumers' 160 registers at d = 64 hold the persistent loop's
 * state too (ptxas -v). */
template <class C, bool LAZY, Persist P = PERSIST_UNMASKED, RingTurns R = RING_UNMASKED>
cudaError_t launch_ws(GridOrder order, const __nv_bfloat16 *Q, const __nv_bfloat16 *K,
                      const __nv_bfloat16 *V, __nv_bfloat16 *O, float *L, int B, int H, int N,
                      float scale, int causal, cudaStream_t stream)
{
    /* Up to d = 64, three consumers, each one's softmax under the others'
     * GEMMs, rather than FA3's two in ping-pong: at d = 64 the softmax is
     * as long as the GEMMs, and three warps a scheduler hide it better
     * (two in turns, key tiles of 192: 0.86x at N = 4096 on an H200). A
     * ring of turns runs level with none without a mask (0.99x, ws against
     * ws-noring), where every consumer's key tiles are the block's, and
     * costs with it (ws-ring, 0.96 to 0.97x): its turns then take the
     * tiles past a consumer's rows. A consumer of three has 160 registers:
     * S, P and O of 128 keys at d = 64 fit, of 144 keys spill (0.74x). */
    if constexpr (C::D <= 64) {
        constexpr bool TURNS_UNMASKED = R != RING_NEVER, TURNS_MASKED = R == RING_ALWAYS;
        if (causal)
            return launch_ws_kernel<C, WS_NK, 3, TURNS_MASKED, true, LAZY, P == PERSIST_ALL>(
                order, Q, K, V, O, L, B, H, N, scale, causal, stream);
        return launch_ws_kernel<C, WS_NK, 3, TURNS_UNMASKED, true, LAZY, P != PERSIST_NONE>(
            order, Q, K, V, O, L, B, H, N, scale, causal, stream);
    } else {
        /* Without a mask, key tiles of 176 (FA3's choice at d = 128): fewer
         * per-tile costs, and S_j (88 registers a thread), P_{j-1} (44) and
         * O (64) fit the consumers' 240; at 192 they spill (232 bytes a
         * thread), and ran 0.98x at N = 4096 on an H200, 1.01x at 16384.
         * Narrower tiles waste less of the last one (at N = 4096, 176
         * leaves 48 of its keys empty: 3% of the work) but pay the per-tile
         * costs more often: 128, 144 and 160 ran 0.92 to 1.04x of 176 on an
         * H200 (N = 1000 to 16384), past 1.01x only up to N = 4096. The
         * last tile's products at the width it holds ran 1.00 to 1.01x for
         * P V alone, 0.97 to 1.02x with S too (a second copy of the loop's
         * step).
         * Causal calls keep 128: 144 to 176 (a zero tile of 16 keys to fit)
         * ran 0.96 to 0.98x at N = 4096 on an H200, 1.02 to 1.05x at 16384,
         * where one code's runs spread 6%. */
        if (!causal)
            return launch_ws_kernel<C, WS_NK_WIDE, 2, true, true, LAZY, P != PERSIST_NONE>(
                order, Q, K, V, O, L, B, H, N, scale, causal, stream);
        return launch_ws_kernel<C, WS_NK, 2, true, true, LAZY, P == PERSIST_ALL>(
            order, Q, K, V, O, L, B, H, N, scale, causal, stream);
    }
}

/* Step 1's kernel: one warpgroup a block of BR = 64 query rows, key tiles
 * of BC = 64. */
template <class C>
cudaError_t launch_step1(const __nv_bfloat16 *Q, const __nv_bfloat16 *K, const __nv_bfloat16 *V,
                         __nv_bfloat16 *O, float *L, int B, int H, int N, float scale, int causal,
                         cudaStream_t stream)
{
    static DeviceFact fact;
    return launch_kernel<C>(flash_wgmma_kernel<C>, fact, BR, BC, THREADS, C::SMEM, ORDER_GROUPED,
                            false, Q, K, V, O, L, B, H, N, scale, causal, stream);
}

/* The default, auto: ws, except causal calls at d = 64 up to N = 4096,
 * where step 1's kernel runs as fast or faster. On an H200 (B = 4, H = 16;
 * step1 against ws, causal, d = 64): 1.11x at N = 2048, 1.01x at 4096,
 * 0.91x at 8192 and 0.86x at 16384; without a mask ws leads from N = 2048
 * (0.94x there), at d = 128 everywhere (0.76x at 4096 causal). The likely
 * reason, a model rather than a profile: a causal row also computes the
 * masked part of its diagonal tiles, about (Br + Bc) / 2 keys, against
 * N / 2 it attends on average: ws's 192-row blocks of 128-key tiles waste
 * about 320 / N of the work, step 1's 64 by 64 tiles 128 / N, 5% apart at
 * N = 4096 and 2% at 8192. d = 32 is not timed: ws there. */
constexpr int kStep1CausalMaxN = 4096;

template <class C>
cudaError_t launch_auto(const __nv_bfloat16 *Q, const __nv_bfloat16 *K, const __nv_bfloat16 *V,
                        __nv_bfloat16 *O, float *L, int B, int H, int N, float scale, int causal,
                        cudaStream_t stream)
{
    if constexpr (C::D == 64) {
        if (causal && N <= kStep1CausalMaxN)
            return launch_step1<C>(Q, K, V, O, L, B, H, N, scale, causal, stream);
    }
    return launch_ws<C, true>(ORDER_GROUPED, Q, K, V, O, L, B, H, N, scale, causal, stream);
}

template <class C>
cudaError_t launch(int kernel, const __nv_bfloat16 *Q, const __nv_bfloat16 *K,
                   const __nv_bfloat16 *V, __nv_bfloat16 *O, float *L, int B, int H, int N,
                   float scale, int causal, cudaStream_t stream)
{
    switch (kernel) {
    case KERNEL_AUTO:
        return launch_auto<C>(Q, K, V, O, L, B, H, N, scale, causal, stream);
#ifndef MW_GRADED
    case KERNEL_WS:
        return launch_ws<C, true>(ORDER_GROUPED, Q, K, V, O, L, B, H, N, scale, causal, stream);
    case KERNEL_WS_HEADS:
        return launch_ws<C, true>(ORDER_HEADS, Q, K, V, O, L, B, H, N, scale, causal, stream);
    case KERNEL_WS_RING:
        return launch_ws<C, true, PERSIST_UNMASKED, RING_ALWAYS>(ORDER_GROUPED, Q, K, V, O, L, B,
                                                                 H, N, scale, causal, stream);
    case KERNEL_WS_NORING:
        return launch_ws<C, true, PERSIST_UNMASKED, RING_NEVER>(ORDER_GROUPED, Q, K, V, O, L, B,
                                                                H, N, scale, causal, stream);
    case KERNEL_WS_PERSIST:
        return launch_ws<C, true, PERSIST_ALL>(ORDER_GROUPED, Q, K, V, O, L, B, H, N, scale,
                                               causal, stream);
    case KERNEL_WS_NOPERSIST:
        return launch_ws<C, true, PERSIST_NONE>(ORDER_GROUPED, Q, K, V, O, L, B, H, N, scale,
                                                causal, stream);
    case KERNEL_WS_EAGER:
        return launch_ws<C, false>(ORDER_GROUPED, Q, K, V, O, L, B, H, N, scale, causal, stream);
    case KERNEL_STEP1:
        return launch_step1<C>(Q, K, V, O, L, B, H, N, scale, causal, stream);
    case KERNEL_WS_BC64:
        return launch_ws_kernel<C, 64, 2, true, true, false>(ORDER_GROUPED, Q, K, V, O, L, B, H,
                                                             N, scale, causal, stream);
    case KERNEL_WS2:
        return launch_ws_kernel<C, WS_NK, 2, true, true, false>(ORDER_GROUPED, Q, K, V, O, L, B,
                                                                H, N, scale, causal, stream);
    case KERNEL_WS_NOPP:
        return launch_ws_kernel<C, WS_NK, 2, false, true, false>(ORDER_GROUPED, Q, K, V, O, L, B,
                                                                 H, N, scale, causal, stream);
    case KERNEL_WS_NOOV:
        return launch_ws_kernel<C, WS_NK, 2, true, false, false>(ORDER_GROUPED, Q, K, V, O, L, B,
                                                                 H, N, scale, causal, stream);
    case KERNEL_WS_PLAIN:
        return launch_ws_kernel<C, WS_NK, 2, false, false, false>(ORDER_GROUPED, Q, K, V, O, L,
                                                                  B, H, N, scale, causal, stream);
#endif
    default: return cudaErrorInvalidValue;
    }
}

} /* namespace */
// END SOLUTION

cudaError_t attention_flash_wgmma(const mw05_bf16 *Q, const mw05_bf16 *K, const mw05_bf16 *V,
                                  mw05_bf16 *O, float *L, int B, int H, int N, int d,
                                  float scale, int causal, cudaStream_t stream)
{
    // BEGIN SOLUTION
    // TODO: check d (32, 64 or 128) and B, H, N >= 1; make the tensor maps, launch your kernel on
    // TODO: `stream` and return cudaGetLastError().
    // STUB: return MW_NOT_IMPLEMENTED;
    const int kernel = chosen_kernel();
    if (B < 1 || H < 1 || N < 1 || kernel < 0)
        return cudaErrorInvalidValue;
    switch (d) {
    case 32: return launch<Cfg<32>>(kernel, Q, K, V, O, L, B, H, N, scale, causal, stream);
    case 64: return launch<Cfg<64>>(kernel, Q, K, V, O, L, B, H, N, scale, causal, stream);
    case 128: return launch<Cfg<128>>(kernel, Q, K, V, O, L, B, H, N, scale, causal, stream);
    default: return cudaErrorInvalidValue;
    }
    // END SOLUTION
}
