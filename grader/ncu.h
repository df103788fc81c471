/* ncu.h: reading Nsight Compute's CSV output.
 *
 * `ncu --csv --metrics dram__bytes_read.sum,dram__bytes_write.sum,
 * gpu__time_duration.sum` prints one row per (kernel launch, metric), with
 * numbers in thousands-separated form ("134,235,648"). The harness brackets
 * every measured launch with a tiny kernel `mw_marker` whose grid size is the
 * launch's number k, so the rows between two markers belong to launch k,
 * whatever the library launched inside. Pure C, unit-tested on a sample that
 * ncu 2025.3 wrote on an H100 (tests/data/ncu_sample.csv). */
#ifndef MW_NCU_H
#define MW_NCU_H

#include <stdio.h>

typedef struct mw_ncu_kernel {
    int id;
    char name[128];
    long grid_x;
    double dram_read, dram_write, time_ns;
} mw_ncu_kernel;

/* Parses the whole CSV stream. Lines before the header (warnings, the
 * program's own output) are skipped. Returns the number of kernels stored in
 * *out (malloc'd; caller frees), or -1 if no ncu table was found. */
int mw_ncu_parse(FILE *fp, mw_ncu_kernel **out);

/* "134,235,648" -> 134235648; "" or "n/a" -> NaN. */
double mw_ncu_number(const char *s);

/* Sums of the kernels between marker k and the next marker. */
typedef struct mw_ncu_segment {
    long k;
    int kernels;
    double dram_read, dram_write, time_ns;
} mw_ncu_segment;

/* Groups parsed kernels by marker; returns the segment count, segments in
 * *out (malloc'd). Kernels before the first marker are ignored. */
int mw_ncu_segments(const mw_ncu_kernel *kernels, int count, mw_ncu_segment **out);

#endif
