/* tolerance.h: chapter 05's tolerances, one for O and one for L. Pure C:
 * chapter.c uses them, and so does the unit test that runs FP32 attention
 * on the CPU in the orders a kernel may use and shows it passes with room
 * to spare, while a bf16-rounded P and fp16 accumulation fail
 * (tests/unit/test_attention.c prints the numbers).
 *
 * With inputs uniform in [-g, g) (g is the case's scale, 1 or 10), u = 2^-24
 * the float rounding unit, and s_max = scale * d * g^2 a bound on |S_ij|:
 *
 *  1. Each score S_ij = scale * sum_k Q_ik K_jk is a dot product of d
 *     terms in float. Its rounding error behaves like a random walk whose
 *     steps are u times partial sums of typical size sqrt(d) g^2 / 3:
 *     about u s_max / 3 at one standard deviation (measured: the largest
 *     over a head is about 0.2 u s_max). e_s = u s_max.
 *  2. P_ij = exp(S_ij - m_i) inherits S_ij's and m_i's errors as relative
 *     errors, plus the exp's own (__expf and exp2f: a few units of 2^-23
 *     here; folding scale * log2(e) into the scores rounds once more):
 *     e_p = 2 e_s + 2^-20.
 *  3. O_i = sum_j P_ij V_j / l_i is a weighted average of V rows (|V| <= g).
 *     Relative weight errors of at most e_p move it by at most 2 e_p g, in
 *     any order. The roundings of the two sums are divided out by l_i: they
 *     do not grow with N. A floor of 16 u g covers the last few roundings.
 *     O: atol = g (2 e_p + 16 u), rtol = 0.
 *  4. L_i = m_i + log(l_i): l_i's sum of N positive terms does drift, about
 *     sqrt(N) u relative in a sequential sum (a factor of 8 for the tails),
 *     and L_i rounds once itself. L: atol = e_s + e_p + 8 sqrt(N) u,
 *     rtol = 2^-21.
 *
 * At d = 64, N = 4096, g = 1 and scale = 1/8: s_max = 8, e_s = 8 u,
 * e_p = 16 u + 2^-20 = 1.9e-6; O's atol = 4.8e-6, L's 3.3e-5.
 *
 * What fails (measured by the unit test on the grader's inputs): P rounded
 * to bf16 before P V (up to 2^-9 per weight; it averages down like
 * 1/sqrt(N) but stays far above 16 u) and sums kept in fp16 (2^-11 per
 * addition); a causal mask off by one moves an early row by far more (row
 * 0 averages 1 or 2 values instead of its own); a missing rescale is off
 * by O(1). */
#ifndef MW05_TOLERANCE_H
#define MW05_TOLERANCE_H

#include "check.h"

#include <math.h>

/* The tolerance of O (for_L = 0) or of L (for_L = 1). */
static inline mw_tol mw05_tolerance(double N, double d, double scale, double g, int for_L)
{
    const double u = ldexp(1.0, -24);
    double s_max = fabs(scale) * d * g * g;
    double e_s = u * s_max;
    double e_p = 2 * e_s + ldexp(1.0, -20);
    if (for_L)
        return (mw_tol){e_s + e_p + 8 * sqrt(N) * u, ldexp(1.0, -21)};
    return (mw_tol){g * (2 * e_p + 16 * u), 0.0};
}

#endif
