/* traffic.h: measured DRAM traffic, by Nsight Compute (traffic.c): `make
 * traffic` runs this program under ncu, one launch per implementation and
 * size, and writes traffic.csv beside the model's minimum. */
#ifndef MW_TRAFFIC_H
#define MW_TRAFFIC_H

#include "impls.h"

/* Profiles every implementation at the chapter's traffic sizes. */
int mw_cmd_traffic(const mw_chapter *ch, const mw_bench_opts *o);
/* The program ncu runs: the launches map_path lists, nothing else. */
int mw_cmd_traffic_run(const mw_chapter *ch, const mw_bench_opts *o, const char *map_path);

#endif
