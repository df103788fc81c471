/* device.c: the device the CPU emulation stands for: an H100's limits
 * (threads, grid, shared memory) on 4 multiprocessors, so that few blocks
 * are resident at once and a grid's blocks take turns. host.c answers the
 * runtime's queries from it; the scheduler (sched.c) obeys it. */
#include "sim.h"

static const mw_sim_device device = {
    .name = "memwall CPU emulation",
    .cc_major = 9,
    .cc_minor = 0,
    .sms = 4,
    .max_threads_per_block = 1024,
    .max_threads_per_sm = 2048,
    .max_blocks_per_sm = 32,
    .max_grid = {2147483647u, 65535u, 65535u},
    .max_block = {1024u, 1024u, 64u},
    .smem_default = 48 * 1024,
    .smem_optin = 227 * 1024,
    .smem_per_sm = 228 * 1024,
    .l2_bytes = 50u << 20,
    .clock_khz = 1980000, /* the H100 SXM's boost clock */
};

const mw_sim_device *mw_sim_device_get(void)
{
    return &device;
}
