/* Stand-in for the core part's mw_sim_run_grid (sched.c), for the host
 * part's unit tests until it lands: the closure's body once per block and
 * thread, in order, in a plain loop (no fibers, so no barriers). The body
 * reads its indices from standin_block and standin_thread, and stops the
 * grid by setting standin_fault after mw_sim_error_set, as a fault does. */
#include "run_grid.h"

uint3 standin_block, standin_thread;
cudaError_t standin_fault;
int standin_grids;

cudaError_t mw_sim_run_grid(const mw_sim_launch *l)
{
    standin_grids++;
    for (unsigned bz = 0; bz < l->grid.z; bz++)
        for (unsigned by = 0; by < l->grid.y; by++)
            for (unsigned bx = 0; bx < l->grid.x; bx++)
                for (unsigned tz = 0; tz < l->block.z; tz++)
                    for (unsigned ty = 0; ty < l->block.y; ty++)
                        for (unsigned tx = 0; tx < l->block.x; tx++) {
                            standin_block = (uint3){bx, by, bz};
                            standin_thread = (uint3){tx, ty, tz};
                            l->body(l->closure);
                            if (standin_fault != cudaSuccess)
                                return standin_fault;
                        }
    return cudaSuccess;
}
