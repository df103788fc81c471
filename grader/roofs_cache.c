/* roofs_cache.c: the per-GPU roofs file, one row per roof of the
 * table (roofs.c), and lookups of the values it holds. */
#define _POSIX_C_SOURCE 200809L
#include "roofs_cache.h"

#include "csv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The roof cached under `metric`, or -1 (a row of a roof the table lacks). */
static int roof_of_metric(const mw_roof_table *t, const char *metric)
{
    for (int i = 0; i < t->count; i++)
        if (strcmp(t->roof[i].metric, metric) == 0)
            return i;
    return -1;
}

/* A cached value: blank (or anything not a number) is a roof that was
 * measured and found not on this GPU (the instruction it issues is not). */
static double cached_value(const char *text)
{
    char *end;
    double v = strtod(text, &end);
    return end == text ? NAN : v;
}

int mw_roof_cache_load_table(const char *path, const mw_roof_table *t, mw_roof_values *c)
{
    memset(c, 0, sizeof *c);
    for (int i = 0; i < MW_MAX_ROOFS; i++)
        c->value[i] = NAN;
    FILE *fp = t->count <= MW_MAX_ROOFS ? fopen(path, "r") : NULL;
    if (!fp)
        return -1;
    char line[1024];
    char *f[8];
    int found[MW_MAX_ROOFS] = {0}, rows = 0;
    while (fgets(line, sizeof line, fp)) {
        int n = mw_csv_split(line, f, 8);
        if (n < 2)
            continue;
        int i = roof_of_metric(t, f[0]);
        if (i >= 0) {
            c->value[i] = cached_value(f[1]);
            rows += !found[i];
            found[i] = 1;
        } else if (strcmp(f[0], "date") == 0 && n >= 4)
            snprintf(c->date, sizeof c->date, "%s", f[3]);
    }
    fclose(fp);
    /* Every roof of the table has its row: anything less (a cache from
     * before the table grew) is measured again. */
    return rows == t->count ? 0 : -1;
}

static void info_row(mw_csv *csv, const char *name, const char *value)
{
    mw_csv_str(csv, name);
    mw_csv_str(csv, "");
    mw_csv_str(csv, "");
    mw_csv_str(csv, value);
    mw_csv_end_row(csv);
}

int mw_roof_cache_save_table(const char *path, const mw_roof_table *t, const mw_roof_values *c,
                             const char *gpu)
{
    mw_csv csv;
    if (t->count > MW_MAX_ROOFS || mw_csv_open(&csv, path, "metric,value,unit,detail") != 0)
        return -1;
    for (int i = 0; i < t->count; i++) {
        mw_csv_str(&csv, t->roof[i].metric);
        mw_csv_num(&csv, c->value[i], 6);
        mw_csv_str(&csv, t->roof[i].unit);
        mw_csv_str(&csv, t->roof[i].detail);
        mw_csv_end_row(&csv);
    }
    info_row(&csv, "date", c->date);
    info_row(&csv, "gpu", gpu);
    return mw_csv_close(&csv);
}

int mw_roof_cache_load(const char *path, mw_roof_values *c)
{
    return mw_roof_cache_load_table(path, &mw_roofs, c);
}

int mw_roof_cache_save(const char *path, const mw_roof_values *c, const char *gpu)
{
    return mw_roof_cache_save_table(path, &mw_roofs, c, gpu);
}

double mw_roof_value(const mw_roof_values *c, const mw_roof_table *t, const char *name)
{
    int i = mw_roof_index(t, name);
    return i < 0 ? NAN : c->value[i];
}

double mw_roof_value_percent(const mw_roof_values *c, const mw_roof_table *t, const char *name,
                             double bytes, double flops, double seconds)
{
    int i = mw_roof_index(t, name);
    return i < 0 ? NAN : mw_roof_percent(&t->roof[i], c->value[i], bytes, flops, seconds);
}

double mw_roof_value_ceiling_percent(const mw_roof_values *c, const mw_roof_table *t,
                                     const char *name, double bytes, double flops, double seconds)
{
    const mw_roof *r = mw_roof_find(t, name);
    if (r && r->counts == MW_ROOF_BYTES)
        return mw_roof_value_peak_percent(c, t, name, bytes, flops, seconds);
    return mw_roof_value_percent(c, t, name, bytes, flops, seconds);
}

double mw_roof_value_peak_percent(const mw_roof_values *c, const mw_roof_table *t,
                                  const char *name, double bytes, double flops, double seconds)
{
    const mw_roof *r = mw_roof_find(t, name);
    int peak = r ? mw_roof_peak_index(t, c, r->precision) : -1;
    return peak < 0 ? NAN
                    : mw_roof_percent(&t->roof[peak], c->value[peak], bytes, flops, seconds);
}
