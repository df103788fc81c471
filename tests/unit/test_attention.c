/* test_attention.c: chapter 05's tolerance (chapters/05-attention/tolerance.h)
 * at its edge, on the CPU. On the grader's inputs (grader/rng.h) and shapes
 * like the chapter's cases, the exact rows are computed in double as
 * reference.c's mw05_attend_row does, then in float in the orders a correct
 * kernel may use: flash attention with tiles of 16 and 64 keys, with expf or with
 * exp2f and scale * log2(e) folded into the scores, and the unfused
 * scores / softmax / P V. Every output of those must pass with a margin of
 * 2 at least; P rounded to bf16, or l and O summed in fp16-like precision,
 * must fail a clear share of the outputs; rare NaN inputs give NaN exactly
 * where the reference does. Then exercise 05.3's bf16 tolerance
 * (mw05_tolerance_bf16) on bf16 inputs: the bf16 kernel's arithmetic (P
 * rounded to bf16 before P V, O rounded to bf16) passes with a margin of
 * 2; l and O summed in fp16-like precision fail it from N = 1000 on, and
 * no running max fails it at inputs of magnitude 10. Then 05.2's
 * tensor-core path on Hopper (3xTF32) in a model of the tensor cores' truncating adds
 * that reproduces the H100's drift: with its scores summed in pieces it
 * passes, using no more of the tolerance than FP32 flash; summed in one
 * accumulator, L fails on scores of one sign, as it did on the H100.
 * Last, the overflow inputs (key runs whose float scores are -inf among
 * scores far below zero): every correct order passes, and a flash that
 * takes an all -inf tile's max as 0 fails. */
#include "tap.h"

#include "../../chapters/05-attention/tolerance.h"
#include "rng.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* a * b + c stays two roundings where the code says so (fmaf where it
 * means one): GCC's -std=c11 does not contract, clang needs telling. */
#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#endif

enum {
    FLASH16,     /* flash, 16 keys a tile, expf */
    FLASH64,     /* flash, 64 keys a tile, expf */
    FLASH16_EXP2, /* flash, 16 keys a tile, exp2f, scale * log2(e) folded */
    FLASH64_EXP2, /* flash, 64 keys a tile, exp2f, scale * log2(e) folded */
    UNFUSED,     /* scores, softmax, P V: plain float sums */
    NCORRECT,
    BF16_P = NCORRECT, /* flash 64, P rounded to bf16 before P V */
    FP16_SUMS,   /* flash 64, l and O rounded to 11 significant bits at every step */
    NORDERS,
    /* The bf16 kernel (exercise 05.3) on bf16 inputs: exp2f folded, P
     * rounded to bf16 before P V (l summed from float P, as FA2 does), O
     * rounded to bf16 at the end; then the same with a mistake. */
    B_FLASH16 = NORDERS, /* tiles of 16 keys */
    B_FLASH64,           /* tiles of 64 keys */
    B_NCORRECT,
    B_FP16_SUMS = B_NCORRECT, /* B_FLASH64 with l and O summed in fp16-like precision */
    B_NO_MAX,                 /* B_FLASH64 with no running max: exp2 of the raw scores */
    B_END,
    /* 05.2's tensor-core path (3xTF32 wgmma) as modelled below: S from the
     * model of the tensor cores' adds, then flash with Bc = 32, exp2f folded. */
    TC_PIECES = B_END, /* S summed in pieces of 8 of d, the pieces added in float */
    TC_ONE,    /* S's 48 instructions in one accumulator */
    /* A mistake that only the overflow inputs show: flash 64, exp2f folded,
     * with the max of a tile whose scores are all -inf taken as 0 (a guard
     * meant for scale 0, x == -inf ? 0 : x c, that returns 0): the running
     * max rises to 0 and every later exp underflows. */
    ZERO_MAX,
    NALL
};
static const char *order_name[NALL] = {
    "flash, Bc = 16, expf",         "flash, Bc = 64, expf",
    "flash, Bc = 16, exp2f folded", "flash, Bc = 64, exp2f folded",
    "unfused, sequential sums",     "flash, P rounded to bf16",
    "flash, l and O summed in fp16-like precision",
    "bf16 flash, Bc = 16",          "bf16 flash, Bc = 64",
    "bf16 flash, l and O summed in fp16-like precision",
    "bf16 flash without the running max",
    "3xTF32 model, S in pieces of 8",  "3xTF32 model, S in one accumulator",
    "flash, an all -inf tile's max taken as 0"};

#define LOG2E_F 1.44269504088896341f
#define LN2_F 0.693147180559945309f

/* x rounded to bf16 (8 significant bits), to nearest even; NaN and Inf kept. */
static float bf16_round(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7f800000u) != 0x7f800000u) {
        u += 0x7fffu + ((u >> 16) & 1u);
        u &= 0xffff0000u;
    }
    memcpy(&x, &u, sizeof u);
    return x;
}

/* x rounded to 11 significant bits (fp16's precision, float's exponent
 * range), to nearest even; NaN and Inf kept. */
static float fp16_round(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7f800000u) != 0x7f800000u) {
        u += 0xfffu + ((u >> 13) & 1u);
        u &= 0xffffe000u;
    }
    memcpy(&x, &u, sizeof u);
    return x;
}

/* fmaf is correctly rounded everywhere, but without an FMA unit in the
 * compiler's target (x86-64's baseline has none) it is a library call,
 * and those calls are most of this test's time. The two loops that make
 * them are compiled twice, the second time for the FMA unit, and the CPU
 * picks: the same bits either way, several times faster. */
#define AXPY_BODY                                                                                 \
    {                                                                                             \
        for (int k = 0; k < d; k++)                                                               \
            o[k] = fmaf(p, v[k], o[k]);                                                           \
    }
/* out[j] = q . K_j for j < n, each a sequential fmaf sum over k; four keys
 * at a time, so that four independent chains are in flight. */
#define DOTS_BODY                                                                                 \
    {                                                                                             \
        int j = 0;                                                                                \
        for (; j + 4 <= n; j += 4) {                                                              \
            const float *k0 = K + (size_t)j * d, *k1 = k0 + d, *k2 = k1 + d, *k3 = k2 + d;        \
            float a0 = 0.f, a1 = 0.f, a2 = 0.f, a3 = 0.f;                                         \
            for (int k = 0; k < d; k++) {                                                         \
                a0 = fmaf(q[k], k0[k], a0);                                                       \
                a1 = fmaf(q[k], k1[k], a1);                                                       \
                a2 = fmaf(q[k], k2[k], a2);                                                       \
                a3 = fmaf(q[k], k3[k], a3);                                                       \
            }                                                                                     \
            out[j] = a0, out[j + 1] = a1, out[j + 2] = a2, out[j + 3] = a3;                       \
        }                                                                                         \
        for (; j < n; j++) {                                                                      \
            float a = 0.f;                                                                        \
            for (int k = 0; k < d; k++)                                                           \
                a = fmaf(q[k], K[(size_t)j * d + k], a);                                          \
            out[j] = a;                                                                           \
        }                                                                                         \
    }

static void axpy_generic(float *o, float p, const float *v, int d) AXPY_BODY
static void dots_generic(const float *q, const float *K, int d, int n, float *out) DOTS_BODY
static void (*axpy)(float *, float, const float *, int) = axpy_generic;
static void (*dots_fma)(const float *, const float *, int, int, float *) = dots_generic;

#if (defined(__x86_64__) || defined(__i386__)) && defined(__GNUC__)
#define MW_FMA_CLONES 1
__attribute__((target("fma"))) static void axpy_fma(float *o, float p, const float *v, int d)
    AXPY_BODY
__attribute__((target("fma"))) static void dots_fma_unit(const float *q, const float *K, int d,
                                                         int n, float *out) DOTS_BODY
#endif

static void pick_fma(void)
{
#ifdef MW_FMA_CLONES
    __builtin_cpu_init();
    if (__builtin_cpu_supports("fma"))
        axpy = axpy_fma, dots_fma = dots_fma_unit;
#endif
}

/* ---- a model of 3xTF32 on the tensor cores (05.2's d = 128 path on Hopper) ----
 *
 * x = big + small, big = x rounded to TF32 (10 mantissa bits, to nearest),
 * small = x - big (exact). The tensor cores read each operand as TF32 (the
 * low 13 bits dropped), form the products exactly, align each
 * instruction's terms (8 products and the accumulator) to the largest with
 * TC_GUARD bits beyond float's 24, truncated, and truncate the sum to 24
 * bits. With 3 guard bits the model reproduces the H100's drift on scores
 * of one sign (Q, V > 0 > K, d = 128: L about 12 u s_max short with one
 * accumulator); 0 or 1 guard bits drift more than measured. */
#define TC_GUARD 3

static float tf32_nearest(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7f800000u) != 0x7f800000u)
        u = (u + 0x1000u) & 0xffffe000u;
    memcpy(&x, &u, sizeof u);
    return x;
}

static float tf32_read(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    u &= 0xffffe000u;
    memcpy(&x, &u, sizeof u);
    return x;
}

/* x truncated toward zero to a multiple of `ulp` (a power of two). */
static double trunc_to(double x, double ulp) { return trunc(x / ulp) * ulp; }

/* One instruction: acc + the n terms, as the model adds them. */
static double tc_add(double acc, const double *terms, int n)
{
    double big = fabs(acc);
    for (int i = 0; i < n; i++)
        big = fabs(terms[i]) > big ? fabs(terms[i]) : big;
    if (big == 0)
        return 0;
    int e;
    frexp(big, &e);
    double ulp = ldexp(1.0, e - 24 - TC_GUARD), sum = trunc_to(acc, ulp);
    for (int i = 0; i < n; i++)
        sum += trunc_to(terms[i], ulp);
    if (sum == 0)
        return 0;
    frexp(sum, &e);
    return trunc_to(sum, ldexp(1.0, e - 24));
}

/* q . K_j for j < n as 05.2's path sums it: per 8 of d the instructions
 * small big, big small, big big; in a fresh accumulator each (pieces, the
 * pieces added in float) or all in one. d a multiple of 8. */
static void dots_tc(const float *q, const float *K, int d, int n, int pieces, float *out)
{
    for (int j = 0; j < n; j++) {
        const float *kr = K + (size_t)j * d;
        double acc = 0;
        float total = 0.f;
        for (int k0 = 0; k0 < d; k0 += 8) {
            double sb[8], bs[8], bb[8];
            for (int k = 0; k < 8; k++) {
                float qb = tf32_nearest(q[k0 + k]), kb = tf32_nearest(kr[k0 + k]);
                float qs = q[k0 + k] - qb, ks = kr[k0 + k] - kb;
                sb[k] = (double)tf32_read(qs) * tf32_read(kb);
                bs[k] = (double)tf32_read(qb) * tf32_read(ks);
                bb[k] = (double)tf32_read(qb) * tf32_read(kb);
            }
            if (pieces)
                acc = 0;
            acc = tc_add(tc_add(tc_add(acc, sb, 8), bs, 8), bb, 8);
            if (pieces)
                total += (float)acc;
        }
        out[j] = pieces ? total : (float)acc;
    }
}

/* One (b, h) of a case: K and V in float, as the grader generates them. */
typedef struct head {
    int N, d, causal, gen, bf16; /* bf16: Q, K, V rounded to bf16, as 05.3's are */
    float scale, g;
    uint64_t seed;
    uint32_t stream[3]; /* Q, K, V */
    float *K, *V;
} head;

static head make_head(int N, int d, float scale, int causal, float g, int gen, int bf16,
                      uint64_t seed, uint32_t first_stream)
{
    head h = {N, d, causal, gen, bf16, scale, g, seed,
              {first_stream, first_stream + 1, first_stream + 2},
              malloc((size_t)N * d * sizeof(float)), malloc((size_t)N * d * sizeof(float))};
    for (size_t e = 0; e < (size_t)N * d; e++) {
        h.K[e] = mw_gen(seed, h.stream[1], e, gen, g);
        h.V[e] = mw_gen(seed, h.stream[2], e, gen, g);
        if (bf16)
            h.K[e] = bf16_round(h.K[e]), h.V[e] = bf16_round(h.V[e]);
    }
    return h;
}

/* Row i in double, as reference.c's mw05_attend_row computes it: out[0..d-1]
 * is O's row, out[d] is L. */
static void exact_row(const head *h, const float *qf, int i, double *s, double *out)
{
    int d = h->d, last = h->causal ? i : h->N - 1;
    double scale = h->scale, m = -INFINITY, l = 0;
    int nan = 0;
    for (int j = 0; j <= last; j++) {
        double acc = 0;
        for (int k = 0; k < d; k++)
            acc += (double)qf[k] * h->K[(size_t)j * d + k];
        s[j] = scale * acc;
        nan |= isnan(s[j]);
        m = s[j] > m ? s[j] : m;
    }
    for (int k = 0; k < d; k++)
        out[k] = 0;
    for (int j = 0; j <= last; j++) {
        double p = exp(s[j] - m);
        l += p;
        for (int k = 0; k < d; k++)
            out[k] += p * h->V[(size_t)j * d + k];
    }
    for (int k = 0; k < d; k++)
        out[k] = nan ? NAN : out[k] / l;
    out[d] = nan ? NAN : m + log(l);
}

/* Flash attention over keys 0..last in tiles of Bc, from the raw dot
 * products q . K_j (float, fmaf): running max m, P = exp(S - m_new), l and
 * O rescaled by exp(m_old - m_new), O divided by l at the end. `order`
 * picks exp or exp2 (scale * log2(e) folded into the scores), and the
 * wrong-precision variants. out as for exact_row. */
static void flash_row(const head *h, const float *dot, int last, int Bc, int order, float *p,
                      float *o, float *out)
{
    int d = h->d, bf16 = order >= B_FLASH16 && order < B_END;
    int exp2_form = order == FLASH16_EXP2 || order == FLASH64_EXP2 || order == ZERO_MAX || bf16;
    int fp16_sums = order == FP16_SUMS || order == B_FP16_SUMS, no_max = order == B_NO_MAX;
    float c = exp2_form ? h->scale * LOG2E_F : h->scale;
    float m = no_max ? 0.f : -INFINITY, l = 0.f;
    for (int k = 0; k < d; k++)
        o[k] = 0.f;
    for (int j0 = 0; j0 <= last; j0 += Bc) {
        int j1 = j0 + Bc - 1 < last ? j0 + Bc - 1 : last;
        float tile_max = -INFINITY;
        for (int j = j0; j <= j1; j++) {
            p[j - j0] = c * dot[j]; /* the score, in base e or 2 */
            tile_max = fmaxf(tile_max, p[j - j0]);
        }
        if (order == ZERO_MAX && tile_max == -INFINITY)
            tile_max = 0.f;
        float m_new = no_max ? m : fmaxf(m, tile_max);
        float alpha = exp2_form ? exp2f(m - m_new) : expf(m - m_new), tile_sum = 0.f;
        for (int j = j0; j <= j1; j++) {
            float x = p[j - j0] - m_new;
            p[j - j0] = exp2_form ? exp2f(x) : expf(x);
        }
        if (fp16_sums) {
            l = fp16_round(l * alpha);
            for (int j = j0; j <= j1; j++)
                l = fp16_round(l + p[j - j0]);
        } else {
            for (int j = j0; j <= j1; j++)
                tile_sum += p[j - j0];
            l = fmaf(l, alpha, tile_sum);
        }
        if (order == BF16_P || bf16) /* the row sum above is float P's, as FA2 does */
            for (int j = j0; j <= j1; j++)
                p[j - j0] = bf16_round(p[j - j0]);
        for (int k = 0; k < d; k++)
            o[k] = fp16_sums ? fp16_round(o[k] * alpha) : o[k] * alpha;
        for (int j = j0; j <= j1; j++) {
            const float *v = h->V + (size_t)j * d;
            float pj = p[j - j0];
            if (fp16_sums)
                for (int k = 0; k < d; k++)
                    o[k] = fp16_round(fmaf(pj, v[k], o[k]));
            else
                axpy(o, pj, v, d);
        }
        m = m_new;
    }
    for (int k = 0; k < d; k++)
        out[k] = bf16 ? bf16_round(o[k] / l) : o[k] / l;
    out[d] = exp2_form ? (m + log2f(l)) * LN2_F : m + logf(l);
}

/* Unfused: S = scale * (q . K_j) with products rounded (no FMA), a float
 * max and a float sequential sum, P = exp(S - m) / l written, then
 * O = P V summed sequentially over the keys. */
static void unfused_row(const head *h, const float *dot, int last, float *p, float *out)
{
    int d = h->d;
    float m = -INFINITY, l = 0.f;
    for (int j = 0; j <= last; j++) {
        p[j] = h->scale * dot[j];
        m = p[j] > m ? p[j] : m;
    }
    for (int j = 0; j <= last; j++) {
        p[j] = expf(p[j] - m);
        l += p[j];
    }
    for (int j = 0; j <= last; j++)
        p[j] = p[j] / l;
    for (int k = 0; k < d; k++)
        out[k] = 0.f;
    for (int j = 0; j <= last; j++)
        axpy(out, p[j], h->V + (size_t)j * d, d);
    out[d] = m + logf(l);
}

typedef struct outcome {
    size_t o_checked, l_checked, o_nan, l_nan, o_nan_in_finite_rows;
    size_t o_fail[NALL], l_fail[NALL];
    double worst_o[NALL], worst_l[NALL]; /* largest |err| / (atol + rtol |exact|) */
} outcome;

/* The rows of one head to check: all of them, or the first and last 16
 * and 32 at random between. */
static int pick_rows(int N, int sample, uint64_t seed, int *rows)
{
    if (!sample) {
        for (int i = 0; i < N; i++)
            rows[i] = i;
        return N;
    }
    int n = 0;
    for (int i = 0; i < 16; i++)
        rows[n++] = i;
    for (int i = 0; i < 32; i++)
        rows[n++] = 16 + (int)(mw_hash(seed, 0x5eed, (uint64_t)i) % (uint64_t)(N - 32));
    for (int i = N - 16; i < N; i++)
        rows[n++] = i;
    return n;
}

/* Orders first..end-1 of one head, against the FP32 tolerance, or the
 * bf16 one for a bf16 head. */
static outcome run_head(const head *h, int sample, int first, int end)
{
    outcome r = {0};
    int N = h->N, d = h->d;
    mw_tol (*tolerance)(double, double, double, double, int) =
        h->bf16 ? mw05_tolerance_bf16 : mw05_tolerance;
    mw_tol tol_o = tolerance(N, d, h->scale, h->g, 0);
    mw_tol tol_l = tolerance(N, d, h->scale, h->g, 1);
    int *rows = malloc((size_t)N * sizeof *rows);
    double *s = malloc((size_t)N * sizeof *s), exact[129];
    float *dot_fma = malloc((size_t)N * sizeof(float)), *dot_plain = malloc((size_t)N * sizeof(float));
    float *dot_tc = malloc((size_t)N * sizeof(float));
    float *p = malloc((size_t)N * sizeof(float)), q[128], o[128], got[129];
    int nrows = pick_rows(N, sample, h->seed ^ (uint64_t)N, rows);
    for (int ri = 0; ri < nrows; ri++) {
        int i = rows[ri], last = h->causal ? i : N - 1;
        for (int k = 0; k < d; k++) {
            q[k] = mw_gen(h->seed, h->stream[0], (size_t)i * d + k, h->gen, h->g);
            q[k] = h->bf16 ? bf16_round(q[k]) : q[k];
        }
        exact_row(h, q, i, s, exact);
        dots_fma(q, h->K, d, last + 1, dot_fma);
        for (int j = 0; j <= last; j++) {
            const float *kr = h->K + (size_t)j * d;
            float b = 0.f;
            for (int k = 0; k < d; k++)
                b += q[k] * kr[k]; /* two roundings: not contracted */
            dot_plain[j] = b;
        }
        for (int e = 0; e <= d; e++) {
            r.o_checked += e < d, r.l_checked += e == d;
            r.o_nan += e < d && isnan(exact[e]), r.l_nan += e == d && isnan(exact[e]);
            r.o_nan_in_finite_rows += e < d && isnan(exact[e]) && !isnan(exact[d]);
        }
        for (int ord = first; ord < end; ord++) {
            if (ord == UNFUSED)
                unfused_row(h, dot_plain, last, p, got);
            else if (ord == TC_PIECES || ord == TC_ONE) {
                dots_tc(q, h->K, d, last + 1, ord == TC_PIECES, dot_tc);
                flash_row(h, dot_tc, last, 32, FLASH64_EXP2, p, o, got);
            } else
                flash_row(h, dot_fma, last,
                          ord == FLASH16 || ord == FLASH16_EXP2 || ord == B_FLASH16 ? 16 : 64,
                          ord, p, o, got);
            for (int e = 0; e <= d; e++) {
                mw_tol tol = e < d ? tol_o : tol_l;
                int bad = !mw_matches(got[e], exact[e], tol);
                double ratio = isnan(exact[e]) ? 0
                                               : fabs(got[e] - exact[e]) /
                                                     (tol.atol + tol.rtol * fabs(exact[e]));
                if (e < d) {
                    r.o_fail[ord] += bad;
                    r.worst_o[ord] = ratio > r.worst_o[ord] ? ratio : r.worst_o[ord];
                } else {
                    r.l_fail[ord] += bad;
                    r.worst_l[ord] = ratio > r.worst_l[ord] ? ratio : r.worst_l[ord];
                }
            }
        }
    }
    free(rows), free(s), free(dot_fma), free(dot_plain), free(dot_tc), free(p);
    return r;
}

/* A check that the tolerance is known not to meet: TAP's TODO, shown by
 * prove (as "unexpectedly succeeded" once it passes) without failing it. */
static void todo_ok(int cond, const char *name, const char *why)
{
    tap_count++;
    printf("%sok %d - %s # TODO %s\n", cond ? "" : "not ", tap_count, name, why);
}

#define MIN_FAIL 0.1 /* the share of O a wrong precision must fail at g = 1 */

/* One shape at g = 1 and 10: every correct order passes with a margin of
 * 2 (worst |err| < atol / 2); at g = 1, P rounded to bf16 and fp16-like
 * sums fail at least MIN_FAIL of O, and the fp16 sums half of L. `loose`
 * (1 << BF16_P, 1 << FP16_SUMS) marks the wrong precisions that the
 * tolerance is known to let through at this shape: their check is a TODO. */
static void check_shape(int N, int d, float scale, int causal, int sample, unsigned loose,
                        uint32_t first_stream)
{
    static const float gs[2] = {1.f, 10.f};
    for (int gi = 0; gi < 2; gi++) {
        char what[96], name[256];
        snprintf(what, sizeof what, "N=%d d=%d scale=%.4g%s g=%g", N, d, scale,
                 causal ? " causal" : "", gs[gi]);
        head h = make_head(N, d, scale, causal, gs[gi], MW_GEN_UNIFORM, 0, 20261122,
                           first_stream + 4 * gi);
        outcome r = run_head(&h, sample, 0, NORDERS);
        mw_tol tol = mw05_tolerance(N, d, scale, gs[gi], 0), tl = mw05_tolerance(N, d, scale, gs[gi], 1);
        printf("# %s: atol O %.3g, L %.3g, %zu O and %zu L outputs%s\n", what, tol.atol, tl.atol, r.o_checked,
               r.l_checked, sample ? " (64 sampled rows)" : "");
        for (int ord = 0; ord < NCORRECT; ord++) {
            double worst = r.worst_o[ord] > r.worst_l[ord] ? r.worst_o[ord] : r.worst_l[ord];
            printf("#   %-30s worst |err|/atol: O %.4f, L %.4f\n", order_name[ord],
                   r.worst_o[ord], r.worst_l[ord]);
            snprintf(name, sizeof name, "%s: FP32 %s passes every output, worst %.3f of atol",
                     what, order_name[ord], worst);
            ok(r.o_fail[ord] == 0 && r.l_fail[ord] == 0 && worst < 0.5, name);
        }
        for (int ord = NCORRECT; ord < NORDERS; ord++) {
            double fo = (double)r.o_fail[ord] / r.o_checked, fl = (double)r.l_fail[ord] / r.l_checked;
            printf("#   %-30s fails %.1f%% of O, %.1f%% of L (worst |err|/atol: O %.2f, L %.2f)\n",
                   order_name[ord], 100 * fo, 100 * fl, r.worst_o[ord], r.worst_l[ord]);
            if (gi != 0)
                continue;
            snprintf(name, sizeof name, "%s: %s fails %.1f%% of O (at least %.0f%%)", what,
                     order_name[ord], 100 * fo, 100 * MIN_FAIL);
            if (loose & (1u << ord))
                todo_ok(fo >= MIN_FAIL, name,
                        "the tolerance lets this through (chapters/05-attention/tolerance.h)");
            else
                ok(fo >= MIN_FAIL, name);
            if (ord == FP16_SUMS) {
                snprintf(name, sizeof name, "%s: %s fails %.1f%% of L (at least 50%%)", what,
                         order_name[ord], 100 * fl);
                ok(fl >= 0.5, name);
            }
        }
        free(h.K), free(h.V);
    }
}

#define BF16_MARGIN 0.5 /* the share of its tolerance a correct bf16 kernel may use */

/* One shape of exercise 05.3 at g = 1 and 10, on bf16 inputs against
 * mw05_tolerance_bf16: the bf16 kernel in tiles of 16 and 64 keys passes
 * every output using at most BF16_MARGIN of it; at g = 1 fp16-like sums
 * fail at least MIN_FAIL of O or of L when `sums_fail` (they do not at
 * short rows, where few additions round); at g = 10 (scores past 128)
 * the kernel without the running max fails at least MIN_FAIL of O. */
static void check_shape_bf16(int N, int d, float scale, int causal, int sample, int sums_fail,
                             uint32_t first_stream)
{
    static const float gs[2] = {1.f, 10.f};
    for (int gi = 0; gi < 2; gi++) {
        char what[96], name[256];
        snprintf(what, sizeof what, "bf16 N=%d d=%d scale=%.4g%s g=%g", N, d, scale,
                 causal ? " causal" : "", gs[gi]);
        head h = make_head(N, d, scale, causal, gs[gi], MW_GEN_UNIFORM, 1, 20261124,
                           first_stream + 4 * gi);
        outcome r = run_head(&h, sample, B_FLASH16, B_END);
        mw_tol tol = mw05_tolerance_bf16(N, d, scale, gs[gi], 0);
        printf("# %s: atol O %.3g rtol %.3g, %zu O and %zu L outputs%s\n", what, tol.atol,
               tol.rtol, r.o_checked, r.l_checked, sample ? " (64 sampled rows)" : "");
        for (int ord = B_FLASH16; ord < B_END; ord++) {
            double fo = (double)r.o_fail[ord] / r.o_checked, fl = (double)r.l_fail[ord] / r.l_checked;
            printf("#   %-50s fails %.1f%% of O, %.1f%% of L (worst |err|/tol: O %.3f, L %.3f)\n",
                   order_name[ord], 100 * fo, 100 * fl, r.worst_o[ord], r.worst_l[ord]);
        }
        for (int ord = B_FLASH16; ord < B_NCORRECT; ord++) {
            double worst = r.worst_o[ord] > r.worst_l[ord] ? r.worst_o[ord] : r.worst_l[ord];
            snprintf(name, sizeof name, "%s: %s passes every output, worst %.3f of the tolerance",
                     what, order_name[ord], worst);
            ok(r.o_fail[ord] == 0 && r.l_fail[ord] == 0 && worst < BF16_MARGIN, name);
        }
        double fo = (double)r.o_fail[B_FP16_SUMS] / r.o_checked;
        double fl = (double)r.l_fail[B_FP16_SUMS] / r.l_checked;
        if (gi == 0 && sums_fail) {
            snprintf(name, sizeof name, "%s: %s fails %.1f%% of O and %.1f%% of L (at least %.0f%% of one)",
                     what, order_name[B_FP16_SUMS], 100 * fo, 100 * fl, 100 * MIN_FAIL);
            ok(fo >= MIN_FAIL || fl >= MIN_FAIL, name);
        }
        fo = (double)r.o_fail[B_NO_MAX] / r.o_checked;
        if (gi == 1) {
            snprintf(name, sizeof name, "%s: %s fails %.1f%% of O (at least %.0f%%)", what,
                     order_name[B_NO_MAX], 100 * fo, 100 * MIN_FAIL);
            ok(fo >= MIN_FAIL, name);
        }
        free(h.K), free(h.V);
    }
}

/* Rare NaN inputs (1 in 1024): the FP32 orders give NaN exactly where the
 * double reference does, in O and in L, and finite values elsewhere. */
static size_t nan_columns; /* over every check_nan */

static void check_nan(int N, int d, int causal, uint32_t first_stream)
{
    char name[256];
    float scale = d == 64 ? 0.3f : (float)(1.0 / sqrt((double)d));
    head h = make_head(N, d, scale, causal, 1.f, MW_GEN_RARE_NAN, 0, 20261122, first_stream);
    outcome r = run_head(&h, 0, 0, NCORRECT);
    for (int ord = 0; ord < NCORRECT; ord++) {
        snprintf(name, sizeof name,
                 "rare NaN, N=%d d=%d%s: %s matches, NaN where the reference is NaN (%zu of %zu "
                 "O, %zu of %zu L)",
                 N, d, causal ? " causal" : "", order_name[ord], r.o_nan, r.o_checked, r.l_nan,
                 r.l_checked);
        ok(r.o_fail[ord] == 0 && r.l_fail[ord] == 0, name);
    }
    /* Without the mask a NaN anywhere in K spoils every row; with it the
     * rows before the first NaN key stay finite. */
    snprintf(name, sizeof name, "rare NaN, N=%d d=%d%s: the case has NaN rows%s", N, d,
             causal ? " causal" : "", causal ? " and finite ones" : "");
    ok(r.l_nan > 0 && (!causal || r.l_nan < r.l_checked), name);
    printf("#   %zu NaN entries of O in rows whose L is finite (a NaN in V: one column)\n",
           r.o_nan_in_finite_rows);
    nan_columns += r.o_nan_in_finite_rows;
    free(h.K), free(h.V);
}

static void test_helpers(void)
{
    ok(bf16_round(1.0f + ldexp(1.0, -8)) == 1.0f, "bf16: a tie rounds to even (down)");
    ok(bf16_round(1.0f + 3 * ldexp(1.0, -8)) == 1.0f + ldexp(1.0, -6),
       "bf16: a tie rounds to even (up)");
    ok(bf16_round(1.0f + ldexp(1.0, -8) + ldexp(1.0, -20)) == 1.0f + ldexp(1.0, -7),
       "bf16: above half an ulp rounds up");
    ok(fp16_round(1.0f + ldexp(1.0, -11)) == 1.0f && fp16_round(2049.f) == 2048.f,
       "fp16-like: 11 significant bits, ties to even");
    ok(isnan(bf16_round(NAN)) && isnan(fp16_round(NAN)), "bf16 and fp16 rounding keep NaN");
    /* The worked example in tolerance.h's comment. */
    const double u = ldexp(1.0, -24);
    mw_tol t = mw05_tolerance(4096, 64, 0.125, 1, 0), tl = mw05_tolerance(4096, 64, 0.125, 1, 1);
    is_double(t.atol, 48 * u + ldexp(1.0, -19), 1e-18,
              "tolerance.h: d = 64, N = 4096, g = 1, scale = 1/8: O's atol = 48 u + 2^-19");
    is_double(tl.atol, 24 * u + ldexp(1.0, -20) + 512 * u, 1e-18,
              "tolerance.h: ... and L's = 536 u + 2^-20");
    ok(t.rtol == 0 && tl.rtol == ldexp(1.0, -21), "tolerance.h: rtol 0 for O, 2^-21 for L");
    mw_tol b = mw05_tolerance_bf16(4096, 64, 0.125, 10, 0), bl = mw05_tolerance_bf16(4096, 64, 0.125, 10, 1);
    mw_tol f = mw05_tolerance(4096, 64, 0.125, 10, 0), fl = mw05_tolerance(4096, 64, 0.125, 10, 1);
    is_double(b.atol, 10 * ldexp(1.0, -8) + f.atol, 1e-15,
              "tolerance.h, bf16: O's atol = 2 x 2^-9 g + the FP32 atol (g = 10)");
    ok(b.rtol == ldexp(1.0, -8) && bl.rtol == fl.rtol, "tolerance.h, bf16: O's rtol 2 x 2^-9, L's as FP32's");
    is_double(bl.atol, ldexp(1.0, -8) + fl.atol, 1e-15,
              "tolerance.h, bf16: L's atol = 2 x 2^-9 + the FP32 atol");
}

/* 05.2's tensor-core path, as the model above has it, on scores of one
 * sign (Q, V > 0 > K, the grader's `below` and `scalars` cases at d = 128)
 * and on uniform inputs, every row: with S in pieces it passes every output,
 * using no more of the tolerance than FP32 flash itself (Bc = 64, exp2f)
 * does on the same head, plus a tenth; with S in one accumulator L fails on
 * the one-sign head, as it did on the H100. */
static void check_shape_tc(int N, float scale, int gen, float g, uint32_t first_stream)
{
    char what[128], name[256];
    snprintf(what, sizeof what, "N=%d d=128 scale=%.4g %s g=%g", N, scale,
             gen == MW_GEN_OPPOSED ? "Q, V > 0 > K" : "uniform", g);
    head h = make_head(N, 128, scale, 0, g, gen, 0, 20261127, first_stream);
    outcome fp32 = run_head(&h, 0, FLASH64_EXP2, FLASH64_EXP2 + 1);
    outcome tc = run_head(&h, 0, TC_PIECES, TC_ONE + 1);
    double ref = fmax(fp32.worst_o[FLASH64_EXP2], fp32.worst_l[FLASH64_EXP2]);
    for (int ord = TC_PIECES; ord <= TC_ONE; ord++)
        printf("#   %s: %-36s fails %zu of O, %zu of L (worst |err|/atol: O %.3f, L %.3f)\n", what,
               order_name[ord], tc.o_fail[ord], tc.l_fail[ord], tc.worst_o[ord], tc.worst_l[ord]);
    printf("#   %s: %-36s worst |err|/atol %.3f\n", what, order_name[FLASH64_EXP2], ref);
    double worst = fmax(tc.worst_o[TC_PIECES], tc.worst_l[TC_PIECES]);
    snprintf(name, sizeof name, "%s: %s passes every output, worst %.3f of atol (FP32 flash %.3f)",
             what, order_name[TC_PIECES], worst, ref);
    ok(tc.o_fail[TC_PIECES] == 0 && tc.l_fail[TC_PIECES] == 0 && worst <= ref + 0.1, name);
    if (gen == MW_GEN_OPPOSED) {
        snprintf(name, sizeof name, "%s: %s fails %zu of %zu L", what, order_name[TC_ONE],
                 tc.l_fail[TC_ONE], tc.l_checked);
        ok(tc.l_fail[TC_ONE] * 4 >= tc.l_checked, name);
    }
    free(h.K), free(h.V);
}

/* The grader's overflow inputs (the below inputs with runs of 2^16 / d keys
 * near -2^127, from key 2^16 / d on): some float scores are -inf, every
 * exact row is finite; every correct order passes every output, in FP32
 * and on bf16 inputs; taking an all -inf tile's max as 0 fails. Scores of
 * one sign use more of the tolerance than uniform ones (their dot products
 * do not cancel): the worst is printed, and no margin is asked. */
static void check_overflow(int N, int d, float scale, int causal, uint32_t first_stream)
{
    char what[128], name[256];
    snprintf(what, sizeof what, "overflow N=%d d=%d scale=%.4g%s g=10", N, d, scale,
             causal ? " causal" : "");
    head h = make_head(N, d, scale, causal, 10.f, MW_GEN_OVERFLOW, 0, 20261128, first_stream);
    float q[128], dot = 0.f;
    const float *k_run = h.K + (size_t)(65536 / d) * d; /* the first key of the first run */
    int q_finite = 1;
    for (int k = 0; k < d; k++) {
        q[k] = mw_gen(h.seed, h.stream[0], (size_t)k, h.gen, h.g);
        q_finite &= isfinite(q[k]) && isfinite(k_run[k]);
        dot = fmaf(q[k], k_run[k], dot);
    }
    snprintf(name, sizeof name, "%s: finite inputs, and row 0's score of key %d is -inf in float",
             what, 65536 / d);
    ok(q_finite && isinf(dot) && dot < 0, name);
    outcome r = run_head(&h, 1, 0, NCORRECT);
    outcome z = run_head(&h, 1, ZERO_MAX, ZERO_MAX + 1);
    for (int ord = 0; ord < NCORRECT; ord++) {
        double worst = fmax(r.worst_o[ord], r.worst_l[ord]);
        snprintf(name, sizeof name, "%s: FP32 %s passes every output, worst %.3f of atol", what,
                 order_name[ord], worst);
        ok(r.o_nan == 0 && r.o_fail[ord] == 0 && r.l_fail[ord] == 0, name);
    }
    double fo = (double)z.o_fail[ZERO_MAX] / z.o_checked;
    snprintf(name, sizeof name, "%s: %s fails %.1f%% of O (at least %.0f%%)", what,
             order_name[ZERO_MAX], 100 * fo, 100 * MIN_FAIL);
    ok(fo >= MIN_FAIL, name);
    free(h.K), free(h.V);
    head b = make_head(N, d, scale, causal, 10.f, MW_GEN_OVERFLOW, 1, 20261128, first_stream);
    outcome rb = run_head(&b, 1, B_FLASH16, B_NCORRECT);
    for (int ord = B_FLASH16; ord < B_NCORRECT; ord++) {
        double worst = fmax(rb.worst_o[ord], rb.worst_l[ord]);
        snprintf(name, sizeof name, "%s: %s on bf16 inputs passes every output, worst %.3f of atol",
                 what, order_name[ord], worst);
        ok(rb.o_fail[ord] == 0 && rb.l_fail[ord] == 0, name);
    }
    free(b.K), free(b.V);
}

int main(void)
{
    clock_t start = clock();
    pick_fma();
    test_helpers();
    /* The chapter's shapes (its scale is 0.3 at d = 64, 1/sqrt(d) otherwise;
     * 1/8 is the bench's): (N, d, scale, causal, 64 sampled rows or all,
     * the wrong precisions the tolerance lets through, first stream). The
     * rows of a 4096 or 16384 head cost 2 N d multiply-adds each per order. */
    const float s32 = (float)(1.0 / sqrt(32.0)), s128 = (float)(1.0 / sqrt(128.0));
    check_shape(33, 32, s32, 0, 0, 0, 1);
    check_shape(33, 32, s32, 1, 0, 0, 9);
    check_shape(127, 128, s128, 0, 0, 0, 17);
    check_shape(127, 128, s128, 1, 0, 0, 25);
    check_shape(1000, 64, 0.3f, 0, 0, 0, 33);
    check_shape(1000, 64, 0.3f, 1, 0, 0, 41);
    check_shape(4096, 128, s128, 0, 1, 0, 49);
    check_shape(16384, 64, 0.125f, 0, 1, 0, 57);
    check_shape_bf16(33, 64, 0.125f, 0, 0, 0, 81);
    check_shape_bf16(127, 128, s128, 1, 0, 0, 89);
    check_shape_bf16(1000, 64, 0.3f, 0, 0, 1, 97);
    check_shape_bf16(1000, 64, 0.3f, 1, 0, 1, 105);
    check_shape_bf16(4096, 128, s128, 0, 1, 1, 113);
    check_shape_bf16(16384, 64, 0.125f, 1, 1, 1, 121);
    /* 05.2's tensor-core path (the model): the scalars and below cases of
     * one sign at d = 128 (N = 130 at scales 1 and 2^15, N = 33 at the
     * chapter's), then uniform inputs. Streams 4k + 1 on, as the chapter's. */
    check_shape_tc(130, 1.f, MW_GEN_OPPOSED, 10.f, 129);
    check_shape_tc(130, 32768.f, MW_GEN_OPPOSED, 10.f, 133);
    check_shape_tc(33, s128, MW_GEN_OPPOSED, 10.f, 137);
    check_shape_tc(1000, s128, MW_GEN_UNIFORM, 1.f, 141);
    /* The overflow cases' shapes (one head each), causal and not. */
    check_overflow(2048, 128, s128, 0, 145);
    check_overflow(2048, 128, s128, 1, 149);
    check_overflow(3000, 64, 0.3f, 1, 153);
    check_overflow(4096, 32, s32, 0, 157);
    check_nan(33, 64, 0, 65);
    check_nan(33, 64, 1, 69);
    check_nan(127, 128, 1, 73);
    ok(nan_columns > 0, "rare NaN: some rows have a NaN column of O (from V) and a finite L");
    printf("# %.2f s of CPU time\n", (double)(clock() - start) / CLOCKS_PER_SEC);
    return done_testing();
}
