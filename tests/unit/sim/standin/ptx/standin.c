/* standin.c: sim.h's running-thread functions for ptx.c's unit tests. A
 * warp collective runs in two passes over the 32 lanes: in the first, each
 * lane's call of mw_sim_warp_exchange records what the lane gives and jumps
 * back to the test (nothing before it has effects); in the second, each
 * lane's call returns every lane's parts and the lane finishes. */
#include "standin.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

unsigned char standin_shared[STANDIN_SHARED_BYTES];
int standin_lane;
void *standin_slots[32];
jmp_buf *standin_jump;
cudaError_t standin_err;
char standin_fault[512];
int standin_deliver;
standin_access standin_accesses[STANDIN_MAX_ACCESSES];
int standin_naccesses;

static unsigned char gathered[32 * 256];
static const char *gathered_what;

uint32_t standin_shared_addr(const void *p)
{
    return (uint32_t)((const unsigned char *)p - standin_shared);
}

int mw_sim_in_kernel(void)
{
    return 1;
}

void mw_sim_kernel_fault(cudaError_t err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(standin_fault, sizeof standin_fault, fmt, ap);
    va_end(ap);
    standin_err = err;
    longjmp(*standin_jump, 1);
}

void mw_sim_warp_exchange(unsigned mask, const void *mine, size_t bytes, void *all, const char *what)
{
    if (mask != 0xffffffffu || bytes > 256)
        mw_sim_kernel_fault(cudaErrorLaunchFailure, "stand-in: exchange of mask %x, %zu bytes",
                            mask, bytes);
    if (!standin_deliver) {
        memcpy(gathered + (size_t)standin_lane * bytes, mine, bytes);
        gathered_what = what;
        longjmp(*standin_jump, 2);
    }
    if (what != gathered_what && strcmp(what, gathered_what) != 0)
        mw_sim_kernel_fault(cudaErrorLaunchFailure, "stand-in: lanes meet at %s and %s", what,
                            gathered_what);
    memcpy(all, gathered, 32 * bytes);
}

int mw_sim_lane(void)
{
    return standin_lane;
}

void *mw_sim_shared_ptr(uint32_t addr, size_t bytes)
{
    if (addr > STANDIN_SHARED_BYTES || bytes > STANDIN_SHARED_BYTES - addr)
        mw_sim_kernel_fault(cudaErrorIllegalAddress, "shared 0x%x (%zu bytes) outside the window",
                            (unsigned)addr, bytes);
    return standin_shared + addr;
}

void **mw_sim_ptx_slot(void)
{
    return &standin_slots[standin_lane];
}

void mw_sim_check_access(const void *addr, size_t bytes, int is_write, const void *pc)
{
    (void)pc;
    if (standin_naccesses < STANDIN_MAX_ACCESSES)
        standin_accesses[standin_naccesses++] = (standin_access){addr, bytes, is_write};
}
