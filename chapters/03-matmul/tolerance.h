/* tolerance.h: chapter 03's tolerance, and TF32 rounding as the tensor
 * cores see it. Pure C: chapter.c uses it, and so does the unit test that
 * shows the tolerance passes FP32 sums in any order and fails TF32
 * (tests/unit/test_matmul.c). */
#ifndef MW03_TOLERANCE_H
#define MW03_TOLERANCE_H

#include "compare.h"
#include "rng.h"

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Small-integer inputs (MW_GEN_SMALLINT: integers in [-4, 4]) are checked
 * exactly: every product is an integer of magnitude <= 16, so every partial
 * sum of any subset of the K products, whatever the order, is an integer of
 * magnitude <= 16 K, exact in float while 16 K <= 2^24, that is K <= 2^20
 * (the cases use K <= 4096: sums below 2^16). Any order gives the same
 * bits, so an index bug shows as a wrong integer.
 *
 * Uniform inputs in [-1, 1) times `scale`: |got - ref| <= 2^-20 K scale^2,
 * that is 16 K units of float rounding (u = 2^-24) at unit scale.
 * - Any FP32 order passes. Summing K products in float rounds once per
 *   addition (and per product without FMA), each time by at most u times
 *   the partial sum. For K <= 16 that is at most K^2 u (every |a b| <= 1),
 *   inside 16 K u: the bound holds for any inputs. For longer sums the
 *   partial sums of these random inputs grow like sqrt(k)/3 and the
 *   roundings have random signs; the sequential order, the worst of the
 *   usual ones, ends up about K u / 6 (one standard deviation) from the
 *   exact sum. On the grader's inputs (tests/unit/test_matmul.c, which
 *   prints the worst case of each order) the largest sequential error is
 *   4% to 5% of the tolerance at K = 77, 1024 and 4096, with or without
 *   FMA; split-K, strided partial sums and trees stay under 2.5%. A margin
 *   of 20 covers sums longer and more numerous than those sampled.
 * - TF32 fails. The tensor cores' TF32 keeps 10 of the 23 mantissa bits:
 *   each input is off by up to 2^-11 relative, each product by up to
 *   2^-10, and the sum drifts like sqrt(K) * 1e-4, far above 2^-20 K while
 *   K is below a few tens of thousands: at K = 1 the TF32 error is up to
 *   4e-4 against a tolerance of 1e-6; at K = 1024, 1.1e-2 against 9.8e-4;
 *   at 4096, 2.4e-2 against 3.9e-3 (half the outputs fail); at 8192 a third
 *   of the outputs still fail. fp16 or bf16 inputs fail by more.
 * The relative term is 0: the rounding error follows the partial sums,
 * not the result, which can be near 0. */
static inline mw_tol mw03_tolerance(size_t K, int gen, float scale)
{
    if (gen == MW_GEN_SMALLINT)
        return (mw_tol){0.0, 0.0};
    double s = scale != 0.f ? (double)scale : 1.0;
    return (mw_tol){ldexp((double)K, -20) * s * s, 0.0};
}

/* A float rounded to TF32 (10 explicit mantissa bits), to nearest with ties
 * away from zero, as cvt.rna.tf32.f32 and wmma::__float_to_tf32 do. NaN
 * and infinities are kept. */
static inline float mw03_tf32_round(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7f800000u) != 0x7f800000u) {
        u += 0x1000u; /* half of the 13 dropped bits: away from zero */
        u &= 0xffffe000u;
    }
    memcpy(&x, &u, sizeof u);
    return x;
}

/* A float truncated to TF32: what the tensor cores use when fed FP32 bits
 * that were never rounded (wmma fragments of precision::tf32 loaded from
 * floats without __float_to_tf32). */
static inline float mw03_tf32_trunc(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    if ((u & 0x7f800000u) != 0x7f800000u)
        u &= 0xffffe000u;
    memcpy(&x, &u, sizeof u);
    return x;
}

#endif
