/* check_list.h: host side of the checks of instructor/dev/05-bf16 (driver.cu and the
 * host simulation sim/): bf16 rounding, inputs, the double-precision
 * reference, its bf16-P emulation, and the comparison.
 *
 * The reference computes from the bf16-rounded inputs, in double:
 *   S = scale Q K^T over the keys a row attends (j < N, j <= i when causal),
 *   m = max S (NaN skipped), P = exp(S - m), l = sum P,
 *   O_ref = P V / l,  L_ref = m + log(l).
 * The emulation does what the kernel must do on top of that: P rounded to
 * bf16 before P V (l from the unrounded P), O rounded to bf16 at the end.
 * O passes when |O - O_ref| <= 2 max|O_emul - O_ref| + 1e-3 g elementwise
 * (the FlashAttention tests' rule: no worse than twice the error the bf16
 * format forces, plus a floor), with NaN exactly where O_ref is NaN; L when
 * |L - L_ref| <= 1e-3 + 1e-3 |L_ref|. */
#ifndef MW_DEV05_CHECK_LIST_H
#define MW_DEV05_CHECK_LIST_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <vector>

namespace ref {

/* f rounded to bf16, nearest even; a NaN stays a (quiet) NaN. */
inline uint16_t f2bf(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x0040u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

inline float bf2f(uint16_t h)
{
    const uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* splitmix64: a reproducible stream of uniform values in [-g, g). */
struct Rng {
    uint64_t s;
    explicit Rng(uint64_t seed) : s(seed) {}
    uint64_t next()
    {
        uint64_t z = (s += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    float uniform(float g) { return (float)((double)(next() >> 11) * 0x1.0p-53 * 2.0 - 1.0) * g; }
};

/* NaN placements (NAN_CAUSAL, causal, N >= 160), by head bh % 3:
 *   0: V row 37 all NaN: rows >= 37 NaN, rows 32..36 share its 16-key chunk
 *      and must stay finite;
 *   1: V[77][5], V[96][7] (a chunk's first key), V[127][9] (a chunk's last),
 *      V[150][3]: rows from there on NaN in that column only;
 *   2: K row 51 NaN (rows >= 51 NaN, L too), Q row 30 NaN (row 30 only).
 * Everything else, the rows before each NaN key above all, must stay finite
 * and pass; the reference says where NaN belongs. */
enum { NAN_NONE = 0, NAN_CAUSAL = 1 };

struct Case {
    int B, H, N, d, causal;
    float scale, g;
    int nan_mode;
    uint64_t seed;
};

inline void describe(const Case &c, char *buf, size_t n)
{
    snprintf(buf, n, "B=%d H=%d N=%d d=%d causal=%d scale=%.4g g=%g%s", c.B, c.H, c.N, c.d, c.causal,
             (double)c.scale, (double)c.g, c.nan_mode ? " NaN" : "");
}

/* Q, K, V as bf16 bits, [B, H, N, d]. */
inline void make_inputs(const Case &c, std::vector<uint16_t> &Q, std::vector<uint16_t> &K,
                        std::vector<uint16_t> &V)
{
    const size_t n = (size_t)c.B * c.H * c.N * c.d;
    Q.resize(n);
    K.resize(n);
    V.resize(n);
    Rng r(c.seed);
    for (size_t i = 0; i < n; i++) {
        Q[i] = f2bf(r.uniform(c.g));
        K[i] = f2bf(r.uniform(c.g));
        V[i] = f2bf(r.uniform(c.g));
    }
    if (c.nan_mode == NAN_CAUSAL) {
        const uint16_t nan = 0x7fc0;
        const size_t hd = (size_t)c.N * c.d;
        for (size_t bh = 0; bh < (size_t)c.B * c.H; bh++) {
            uint16_t *q = &Q[bh * hd], *k = &K[bh * hd], *v = &V[bh * hd];
            const int d = c.d, N = c.N;
            auto row_nan = [&](uint16_t *x, int row) {
                if (row < N)
                    for (int j = 0; j < d; j++)
                        x[(size_t)row * d + j] = nan;
            };
            auto put = [&](uint16_t *x, int row, int col) {
                if (row < N)
                    x[(size_t)row * d + col] = nan;
            };
            switch (bh % 3) {
            case 0:
                row_nan(v, 37);
                break;
            case 1:
                put(v, 77, 5);
                put(v, 96, 7);
                put(v, 127, 9);
                put(v, 150, 3);
                break;
            default:
                row_nan(k, 51);
                row_nan(q, 30);
            }
        }
    }
}

struct Reference {
    std::vector<double> O, L;  /* exact, from the bf16 inputs */
    std::vector<float> Oemul;  /* P and O rounded to bf16 */
    double emul_err = 0;       /* max |Oemul - O| over finite elements */
};

inline void reference(const Case &c, const std::vector<uint16_t> &Qh, const std::vector<uint16_t> &Kh,
                      const std::vector<uint16_t> &Vh, Reference &R)
{
    const int N = c.N, d = c.d;
    const size_t n = (size_t)c.B * c.H * N * d;
    R.O.assign(n, 0);
    R.Oemul.assign(n, 0);
    R.L.assign((size_t)c.B * c.H * N, 0);
    R.emul_err = 0;
    std::vector<double> q(d), S(N), acc(d), acce(d);
    std::vector<double> Kd((size_t)N * d), Vd((size_t)N * d);
    for (size_t bh = 0; bh < (size_t)c.B * c.H; bh++) {
        const size_t base = bh * (size_t)N * d;
        for (size_t i = 0; i < (size_t)N * d; i++) {
            Kd[i] = bf2f(Kh[base + i]);
            Vd[i] = bf2f(Vh[base + i]);
        }
        for (int i = 0; i < N; i++) {
            for (int k = 0; k < d; k++)
                q[k] = bf2f(Qh[base + (size_t)i * d + k]);
            const int jend = c.causal ? i + 1 : N;
            double m = -INFINITY;
            for (int j = 0; j < jend; j++) {
                double s = 0;
                const double *kr = &Kd[(size_t)j * d];
                for (int k = 0; k < d; k++)
                    s += q[k] * kr[k];
                S[j] = s * (double)c.scale;
                if (S[j] > m)
                    m = S[j];
            }
            const double mu = m == -INFINITY ? 0.0 : m;
            double l = 0;
            for (int k = 0; k < d; k++)
                acc[k] = acce[k] = 0;
            for (int j = 0; j < jend; j++) {
                const double p = exp(S[j] - mu);
                const double pb = bf2f(f2bf((float)p));
                l += p;
                const double *vr = &Vd[(size_t)j * d];
                for (int k = 0; k < d; k++) {
                    acc[k] += p * vr[k];
                    acce[k] += pb * vr[k];
                }
            }
            for (int k = 0; k < d; k++) {
                const size_t at = base + (size_t)i * d + k;
                R.O[at] = acc[k] / l;
                R.Oemul[at] = bf2f(f2bf((float)(acce[k] / l)));
                if (isfinite(R.O[at]) && isfinite(R.Oemul[at]))
                    R.emul_err = fmax(R.emul_err, fabs(R.Oemul[at] - R.O[at]));
            }
            R.L[bh * N + i] = mu + log(l);
        }
    }
}

struct Verdict {
    bool pass;
    double errO, tolO, errL;
    size_t badO, badL, nanO; /* failing elements; NaN elements expected */
    char first[160];         /* the first failure */
};

/* Compares the kernel's O (bf16 bits) and L with the reference. */
inline Verdict compare(const Case &c, const Reference &R, const std::vector<uint16_t> &O,
                       const std::vector<float> &L)
{
    Verdict v{};
    v.tolO = 2 * R.emul_err + 1e-3 * c.g;
    v.first[0] = 0;
    const int d = c.d;
    for (size_t at = 0; at < R.O.size(); at++) {
        const double r = R.O[at], k = bf2f(O[at]);
        bool ok;
        if (isnan(r)) {
            ok = isnan(k);
            v.nanO++;
        } else if (isinf(r)) {
            ok = k == r;
        } else {
            const double e = fabs(k - r);
            ok = e <= v.tolO; /* false for a NaN k */
            if (ok || !isnan(k))
                v.errO = fmax(v.errO, isnan(e) ? 0 : e);
        }
        if (!ok) {
            if (v.badO++ == 0)
                snprintf(v.first, sizeof v.first, "O[bh=%zu][%zu][%zu] = %.6g, reference %.6g",
                         at / ((size_t)c.N * d), at / d % c.N, at % d, k, r);
        }
    }
    for (size_t at = 0; at < R.L.size(); at++) {
        const double r = R.L[at], k = L[at];
        bool ok;
        if (isnan(r))
            ok = isnan(k);
        else if (isinf(r))
            ok = k == r;
        else {
            const double e = fabs(k - r);
            ok = e <= 1e-3 + 1e-3 * fabs(r);
            if (!isnan(e))
                v.errL = fmax(v.errL, e);
        }
        if (!ok && v.badL++ == 0 && v.badO == 0)
            snprintf(v.first, sizeof v.first, "L[bh=%zu][%zu] = %.6g, reference %.6g", at / c.N,
                     at % c.N, k, r);
    }
    v.pass = v.badO == 0 && v.badL == 0;
    return v;
}

/* The check list: N in {1, 7, 64, 65, 127, 128, 129, 1000}, d in {32, 64,
 * 128}, causal 0 and 1, B 1..2, H 1..3, scale 1/sqrt(d) or 0.3 (-0.25 once per d),
 * g = 1; plus magnitude-10 cases and the NaN cases. */
inline std::vector<Case> check_cases()
{
    std::vector<Case> v;
    const int Ns[] = {1, 7, 64, 65, 127, 128, 129, 1000};
    const int ds[] = {32, 64, 128};
    const int BH[][2] = {{1, 1}, {2, 1}, {1, 3}, {2, 3}};
    uint64_t seed = 1;
    int k = 0;
    for (int d : ds)
        for (int N : Ns)
            for (int causal = 0; causal < 2; causal++, k++) {
                Case c{};
                c.B = N >= 1000 ? 1 : BH[k % 4][0];
                c.H = N >= 1000 ? 2 : BH[k % 4][1];
                c.N = N;
                c.d = d;
                c.causal = causal;
                c.scale = (k % 3 == 2) ? 0.3f : (float)(1.0 / sqrt((double)d));
                if (k % 16 == 13) /* one negative scale per d */
                    c.scale = -0.25f;
                c.g = 1.f;
                c.seed = seed++;
                v.push_back(c);
            }
    for (int d : ds) { /* magnitude 10: scores past 88, exp overflows without the max */
        v.push_back(Case{1, 2, 129, d, 1, (float)(1.0 / sqrt((double)d)), 10.f, NAN_NONE, seed++});
        v.push_back(Case{2, 1, 200, d, 0, 0.3f, 10.f, NAN_NONE, seed++});
    }
    for (int d : ds) { /* NaN in K and V rows past some rows' attended range */
        v.push_back(Case{1, 3, 200, d, 1, (float)(1.0 / sqrt((double)d)), 1.f, NAN_CAUSAL, seed++});
        v.push_back(Case{2, 3, 300, d, 1, 0.3f, 1.f, NAN_CAUSAL, seed++});
    }
    return v;
}

} /* namespace ref */

#endif
