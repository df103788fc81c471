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

#include "compare.h"

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

/* Exercise 05.3's tolerance, for bf16 inputs and outputs with FP32
 * accumulation, in the style of the FlashAttention tests: twice what the
 * roundings a correct kernel must make can cost at worst, plus the FP32
 * tolerance above as a floor. The reference is the double one on the same
 * bf16-rounded inputs, so the inputs' rounding costs nothing; the kernel
 * must still
 *
 *  a. round P to bf16 for the tensor cores' P V (m16n8k16 takes bf16 A):
 *     each weight moves by at most 2^-9 relative (round to nearest, 8
 *     significant bits), so O_i, a weighted average of V rows with
 *     |V| <= g, moves by at most 2^-9 g;
 *  b. round O to bf16 on the way out: 2^-9 |O| relative;
 *  c. where l_i is summed from the rounded P (allowed: FA2 sums the float
 *     P, a kernel may sum what it multiplies), move l_i by at most 2^-9
 *     relative, so L_i by at most 2^-9 absolute.
 *
 * O: atol = 2 (2^-9 g) + the FP32 atol, rtol = 2 2^-9; L: atol =
 * 2 2^-9 + the FP32 atol, rtol as FP32's. The worst case is nearly
 * reached: tests/unit/test_attention.c runs the bf16 kernel's arithmetic
 * on the grader's shapes, and where one key dominates a row (inputs of
 * magnitude 10) the roundings of O and of the other weights line up to
 * 0.49 of this tolerance (0.98 of the worst case). What fails it: no
 * running max (exp2 of scores past 128 overflows in FP32), and l and O
 * summed in fp16-like precision (2^-11 an addition: L is off by several
 * times its tolerance from N = 1000 on). */
static inline mw_tol mw05_tolerance_bf16(double N, double d, double scale, double g, int for_L)
{
    const double ub = ldexp(1.0, -9);
    mw_tol t = mw05_tolerance(N, d, scale, g, for_L);
    if (for_L)
        return (mw_tol){2 * ub + t.atol, t.rtol};
    return (mw_tol){2 * ub * g + t.atol, 2 * ub};
}

#endif
