/* standin.h: the running thread of sim.h as ptx.c's unit tests play it,
 * without the scheduler: a lane at a time, and a warp collective run as two
 * passes over the 32 lanes (standin.c says how). */
#ifndef MW_STANDIN_PTX_H
#define MW_STANDIN_PTX_H

#include "sim.h"

#include <setjmp.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The shared window: PTX address a is standin_shared + a. */
#define STANDIN_SHARED_BYTES 65536
extern unsigned char standin_shared[STANDIN_SHARED_BYTES];

/* The lane that runs, and its ptx.c slot. */
extern int standin_lane;
extern void *standin_slots[32];

/* Where a fault, or a lane stopped at a collective, jumps to (longjmp's
 * value: 1 a fault, 2 a collective). */
extern jmp_buf *standin_jump;
extern cudaError_t standin_err;
extern char standin_fault[512];

/* 0: each lane gives its part to the collective and stops there; 1: each
 * lane gets every lane's parts and goes on. */
extern int standin_deliver;

/* The accesses ptx.c reported to the checks, in order. */
typedef struct standin_access {
    const void *addr;
    size_t bytes;
    int is_write;
} standin_access;
#define STANDIN_MAX_ACCESSES 8192
extern standin_access standin_accesses[STANDIN_MAX_ACCESSES];
extern int standin_naccesses;

/* A shared address as PTX sees it. */
uint32_t standin_shared_addr(const void *p);

#ifdef __cplusplus
}
#endif

#endif
