/* roofs.h: the roofs, in one table.
 *
 * A roof is a speed of light measured on the GPU at hand: a chapter's rows
 * (or a version's or library's, in another precision) are given in percent
 * of one, and a row above 105% of its roof is flagged faster-than-roof.
 * Each row of the table says everything about one roof: the name chapters,
 * versions and libraries give it (mw_chapter.roof, mw_version.roof,
 * mw_library.roof), what its rate counts (bytes or FLOPs), its unit, the
 * metric it is cached under in results/<gpu>/roofs.csv, how the
 * terminal, the plots and the tables name it, how it is measured, and the
 * function that measures it. Adding a roof is one row in roofs.c and its
 * measurement in roofs_measure.c; the bench, the cache and the startup check
 * follow the table, and bench.csv carries the row's unit, count and names
 * to the plots and tables (facts.h).
 *
 * Everything here but the measurements is pure C and unit-tested
 * (tests/unit/test_roofs.c); the measurements are GPU code (roofs_measure.c). */
#ifndef MW_ROOFS_H
#define MW_ROOFS_H

#include <stddef.h>
#include <stdio.h>

struct mw_timer;
struct mw_chapter;

/* What a roof's rate divides by the time: a row's model bytes or FLOPs. */
typedef enum mw_roof_counts {
    MW_ROOF_BYTES, /* GB/s: 10^9 bytes read plus written per second */
    MW_ROOF_FLOPS  /* GFLOP/s: 10^9 FLOPs per second */
} mw_roof_counts;

/* Measures the roof on the current GPU with timer t; returns its rate in
 * the roof's unit. Prints nothing (the caller prints the table). */
typedef double mw_roof_measure(struct mw_timer *t);

typedef struct mw_roof {
    const char *name;        /* "copy": as chapters and libraries name it */
    mw_roof_counts counts;   /* what its rate counts */
    const char *unit;        /* "GB/s" or "GFLOP/s": the unit of its value */
    const char *metric;      /* "copy_gbps": its row in roofs.csv */
    const char *label;       /* "FP32 GEMM": how the terminal names it */
    const char *plot_label;  /* "FP32": how the plots and tables name it ("FP32 roof") */
    const char *description; /* "FP32 GEMM rate (cuBLAS)": what it is, for the tables' captions */
    const char *detail;      /* how it is measured, one line (roofs.csv's detail) */
    const char *plot_note;   /* "measured, cuBLAS SGEMM": the plots' legend, in brackets */
    mw_roof_measure *measure; /* GPU code; NULL where it is not linked (unit tests) */
} mw_roof;

typedef struct mw_roof_table {
    const mw_roof *roof;
    int count;
} mw_roof_table;

/* The most roofs a table may hold: the size of mw_roof_values.value[]. */
#define MW_MAX_ROOFS 8

/* The measured values of a table's roofs, as a GPU's cache holds them
 * (roofs_cache.h). */
typedef struct mw_roof_values {
    double value[MW_MAX_ROOFS]; /* value[i]: roof i of the table, in its unit */
    char date[32];
} mw_roof_values;

/* The project's roofs: copy, fp32, tf32, bf16. */
extern const mw_roof_table mw_roofs;

/* The measurements of the project's roofs (roofs_measure.c). */
mw_roof_measure mw_measure_copy, mw_measure_fp32_gemm, mw_measure_tf32_gemm,
    mw_measure_bf16_gemm;

/* What a roof's rate counts, as bench.csv's roof_counts says it: "bytes"
 * or "flops", the suffix of the model_bytes and model_flops columns. */
const char *mw_roof_counts_name(mw_roof_counts counts);

/* Roof `name` of table t, or NULL (-1) when the table has none. */
const mw_roof *mw_roof_find(const mw_roof_table *t, const char *name);
int mw_roof_index(const mw_roof_table *t, const char *name);

/* A row's rate, its bytes or FLOPs over `seconds` in the roof's unit, in
 * percent of `roof_value`, the roof's measured value. */
double mw_roof_percent(const mw_roof *r, double roof_value, double bytes, double flops,
                       double seconds);
/* `value` for the terminal: "2989 GB/s", or "51.4 TFLOP/s" for FLOPs. */
void mw_roof_format(const mw_roof *r, double value, char *text, size_t len);

/* How the roofline draws roof i of table t: "memory" (the first roof that
 * counts bytes: the slope), "compute" (the first that counts FLOPs: the flat
 * roof, with the ridge point where they meet) or "extra" (any other:
 * dashed, as a rate the kernels of this workbook do not aim at). */
const char *mw_roof_role(const mw_roof_table *t, int i);
/* The plots' words for roof r at `value`: the roofline's legend ("FP32
 * roof: 51.4 TFLOP/s (measured, cuBLAS SGEMM)", "memory roof: copy 2989
 * GB/s (measured)") and the speed plot's label of its line ("TF32 roof
 * 408485 GFLOP/s (measured; ...)", in the speed axis' unit). */
void mw_roof_legend(const mw_roof *r, double value, char *text, size_t len);
void mw_roof_speed_label(const mw_roof *r, double value, char *text, size_t len);
/* Writes table t with the measured values in c (blank where NaN) as CSV,
 * the plots' one source of roofs: name,role,counts,unit,value,legend,
 * speed_label. Returns 0, or -1 on a write error. */
struct mw_roof_values;
int mw_roofs_write_csv(FILE *f, const mw_roof_table *t, const struct mw_roof_values *c);

/* Is every roof the chapter names, its own, its versions' and its
 * libraries', in table t? Returns 0, or -1 with one line in `why` naming
 * the chapter (and the version or library) and the unknown roof. A chapter
 * must name a roof; a version or library may leave it NULL (the
 * chapter's). */
int mw_roofs_check_chapter(const mw_roof_table *t, const struct mw_chapter *ch, char *why,
                           size_t len);

#endif
