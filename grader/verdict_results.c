/* verdict_results.c: the lookups of verdict_results.h. */
#include "verdict_results.h"

#include <math.h>
#include <string.h>

const mw_result *mw_result_at(const mw_result *r, int count, const char *impl, double size)
{
    for (int i = 0; i < count; i++)
        if (strcmp(r[i].impl, impl) == 0 && r[i].size == size && !isnan(r[i].median_ms))
            return &r[i];
    return NULL;
}

const mw_result *mw_result_find(const mw_result *r, int count, const char *impl)
{
    double largest = -1;
    for (int i = 0; i < count; i++)
        if (r[i].size > largest)
            largest = r[i].size;
    return mw_result_at(r, count, impl, largest);
}
