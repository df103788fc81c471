/* ceilings.h: this GPU's measured roofs, cached per GPU name.
 *
 * results/<gpu>/ceilings.csv holds `metric,value,unit,detail` rows, one per
 * roof of the table in roofs.c (its metric, value, unit and how it was
 * measured), then `date` and `gpu` with their value in the detail column:
 *   copy_gbps    device-to-device cudaMemcpy, bytes read + written, GB/s
 *   fp32_gflops  cublasSgemm, pedantic FP32 (no tensor cores), GFLOP/s
 *   tf32_gflops  cublasSgemm with TF32 tensor-core math, GFLOP/s
 *   bf16_gflops  cublasGemmEx, bf16 A, B and C, FP32 sums (tensor cores), GFLOP/s
 * Measured by `make ceilings` (or the first bench on a new GPU), never read
 * off a datasheet. A file that lacks a roof of the table (one cached before
 * that roof was added) is measured again. Loading and saving are pure C and
 * unit-tested. */
#ifndef MW_CEILINGS_H
#define MW_CEILINGS_H

#include "roofs.h"

typedef struct mw_ceilings {
    double value[MW_MAX_ROOFS]; /* value[i]: roof i of the table, in its unit */
    char date[32];
} mw_ceilings;

/* The cache of table t's roofs: 0 when every roof was found, -1 otherwise
 * (missing file or rows); a roof not found is NaN. */
int mw_ceilings_load_roofs(const char *path, const mw_roof_table *t, mw_ceilings *c);
int mw_ceilings_save_roofs(const char *path, const mw_roof_table *t, const mw_ceilings *c,
                           const char *gpu);
/* The same for the project's roofs (mw_roofs). */
int mw_ceilings_load(const char *path, mw_ceilings *c);
int mw_ceilings_save(const char *path, const mw_ceilings *c, const char *gpu);

/* The measured value of roof `name` of table t; NaN when t has no such roof. */
double mw_ceilings_value(const mw_ceilings *c, const mw_roof_table *t, const char *name);
/* A row's speed in percent of roof `name` (mw_roof_percent); NaN for an
 * unknown roof. */
double mw_ceilings_percent(const mw_ceilings *c, const mw_roof_table *t, const char *name,
                           double bytes, double flops, double seconds);

/* Measures every roof of mw_roofs on the current device; prints progress. */
int mw_ceilings_measure(mw_ceilings *c);

/* Loads the cache for this GPU under results_dir, measuring and saving it
 * first when absent or when `force` is set. Returns 0 on success. */
int mw_ceilings_get(const char *results_dir, const char *gpu_dir, const char *gpu,
                    int force, mw_ceilings *c);

/* `mw-chapter ceilings`: this GPU's roofs measured (again, with force) and
 * cached under results_root. 0, 2 on failure, 77 without a GPU. */
int mw_cmd_ceilings(const char *results_root, int force);

#endif
