/* roofs.c: the table of roofs, and what follows from it: lookup, percent
 * of roof, the startup check of a chapter's roof names, and the plots'
 * words and roles (the listing `mw-facts --roofs` writes). */
#define _POSIX_C_SOURCE 200809L
#include "roofs.h"

#include "csv.h"
#include "mw.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* The measurements are GPU code, in roofs_measure.c. Weak references let the
 * unit tests link this table without CUDA: there the pointers are NULL. */
#pragma weak mw_measure_copy
#pragma weak mw_measure_fp32_gemm
#pragma weak mw_measure_tf32_gemm
#pragma weak mw_measure_bf16_gemm

/* The details are roofs.csv's, as committed under results/: keep them
 * as they are, or the cache files differ for no change in the method. The
 * plot labels and descriptions reach the committed plots and README tables
 * through bench.csv (facts.h): changing one changes those. */
static const mw_roof project_roofs[] = {
    {"copy", MW_ROOF_BYTES, "GB/s", "copy_gbps", "copy", "copy",
     "device-to-device copy bandwidth",
     "cudaMemcpy device to device of 1 GiB: 2 GiB read + written, median", "measured",
     mw_measure_copy},
    {"fp32", MW_ROOF_FLOPS, "GFLOP/s", "fp32_gflops", "FP32 GEMM", "FP32",
     "FP32 GEMM rate (cuBLAS)",
     "cublasSgemm 8192^3, CUBLAS_PEDANTIC_MATH (plain FP32), median",
     "measured, cuBLAS SGEMM", mw_measure_fp32_gemm},
    {"tf32", MW_ROOF_FLOPS, "GFLOP/s", "tf32_gflops", "TF32 GEMM", "TF32",
     "TF32 tensor-core GEMM rate (cuBLAS)",
     "cublasSgemm 8192^3, CUBLAS_TF32_TENSOR_OP_MATH, median",
     "measured; tensor cores, lower precision", mw_measure_tf32_gemm},
    /* C in bf16, as a bf16 kernel writes its output (attention's O): the
     * GEMM such a kernel is made of. C's writes are a small share of an
     * 8192^3 GEMM's time in either precision. */
    {"bf16", MW_ROOF_FLOPS, "GFLOP/s", "bf16_gflops", "bf16 GEMM", "bf16",
     "bf16 tensor-core GEMM rate (cuBLAS, FP32 accumulation)",
     "cublasGemmEx 8192^3, bf16 A and B, bf16 C, CUBLAS_COMPUTE_32F, median",
     "measured; tensor cores, bf16", mw_measure_bf16_gemm},
};

_Static_assert(sizeof project_roofs / sizeof project_roofs[0] <= MW_MAX_ROOFS,
               "more roofs than mw_roof_values.value[] holds: raise MW_MAX_ROOFS");

const mw_roof_table mw_roofs = {project_roofs,
                                (int)(sizeof project_roofs / sizeof project_roofs[0])};

const char *mw_roof_counts_name(mw_roof_counts counts)
{
    return counts == MW_ROOF_BYTES ? "bytes" : "flops";
}

int mw_roof_index(const mw_roof_table *t, const char *name)
{
    for (int i = 0; name && i < t->count; i++)
        if (strcmp(t->roof[i].name, name) == 0)
            return i;
    return -1;
}

const mw_roof *mw_roof_find(const mw_roof_table *t, const char *name)
{
    int i = mw_roof_index(t, name);
    return i < 0 ? NULL : &t->roof[i];
}

/* One order of operations (the amount over the time, in 10^9 a second,
 * over the roof's value) wherever a percent of roof is computed, so that
 * the same row gives the same double, to the last bit (test_roofs.c). */
double mw_roof_percent(const mw_roof *r, double roof_value, double bytes, double flops,
                       double seconds)
{
    double amount = r->counts == MW_ROOF_BYTES ? bytes : flops;
    return 100 * amount / seconds / 1e9 / roof_value;
}

/* GEMM rates read best in TFLOP/s, bandwidths in whole GB/s. */
void mw_roof_format(const mw_roof *r, double value, char *text, size_t len)
{
    if (r->counts == MW_ROOF_BYTES)
        snprintf(text, len, "%.0f %s", value, r->unit);
    else
        snprintf(text, len, "%.1f TFLOP/s", value / 1e3);
}

const char *mw_roof_role(const mw_roof_table *t, int i)
{
    for (int j = 0; j < i; j++)
        if (t->roof[j].counts == t->roof[i].counts)
            return "extra";
    return t->roof[i].counts == MW_ROOF_BYTES ? "memory" : "compute";
}

/* TFLOP/s to three digits or so: 51.4, 408. */
void mw_roof_legend(const mw_roof *r, double value, char *text, size_t len)
{
    if (r->counts == MW_ROOF_BYTES)
        snprintf(text, len, "memory roof: %s %.0f %s (%s)", r->plot_label, value, r->unit,
                 r->plot_note);
    else if (value / 1e3 < 100)
        snprintf(text, len, "%s roof: %.1f TFLOP/s (%s)", r->plot_label, value / 1e3, r->plot_note);
    else
        snprintf(text, len, "%s roof: %.0f TFLOP/s (%s)", r->plot_label, value / 1e3, r->plot_note);
}

void mw_roof_speed_label(const mw_roof *r, double value, char *text, size_t len)
{
    snprintf(text, len, "%s roof %.0f %s (%s)", r->plot_label, value, r->unit, r->plot_note);
}

int mw_roofs_write_csv(FILE *f, const mw_roof_table *t, const mw_roof_values *c)
{
    fputs("name,role,counts,unit,value,legend,speed_label\n", f);
    for (int i = 0; i < t->count; i++) {
        const mw_roof *r = &t->roof[i];
        double v = c->value[i];
        char value[64] = "", legend[256] = "", speed[256] = "";
        if (!isnan(v)) {
            snprintf(value, sizeof value, "%.17g", v);
            mw_roof_legend(r, v, legend, sizeof legend);
            mw_roof_speed_label(r, v, speed, sizeof speed);
        }
        fprintf(f, "%s,%s,%s,%s,%s,", r->name, mw_roof_role(t, i), mw_roof_counts_name(r->counts),
                r->unit, value);
        mw_csv_write_field(f, legend);
        fputc(',', f);
        mw_csv_write_field(f, speed);
        fputc('\n', f);
    }
    return ferror(f) ? -1 : 0;
}

/* "copy, fp32, tf32, bf16": the names an error message offers instead. */
static void list_names(const mw_roof_table *t, char *text, size_t len)
{
    size_t used = 0;
    text[0] = '\0';
    for (int i = 0; i < t->count && used < len; i++)
        used += (size_t)snprintf(text + used, len - used, "%s%s", i ? ", " : "",
                                 t->roof[i].name);
}

static int unknown_roof(const mw_roof_table *t, const char *who, const char *roof, char *why,
                        size_t len)
{
    char names[256];
    list_names(t, names, sizeof names);
    if (roof)
        snprintf(why, len, "%s names roof '%s', which grader/roofs.c does not define (roofs: %s)",
                 who, roof, names);
    else
        snprintf(why, len, "%s names no roof; give it one of: %s", who, names);
    return -1;
}

/* The optional roofs of a chapter's versions and libraries: NULL is the
 * chapter's, any other name must be in the table. */
static int check_versions(const mw_roof_table *t, const mw_chapter *ch, char *why, size_t len)
{
    for (int i = 0; i < ch->nversions; i++) {
        const char *roof = ch->versions[i].roof;
        if (!roof || mw_roof_find(t, roof))
            continue;
        char who[256];
        snprintf(who, sizeof who, "chapter %s, version %s,", ch->id, ch->versions[i].file);
        return unknown_roof(t, who, roof, why, len);
    }
    return 0;
}

static int check_libraries(const mw_roof_table *t, const mw_chapter *ch, char *why, size_t len)
{
    for (int i = 0; i < ch->nlibraries; i++) {
        const char *roof = ch->libraries[i].roof;
        if (!roof || mw_roof_find(t, roof))
            continue;
        char who[256];
        snprintf(who, sizeof who, "chapter %s, library %s,", ch->id, ch->libraries[i].name);
        return unknown_roof(t, who, roof, why, len);
    }
    return 0;
}

int mw_roofs_check_chapter(const mw_roof_table *t, const mw_chapter *ch, char *why, size_t len)
{
    char who[256];
    snprintf(who, sizeof who, "chapter %s", ch->id);
    if (!mw_roof_find(t, ch->roof))
        return unknown_roof(t, who, ch->roof, why, len);
    if (check_versions(t, ch, why, len) != 0)
        return -1;
    return check_libraries(t, ch, why, len);
}
