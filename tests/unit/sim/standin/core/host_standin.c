/* host_standin.c: stand-ins for host.c's functions (and ptx.c's
 * mw_sim_ptx_thread_done) for the core's unit tests, which link libmwsim's
 * core alone (and device.c, the emulated device): a small region table, the last
 * error, and a launch that runs its grid at once. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "standin.h"

/* What cudaFuncSetAttribute(MaxDynamicSharedMemorySize) would have set. */
enum { MAX_OPTIN = 16 };
static struct {
    const void *func;
    size_t bytes;
} optin[MAX_OPTIN];

void standin_set_max_dynamic_smem(const void *func, size_t bytes)
{
    for (int i = 0; i < MAX_OPTIN; ++i)
        if (optin[i].func == func || !optin[i].func) {
            optin[i].func = func;
            optin[i].bytes = bytes;
            return;
        }
}

size_t mw_sim_func_max_dynamic_smem(const void *func)
{
    for (int i = 0; i < MAX_OPTIN && optin[i].func; ++i)
        if (optin[i].func == func)
            return optin[i].bytes;
    return mw_sim_device_get()->smem_default;
}

static cudaError_t last_error, sticky_error;
static char detail[4096];

void mw_sim_error_set(cudaError_t err, int sticky, const char *text)
{
    last_error = err;
    if (sticky)
        sticky_error = err;
    snprintf(detail, sizeof detail, "%s", text ? text : "");
}

const char *mw_sim_error_detail(void)
{
    return detail[0] ? detail : NULL;
}

cudaError_t standin_take_error(void)
{
    cudaError_t e = last_error;
    last_error = cudaSuccess;
    return e;
}

void standin_reset(void)
{
    last_error = sticky_error = cudaSuccess;
    detail[0] = 0;
}

enum { MAX_REGIONS = 256 };
static mw_sim_region regions[MAX_REGIONS];

void *standin_malloc(size_t bytes)
{
    for (int i = 0; i < MAX_REGIONS; ++i)
        if (!regions[i].base) {
            regions[i].base = malloc(bytes ? bytes : 1);
            regions[i].bytes = bytes;
            memset(regions[i].base, 0xFF, bytes); /* device memory is not zeroed */
            return regions[i].base;
        }
    return NULL;
}

void standin_free(void *p)
{
    for (int i = 0; i < MAX_REGIONS; ++i)
        if (regions[i].base == p) {
            free(p);
            regions[i].base = NULL;
        }
}

const mw_sim_region *mw_sim_region_find(const void *addr)
{
    const char *a = addr;
    for (int i = 0; i < MAX_REGIONS; ++i)
        if (regions[i].base && a >= regions[i].base && a < regions[i].base + regions[i].bytes)
            return &regions[i];
    return NULL;
}

cudaError_t mw_sim_launch_kernel(const mw_sim_launch *l)
{
    cudaError_t err = sticky_error;
    if (err == cudaSuccess)
        err = mw_sim_run_grid(l);
    l->release(l->closure);
    if (err != cudaSuccess)
        last_error = err;
    return err;
}

/* weak: ptx.c's own wins wherever libmwsim holds it */
__attribute__((weak)) void mw_sim_ptx_thread_done(void *state)
{
    (void)state;
}
