/* ptx.c's mma.sync m16n8k8 .tf32 against the PTX ISA ("Matrix Fragments
 * for mma.m16n8k8", the .tf32 figures): with g = lane/4 and t = lane%4,
 * A's a0..a3 are (g, t), (g+8, t), (g, t+4), (g+8, t+4); B's b0, b1 are
 * (t, g) and (t+4, g); C's and D's c0..c3 are (g, 2t+i%2) and (g+8, 2t+i%2).
 * Each .b32 input is read as TF32: its low 13 bits dropped, not rounded.
 * Every expected value below is exact and worked out by hand. */
#include "lanes.h"
#include "tap.h"

#include <math.h>
#include <stdint.h>

static const char MMA_TF32[] = "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 "
                               "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};";

/* The matrices as the registers hold them: A and B as raw .b32 bits. */
static uint32_t A[16][8], B[8][8];
static float C[16][8];
static float D[16][8];

static uint32_t bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

static void clear(void)
{
    memset(A, 0, sizeof A);
    memset(B, 0, sizeof B);
    memset(C, 0, sizeof C);
}

/* Runs the warp's mma on A, B and C; D gets each lane's accumulators back
 * at the places the ISA gives them. Returns how many lanes faulted. */
static int run_mma(void)
{
    float d[32][4];
    int faults = run_warp([&](int lane) {
        int g = lane / 4, t = lane % 4;
        uint32_t a[4] = {A[g][t], A[g + 8][t], A[g][t + 4], A[g + 8][t + 4]};
        uint32_t b0 = B[t][g], b1 = B[t + 4][g];
        float *c = d[lane];
        c[0] = C[g][2 * t], c[1] = C[g][2 * t + 1], c[2] = C[g + 8][2 * t],
        c[3] = C[g + 8][2 * t + 1];
        ::mw_sim_asm(MMA_TF32, __FILE__, __LINE__,
                     {::mw_sim_asm_out("+f", c[0]), ::mw_sim_asm_out("+f", c[1]),
                      ::mw_sim_asm_out("+f", c[2]), ::mw_sim_asm_out("+f", c[3])},
                     {::mw_sim_asm_in("r", a[0]), ::mw_sim_asm_in("r", a[1]),
                      ::mw_sim_asm_in("r", a[2]), ::mw_sim_asm_in("r", a[3]),
                      ::mw_sim_asm_in("r", b0), ::mw_sim_asm_in("r", b1)});
    });
    for (int lane = 0; lane < 32; lane++)
        for (int i = 0; i < 4; i++)
            D[lane / 4 + 8 * (i / 2)][2 * (lane % 4) + i % 2] = d[lane][i];
    return faults;
}

/* D against want (NaN matching NaN), the first difference printed. */
static int d_is(float (*want)[8], const char *what)
{
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 8; c++) {
            int same = isnan(want[r][c]) ? isnan(D[r][c]) : D[r][c] == want[r][c];
            if (!same) {
                printf("# %s: D[%d][%d] (lane %d d%d) is %.9g, want %.9g\n", what, r, c,
                       4 * (r % 8) + c / 2, 2 * (r >= 8) + c % 2, D[r][c], want[r][c]);
                return 0;
            }
        }
    return 1;
}

/* Each element of A, B and C, numbered, and found again in D: one column
 * of B (one row of A) picks a single k, so D shows which element of A (of
 * B) each lane's register held. */
static void fragment_positions(void)
{
    float want[16][8];
    int good = 1;
    for (int k0 = 0; k0 < 8 && good; k0++) {
        int col = 7 - k0;
        clear();
        for (int r = 0; r < 16; r++)
            for (int k = 0; k < 8; k++)
                A[r][k] = bits((float)(1 + 8 * r + k));
        B[k0][col] = bits(1.f);
        memset(want, 0, sizeof want);
        for (int r = 0; r < 16; r++)
            want[r][col] = (float)(1 + 8 * r + k0);
        good = !run_mma() && d_is(want, "A's element 1 + 8 row + k");
    }
    ok(good, "A: a0..a3 of lane 4g+t are (g, t), (g+8, t), (g, t+4), (g+8, t+4)");

    good = 1;
    for (int k0 = 0; k0 < 8 && good; k0++) {
        int row = 2 * k0 + 1; /* rows 1 to 15: both halves */
        clear();
        for (int k = 0; k < 8; k++)
            for (int c = 0; c < 8; c++)
                B[k][c] = bits((float)(1 + 8 * k + c));
        A[row][k0] = bits(1.f);
        memset(want, 0, sizeof want);
        for (int c = 0; c < 8; c++)
            want[row][c] = (float)(1 + 8 * k0 + c);
        good = !run_mma() && d_is(want, "B's element 1 + 8 k + col");
    }
    ok(good, "B: b0, b1 of lane 4g+t are (t, g) and (t+4, g)");

    clear();
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 8; c++)
            C[r][c] = want[r][c] = (float)(1 + 8 * r + c);
    ok(!run_mma() && d_is(want, "C's element 1 + 8 row + col"),
       "C and D: c0..c3 of lane 4g+t are (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1)");
}

/* A = 2 I (the upper 8x8; rows 8-15 pick the same k again, times -1), so
 * D is C plus twice (minus) B's rows: B's negatives, zeros and fractions
 * come through exactly. */
static void identity_times_b(void)
{
    float want[16][8];
    clear();
    for (int k = 0; k < 8; k++)
        A[k][k] = bits(2.f), A[k + 8][k] = bits(-1.f);
    for (int k = 0; k < 8; k++)
        for (int c = 0; c < 8; c++)
            B[k][c] = bits((float)((k * 8 + c * 5) % 7 - 3) / 4.f); /* -0.75 .. 0.75 */
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 8; c++)
            C[r][c] = (float)(10 * r + c);
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 8; c++) {
            float b = (float)((r % 8 * 8 + c * 5) % 7 - 3) / 4.f;
            want[r][c] = C[r][c] + (r < 8 ? 2.f * b : -b);
        }
    ok(!run_mma() && d_is(want, "2I and -I times B plus C"),
       "D = A B + C with A = [2I; -I]: twice B's rows, then minus them, added to C");
}

/* A small integer matrix times another, signs mixed, into a non-zero C:
 * every product and sum is an integer far below 2^24, so exact. */
static void integers(void)
{
    float want[16][8];
    clear();
    for (int r = 0; r < 16; r++)
        for (int k = 0; k < 8; k++)
            A[r][k] = bits((float)((r * 16 + k * 3) % 11 - 5));
    for (int k = 0; k < 8; k++)
        for (int c = 0; c < 8; c++)
            B[k][c] = bits((float)((k * 8 + c * 5) % 7 - 3));
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 8; c++) {
            C[r][c] = (float)(100 * r + c);
            want[r][c] = C[r][c];
            for (int k = 0; k < 8; k++)
                want[r][c] += (float)((r * 16 + k * 3) % 11 - 5) * (float)((k * 8 + c * 5) % 7 - 3);
        }
    ok(!run_mma() && d_is(want, "integers"), "integers with both signs and zeros, plus C: exact");
    /* one entry worked by hand: row 0 of A is -5 -2 1 4 -4 -1 2 5, column 0
     * of B is -3 -2 -1 0 1 2 3 -3: 15 + 4 - 1 + 0 - 4 - 2 + 6 - 15 = 3 */
    ok(D[0][0] == 3.f, "by hand: D[0][0] = 3 + C[0][0] = 3");
}

/* One product at A[r][k] B[k][c], the rest zero, C zero: D[r][c]. */
static float one_product(uint32_t a, uint32_t b, float c)
{
    clear();
    A[11][6] = a;
    B[6][3] = b;
    C[11][3] = c;
    return run_mma() ? -12345.f : D[11][3];
}

static void tf32_inputs(void)
{
    float one_2m12 = 1.f + ldexpf(1.f, -12), one_3m12 = 1.f + ldexpf(3.f, -12);
    /* FP32 would give 1 + 2^-12; TF32 has no 2^-12 bit. */
    ok(one_product(bits(one_2m12), bits(1.f), 0.f) == 1.f, "A's 1 + 2^-12 is read as 1");
    ok(one_product(bits(1.f), bits(one_2m12), 0.f) == 1.f, "B's 1 + 2^-12 is read as 1");
    /* 1 + 3 2^-12 rounds to nearest (cvt.rna) up to 1 + 2^-10; read here it
     * is cut to 1: truncated, not rounded. The same for 1 + 2^-11, a tie. */
    ok(one_product(bits(one_3m12), bits(1.f), 0.f) == 1.f,
       "1 + 3 2^-12 is truncated to 1, not rounded to 1 + 2^-10");
    ok(one_product(bits(1.f + ldexpf(1.f, -11)), bits(1.f), 0.f) == 1.f,
       "1 + 2^-11 (a tie for rounding) is truncated to 1");
    ok(one_product(bits(-one_3m12), bits(one_3m12), 0.f) == -1.f,
       "-(1 + 3 2^-12) is truncated towards zero, to -1");
    /* All 13 low bits set: 1.5 + 8191 2^-23 and 2 + 8191 2^-22 read as 1.5
     * and 2 (FP32 would give 3 + 3 8191 2^-23 + ...). */
    ok(one_product(bits(1.5f) | 0x1fffu, bits(2.f) | 0x1fffu, 0.f) == 3.f,
       "0x1fff in the low bits of both: 1.5 times 2, exactly 3");
    /* The kept bits are all used: (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20, exact. */
    float a = 1.f + ldexpf(1.f, -10);
    ok(one_product(bits(a), bits(a), 0.f) == 1.f + ldexpf(1.f, -9) + ldexpf(1.f, -20),
       "(1 + 2^-10)^2 = 1 + 2^-9 + 2^-20: the product is exact, not rounded to TF32");
    /* C is FP32, all of it. */
    ok(one_product(0, 0, one_2m12 + ldexpf(1.f, -20)) == one_2m12 + ldexpf(1.f, -20),
       "C keeps its low bits: 1 + 2^-12 + 2^-20 plus nothing stays");
    ok(one_product(bits(1.f), bits(1.f), ldexpf(1.f, -20)) == 1.f + ldexpf(1.f, -20),
       "1 times 1 plus 2^-20: the sum keeps FP32's bits");
    ok(one_product(bits(-0.f), bits(5.f), 7.f) == 7.f, "-0 times 5 plus 7 is 7");
}

static void infinities_and_nans(void)
{
    float want[16][8];
    clear();
    for (int k = 0; k < 8; k++)
        for (int c = 0; c < 8; c++)
            B[k][c] = bits(1.f);
    for (int r = 0; r < 16; r++)
        A[r][0] = bits(1.f);
    A[2][3] = bits(INFINITY);
    B[3][5] = 0;             /* inf times 0: NaN in D[2][5] */
    B[3][1] = bits(-2.f);    /* inf times -2: -inf in D[2][1] */
    A[12][6] = 0x7fffffffu;  /* NaN, as cvt.rna.tf32.f32 gives it: row 12 NaN */
    C[7][4] = NAN;           /* a NaN in C: D[7][4] alone */
    C[9][0] = -INFINITY;     /* -inf in C plus finite products stays -inf */
    for (int r = 0; r < 16; r++)
        for (int c = 0; c < 8; c++)
            want[r][c] = C[r][c] + 1.f;
    for (int c = 0; c < 8; c++)
        want[2][c] = INFINITY, want[12][c] = NAN;
    want[2][5] = NAN;
    want[2][1] = -INFINITY;
    ok(!run_mma() && d_is(want, "inf and NaN"),
       "inf in A: its row inf, -inf where B is negative, NaN where B is 0; NaN in A: its row "
       "NaN; "
       "NaN or -inf in C: that element alone");
    ok(isnan(D[12][3]) && isnan(D[2][5]) && isinf(D[2][0]) && D[2][1] < 0,
       "by hand: D[12][3] and D[2][5] NaN, D[2][0] inf, D[2][1] -inf");
    ok(isnan(one_product(bits(INFINITY), bits(INFINITY), -INFINITY)),
       "inf times inf plus -inf is NaN");
}

/* The emulation's order: C first, then the eight products in k order, each
 * addition rounded to FP32 (the tensor cores' own order differs). */
static void fp32_accumulation(void)
{
    clear();
    for (int k = 0; k < 8; k++)
        A[0][k] = bits(1.f), B[k][0] = bits(1.f);
    C[0][0] = 16777216.f; /* 2^24: 2^24 + 1 rounds back to even, 2^24 */
    ok(!run_mma() && D[0][0] == 16777216.f,
       "sums run in FP32 from C in k order: 2^24 + 1 eight times stays 2^24");
    clear();
    A[0][0] = bits(16777216.f), B[0][0] = bits(1.f);
    for (int k = 1; k < 8; k++)
        A[0][k] = bits(1.f), B[k][0] = bits(1.f);
    C[0][0] = -16777216.f;
    ok(!run_mma() && D[0][0] == 7.f,
       "C = -2^24 plus A[0][0] B[0][0] = 2^24 first, then seven ones: 7 (the products summed "
       "first would give 0)");
}

/* Shapes and types other than m16n8k8 .tf32 (and m16n8k16 bf16 and f16)
 * fault, naming the instruction; a lane at another mma faults the meeting. */
static void refusals(void)
{
    static const char *const others[] = {
        "mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32",
        "mma.sync.aligned.m16n8k8.row.col.f32.bf16.bf16.f32",
        "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32",
        "mma.sync.aligned.m16n8k16.row.col.f32.tf32.tf32.f32",
        "mma.sync.aligned.m16n8k8.col.row.f32.tf32.tf32.f32",
    };
    int good = 1;
    for (const char *m : others) {
        char tmpl[160];
        snprintf(tmpl, sizeof tmpl, "%s {%%0,%%1,%%2,%%3}, {%%4,%%5,%%6,%%7}, {%%8,%%9}, "
                 "{%%0,%%1,%%2,%%3};", m);
        float c = 0.f;
        uint32_t x = 0;
        int faulted = run_lane(0, [&](int) {
            ::mw_sim_asm(tmpl, "k.cu", 3,
                         {::mw_sim_asm_out("+f", c), ::mw_sim_asm_out("+f", c),
                          ::mw_sim_asm_out("+f", c), ::mw_sim_asm_out("+f", c)},
                         {::mw_sim_asm_in("r", x), ::mw_sim_asm_in("r", x),
                          ::mw_sim_asm_in("r", x), ::mw_sim_asm_in("r", x),
                          ::mw_sim_asm_in("r", x), ::mw_sim_asm_in("r", x)});
        });
        char says[200];
        snprintf(says, sizeof says, "k.cu:3: inline PTX '%s' is not emulated", m);
        if (!faulted || !fault_says(says)) {
            printf("# %s: %s\n", m, faulted ? standin_fault : "ran");
            good = 0;
        }
    }
    ok(good, "other mma shapes, types and layouts fault, naming the instruction");

    int faults = run_warp([&](int lane) {
        float c = 0.f;
        uint32_t x = 0;
        const char *tmpl = lane == 9 ? "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 "
                                       "{%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                                     : MMA_TF32;
        ::mw_sim_asm(tmpl, __FILE__, __LINE__,
                     {::mw_sim_asm_out("+f", c), ::mw_sim_asm_out("+f", c),
                      ::mw_sim_asm_out("+f", c), ::mw_sim_asm_out("+f", c)},
                     {::mw_sim_asm_in("r", x), ::mw_sim_asm_in("r", x), ::mw_sim_asm_in("r", x),
                      ::mw_sim_asm_in("r", x), ::mw_sim_asm_in("r", x), ::mw_sim_asm_in("r", x)});
    });
    ok(faults > 0, "m16n8k8 .tf32 and m16n8k16 bf16 meet the warp under different names: fault");
}

int main(void)
{
    fragment_positions();
    identity_times_b();
    integers();
    tf32_inputs();
    infinities_and_nans();
    fp32_accumulation();
    refusals();
    return done_testing();
}
