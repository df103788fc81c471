/* ptx.c's ldmatrix against the PTX ISA's fragment pictures: matrices whose
 * elements encode (matrix, row, column), their rows scattered through
 * shared memory; lanes 8i..8i+7 give matrix i's row addresses; lane l gets
 * row l/4, columns 2(l%4) and 2(l%4)+1 in register i, or with .trans the
 * transposed matrix's. */
#include "lanes.h"
#include "tap.h"

#include <stdint.h>

static uint16_t code(int m, int r, int c)
{
    return (uint16_t)(m * 64 + r * 8 + c);
}

/* Matrix m's row r lives at 32 (8m + r) + 16 (r odd), rows out of order
 * with gaps, as a kernel's padded tile would have them. */
static uint32_t row_addr(int m, int r)
{
    return (uint32_t)(512 + 32 * (8 * ((m + 1) % 4) + (7 - r)) + 16 * (r & 1));
}

static void fill(void)
{
    memset(standin_shared, 0xff, 4096);
    for (int m = 0; m < 4; m++)
        for (int r = 0; r < 8; r++)
            for (int c = 0; c < 8; c++) {
                uint16_t v = code(m, r, c);
                memcpy(standin_shared + row_addr(m, r) + 2 * c, &v, 2);
            }
}

static uint32_t expect(int m, int lane, int trans, int half)
{
    int r = trans ? 2 * (lane % 4) + half : lane / 4;
    int c = trans ? lane / 4 : 2 * (lane % 4) + half;
    return code(m, r, c);
}

static int check(uint32_t (*got)[4], int count, int trans)
{
    int good = 1;
    for (int lane = 0; lane < 32; lane++)
        for (int m = 0; m < count; m++) {
            uint32_t want = expect(m, lane, trans, 0) | expect(m, lane, trans, 1) << 16;
            if (got[lane][m] != want) {
                if (good)
                    printf("# lane %d register %d: got %08x, want %08x\n", lane, m, got[lane][m],
                           want);
                good = 0;
            }
        }
    return good;
}

/* The address lane l gives: a row of matrix l/8 (lanes past the count give
 * an address that faults if it is used). */
static uint32_t lane_addr(int lane, int count)
{
    return lane / 8 < count ? row_addr(lane / 8, lane % 8) : 0xfffffff0u;
}

int main(void)
{
    uint32_t got[32][4];
    fill();

    memset(got, 0, sizeof got);
    int faults = run_warp([&](int lane) {
        uint32_t a = lane_addr(lane, 4);
        uint32_t(&r)[4] = got[lane];
        ::mw_sim_asm("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n", __FILE__,
                     __LINE__,
                     {::mw_sim_asm_out("=r", r[0]), ::mw_sim_asm_out("=r", r[1]),
                      ::mw_sim_asm_out("=r", r[2]), ::mw_sim_asm_out("=r", r[3])},
                     {::mw_sim_asm_in("r", a)});
    });
    ok(!faults && check(got, 4, 0), "x4: each lane its rows' pairs, matrix i in register i");

    memset(got, 0, sizeof got);
    faults = run_warp([&](int lane) {
        uint32_t a = lane_addr(lane, 4);
        uint32_t(&r)[4] = got[lane];
        ::mw_sim_asm("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n",
                     __FILE__, __LINE__,
                     {::mw_sim_asm_out("=r", r[0]), ::mw_sim_asm_out("=r", r[1]),
                      ::mw_sim_asm_out("=r", r[2]), ::mw_sim_asm_out("=r", r[3])},
                     {::mw_sim_asm_in("r", a)});
    });
    ok(!faults && check(got, 4, 1), "x4.trans: each lane a column's pair of the rows");

    memset(got, 0, sizeof got);
    faults = run_warp([&](int lane) {
        uint32_t a = lane_addr(lane, 2);
        ::mw_sim_asm("ldmatrix.sync.aligned.m8n8.x2.trans.shared::cta.b16 {%0,%1}, [%2];", __FILE__,
                     __LINE__, {::mw_sim_asm_out("=r", got[lane][0]), ::mw_sim_asm_out("=r", got[lane][1])},
                     {::mw_sim_asm_in("r", a)});
    });
    ok(!faults && check(got, 2, 1), "x2.trans (shared::cta): lanes 16-31's addresses unused");

    memset(got, 0, sizeof got);
    standin_naccesses = 0;
    faults = run_warp([&](int lane) {
        uint32_t a = lane_addr(lane, 1);
        ::mw_sim_asm("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];", __FILE__, __LINE__,
                     {::mw_sim_asm_out("=r", got[lane][0])}, {::mw_sim_asm_in("r", a)});
    });
    ok(!faults && check(got, 1, 0), "x1: lanes 8-31's addresses unused");
    ok(standin_naccesses == 64 && !standin_accesses[0].is_write && standin_accesses[0].bytes == 2,
       "each lane's reads of its elements go to the checks");

    faults = run_warp([&](int lane) {
        uint32_t a = lane_addr(lane, 1) + (lane == 3 ? 8 : 0);
        ::mw_sim_asm("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];", __FILE__, __LINE__,
                     {::mw_sim_asm_out("=r", got[lane][0])}, {::mw_sim_asm_in("r", a)});
    });
    ok(faults && standin_err == cudaErrorMisalignedAddress && fault_says("lane 3"),
       "a row address not 16-byte aligned: misaligned, naming the lane that gave it");
    return done_testing();
}
