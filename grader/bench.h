/* bench.h: timing every implementation (student, reference, library, roof;
 * impls.h) on the same GPU in one run. Traffic: traffic.h; the roofs:
 * roofs_cache.h. */
#ifndef MW_BENCH_H
#define MW_BENCH_H

#include "impls.h"

int mw_cmd_bench(const mw_chapter *ch, const mw_bench_opts *o);
/* One bench size, every implementation, into `out` (bench.csv's columns). */
int mw_cmd_perf(const mw_chapter *ch, const mw_bench_opts *o, double size, const char *out);

#endif
