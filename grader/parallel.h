/* parallel.h: a loop split over the CPU's cores, for the references a check
 * compares against (a double-precision answer per output can cost tens of
 * seconds on one core). Pure C with POSIX threads, unit-tested. */
#ifndef MW_PARALLEL_H
#define MW_PARALLEL_H

#include <stddef.h>

/* The cores this process may run on (its CPU affinity: a Slurm task's, a
 * taskset's), else the cores online; at least 1. */
size_t mw_cores(void);

/* Calls fn(ctx, first, end) over contiguous ranges that cover [0, count)
 * exactly once, on up to `threads` threads (this one among them; 0: one
 * per core), never one for fewer than `min_items` items. Each range is
 * whole, so a caller that writes results by index gets the same bits
 * however many threads ran. Returns when every range is done. */
void mw_parallel_ranges(size_t count, size_t threads, size_t min_items,
                        void (*fn)(void *ctx, size_t first, size_t end), void *ctx);

#endif
