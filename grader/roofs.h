/* roofs.h: the roofs, in one table.
 *
 * A roof is a speed of light measured on the GPU at hand by one of the
 * project's microkernels (grader/roofs_kernels.cu), each issuing one
 * instruction as fast as the GPU allows: FFMA, mma.sync, wgmma, or 16-byte
 * loads and stores. A chapter's rows (or a version's, with the roof of the
 * instruction it uses) are given in percent of one, and a row above 105% of
 * its roof is flagged faster-than-roof (for a roof of bytes, of the fastest
 * DRAM stream measured: mw_roof_value_ceiling_percent). Each row is also given in percent of
 * its precision's peak, the largest roof of that precision (wgmma's on
 * sm_90a, else mma.sync's). Libraries are measured points, never roofs: a
 * library row is measured against its precision's peak, as it may use any
 * instruction.
 * Each row of the table says everything about one roof: the name chapters,
 * versions and libraries give it (mw_chapter.roof, mw_version.roof,
 * mw_library.roof), what its rate counts (bytes or FLOPs), its unit, the
 * metric it is cached under in results/<gpu>/roofs.csv, how the
 * terminal, the plots and the tables name it, how it is measured, the
 * instruction it issues and its precision, and the function that measures
 * it. Adding a roof is one row in roofs.c and its
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
 * the roof's unit, or NaN where the GPU (or the build for it) lacks the
 * instruction (mw_roof.needs says what it takes). Prints nothing (the
 * caller prints the table). */
typedef double mw_roof_measure(struct mw_timer *t);

typedef struct mw_roof {
    const char *name;        /* "copy": as chapters and libraries name it */
    mw_roof_counts counts;   /* what its rate counts */
    const char *unit;        /* "GB/s" or "GFLOP/s": the unit of its value */
    const char *metric;      /* "copy_gbps": its row in roofs.csv */
    const char *label;       /* "FP32 FFMA": how the terminal names it */
    const char *plot_label;  /* "FP32 FFMA": how the plots and tables name it ("... roof") */
    const char *description; /* "FP32 FMA issue rate (FFMA)": for the tables' captions */
    const char *detail;      /* how it is measured, one line (roofs.csv's detail) */
    const char *plot_note;   /* "microkernel": the plots' legend, in brackets */
    const char *instruction; /* "FFMA", "mma.sync m16n8k16 bf16": what the microkernel issues */
    const char *precision;   /* "FP32", "TF32", "bf16"; "DRAM" for the memory roofs */
    const char *needs;       /* NULL, or what the instruction takes ("sm_80", "sm_90a") */
    mw_roof_measure *measure; /* GPU code; NULL where it is not linked (unit tests) */
} mw_roof;

typedef struct mw_roof_table {
    const mw_roof *roof;
    int count;
} mw_roof_table;

/* The most roofs a table may hold: the size of mw_roof_values.value[]. */
#define MW_MAX_ROOFS 12

/* The measured values of a table's roofs, as a GPU's cache holds them
 * (roofs_cache.h). */
typedef struct mw_roof_values {
    double value[MW_MAX_ROOFS]; /* value[i]: roof i of the table, in its unit */
    char date[32];
} mw_roof_values;

/* The project's roofs: copy, read, write (DRAM), fp32 (FFMA), tf32_mma,
 * bf16_mma (mma.sync), tf32_wgmma, bf16_wgmma (wgmma, sm_90a). */
extern const mw_roof_table mw_roofs;

/* The measurements of the project's roofs (roofs_measure.c), each a
 * microkernel of grader/roofs_kernels.cu but copy (cudaMemcpy). */
mw_roof_measure mw_measure_copy, mw_measure_read, mw_measure_write, mw_measure_ffma,
    mw_measure_tf32_mma, mw_measure_bf16_mma, mw_measure_tf32_wgmma, mw_measure_bf16_wgmma;

/* What a roof's rate counts, as bench.csv's roof_counts says it: "bytes"
 * or "flops", the suffix of the model_bytes and model_flops columns. */
const char *mw_roof_counts_name(mw_roof_counts counts);

/* Roof `name` of table t, or NULL (-1) when the table has none. */
const mw_roof *mw_roof_find(const mw_roof_table *t, const char *name);
int mw_roof_index(const mw_roof_table *t, const char *name);

/* The machine's peak for `precision`: the index of the roof of that
 * precision with the largest measured value in c (wgmma's on sm_90a, else
 * mma.sync's), or -1 where none of them is measured (c NULL: none is). */
int mw_roof_peak_index(const mw_roof_table *t, const struct mw_roof_values *c,
                       const char *precision);
/* The peak of the precision of roof `name` (mw_roof_peak_index): the roof a
 * library row is measured against, for a roof that counts FLOPs, since a
 * library may use any instruction of its precision; `name` itself for a
 * roof of bytes, an unknown name or a precision with nothing measured. */
const char *mw_roof_peak_name(const mw_roof_table *t, const struct mw_roof_values *c,
                              const char *name);

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
 * FFMA roof: 65.2 TFLOP/s (microkernel)", "memory roof: copy 2989 GB/s
 * (measured)") and the speed plot's label of its line ("bf16 mma.sync roof
 * 639000 GFLOP/s (microkernel)", in the speed axis' unit). */
void mw_roof_legend(const mw_roof *r, double value, char *text, size_t len);
void mw_roof_speed_label(const mw_roof *r, double value, char *text, size_t len);
/* Writes table t with the measured values in c (blank where NaN) as CSV,
 * the plots' one source of roofs: name,role,counts,unit,value,legend,
 * speed_label,instruction,precision. Returns 0, or -1 on a write error. */
struct mw_roof_values;
int mw_roofs_write_csv(FILE *f, const mw_roof_table *t, const struct mw_roof_values *c);

/* What `mw-chapter roofs` measures, one line a roof (name, instruction,
 * method, what it needs), for a machine where it measures nothing. */
void mw_roofs_list(FILE *f);

/* Is every roof the chapter names, its own, its versions' and its
 * libraries', in table t? Returns 0, or -1 with one line in `why` naming
 * the chapter (and the version or library) and the unknown roof. A chapter
 * must name a roof; a version or library may leave it NULL (the
 * chapter's). */
int mw_roofs_check_chapter(const mw_roof_table *t, const struct mw_chapter *ch, char *why,
                           size_t len);

#endif
