/* ceilings_cache.c: the per-GPU ceilings file. */
#define _POSIX_C_SOURCE 200809L
#include "ceilings.h"

#include "csv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mw_ceilings_load(const char *path, mw_ceilings *c)
{
    memset(c, 0, sizeof *c);
    c->copy_gbps = c->fp32_gflops = c->tf32_gflops = NAN;
    FILE *fp = fopen(path, "r");
    if (!fp)
        return -1;
    char line[1024];
    char *f[8];
    while (fgets(line, sizeof line, fp)) {
        int n = mw_csv_split(line, f, 8);
        if (n < 2)
            continue;
        double v = strtod(f[1], NULL);
        if (strcmp(f[0], "copy_gbps") == 0)
            c->copy_gbps = v;
        else if (strcmp(f[0], "fp32_gflops") == 0)
            c->fp32_gflops = v;
        else if (strcmp(f[0], "tf32_gflops") == 0)
            c->tf32_gflops = v;
        else if (strcmp(f[0], "date") == 0 && n >= 4)
            snprintf(c->date, sizeof c->date, "%s", f[3]);
    }
    fclose(fp);
    int complete = c->copy_gbps > 0 && c->fp32_gflops > 0 && c->tf32_gflops > 0;
    return complete ? 0 : -1;
}

int mw_ceilings_save(const char *path, const mw_ceilings *c, const char *gpu)
{
    mw_csv csv;
    if (mw_csv_open(&csv, path, "metric,value,unit,detail") != 0)
        return -1;
    const struct {
        const char *metric;
        double value;
        const char *unit, *detail;
    } rows[] = {
        {"copy_gbps", c->copy_gbps, "GB/s",
         "cudaMemcpy device to device of 1 GiB: 2 GiB read + written, median"},
        {"fp32_gflops", c->fp32_gflops, "GFLOP/s",
         "cublasSgemm 8192^3, CUBLAS_PEDANTIC_MATH (plain FP32), median"},
        {"tf32_gflops", c->tf32_gflops, "GFLOP/s",
         "cublasSgemm 8192^3, CUBLAS_TF32_TENSOR_OP_MATH, median"},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        mw_csv_str(&csv, rows[i].metric);
        mw_csv_num(&csv, rows[i].value, 6);
        mw_csv_str(&csv, rows[i].unit);
        mw_csv_str(&csv, rows[i].detail);
        mw_csv_end_row(&csv);
    }
    mw_csv_str(&csv, "date");
    mw_csv_str(&csv, "");
    mw_csv_str(&csv, "");
    mw_csv_str(&csv, c->date);
    mw_csv_end_row(&csv);
    mw_csv_str(&csv, "gpu");
    mw_csv_str(&csv, "");
    mw_csv_str(&csv, "");
    mw_csv_str(&csv, gpu);
    mw_csv_end_row(&csv);
    return mw_csv_close(&csv);
}
