/* ptx.c's mma.sync m16n8k16 against the PTX ISA's fragment pictures
 * ("Matrix Fragments for mma.m16n8k16 with floating point type"): with
 * g = lane/4 and t = lane%4, A's a0..a7 are (g, 2t+i%2) for i < 2, (g+8, .)
 * for 2..3, (g, 2t+8+i%2) for 4..5, (g+8, 2t+8+i%2) for 6..7; B's b0..b3
 * are (2t+i%2, g) and (2t+8+i%2, g); C's and D's c0..c3 are (g, 2t+i%2)
 * and (g+8, 2t+i%2). Small integers, so every product and sum is exact. */
#include "lanes.h"
#include "tap.h"

#include <stdint.h>

static float A[16][16], B[16][8], C[16][8];

static uint16_t to_bf16(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return (uint16_t)(b >> 16); /* exact: small integers */
}

static uint16_t to_f16(float f)
{
    /* small integers, |f| < 2048: exact */
    if (f == 0.f)
        return 0;
    uint16_t sign = f < 0 ? 0x8000 : 0;
    int v = (int)(f < 0 ? -f : f), e = 0;
    while ((v >> e) > 1)
        e++;
    return (uint16_t)(sign | (e + 15) << 10 | ((v << (10 - e)) & 1023));
}

static uint32_t pack(float lo, float hi, int f16)
{
    return f16 ? (uint32_t)to_f16(lo) | (uint32_t)to_f16(hi) << 16
               : (uint32_t)to_bf16(lo) | (uint32_t)to_bf16(hi) << 16;
}

static int run_mma(int f16, float (*d)[4])
{
    return run_warp([&](int lane) {
        int g = lane / 4, t = lane % 4;
        uint32_t a[4] = {pack(A[g][2 * t], A[g][2 * t + 1], f16),
                         pack(A[g + 8][2 * t], A[g + 8][2 * t + 1], f16),
                         pack(A[g][2 * t + 8], A[g][2 * t + 9], f16),
                         pack(A[g + 8][2 * t + 8], A[g + 8][2 * t + 9], f16)};
        uint32_t b0 = pack(B[2 * t][g], B[2 * t + 1][g], f16);
        uint32_t b1 = pack(B[2 * t + 8][g], B[2 * t + 9][g], f16);
        float *c = d[lane];
        c[0] = C[g][2 * t], c[1] = C[g][2 * t + 1], c[2] = C[g + 8][2 * t],
        c[3] = C[g + 8][2 * t + 1];
        if (f16)
            ::mw_sim_asm("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, "
                         "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n",
                         __FILE__, __LINE__,
                         {::mw_sim_asm_out("+f", c[0]), ::mw_sim_asm_out("+f", c[1]),
                          ::mw_sim_asm_out("+f", c[2]), ::mw_sim_asm_out("+f", c[3])},
                         {::mw_sim_asm_in("r", a[0]), ::mw_sim_asm_in("r", a[1]),
                          ::mw_sim_asm_in("r", a[2]), ::mw_sim_asm_in("r", a[3]),
                          ::mw_sim_asm_in("r", b0), ::mw_sim_asm_in("r", b1)});
        else
            ::mw_sim_asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, "
                         "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n",
                         __FILE__, __LINE__,
                         {::mw_sim_asm_out("+f", c[0]), ::mw_sim_asm_out("+f", c[1]),
                          ::mw_sim_asm_out("+f", c[2]), ::mw_sim_asm_out("+f", c[3])},
                         {::mw_sim_asm_in("r", a[0]), ::mw_sim_asm_in("r", a[1]),
                          ::mw_sim_asm_in("r", a[2]), ::mw_sim_asm_in("r", a[3]),
                          ::mw_sim_asm_in("r", b0), ::mw_sim_asm_in("r", b1)});
    });
}

static int check(float (*d)[4])
{
    int good = 1;
    for (int lane = 0; lane < 32; lane++)
        for (int i = 0; i < 4; i++) {
            int row = lane / 4 + 8 * (i / 2), col = 2 * (lane % 4) + i % 2;
            double want = C[row][col];
            for (int k = 0; k < 16; k++)
                want += (double)A[row][k] * B[k][col];
            if (d[lane][i] != (float)want) {
                if (good)
                    printf("# lane %d d%d (row %d col %d): got %g, want %g\n", lane, i, row, col,
                           d[lane][i], want);
                good = 0;
            }
        }
    return good;
}

int main(void)
{
    float d[32][4];
    /* A's and B's entries differ by row and column, so a transposed or
     * shifted fragment changes the answer. */
    for (int i = 0; i < 16; i++)
        for (int k = 0; k < 16; k++)
            A[i][k] = (float)((i * 16 + k * 3) % 11 - 5);
    for (int k = 0; k < 16; k++)
        for (int j = 0; j < 8; j++)
            B[k][j] = (float)((k * 8 + j * 5) % 7 - 3);
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 8; j++)
            C[i][j] = (float)(100 * i + j);

    ok(!run_mma(0, d) && check(d), "bf16: D = A B + C, fragments as the ISA lays them out");
    ok(!run_mma(1, d) && check(d), "f16: the same");

    /* A single 1 in A and in B: D is C plus one product at one place. */
    memset(A, 0, sizeof A);
    memset(B, 0, sizeof B);
    memset(C, 0, sizeof C);
    A[9][13] = 2.f;
    B[13][6] = 3.f;
    ok(!run_mma(0, d) && check(d) && d[4 * 1 + 3][2] == 6.f,
       "one product: lands at row 9, column 6 (lane 7's d2)");

    /* FP32 accumulation: 2^24 + 1 + 1 ... sums in float. */
    memset(A, 0, sizeof A);
    memset(B, 0, sizeof B);
    for (int k = 0; k < 16; k++)
        A[0][k] = 1.f, B[k][0] = 1.f;
    C[0][0] = 16777216.f;
    run_mma(0, d);
    ok(d[0][0] == 16777216.f, "sums run in FP32 from C: 2^24 + 1 sixteen times stays 2^24");

    int faults = run_warp([&](int lane) {
        float c = 0.f;
        uint32_t x = 0;
        if (lane == 5) /* this lane at another instruction */
            ::mw_sim_asm("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];", __FILE__, __LINE__,
                         {::mw_sim_asm_out("=r", x)}, {::mw_sim_asm_in("r", 0u)});
        else
            ::mw_sim_asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, "
                         "{%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};",
                         __FILE__, __LINE__,
                         {::mw_sim_asm_out("+f", c), ::mw_sim_asm_out("+f", c),
                          ::mw_sim_asm_out("+f", c), ::mw_sim_asm_out("+f", c)},
                         {::mw_sim_asm_in("r", x), ::mw_sim_asm_in("r", x), ::mw_sim_asm_in("r", x),
                          ::mw_sim_asm_in("r", x), ::mw_sim_asm_in("r", x),
                          ::mw_sim_asm_in("r", x)});
    });
    ok(faults > 0, "mma and ldmatrix meet the warp under different names: lanes at both fault");
    return done_testing();
}
