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
#pragma weak mw_measure_read
#pragma weak mw_measure_write
#pragma weak mw_measure_ffma
#pragma weak mw_measure_tf32_mma
#pragma weak mw_measure_bf16_mma
#pragma weak mw_measure_tf32_wgmma
#pragma weak mw_measure_bf16_wgmma

/* The details are roofs.csv's, as committed under results/: keep them
 * as they are, or the cache files differ for no change in the method. The
 * plot labels and descriptions reach the committed plots and README tables
 * through bench.csv (facts.h): changing one changes those. A metric names
 * its method: a roof measured another way takes a new metric, so that a
 * cache of the old method reads as not measured rather than as this one.
 * The FLOPs each microkernel counts, and why it reaches its instruction's
 * rate, are in grader/roofs_kernels.cu and roofs_kernels.h. */
static const mw_roof project_roofs[] = {
    /* DRAM: the copy first (the roofline's slope, and what the memory
     * chapters compare with: a stream that reads and writes), then a stream
     * of reads alone and one of writes alone. */
    {"copy", MW_ROOF_BYTES, "GB/s", "copy_gbps", "copy", "copy",
     "device-to-device copy bandwidth",
     "cudaMemcpy device to device of 1 GiB: 2 GiB read + written, median", "measured",
     "cudaMemcpy", "DRAM", NULL, mw_measure_copy},
    {"read", MW_ROOF_BYTES, "GB/s", "read_gbps", "read", "read", "read-only stream bandwidth",
     "1 GiB read by 16-byte loads, summed, one store per block, median", "microkernel",
     "16-byte loads", "DRAM", NULL, mw_measure_read},
    {"write", MW_ROOF_BYTES, "GB/s", "write_gbps", "write", "write",
     "write-only stream bandwidth", "1 GiB written by 16-byte stores, median", "microkernel",
     "16-byte stores", "DRAM", NULL, mw_measure_write},
    /* Compute: FFMA first (the roofline's flat roof: the FP32 chapters'). */
    {"fp32", MW_ROOF_FLOPS, "GFLOP/s", "fp32_ffma_gflops", "FP32 FFMA", "FP32 FFMA",
     "FP32 FMA issue rate (FFMA microkernel)",
     "16 independent FFMA chains per thread, 2048 threads per SM, median", "microkernel", "FFMA",
     "FP32", NULL, mw_measure_ffma},
    {"tf32_mma", MW_ROOF_FLOPS, "GFLOP/s", "tf32_mma_gflops", "TF32 mma.sync", "TF32 mma.sync",
     "TF32 tensor-core rate of mma.sync (microkernel)",
     "mma.sync m16n8k8 tf32, 8 independent accumulators per warp, 32 warps per SM, median",
     "microkernel", "mma.sync m16n8k8 tf32", "TF32", "sm_80", mw_measure_tf32_mma},
    {"bf16_mma", MW_ROOF_FLOPS, "GFLOP/s", "bf16_mma_gflops", "bf16 mma.sync", "bf16 mma.sync",
     "bf16 tensor-core rate of mma.sync, FP32 accumulation (microkernel)",
     "mma.sync m16n8k16 bf16, 8 independent accumulators per warp, 32 warps per SM, median",
     "microkernel", "mma.sync m16n8k16 bf16", "bf16", "sm_80", mw_measure_bf16_mma},
    {"tf32_wgmma", MW_ROOF_FLOPS, "GFLOP/s", "tf32_wgmma_gflops", "TF32 wgmma", "TF32 wgmma",
     "TF32 tensor-core rate of wgmma (microkernel)",
     "wgmma m64n256k8 tf32 from shared memory, 16 per commit group, 2 warpgroups per SM, median",
     "microkernel", "wgmma m64n256k8 tf32", "TF32", "sm_90a", mw_measure_tf32_wgmma},
    {"bf16_wgmma", MW_ROOF_FLOPS, "GFLOP/s", "bf16_wgmma_gflops", "bf16 wgmma", "bf16 wgmma",
     "bf16 tensor-core rate of wgmma, FP32 accumulation (microkernel)",
     "wgmma m64n256k16 bf16 from shared memory, 16 per commit group, 2 warpgroups per SM, median",
     "microkernel", "wgmma m64n256k16 bf16", "bf16", "sm_90a", mw_measure_bf16_wgmma},
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

int mw_roof_peak_index(const mw_roof_table *t, const mw_roof_values *c, const char *precision)
{
    int best = -1;
    for (int i = 0; c && precision && i < t->count; i++) {
        double v = c->value[i];
        if (strcmp(t->roof[i].precision, precision) != 0 || isnan(v) || !(v > 0))
            continue;
        if (best < 0 || v > c->value[best])
            best = i;
    }
    return best;
}

const char *mw_roof_peak_name(const mw_roof_table *t, const mw_roof_values *c, const char *name)
{
    const mw_roof *r = mw_roof_find(t, name);
    if (!r || r->counts != MW_ROOF_FLOPS)
        return name;
    int peak = mw_roof_peak_index(t, c, r->precision);
    return peak < 0 ? name : t->roof[peak].name;
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
    fputs("name,role,counts,unit,value,legend,speed_label,instruction,precision\n", f);
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
        fputc(',', f);
        mw_csv_write_field(f, r->instruction);
        fprintf(f, ",%s\n", r->precision);
    }
    return ferror(f) ? -1 : 0;
}

void mw_roofs_list(FILE *f)
{
    fprintf(f, "the roofs it measures (copy by cudaMemcpy, the others by the microkernels of "
               "grader/roofs_kernels.cu):\n");
    for (int i = 0; i < mw_roofs.count; i++) {
        const mw_roof *r = &mw_roofs.roof[i];
        fprintf(f, "  %-14s %-24s %s%s%s\n", r->name, r->instruction, r->detail,
                r->needs ? "; needs " : "", r->needs ? r->needs : "");
    }
}

/* "copy, read, write, fp32, ...": the names an error message offers instead. */
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
