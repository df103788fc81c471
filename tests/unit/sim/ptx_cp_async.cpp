/* ptx.c's cp.async against the PTX ISA: data moves when its group
 * completes, src-size below cp-size zero-fills, wait_group N completes all
 * but the N most recent groups, wait_all and the thread's end complete the
 * rest; each copy's accesses go to the checks; misalignment faults. */
#include "lanes.h"
#include "tap.h"

#include <math.h>
#include <stdint.h>

static void cp16(uint32_t dst, const void *src, int src_size)
{
    ::mw_sim_asm("cp.async.cg.shared.global [%0], [%1], 16, %2;\n", __FILE__, __LINE__, {},
                 {::mw_sim_asm_in("r", dst), ::mw_sim_asm_in("l", src), ::mw_sim_asm_in("r", src_size)});
}

static void commit()
{
    ::mw_sim_asm("cp.async.commit_group;\n", __FILE__, __LINE__, {}, {});
}

template <int n> static void wait_group()
{
    ::mw_sim_asm("cp.async.wait_group %0;\n", __FILE__, __LINE__, {}, {::mw_sim_asm_in("n", n)});
}

static float *sh(uint32_t addr)
{
    return (float *)(standin_shared + addr);
}

static int all_nan(const float *p, int n)
{
    for (int i = 0; i < n; i++)
        if (!isnan(p[i]))
            return 0;
    return 1;
}

static int equals(const float *p, const float *want, int n)
{
    return memcmp(p, want, (size_t)n * 4) == 0;
}

int main(void)
{
    alignas(16) static float g[16];
    for (int i = 0; i < 16; i++)
        g[i] = (float)(i + 1);
    const float zero[4] = {0, 0, 0, 0};
    memset(standin_shared, 0xff, 256);

    int faulted = run_lane(3, [&](int) {
        cp16(0, g, 16);
        commit();
        cp16(16, g + 4, 8); /* two floats, two zeros */
        commit();
        cp16(32, g + 8, 0); /* all zeros */
        commit();
    });
    ok(!faulted, "three groups issued");
    ok(all_nan(sh(0), 12), "no data moves at the instruction: shared memory still NaN");
    standin_naccesses = 0;
    run_lane(3, [&](int) { wait_group<2>(); });
    ok(equals(sh(0), g, 4) && all_nan(sh(16), 8), "wait_group 2 completes the oldest group only");
    ok(standin_naccesses == 2 && standin_accesses[0].addr == g &&
           standin_accesses[0].bytes == 16 && !standin_accesses[0].is_write &&
           standin_accesses[1].addr == sh(0) && standin_accesses[1].bytes == 16 &&
           standin_accesses[1].is_write,
       "its global read and shared write go to the checks");
    standin_naccesses = 0;
    run_lane(3, [&](int) { wait_group<1>(); });
    const float half[4] = {5, 6, 0, 0};
    ok(equals(sh(16), half, 4) && all_nan(sh(32), 4),
       "wait_group 1 completes the second: src-size 8 zero-fills the last 8 bytes");
    ok(standin_naccesses == 2 && standin_accesses[0].bytes == 8 && standin_accesses[1].bytes == 16,
       "a partial copy reads src-size bytes and writes cp-size");
    standin_naccesses = 0;
    run_lane(3, [&](int) { wait_group<0>(); });
    ok(equals(sh(32), zero, 4), "wait_group 0 completes the rest: src-size 0 writes zeros");
    ok(standin_naccesses == 1 && standin_accesses[0].is_write,
       "src-size 0 reads nothing from global memory");

    /* Another lane's queue is its own; wait_all completes uncommitted copies. */
    memset(standin_shared, 0xff, 256);
    run_lane(4, [&](int) { cp16(64, g, 16); });
    run_lane(5, [&](int) {
        cp16(80, g + 4, 16);
        ::mw_sim_asm("cp.async.wait_all;", __FILE__, __LINE__, {}, {});
    });
    ok(all_nan(sh(64), 4) && equals(sh(80), g + 4, 4),
       "wait_all completes the lane's own copies, committed or not, and no other lane's");
    mw_sim_ptx_thread_done(standin_slots[4]);
    standin_slots[4] = NULL;
    ok(equals(sh(64), g, 4), "a thread's end completes what it left in flight");
    mw_sim_ptx_thread_done(standin_slots[3]);
    mw_sim_ptx_thread_done(standin_slots[5]);
    standin_slots[3] = standin_slots[5] = NULL;

    /* cp.async.ca of 4 and 8 bytes; the template's immediate sizes. */
    memset(standin_shared, 0xff, 256);
    run_lane(0, [&](int) {
        ::mw_sim_asm("cp.async.ca.shared.global [%0], [%1], 4;", __FILE__, __LINE__, {},
                     {::mw_sim_asm_in("r", 100u), ::mw_sim_asm_in("l", g + 2)});
        ::mw_sim_asm("cp.async.ca.shared.global [%0], [%1], 8, 4;", __FILE__, __LINE__, {},
                     {::mw_sim_asm_in("r", 104u), ::mw_sim_asm_in("l", g + 6)});
        commit();
        wait_group<0>();
    });
    const float ca[3] = {3, 7, 0};
    ok(equals(sh(100), ca, 3), "cp.async.ca of 4 bytes, and of 8 with src-size 4");
    mw_sim_ptx_thread_done(standin_slots[0]);
    standin_slots[0] = NULL;

    /* Several instructions in one template run in order. */
    memset(standin_shared, 0xff, 256);
    run_lane(0, [&](int) {
        cp16(128, g + 12, 16);
        ::mw_sim_asm("cp.async.commit_group;\n\tcp.async.wait_group 0;\n", __FILE__, __LINE__, {},
                     {});
    });
    ok(equals(sh(128), g + 12, 4), "commit_group and wait_group 0 in one template");

    faulted = run_lane(0, [&](int) { cp16(8, g, 16); });
    ok(faulted && standin_err == cudaErrorMisalignedAddress,
       "a shared destination not aligned to cp-size: misaligned address");
    faulted = run_lane(0, [&](int) { cp16(0, g + 1, 16); });
    ok(faulted && standin_err == cudaErrorMisalignedAddress,
       "a global source not aligned to cp-size: misaligned address");
    faulted = run_lane(0, [&](int) { cp16(STANDIN_SHARED_BYTES, g, 16); });
    ok(faulted && standin_err == cudaErrorIllegalAddress, "a destination past the window faults");
    faulted = run_lane(0, [&](int) { cp16(0, g, 17); });
    ok(faulted && fault_says("src-size 17"), "src-size past cp-size faults");
    faulted = run_lane(0, [&](int) {
        ::mw_sim_asm("cp.async.cg.shared.global [%0], [%1], 8;", __FILE__, __LINE__, {},
                     {::mw_sim_asm_in("r", 0u), ::mw_sim_asm_in("l", g)});
    });
    ok(faulted && fault_says("16 bytes"), "cp.async.cg of 8 bytes faults: .cg copies 16");
    mw_sim_ptx_thread_done(standin_slots[0]);
    standin_slots[0] = NULL;
    return done_testing();
}
