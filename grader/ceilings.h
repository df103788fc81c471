/* ceilings.h: this GPU's measured roofs, cached per GPU name.
 *
 * results/<gpu>/ceilings.csv holds `metric,value,unit,detail` rows:
 *   copy_gbps    device-to-device cudaMemcpy, bytes read + written, GB/s
 *   fp32_gflops  cublasSgemm, pedantic FP32 (no tensor cores), GFLOP/s
 *   tf32_gflops  cublasSgemm with TF32 tensor-core math, GFLOP/s
 * Measured by `make ceilings` (or the first bench on a new GPU), never read
 * off a datasheet. Loading and saving are pure C and unit-tested. */
#ifndef MW_CEILINGS_H
#define MW_CEILINGS_H

typedef struct mw_ceilings {
    double copy_gbps;
    double fp32_gflops;
    double tf32_gflops;
    char date[32];
} mw_ceilings;

/* 0 when every metric was found, -1 otherwise (missing file or rows). */
int mw_ceilings_load(const char *path, mw_ceilings *c);
int mw_ceilings_save(const char *path, const mw_ceilings *c, const char *gpu);

/* Measures all three on the current device (cuBLAS); prints progress. */
int mw_ceilings_measure(mw_ceilings *c);

/* Loads the cache for this GPU under results_dir, measuring and saving it
 * first when absent or when `force` is set. Returns 0 on success. */
int mw_ceilings_get(const char *results_dir, const char *gpu_dir, const char *gpu,
                    int force, mw_ceilings *c);

#endif
