/* gpu_limits.h: cases set against a limit of the GPU at hand (mw_case.at),
 * resolved when a check starts. */
#ifndef MW_GPU_LIMITS_H
#define MW_GPU_LIMITS_H

#include "mw.h"

/* How many of the cases are set against a limit. */
int mw_cases_at_limits(const mw_case *cases, int n);

/* A copy of the cases (malloc'd; the caller frees it) in which each case
 * set against a limit has its dim from g: the limit's floats plus the
 * case's delta. NULL when out of memory. */
mw_case *mw_cases_resolve(const mw_case *cases, int n, const mw_gpu_limits *g);

#endif
