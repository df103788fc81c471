/* The stand-in scheduler's state (run_grid.c), for the host part's tests. */
#ifndef MW_SIM_STANDIN_RUN_GRID_H
#define MW_SIM_STANDIN_RUN_GRID_H

#include "sim.h"

extern uint3 standin_block, standin_thread; /* the thread the body runs as */
extern cudaError_t standin_fault;          /* set by a body: the grid stops */
extern int standin_grids;                  /* grids run */

#endif
