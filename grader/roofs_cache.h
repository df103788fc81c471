/* roofs_cache.h: this GPU's measured roofs, cached per GPU name.
 *
 * results/<gpu>/roofs.csv holds `metric,value,unit,detail` rows, one per
 * roof of the table in roofs.c (its metric, value, unit and how it was
 * measured), then `date` and `gpu` with their value in the detail column:
 *   copy_gbps          device-to-device cudaMemcpy, bytes read + written, GB/s
 *   read_gbps          read-only stream, 16-byte loads, GB/s
 *   write_gbps         write-only stream, 16-byte stores, GB/s
 *   fp32_ffma_gflops   FFMA microkernel, GFLOP/s
 *   tf32_mma_gflops    mma.sync m16n8k8 tf32 microkernel, GFLOP/s
 *   bf16_mma_gflops    mma.sync m16n8k16 bf16 microkernel, GFLOP/s
 *   tf32_wgmma_gflops  wgmma m64n256k8 tf32 microkernel (sm_90a), GFLOP/s
 *   bf16_wgmma_gflops  wgmma m64n256k16 bf16 microkernel (sm_90a), GFLOP/s
 * A blank value is a roof measured and found not on this GPU (wgmma off
 * sm_90a). Measured by `make roofs` (or the first bench on a new GPU), never
 * read off a datasheet. A file that lacks a roof of the table (the table
 * grew since it was cached) is measured again by the bench; read as it is,
 * the roof it lacks is NaN: not measured, blank in the facts, left out of
 * the plots. Loading and saving (roofs_cache.c) are pure C and
 * unit-tested; measuring (roofs_measure.c) is GPU code. */
#ifndef MW_ROOFS_CACHE_H
#define MW_ROOFS_CACHE_H

#include "roofs.h"

/* The cache of table t's roofs: 0 when every roof has its row, -1
 * otherwise (missing file or rows); a roof not found, or blank, is NaN. */
int mw_roof_cache_load_table(const char *path, const mw_roof_table *t, mw_roof_values *c);
int mw_roof_cache_save_table(const char *path, const mw_roof_table *t, const mw_roof_values *c,
                             const char *gpu);
/* The same for the project's roofs (mw_roofs). */
int mw_roof_cache_load(const char *path, mw_roof_values *c);
int mw_roof_cache_save(const char *path, const mw_roof_values *c, const char *gpu);

/* The measured value of roof `name` of table t; NaN when t has no such roof. */
double mw_roof_value(const mw_roof_values *c, const mw_roof_table *t, const char *name);
/* A row's speed in percent of roof `name` (mw_roof_percent); NaN for an
 * unknown roof. */
double mw_roof_value_percent(const mw_roof_values *c, const mw_roof_table *t, const char *name,
                             double bytes, double flops, double seconds);

/* The percent the faster-than-roof check reads: against roof `name` where
 * it counts FLOPs; where it counts bytes, against its precision's peak
 * (mw_roof_value_peak_percent), the fastest DRAM stream measured: copy,
 * reads alone or writes alone. No mix of reads and writes moves bytes
 * faster than the faster of the pure streams, while a mix other than the
 * copy's can beat the copy: an add reads two bytes per byte written. NaN
 * for a name the table lacks. */
double mw_roof_value_ceiling_percent(const mw_roof_values *c, const mw_roof_table *t,
                                     const char *name, double bytes, double flops, double seconds);

/* The same row in percent of the peak of roof `name`'s precision
 * (mw_roof_peak_index: the largest measured roof of that precision); NaN
 * for an unknown roof or a precision with nothing measured. */
double mw_roof_value_peak_percent(const mw_roof_values *c, const mw_roof_table *t,
                                  const char *name, double bytes, double flops, double seconds);

/* Measures every roof of mw_roofs on the current device; prints progress. */
int mw_roofs_measure(mw_roof_values *c);

/* Loads the cache for this GPU under results_dir, measuring and saving it
 * first when absent or when `force` is set. Returns 0 on success. */
int mw_roof_cache_get(const char *results_dir, const char *gpu_dir, const char *gpu, int force,
                      mw_roof_values *c);

/* `mw-chapter roofs`: this GPU's roofs measured (again, with force) and
 * cached under results_root. 0, 2 on failure, 77 without a GPU. */
int mw_cmd_roofs(const char *results_root, int force);

#endif
