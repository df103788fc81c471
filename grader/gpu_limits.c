/* gpu_limits.c: cases set against a limit of the GPU at hand. */
#include "gpu_limits.h"

#include <stdlib.h>

int mw_cases_at_limits(const mw_case *cases, int n)
{
    int count = 0;
    for (int i = 0; i < n; i++)
        count += cases[i].at.limit != MW_LIMIT_NONE;
    return count;
}

mw_case *mw_cases_resolve(const mw_case *cases, int n, const mw_gpu_limits *g)
{
    mw_case *out = malloc((size_t)(n > 0 ? n : 1) * sizeof *out);
    if (!out)
        return NULL;
    for (int i = 0; i < n; i++) {
        out[i] = cases[i];
        const mw_dim_at_limit *at = &cases[i].at;
        if (at->limit != MW_LIMIT_NONE && at->dim >= 0 && at->dim < 4)
            out[i].dim[at->dim] = (size_t)((long)mw_limit_floats(g, at->limit) + at->delta);
    }
    return out;
}
