/* stats.c: quantiles, mean, spread. */
#include "stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double mw_quantile(const double *x, size_t n, double p)
{
    if (n == 0)
        return NAN;
    double *s = malloc(n * sizeof *s);
    if (!s)
        return NAN;
    memcpy(s, x, n * sizeof *s);
    qsort(s, n, sizeof *s, cmp_double);
    double pos = p * (double)(n - 1);
    size_t lo = (size_t)floor(pos);
    size_t hi = lo + 1 < n ? lo + 1 : lo;
    double q = s[lo] + (pos - (double)lo) * (s[hi] - s[lo]);
    free(s);
    return q;
}

double mw_median(const double *x, size_t n)
{
    return mw_quantile(x, n, 0.5);
}

double mw_mean(const double *x, size_t n)
{
    if (n == 0)
        return NAN;
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += x[i];
    return sum / (double)n;
}

double mw_stddev(const double *x, size_t n)
{
    if (n < 2)
        return 0;
    double mean = mw_mean(x, n), ss = 0;
    for (size_t i = 0; i < n; i++)
        ss += (x[i] - mean) * (x[i] - mean);
    return sqrt(ss / (double)(n - 1));
}

double mw_rel_stderr(const double *x, size_t n)
{
    if (n < 2)
        return INFINITY;
    return mw_stddev(x, n) / sqrt((double)n) / mw_mean(x, n);
}
