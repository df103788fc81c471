/* stats.h: summaries of repeated timings. Pure C, unit-tested. */
#ifndef MW_STATS_H
#define MW_STATS_H

#include <stddef.h>

/* The p-quantile (0..1) of x[0..n), linear interpolation between order
 * statistics (type 7, as R and NumPy default). Sorts a copy; x is untouched. */
double mw_quantile(const double *x, size_t n, double p);
double mw_median(const double *x, size_t n);
double mw_mean(const double *x, size_t n);
/* Sample standard deviation (n - 1 in the denominator); 0 for n < 2. */
double mw_stddev(const double *x, size_t n);
/* Relative standard error of the mean: stddev / sqrt(n) / mean. */
double mw_rel_stderr(const double *x, size_t n);

#endif
