/* test_matmul.c: chapter 03's tolerance (chapters/03-matmul/tolerance.h) at
 * its edge, on the CPU: FP32 sums in every order a kernel might use pass;
 * products of inputs rounded (or truncated) to TF32 fail; small-integer
 * inputs give the same bits in every order. The inputs are the grader's
 * (grader/rng.h), the shapes those of the chapter's cases. */
#include "tap.h"

#include "../../chapters/03-matmul/tolerance.h"

#include <stdlib.h>

enum { SEQ, NOFMA, SPLIT, WARP, TREE, NORDERS };
static const char *order_name[NORDERS] = {"sequential (FMA)", "sequential, no FMA",
                                          "split-K in 16 parts", "32 strided partial sums",
                                          "pairwise tree"};

/* Products in float (an FMA keeps them exact), summed in one order. */
static float sum_in_order(const float *a, const float *b, int K, int order, float *scratch)
{
    float s = 0.f;
    switch (order) {
    case SEQ:
        for (int k = 0; k < K; k++)
            s = fmaf(a[k], b[k], s);
        return s;
    case NOFMA:
        for (int k = 0; k < K; k++) {
            volatile float p = a[k] * b[k]; /* rounded, not fused */
            s += p;
        }
        return s;
    case SPLIT: /* split-K: 16 slices summed apart, then their totals */
        for (int part = 0; part < 16; part++) {
            float t = 0.f;
            for (int k = part * K / 16; k < (part + 1) * K / 16; k++)
                t = fmaf(a[k], b[k], t);
            s += t;
        }
        return s;
    case WARP: /* 32 lanes, each every 32nd term, then a shuffle tree */
        for (int lane = 0; lane < 32; lane++) {
            scratch[lane] = 0.f;
            for (int k = lane; k < K; k += 32)
                scratch[lane] = fmaf(a[k], b[k], scratch[lane]);
        }
        for (int w = 16; w > 0; w /= 2)
            for (int lane = 0; lane < w; lane++)
                scratch[lane] += scratch[lane + w];
        return scratch[0];
    default: /* TREE */
        for (int k = 0; k < K; k++)
            scratch[k] = a[k] * b[k];
        for (int w = 1; w < K; w *= 2)
            for (int k = 0; k + w < K; k += 2 * w)
                scratch[k] += scratch[k + w];
        return scratch[0];
    }
}

typedef struct outcome {
    int checked, fail[NORDERS], tf32_fail, trunc_fail, tf32_named;
    double worst[NORDERS]; /* largest error / tolerance */
} outcome;

/* `count` outputs of an M x N x K product (row m, column n from the grader's
 * generator), each summed in every order and in TF32. */
static outcome run_shape(int M, int N, int K, int count, uint64_t seed)
{
    outcome o = {0};
    float *a = malloc(K * sizeof *a), *b = malloc(K * sizeof *b);
    float *ta = malloc(K * sizeof *ta), *tb = malloc(K * sizeof *tb);
    float *xa = malloc(K * sizeof *xa), *xb = malloc(K * sizeof *xb);
    float *scratch = malloc((K > 32 ? K : 32) * sizeof *scratch);
    mw_tol tol = mw03_tolerance((size_t)K, MW_GEN_UNIFORM, 1.f);
    for (int e = 0; e < count; e++) {
        size_t i = count == M * N ? (size_t)e : mw_hash(seed, 0xabcdef, (uint64_t)e) % ((size_t)M * N);
        size_t m = i / N, n = i % N;
        double exact = 0, tf32_exact = 0;
        for (int k = 0; k < K; k++) {
            a[k] = mw_gen(seed, 1, m * K + k, MW_GEN_UNIFORM, 1.f);
            b[k] = mw_gen(seed, 2, (size_t)k * N + n, MW_GEN_UNIFORM, 1.f);
            ta[k] = mw03_tf32_round(a[k]), tb[k] = mw03_tf32_round(b[k]);
            xa[k] = mw03_tf32_trunc(a[k]), xb[k] = mw03_tf32_trunc(b[k]);
            exact += (double)a[k] * b[k];
            tf32_exact += (double)ta[k] * tb[k];
        }
        for (int r = 0; r < NORDERS; r++) {
            float got = sum_in_order(a, b, K, r, scratch);
            o.fail[r] += !mw_matches(got, exact, tol);
            double ratio = fabs(got - exact) / tol.atol;
            o.worst[r] = ratio > o.worst[r] ? ratio : o.worst[r];
        }
        /* Tensor cores: TF32 inputs, products exact, FP32 accumulation. */
        float tf32 = sum_in_order(ta, tb, K, SEQ, scratch);
        o.tf32_fail += !mw_matches(tf32, exact, tol);
        o.tf32_named += mw_matches(tf32, tf32_exact, tol);
        o.trunc_fail += !mw_matches(sum_in_order(xa, xb, K, SEQ, scratch), exact, tol);
        o.checked++;
    }
    free(a), free(b), free(ta), free(tb), free(xa), free(xb), free(scratch);
    return o;
}

static void check_shape(int M, int N, int K, int count, double min_tf32_share)
{
    char name[160];
    outcome o = run_shape(M, N, K, count, 20261122);
    for (int r = 0; r < NORDERS; r++) {
        snprintf(name, sizeof name, "%dx%dx%d: FP32 %s passes (%d outputs; worst %.3f of the tolerance)",
                 M, N, K, order_name[r], o.checked, o.worst[r]);
        ok(o.fail[r] == 0, name);
    }
    snprintf(name, sizeof name, "%dx%dx%d: TF32-rounded inputs fail (%d of %d outputs, at least %.0f%%)",
             M, N, K, o.tf32_fail, o.checked, 100 * min_tf32_share);
    ok(o.tf32_fail >= min_tf32_share * o.checked, name);
    snprintf(name, sizeof name, "%dx%dx%d: TF32-truncated inputs fail (%d of %d outputs)", M, N, K,
             o.trunc_fail, o.checked);
    ok(o.trunc_fail >= min_tf32_share * o.checked, name);
    snprintf(name, sizeof name,
             "%dx%dx%d: every TF32 answer matches the exact sum of TF32 products (the mistake "
             "the grader names)",
             M, N, K);
    ok(o.tf32_named == o.checked, name);
}

/* The tolerance the harness uses: 0 for small integers, 2^-20 K scale^2
 * otherwise. */
static void test_formula(void)
{
    mw_tol t = mw03_tolerance(4096, MW_GEN_SMALLINT, 1.f);
    ok(t.atol == 0 && t.rtol == 0, "small integers: checked exactly");
    t = mw03_tolerance(1024, MW_GEN_UNIFORM, 1.f);
    is_double(t.atol, 1024 * ldexp(1.0, -20), 0, "uniform: atol = 2^-20 K");
    t = mw03_tolerance(1024, MW_GEN_UNIFORM, 4.f);
    is_double(t.atol, 16 * 1024 * ldexp(1.0, -20), 0, "uniform: atol scales with scale^2");
    ok(mw03_tf32_round(1.0f + ldexp(1.0, -11)) == 1.0f + ldexp(1.0, -10),
       "TF32 rounding: a tie rounds away from zero");
    ok(mw03_tf32_round(1.0f + ldexp(1.0, -12)) == 1.0f, "TF32 rounding: below half an ulp rounds down");
    ok(mw03_tf32_trunc(1.0f + ldexp(1.0, -10) - ldexp(1.0, -23)) == 1.0f,
       "TF32 truncation drops the 13 low bits");
    ok(isnan(mw03_tf32_round(NAN)) && mw03_tf32_round(INFINITY) == INFINITY,
       "TF32 rounding keeps NaN and Inf");
}

/* Integers in [-4, 4]: every partial sum of up to 2^20 products is an
 * integer below 2^24 in magnitude, so every order gives the exact answer. */
static void test_exact_integers(void)
{
    const int K = 4096; /* the longest exact case (64 x 64 x 4096) */
    float *a = malloc(K * sizeof *a), *b = malloc(K * sizeof *b), scratch[K];
    int same = 1;
    double largest = 0;
    for (int e = 0; e < 256; e++) {
        double exact = 0;
        for (int k = 0; k < K; k++) {
            a[k] = mw_gen(7, 1, (uint64_t)e * K + k, MW_GEN_SMALLINT, 1.f);
            b[k] = mw_gen(7, 2, (uint64_t)e * K + k, MW_GEN_SMALLINT, 1.f);
            exact += (double)a[k] * b[k];
        }
        for (int r = 0; r < NORDERS; r++)
            same &= (double)sum_in_order(a, b, K, r, scratch) == exact;
        largest = fabs(exact) > largest ? fabs(exact) : largest;
    }
    ok(same, "small integers, K = 4096: every order gives the exact sum");
    ok(16.0 * K <= ldexp(1.0, 24), "16 K <= 2^24: no partial sum can round");
    char name[96];
    snprintf(name, sizeof name, "small integers: the largest sum seen, %.0f, is below 16 K", largest);
    ok(largest <= 16.0 * K, name);
    free(a), free(b);
}

int main(void)
{
    test_formula();
    test_exact_integers();
    /* Every output of a 64 x 64 x 1024 product; 512 sampled outputs at the
     * K of the large cases and of the largest bench size; short sums. */
    check_shape(64, 64, 1024, 64 * 64, 0.5);
    check_shape(4096, 4096, 4096, 512, 0.3);
    check_shape(8192, 8192, 8192, 256, 0.1);
    check_shape(1000, 513, 77, 4096, 0.8);
    check_shape(200, 300, 1, 2000, 0.8);
    return done_testing();
}
