/* ptx.c's scalar instructions against the PTX ISA: ex2.approx.ftz.f32,
 * cvt.rna.tf32.f32, mov.u32 of %laneid; and the faults of a template the
 * emulation does not run or names operands it does not have. */
#include "lanes.h"
#include "tap.h"

#include <math.h>
#include <stdint.h>

static float ex2(float x)
{
    float y = -1.f;
    int faulted = run_lane(0, [&](int) {
        ::mw_sim_asm("ex2.approx.ftz.f32 %0, %1;\n", __FILE__, __LINE__,
                     {::mw_sim_asm_out("=f", y)}, {::mw_sim_asm_in("f", x)});
    });
    return faulted ? -2.f : y;
}

static uint32_t tf32(float x)
{
    unsigned r = 0;
    run_lane(0, [&](int) {
        ::mw_sim_asm("cvt.rna.tf32.f32 %0, %1;", __FILE__, __LINE__, {::mw_sim_asm_out("=r", r)},
                     {::mw_sim_asm_in("f", x)});
    });
    return r;
}

static uint32_t bits(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

int main(void)
{
    is_double(ex2(0.f), 1.0, 0, "ex2: 2^0 = 1");
    is_double(ex2(10.f), 1024.0, 0, "ex2: 2^10 = 1024");
    is_double(ex2(-1.f), 0.5, 0, "ex2: 2^-1 = 0.5");
    is_double(ex2(0.5f), sqrt(2.0), 2e-7 * sqrt(2.0), "ex2: 2^0.5 within the approximation");
    is_double(ex2(-126.f), ldexp(1.0, -126), 0, "ex2: 2^-126, the least normal, stays");
    is_double(ex2(-127.f), 0.0, 0, "ex2: 2^-127, subnormal, flushed to 0 (.ftz)");
    is_double(ex2(-INFINITY), 0.0, 0, "ex2: 2^-inf = 0");
    ok(isinf(ex2(INFINITY)) && ex2(INFINITY) > 0, "ex2: 2^inf = inf");
    ok(isnan(ex2(NAN)), "ex2: NaN stays NaN");
    is_double(ex2(ldexpf(1.f, -140)), 1.0, 0, "ex2: a subnormal input counts as 0 (.ftz)");
    ok(!signbit(ex2(-200.f)), "ex2: a flushed result is +0");

    is_int(tf32(1.f), bits(1.f), "tf32: 1 stays");
    is_int(tf32(1.f + ldexpf(1.f, -11)), bits(1.f + ldexpf(1.f, -10)),
           "tf32: 1 + 2^-11, a tie, rounds away from zero");
    is_int(tf32(-(1.f + ldexpf(1.f, -11))), bits(-(1.f + ldexpf(1.f, -10))),
           "tf32: -(1 + 2^-11) rounds away from zero too");
    is_int(tf32(1.f + ldexpf(1.f, -12)), bits(1.f), "tf32: 1 + 2^-12 rounds down");
    is_int(tf32(1.f + ldexpf(3.f, -12)), bits(1.f + ldexpf(1.f, -10)), "tf32: 1 + 3 2^-12 rounds up");
    ok(tf32(NAN) == 0x7fffffffu, "tf32: NaN gives the canonical NaN");
    is_int(tf32(-INFINITY), bits(-INFINITY), "tf32: -inf stays");

    int lanes_ok = 1;
    for (int lane = 0; lane < 32; lane++) {
        unsigned got = 99;
        run_lane(lane, [&](int) {
            ::mw_sim_asm("mov.u32 %0, %laneid;", __FILE__, __LINE__, {::mw_sim_asm_out("=r", got)},
                         {});
        });
        lanes_ok &= got == (unsigned)lane;
    }
    ok(lanes_ok, "mov.u32 %laneid: each lane its number");

    /* A template is parsed once per address: a new text at an address seen
     * before (a library unloaded, another loaded) is parsed again. */
    static char tmpl[64];
    float x = 3.f, y = 0.f;
    unsigned yb = 0;
    strcpy(tmpl, "ex2.approx.ftz.f32 %0, %1;");
    run_lane(0, [&](int) {
        ::mw_sim_asm(tmpl, __FILE__, __LINE__, {::mw_sim_asm_out("=f", y)}, {::mw_sim_asm_in("f", x)});
    });
    strcpy(tmpl, "cvt.rna.tf32.f32 %0, %1;");
    run_lane(0, [&](int) {
        ::mw_sim_asm(tmpl, __FILE__, __LINE__, {::mw_sim_asm_out("=r", yb)}, {::mw_sim_asm_in("f", x)});
    });
    ok(y == 8.f && yb == bits(3.f), "a template's address reused with another text runs the new text");

    int faulted = run_lane(0, [&](int) {
        ::mw_sim_asm("add.f32 %0, %1, %1;", "k.cu", 7, {::mw_sim_asm_out("=f", y)},
                     {::mw_sim_asm_in("f", 1.f)});
    });
    ok(faulted && standin_err == cudaErrorLaunchFailure &&
           fault_says("k.cu:7: inline PTX 'add.f32' is not emulated"),
       "an instruction the emulation does not run faults, naming it");
    if (!faulted || !fault_says("add.f32"))
        printf("# %s\n", standin_fault);
    unsigned r = 0;
    faulted = run_lane(0, [&](int) {
        ::mw_sim_asm("mov.u32 %0, %1;", "k.cu", 8, {::mw_sim_asm_out("=r", r)},
                     {::mw_sim_asm_in("r", 3u)});
    });
    ok(faulted && fault_says("not emulated"), "mov.u32 of anything but %laneid faults");
    faulted = run_lane(0, [&](int) {
        ::mw_sim_asm("ex2.approx.ftz.f32 %0, %2;", "k.cu", 9, {::mw_sim_asm_out("=f", y)},
                     {::mw_sim_asm_in("f", 1.f)});
    });
    ok(faulted && fault_says("k.cu:9") && fault_says("%2"), "an operand past the list faults");
    faulted = run_lane(0, [&](int) {
        ::mw_sim_asm("ex2.approx.ftz.f32 %0, %0;", "k.cu", 10, {::mw_sim_asm_out("=f", y)},
                     {::mw_sim_asm_in("f", 1.f)});
    });
    ok(faulted && fault_says("output only"), "reading an \"=\" output faults");
    return done_testing();
}
