/* lanes.h: running PTX statements in ptx.c's unit tests as lanes of one
 * warp, with the stand-in of standin.c (C++, header-only). */
#ifndef MW_STANDIN_LANES_H
#define MW_STANDIN_LANES_H

#include "standin.h"

#include <mw_sim_ptx.h>

#include <string.h>

/* Runs body(lane) as one lane; returns 0, or 1 when it faulted (the
 * fault's error and line in standin_err and standin_fault). */
template <typename F> static int run_lane(int lane, F body)
{
    jmp_buf here;
    jmp_buf *outer = standin_jump;
    standin_jump = &here;
    standin_lane = lane;
    standin_err = cudaSuccess;
    standin_fault[0] = 0;
    int jumped = setjmp(here);
    if (!jumped)
        body(lane);
    standin_jump = outer;
    return jumped == 1;
}

/* Runs body(lane) for the 32 lanes of a warp that meet at one collective:
 * the gathering pass, then the delivering one. Returns how many lanes
 * faulted. */
template <typename F> static int run_warp(F body)
{
    int faults = 0;
    standin_deliver = 0;
    for (int lane = 0; lane < 32; lane++)
        faults += run_lane(lane, body);
    standin_deliver = 1;
    for (int lane = 0; lane < 32 && !faults; lane++)
        faults += run_lane(lane, body);
    standin_deliver = 0;
    return faults;
}

static inline int fault_says(const char *text)
{
    return strstr(standin_fault, text) != NULL;
}

#endif
