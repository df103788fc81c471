/* warp.c: warps of 32 lanes and their collectives.
 *
 * Every shuffle, vote and __syncwarp is a meeting of the lanes of its mask
 * (mw_sim_warp_exchange): a lane waits until every lane of the mask has
 * come to the same collective with the same mask. A lane of the mask that
 * has exited, waits at a barrier or in another collective is a fault, as
 * the GPU would hang or return garbage there. A completed collective also
 * orders the accesses of its lanes for the race check (checks.c). */
#include <stdio.h>
#include <string.h>

#include "core.h"

static void lanes_text(unsigned lanes, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = 0;
    for (int j = 0; j < 32 && used + 8 < len; ++j)
        if (lanes & (1u << j))
            used += (size_t)snprintf(buf + used, len - used, "%s%d", used ? ", " : "", j);
}

static mw_sim_thread *lane_thread(mw_sim_block *b, int warp, int lane)
{
    int tid = warp * 32 + lane;
    return tid < b->nthreads ? &b->threads[tid] : NULL;
}

/* Every lane of the mask waits in the collective: each gets every slot. */
static void complete(mw_sim_block *b, mw_sim_thread *me, unsigned mask)
{
    mw_sim_warp_sync *ws = &b->wsync[me->warp];
    ws->count++;
    for (int i = 0; i < 32; ++i) {
        if (!(mask & (1u << i)))
            continue;
        mw_sim_thread *ti = lane_thread(b, me->warp, i);
        char *all = ti->wait_all;
        for (int j = 0; j < 32; ++j) {
            if (mask & (1u << j)) {
                memcpy(all + (size_t)j * ti->wait_bytes, lane_thread(b, me->warp, j)->wait_mine,
                       ti->wait_bytes);
                ws->last[i][j] = ws->count;
            } else {
                memset(all + (size_t)j * ti->wait_bytes, 0, ti->wait_bytes);
            }
        }
        ti->wait_what = NULL;
        if (ti != me)
            ti->state = MW_T_READY;
    }
}

static void exchange_at(unsigned mask, const void *mine, size_t bytes, void *all, const char *what,
                        const void *pc)
{
    mw_sim_thread *me = mw_sim_cur->thread;
    mw_sim_block *b = me->block;
    char at[512], lanes[160];
    if (!(mask & (1u << me->lane))) {
        mw_sim_pc_line(pc, at, sizeof at);
        mw_sim_kernel_fault(cudaErrorLaunchFailure,
                            "%s with mask 0x%08x at %s: the calling lane %d is not in its mask",
                            what, mask, at, me->lane);
    }
    unsigned exited = 0, elsewhere = 0, arrived = 0;
    const char *other = NULL;
    for (int j = 0; j < 32; ++j) {
        if (!(mask & (1u << j)) || j == me->lane)
            continue;
        mw_sim_thread *tj = lane_thread(b, me->warp, j);
        if (!tj || tj->state == MW_T_DONE)
            exited |= 1u << j;
        else if (tj->state == MW_T_BARRIER)
            elsewhere |= 1u << j, other = "__syncthreads";
        else if (tj->state == MW_T_WARP &&
                 (strcmp(tj->wait_what, what) != 0 || tj->wait_mask != mask)) {
            /* in another collective: it comes here once that one completes,
             * unless that one waits for this lane */
            if (tj->wait_mask & (1u << me->lane))
                elsewhere |= 1u << j, other = tj->wait_what;
        } else if (tj->state == MW_T_WARP) {
            arrived |= 1u << j;
        }
    }
    if (exited || elsewhere) {
        mw_sim_pc_line(pc, at, sizeof at);
        lanes_text(exited ? exited : elsewhere, lanes, sizeof lanes);
        mw_sim_kernel_fault(cudaErrorLaunchFailure, "%s with mask 0x%08x at %s: lanes %s %s%s",
                            what, mask, at, lanes, exited ? "have exited" : "wait in ",
                            exited ? "" : other);
    }
    me->wait_what = what;
    me->wait_mask = mask;
    me->wait_mine = mine;
    me->wait_all = all;
    me->wait_bytes = bytes;
    me->wait_pc = pc;
    me->state = MW_T_WARP;
    if ((arrived | (1u << me->lane)) == mask) {
        complete(b, me, mask);
        me->state = MW_T_READY;
        return;
    }
    mw_sim_block_thread();
}

void mw_sim_warp_exchange(unsigned mask, const void *mine, size_t bytes, void *all,
                          const char *what)
{
    exchange_at(mask, mine, bytes, all, what, __builtin_return_address(0));
}

void mw_sim_warp_check_leaving(mw_sim_thread *t, const char *why)
{
    mw_sim_block *b = t->block;
    for (int j = 0; j < 32; ++j) {
        mw_sim_thread *tj = lane_thread(b, t->warp, j);
        if (!tj || tj == t || tj->state != MW_T_WARP || !(tj->wait_mask & (1u << t->lane)))
            continue;
        char at[512];
        mw_sim_pc_line(tj->wait_pc, at, sizeof at);
        mw_sim_kernel_fault(cudaErrorLaunchFailure,
                            "%s with mask 0x%08x at %s: lane %d waits for lane %d, which %s",
                            tj->wait_what, tj->wait_mask, at, j, t->lane,
                            strcmp(why, "exited") == 0 ? "has exited" : "waits at __syncthreads");
    }
}

void mw_sim_warp_describe(const mw_sim_thread *t, char *buf, size_t len)
{
    char at[512];
    mw_sim_pc_line(t->wait_pc, at, sizeof at);
    if (t->state == MW_T_BARRIER)
        snprintf(buf, len, "waits at __syncthreads (%s)", at);
    else if (t->state == MW_T_WARP)
        snprintf(buf, len, "waits in %s with mask 0x%08x (%s)", t->wait_what, t->wait_mask, at);
    else
        snprintf(buf, len, "is runnable");
}

/* ---- the collectives the kernel side calls ---- */

enum { SHFL_IDX, SHFL_UP, SHFL_DOWN, SHFL_XOR };
static const char *const shfl_names[] = {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync",
                                         "__shfl_xor_sync"};

/* The lane a shuffle reads, or -1 for its own value (as the GPU's shfl
 * keeps its own when the source leaves the segment of `width` lanes). */
static int shfl_source(int kind, int lane, int arg, int width)
{
    if (width <= 0 || width > 32 || (width & (width - 1)))
        width = 32;
    int base = lane & ~(width - 1), src;
    switch (kind) {
    case SHFL_IDX:
        return base + (arg & (width - 1));
    case SHFL_UP:
        src = lane - arg;
        return src < base ? -1 : src;
    case SHFL_DOWN:
        src = lane + arg;
        return src >= base + width ? -1 : src;
    default:
        src = lane ^ arg;
        return src >= base + width || src < base ? -1 : src;
    }
}

static uint64_t shfl(unsigned mask, uint64_t v, int kind, int arg, int width, const void *pc)
{
    uint64_t all[32];
    exchange_at(mask, &v, sizeof v, all, shfl_names[kind & 3], pc);
    int src = shfl_source(kind & 3, mw_sim_cur->thread->lane, arg, width);
    /* a source outside the mask gives an undefined value on the GPU: the
     * zero of its slot here */
    return src < 0 ? v : all[src];
}

uint32_t mw_sim_shfl32(unsigned mask, uint32_t v, int kind, int arg, int width)
{
    return (uint32_t)shfl(mask, v, kind, arg, width, __builtin_return_address(0));
}

uint64_t mw_sim_shfl64(unsigned mask, uint64_t v, int kind, int arg, int width)
{
    return shfl(mask, v, kind, arg, width, __builtin_return_address(0));
}

static unsigned vote(unsigned mask, int pred, const char *what, const void *pc)
{
    int all[32], mine = pred != 0;
    exchange_at(mask, &mine, sizeof mine, all, what, pc);
    unsigned bits = 0;
    for (int j = 0; j < 32; ++j)
        bits |= all[j] ? 1u << j : 0;
    return bits;
}

unsigned mw_sim_ballot(unsigned mask, int pred)
{
    return vote(mask, pred, "__ballot_sync", __builtin_return_address(0));
}

int mw_sim_any(unsigned mask, int pred)
{
    return vote(mask, pred, "__any_sync", __builtin_return_address(0)) != 0;
}

int mw_sim_all(unsigned mask, int pred)
{
    return vote(mask, pred, "__all_sync", __builtin_return_address(0)) == mask;
}

void mw_sim_syncwarp(unsigned mask)
{
    char none[32] = {0};
    exchange_at(mask, none, 0, none, "__syncwarp", __builtin_return_address(0));
}

/* The lanes of the warp that have not exited: the emulation does not know
 * which lanes a divergent branch holds. */
unsigned mw_sim_activemask(void)
{
    mw_sim_thread *me = mw_sim_cur->thread;
    unsigned m = 0;
    for (int j = 0; j < 32; ++j) {
        mw_sim_thread *tj = lane_thread(me->block, me->warp, j);
        if (tj && tj->state != MW_T_DONE)
            m |= 1u << j;
    }
    return m;
}
