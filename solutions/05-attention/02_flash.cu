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
 *            of shared memory (Q_i^T 33, K_j 17, V_j 16, P_ij^T 33), 255
 *            registers (__launch_bounds__(128, 2)): 2 blocks, 8 warps per SM;
 *   d = 128: Br = 128, Bc = 64, 256 threads (16 lanes a row: 8 x 4 of S_ij,
 *            8 x 8 of O_i), 164 KB, 220 registers: 1 block, 8 warps per SM;
 *   d = 32:  Br = 128, Bc = 64, 128 threads (8 lanes a row: 8 x 8 of S_ij,
 *            8 x 4 of O_i), 66.5 KB, 241 registers: 2 blocks per SM.
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
 * For scale: PyTorch's FP32 scaled_dot_product_attention, same GPU, d = 64:
 * 8.03 ms (34.2 TFLOP/s), causal 4.36 ms; d = 128: 11.79 ms (46.6), causal
 * 6.14 ms. cuBLAS SGEMM peaks at 51.7 TFLOP/s; 05.1 takes 56.6 ms.
 *
 * Check it:  make check CH=05 EX=02      Time it:  make bench CH=05 */
#include "attention.h"

// BEGIN SOLUTION
// TODO: one block per query tile Q_i (Br rows) of one (b, h): load Q_i into shared memory once,
// TODO: keep O_i, m_i, l_i in registers, and stream the K_j, V_j tiles (Bc rows) through shared
// TODO: memory: S_ij = Q_i K_j^T; m_new = max(m_i, rowmax(S_ij)); P_ij = exp(S_ij - m_new);
// TODO: l_i = l_i exp(m_i - m_new) + rowsum(P_ij); O_i = O_i exp(m_i - m_new) + P_ij V_j.
// TODO: At the end write O_i / l_i and L_i = m_i + log(l_i). Causal: skip the tiles above the
// TODO: diagonal, mask (select, never multiply by 0) in the diagonal ones. Then make it fast:
// TODO: each thread a register block of S_ij and of O_i, like the SGEMM of 03.3.
#include <math.h>

static const float kLog2e = 1.4426950408889634f;
static const float kLn2 = 0.6931471805599453f;

/* One configuration: D the head dimension, BR x BC the S_ij tile, THREADS
 * per block, TPR threads sharing each row (a row group: TPR consecutive
 * lanes of one warp, so that row maxima and sums are warp shuffles), MINB
 * blocks per SM asked of the register allocator. */
template <int D_, int BR_, int BC_, int THREADS_, int TPR_, int MINB_> struct flash_config {
    static const int D = D_, BR = BR_, BC = BC_, THREADS = THREADS_, TPR = TPR_, MINB = MINB_;
    static const int NRG = THREADS / TPR; /* row groups */
    static const int TM = BR / NRG;       /* rows of S_ij and O_i per thread */
    static const int TNS = BC / TPR;      /* columns of S_ij per thread */
    static const int TNO = D / TPR;       /* columns of O_i per thread */
    /* Pitches, in floats: 4 (mod 32) for the arrays whose float4s lanes
     * take from different rows (Q_i^T and P_ij^T stores, K_j reads), so that
     * consecutive rows start 4 banks apart; V_j is read along its rows. */
    static const int QP = BR + 4, KP = D + 4, VP = D;
    static const int SMEM_FLOATS = D * QP + BC * KP + BC * VP + BC * QP;
    static_assert(TPR <= 32 && 32 % TPR == 0, "a row group inside one warp");
    static_assert(TM % 4 == 0 && TNO % 4 == 0, "float4 rows and columns");
    static_assert(BR % (4 * NRG) == 0 && BC % TPR == 0 && D % (4 * TPR) == 0, "even split");
    static_assert((BC * D / 4) % THREADS == 0 && (BR * D / 4) % THREADS == 0, "even loads");
};

/* ---- asynchronous copies (cp.async, sm_80+) ------------------------------ */

/* cp.async exists from sm_80 on. Before, the same 16 bytes go through a
 * register (a plain load and store) and commit and wait have nothing to
 * wait for: the barriers around them are what order the tiles, so the
 * algorithm is the same, only without the overlap. The host pass and the
 * CPU emulation define no __CUDA_ARCH__: they see the cp.async path, which
 * the emulation emulates (as for 05.3). */
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
#define MW_HAVE_CP_ASYNC 1
#else
#define MW_HAVE_CP_ASYNC 0
#endif

/* 16 bytes global -> shared without registers; `inside` false zero-fills. */
__device__ __forceinline__ void copy16_async(float *dst, const float *src, bool inside)
{
#if MW_HAVE_CP_ASYNC
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src),
                 "r"(inside ? 16 : 0));
#else
    *reinterpret_cast<float4 *>(dst) =
        inside ? *reinterpret_cast<const float4 *>(src) : make_float4(0.f, 0.f, 0.f, 0.f);
#endif
}

__device__ __forceinline__ void copy_commit()
{
#if MW_HAVE_CP_ASYNC
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}

/* Waits until at most `pending` of this thread's committed groups are in flight. */
template <int pending> __device__ __forceinline__ void copy_wait()
{
#if MW_HAVE_CP_ASYNC
    asm volatile("cp.async.wait_group %0;\n" ::"n"(pending));
#endif
}

/* ---- where a thread's rows and columns are ------------------------------- */

/* Row i < TM of the tile: quads of 4 consecutive rows, 4 * NRG apart. */
template <class C> __device__ __forceinline__ int row_of(int i, int rg)
{
    return (i / 4) * (4 * C::NRG) + rg * 4 + i % 4;
}

/* Column j < TNS of S_ij: interleaved, TPR apart (lanes read different K rows). */
template <class C> __device__ __forceinline__ int col_of(int j, int tc) { return tc + C::TPR * j; }

/* Column n < TNO of O_i: quads of 4, 4 * TPR apart (lanes read one V row). */
template <class C> __device__ __forceinline__ int ocol_of(int n, int tc)
{
    return (n / 4) * (4 * C::TPR) + tc * 4 + n % 4;
}

/* ---- loads ----------------------------------------------------------------- */

/* Q_i^T into shared memory, times scale * log2(e) (S_ij then comes out in
 * base 2, ready for exp2), 0 past row N. Once per block. */
template <class C>
__device__ __forceinline__ void load_q(float *Qs, const float *Qb, int q0, int N, float qscale)
{
#pragma unroll
    for (int it = 0; it < C::BR * C::D / 4 / C::THREADS; it++) {
        const int g = threadIdx.x + it * C::THREADS, r = g % C::BR, k = (g / C::BR) * 4;
        float4 v = make_float4(0.f, 0.f, 0.f, 0.f);
        if (q0 + r < N)
            v = __ldg(reinterpret_cast<const float4 *>(Qb + (size_t)(q0 + r) * C::D + k));
        Qs[(k + 0) * C::QP + r] = v.x * qscale;
        Qs[(k + 1) * C::QP + r] = v.y * qscale;
        Qs[(k + 2) * C::QP + r] = v.z * qscale;
        Qs[(k + 3) * C::QP + r] = v.w * qscale;
    }
}

/* BC rows of K or V from row k0, by cp.async, zero-filled past row N. */
template <class C, int PITCH>
__device__ __forceinline__ void load_kv(float *dst, const float *src, int k0, int N)
{
#pragma unroll
    for (int it = 0; it < C::BC * C::D / 4 / C::THREADS; it++) {
        const int g = threadIdx.x + it * C::THREADS, c = g / (C::D / 4), k = (g % (C::D / 4)) * 4;
        const bool inside = k0 + c < N;
        copy16_async(dst + c * PITCH + k, src + (inside ? (size_t)(k0 + c) * C::D + k : 0), inside);
    }
}

/* ---- the two products ------------------------------------------------------ */

/* s = Q_i K_j^T for this thread's TM x TNS block: per 4 values of k, TNS
 * float4s of K_j rows and 4 x TM/4 float4s of Q_i^T, for 4 TM TNS FMAs. */
template <class C>
__device__ __forceinline__ void scores(const float *Qs, const float *Ks, int rg, int tc,
                                       float (&s)[C::TM][C::TNS])
{
#pragma unroll
    for (int i = 0; i < C::TM; i++)
#pragma unroll
        for (int j = 0; j < C::TNS; j++)
            s[i][j] = 0.f;
#pragma unroll 2
    for (int k = 0; k < C::D; k += 4) {
        float kf[C::TNS][4];
#pragma unroll
        for (int j = 0; j < C::TNS; j++) {
            const float4 t = *reinterpret_cast<const float4 *>(Ks + col_of<C>(j, tc) * C::KP + k);
            kf[j][0] = t.x; kf[j][1] = t.y; kf[j][2] = t.z; kf[j][3] = t.w;
        }
#pragma unroll
        for (int kk = 0; kk < 4; kk++) {
            float q[C::TM];
#pragma unroll
            for (int g = 0; g < C::TM / 4; g++) {
                const float4 t =
                    *reinterpret_cast<const float4 *>(Qs + (k + kk) * C::QP + row_of<C>(4 * g, rg));
                q[4 * g] = t.x; q[4 * g + 1] = t.y; q[4 * g + 2] = t.z; q[4 * g + 3] = t.w;
            }
#pragma unroll
            for (int i = 0; i < C::TM; i++)
#pragma unroll
                for (int j = 0; j < C::TNS; j++)
                    s[i][j] = fmaf(q[i], kf[j][kk], s[i][j]);
        }
    }
}

/* o += P_ij V_j: per key c, TM/4 float4s of P_ij^T and TNO/4 of V_j.
 * DIAG (a causal tile crossing the diagonal): key k0 + c is added to row
 * q0 + r only when k0 + c <= q0 + r, by a select: P is 0 there, but V's
 * row may be NaN and 0 * NaN is NaN. */
template <class C, bool DIAG>
__device__ __forceinline__ void pv(const float *Ps, const float *Vs, int rg, int tc, int diag,
                                   float (&o)[C::TM][C::TNO])
{
#pragma unroll 4
    for (int c = 0; c < C::BC; c++) {
        float p[C::TM], v[C::TNO];
#pragma unroll
        for (int g = 0; g < C::TM / 4; g++) {
            const float4 t = *reinterpret_cast<const float4 *>(Ps + c * C::QP + row_of<C>(4 * g, rg));
            p[4 * g] = t.x; p[4 * g + 1] = t.y; p[4 * g + 2] = t.z; p[4 * g + 3] = t.w;
        }
#pragma unroll
        for (int g = 0; g < C::TNO / 4; g++) {
            const float4 t = *reinterpret_cast<const float4 *>(Vs + c * C::VP + ocol_of<C>(4 * g, tc));
            v[4 * g] = t.x; v[4 * g + 1] = t.y; v[4 * g + 2] = t.z; v[4 * g + 3] = t.w;
        }
#pragma unroll
        for (int i = 0; i < C::TM; i++) {
            /* diag = q0 - k0: key c is attended by row r when c <= r + diag. */
            const bool keep = !DIAG || c <= row_of<C>(i, rg) + diag;
#pragma unroll
            for (int n = 0; n < C::TNO; n++)
                o[i][n] = keep ? fmaf(p[i], v[n], o[i][n]) : o[i][n];
        }
    }
}

/* ---- the online softmax ---------------------------------------------------- */

/* Keys past N, and when causal keys after the row, get -inf (a select: a
 * NaN score there must vanish too). Only in tail and diagonal tiles. */
template <class C>
__device__ __forceinline__ void mask(float (&s)[C::TM][C::TNS], int rg, int tc, int q0, int k0,
                                     int N, int causal)
{
#pragma unroll
    for (int i = 0; i < C::TM; i++)
#pragma unroll
        for (int j = 0; j < C::TNS; j++) {
            const int key = k0 + col_of<C>(j, tc), row = q0 + row_of<C>(i, rg);
            if (key >= N || (causal && key > row))
                s[i][j] = -INFINITY;
        }
}

/* Max (or sum) over the TPR lanes of a row group. */
template <class C> __device__ __forceinline__ float group_max(float x)
{
#pragma unroll
    for (int off = C::TPR / 2; off > 0; off /= 2)
        x = fmaxf(x, __shfl_xor_sync(0xffffffffu, x, off));
    return x;
}

template <class C> __device__ __forceinline__ float group_sum(float x)
{
#pragma unroll
    for (int off = C::TPR / 2; off > 0; off /= 2)
        x += __shfl_xor_sync(0xffffffffu, x, off);
    return x;
}

/* m_new = max(m, rowmax S_ij); s becomes P_ij = 2^(S_ij - m_new); o and
 * this thread's partial l are rescaled by 2^(m - m_new). The partial sums
 * of l stay per thread (the row group adds them up once, at the end); m
 * must agree across the group, since all its P_ij share one O_i row. */
template <class C>
__device__ __forceinline__ void online_softmax(float (&s)[C::TM][C::TNS], float (&m)[C::TM],
                                               float (&l)[C::TM], float (&o)[C::TM][C::TNO])
{
#pragma unroll
    for (int i = 0; i < C::TM; i++) {
        float mt = s[i][0];
#pragma unroll
        for (int j = 1; j < C::TNS; j++)
            mt = fmaxf(mt, s[i][j]); /* fmaxf skips NaN: P makes it NaN below */
        const float m_new = fmaxf(m[i], group_max<C>(mt));
        /* A row with nothing finite yet: subtract 0, not -inf (-inf - -inf is NaN). */
        const float m_use = m_new == -INFINITY ? 0.f : m_new;
        const float alpha = exp2f(m[i] - m_use);
        m[i] = m_new;
        float rs = 0.f;
#pragma unroll
        for (int j = 0; j < C::TNS; j++) {
            s[i][j] = exp2f(s[i][j] - m_use);
            rs += s[i][j];
        }
        l[i] = l[i] * alpha + rs;
#pragma unroll
        for (int n = 0; n < C::TNO; n++)
            o[i][n] *= alpha;
    }
}

/* P_ij^T into shared memory: float4s of 4 rows. Only this row group reads it back. */
template <class C>
__device__ __forceinline__ void store_p(float *Ps, const float (&s)[C::TM][C::TNS], int rg, int tc)
{
#pragma unroll
    for (int j = 0; j < C::TNS; j++)
#pragma unroll
        for (int g = 0; g < C::TM / 4; g++)
            *reinterpret_cast<float4 *>(Ps + col_of<C>(j, tc) * C::QP + row_of<C>(4 * g, rg)) =
                make_float4(s[4 * g][j], s[4 * g + 1][j], s[4 * g + 2][j], s[4 * g + 3][j]);
}

/* ---- the kernel ------------------------------------------------------------ */

/* One query tile: Q_i of (b, h) = bh, rows q0 .. q0 + Br - 1, against every
 * K_j, V_j it attends; O_i and L_i written once. */
template <class C>
__device__ __forceinline__ void attend_tile(float *Qs, float *Ks, float *Vs, float *Ps,
                                            const float *__restrict__ Q,
                                            const float *__restrict__ K,
                                            const float *__restrict__ V, float *__restrict__ O,
                                            float *__restrict__ L, int bh, int qt, int N,
                                            float qscale, int causal)
{
    const int q0 = qt * C::BR;
    const size_t base = (size_t)bh * N * C::D;
    const int rg = threadIdx.x / C::TPR, tc = threadIdx.x % C::TPR;

    load_q<C>(Qs, Q + base, q0, N, qscale);
    const int kv_end = causal ? min(N, q0 + C::BR) : N; /* keys any row here attends */
    const int Tc = (kv_end + C::BC - 1) / C::BC;
    load_kv<C, C::KP>(Ks, K + base, 0, N);
    copy_commit();

    float o[C::TM][C::TNO], m[C::TM], l[C::TM];
#pragma unroll
    for (int i = 0; i < C::TM; i++) {
        m[i] = -INFINITY;
        l[i] = 0.f;
#pragma unroll
        for (int n = 0; n < C::TNO; n++)
            o[i][n] = 0.f;
    }

    for (int j = 0; j < Tc; j++) {
        const int k0 = j * C::BC;
        copy_wait<0>();
        __syncthreads(); /* K_j is in; everyone is done with V_j-1 and P */
        load_kv<C, C::VP>(Vs, V + base, k0, N); /* V_j flies during S_ij */
        copy_commit();

        float s[C::TM][C::TNS];
        scores<C>(Qs, Ks, rg, tc, s);
        __syncthreads(); /* everyone is done with K_j */
        if (j + 1 < Tc) /* K_j+1 flies during the softmax and P_ij V_j */
            load_kv<C, C::KP>(Ks, K + base, k0 + C::BC, N);
        copy_commit();

        const bool diag = causal && k0 + C::BC - 1 > q0;
        if (diag || k0 + C::BC > N)
            mask<C>(s, rg, tc, q0, k0, N, causal);
        online_softmax<C>(s, m, l, o);
        store_p<C>(Ps, s, rg, tc);
        copy_wait<1>();  /* V_j (K_j+1 may still fly) */
        __syncthreads(); /* V_j and P_ij are visible */
        if (diag)
            pv<C, true>(Ps, Vs, rg, tc, q0 - k0, o);
        else
            pv<C, false>(Ps, Vs, rg, tc, 0, o);
    }

    /* O_i / l_i and L_i = ln(2) (m_i + log2 l_i): S was in base 2. */
#pragma unroll
    for (int i = 0; i < C::TM; i++) {
        const int row = q0 + row_of<C>(i, rg);
        const float l_row = group_sum<C>(l[i]);
        if (row >= N)
            continue;
        const float inv = 1.f / l_row;
        float *out = O + base + (size_t)row * C::D;
#pragma unroll
        for (int g = 0; g < C::TNO / 4; g++)
            *reinterpret_cast<float4 *>(out + ocol_of<C>(4 * g, tc)) =
                make_float4(o[i][4 * g] * inv, o[i][4 * g + 1] * inv, o[i][4 * g + 2] * inv,
                            o[i][4 * g + 3] * inv);
        if (tc == 0)
            L[(size_t)bh * N + row] = (m[i] + log2f(l_row)) * kLn2;
    }
}

/* Non-causal: a persistent grid (as many blocks as the GPU holds at once)
 * takes query tiles from a counter in (b, h)-major order, each block the
 * next one free. The tiles in flight are then always a window of about one
 * grid's worth of consecutive tiles: two or three heads, whose K and V stay
 * in the L2 while every block of the head sweeps them, however far the
 * blocks drift apart. One block per tile (or a fixed stride) lets the
 * blocks drift over many heads at once: at N = 16384 (8 MB of K and V a
 * head) ncu counted 43x the minimum DRAM bytes that way, 1.0x at 4096.
 * The last block to finish resets the counter for the next launch, so
 * launches on one stream follow each other safely; two launches running at
 * the same time (two streams) would share it: don't.
 * Causal: one tile per block, the longest rows first (tile Tr - 1 of every
 * (b, h), then Tr - 2...), so that the short ones fill the gaps at the end. */
__device__ unsigned int next_tile, blocks_done;

template <class C>
__global__ void __launch_bounds__(C::THREADS, C::MINB)
    flash_kernel(const float *__restrict__ Q, const float *__restrict__ K,
                 const float *__restrict__ V, float *__restrict__ O, float *__restrict__ L,
                 int BH, int N, float qscale, int causal)
{
    extern __shared__ float4 smem[];
    float *Qs = reinterpret_cast<float *>(smem); /* Q_i^T: D x QP */
    float *Ks = Qs + C::D * C::QP;               /* K_j:   BC x KP */
    float *Vs = Ks + C::BC * C::KP;              /* V_j:   BC x VP */
    float *Ps = Vs + C::BC * C::VP;              /* P_ij^T: BC x QP */
    const int Tr = (N + C::BR - 1) / C::BR;
    if (causal) {
        attend_tile<C>(Qs, Ks, Vs, Ps, Q, K, V, O, L, (int)(blockIdx.x % BH),
                       Tr - 1 - (int)(blockIdx.x / BH), N, qscale, causal);
        return;
    }
    const unsigned tiles = (unsigned)BH * (unsigned)Tr;
    __shared__ unsigned tile;
    for (;;) {
        if (threadIdx.x == 0)
            tile = atomicAdd(&next_tile, 1u);
        __syncthreads(); /* the tile number is in; the last tile is done with smem */
        const unsigned t = tile;
        __syncthreads(); /* everyone has it before thread 0 asks again */
        if (t >= tiles)
            break;
        attend_tile<C>(Qs, Ks, Vs, Ps, Q, K, V, O, L, (int)(t / Tr), (int)(t % Tr), N, qscale,
                       causal);
    }
    if (threadIdx.x == 0 && atomicAdd(&blocks_done, 1u) == gridDim.x - 1) {
        /* every block has taken its last number: reset for the next launch */
        next_tile = 0;
        blocks_done = 0;
        __threadfence();
    }
}

/* ---- launchers --------------------------------------------------------------- */

template <class C>
static cudaError_t launch(const float *Q, const float *K, const float *V, float *O, float *L,
                          int BH, int N, float scale, int causal, cudaStream_t stream)
{
    const size_t smem = C::SMEM_FLOATS * sizeof(float);
    static bool configured = false; /* once per configuration */
    if (!configured) {
        cudaError_t err = cudaFuncSetAttribute(
            flash_kernel<C>, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem);
        if (err == cudaSuccess) /* all the carveout to shared memory: MINB blocks fit */
            err = cudaFuncSetAttribute(flash_kernel<C>,
                                       cudaFuncAttributePreferredSharedMemoryCarveout,
                                       (int)cudaSharedmemCarveoutMaxShared);
        if (err != cudaSuccess)
            return err;
        configured = true;
    }
    static int slots = 0; /* blocks resident on the whole GPU at once */
    if (slots == 0) {
        int device, sms, per_sm;
        cudaError_t err = cudaGetDevice(&device);
        if (err == cudaSuccess)
            err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        if (err == cudaSuccess)
            err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, flash_kernel<C>,
                                                                C::THREADS, smem);
        if (err != cudaSuccess)
            return err;
        slots = sms * (per_sm > 0 ? per_sm : 1);
    }
    const size_t Tr = (N + C::BR - 1) / C::BR, tiles = (size_t)BH * Tr;
    if (tiles > 0x7fffffffu) /* the tile counter is 32-bit */
        return cudaErrorInvalidValue;
    /* Non-causal: a persistent grid, at most one block per slot. */
    const size_t blocks = !causal && tiles > (size_t)slots ? (size_t)slots : tiles;
    flash_kernel<C><<<(unsigned)blocks, C::THREADS, smem, stream>>>(Q, K, V, O, L, BH, N,
                                                                    scale * kLog2e, causal);
    return cudaGetLastError();
}

typedef cudaError_t (*flash_launch)(const float *, const float *, const float *, float *,
                                    float *, int, int, float, int, cudaStream_t);

struct flash_choice {
    const char *name;
    int d;
    flash_launch fn;
};

/* <D, BR, BC, THREADS, TPR, MINB>: per d, the fast one and its Br = 64 twin. */
static const flash_choice choices[] = {
    {"d64_128x64_t128_g8", 64, launch<flash_config<64, 128, 64, 128, 8, 2>>},
    {"d64_64x64_t128_g16", 64, launch<flash_config<64, 64, 64, 128, 16, 2>>},
    {"d128_128x64_t256_g16", 128, launch<flash_config<128, 128, 64, 256, 16, 1>>},
    {"d128_64x32_t128_g16", 128, launch<flash_config<128, 64, 32, 128, 16, 2>>},
    {"d32_128x64_t128_g8", 32, launch<flash_config<32, 128, 64, 128, 8, 2>>},
    {"d32_64x64_t128_g8", 32, launch<flash_config<32, 64, 64, 128, 8, 3>>},
};
// END SOLUTION

cudaError_t attention_flash(const float *Q, const float *K, const float *V, float *O, float *L,
                            int B, int H, int N, int d, float scale, int causal,
                            cudaStream_t stream)
{
    // BEGIN SOLUTION
    // TODO: check d (32, 64 or 128) and B, H, N >= 1; launch one block per query tile of each
    // TODO: (b, h) on `stream` and return cudaGetLastError().
    // STUB: return MW_NOT_IMPLEMENTED;
    if (B < 1 || H < 1 || N < 1 || (d != 32 && d != 64 && d != 128))
        return cudaErrorInvalidValue;
    const int BH = B * H;
    const int big = d == 32 ? 4 : d == 64 ? 0 : 2; /* the fast one, then its small-tile twin */
    static int sms = 0;
    if (sms == 0) {
        int device;
        cudaError_t err = cudaGetDevice(&device);
        if (err == cudaSuccess)
            err = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
        if (err != cudaSuccess)
            return err;
    }
    /* At most one block per SM with Br = 128: the twin, with twice the blocks. */
    const bool few = (size_t)BH * ((N + 127) / 128) <= (size_t)sms;
    return choices[big + few].fn(Q, K, V, O, L, BH, N, scale, causal, stream);
    // END SOLUTION
}
