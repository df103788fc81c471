/* test_roofs.c: the table of roofs (grader/roofs.c) and the roofs cache
 * that follows it (grader/roofs_cache.c), without a GPU: lookup, percent
 * of roof, the startup check of a chapter's roof names (its own, its
 * versions' and its libraries'), the committed caches read and written
 * back byte for byte, the instruction and precision of each roof and the
 * peak of a precision, and a made-up roof added in one place (a table row)
 * that the cache and the percent then follow.
 *
 * Arguments: roofs.csv files written by the grader (results/<gpu>/),
 * each of which must load and save back to the same bytes, or, lacking a
 * roof the table has (a cache of an older table), not load, so that the
 * bench measures it again, and read as not measured meanwhile. */
#define _POSIX_C_SOURCE 200809L
#include "tap.h"
#include "table_plus.h"

#include "csv.h"
#include "mw.h"
#include "roofs.h"
#include "roofs_cache.h"

#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static void test_lookup(void)
{
    const char *names[] = {"copy",     "read",       "write",     "fp32",
                           "tf32_mma", "bf16_mma",   "tf32_wgmma", "bf16_wgmma"};
    const char *metrics[] = {"copy_gbps",        "read_gbps",         "write_gbps",
                             "fp32_ffma_gflops", "tf32_mma_gflops",   "bf16_mma_gflops",
                             "tf32_wgmma_gflops", "bf16_wgmma_gflops"};
    const char *instructions[] = {"cudaMemcpy",           "16-byte loads",
                                  "16-byte stores",       "FFMA",
                                  "mma.sync m16n8k8 tf32", "mma.sync m16n8k16 bf16",
                                  "wgmma m64n256k8 tf32", "wgmma m64n256k16 bf16"};
    const char *precisions[] = {"DRAM", "DRAM", "DRAM", "FP32", "TF32", "bf16", "TF32", "bf16"};
    is_int(mw_roofs.count, 8, "eight roofs: three of DRAM, FFMA, mma.sync and wgmma");
    for (int i = 0; i < 8 && i < mw_roofs.count; i++) {
        const mw_roof *r = mw_roof_find(&mw_roofs, names[i]);
        ok(r == &mw_roofs.roof[i], names[i]);
        is_str(r ? r->metric : "", metrics[i], "its metric in roofs.csv");
        is_str(r ? r->instruction : "", instructions[i], "the instruction it issues");
        is_str(r ? r->precision : "", precisions[i], "its precision");
    }
    ok(mw_roofs.roof[0].counts == MW_ROOF_BYTES && mw_roofs.roof[3].counts == MW_ROOF_FLOPS,
       "the DRAM roofs count bytes, the others FLOPs");
    /* No roof is a library's: the metrics of the cuBLAS roofs are gone. */
    const char *library_metrics[] = {"fp32_gflops", "tf32_gflops", "bf16_gflops"};
    int library = 0;
    for (int i = 0; i < mw_roofs.count; i++)
        for (int j = 0; j < 3; j++)
            library |= strcmp(mw_roofs.roof[i].metric, library_metrics[j]) == 0 ||
                       strstr(mw_roofs.roof[i].detail, "cublas") != NULL;
    ok(!library, "no roof is a library's rate");
    const mw_roof *bf16 = mw_roof_find(&mw_roofs, "bf16_mma");
    ok(bf16 && strstr(bf16->detail, "mma.sync m16n8k16 bf16") && bf16->needs &&
           strcmp(bf16->needs, "sm_80") == 0,
       "bf16 mma.sync: its detail names the instruction, and it needs sm_80");
    const mw_roof *wg = mw_roof_find(&mw_roofs, "bf16_wgmma");
    ok(wg && wg->needs && strcmp(wg->needs, "sm_90a") == 0, "wgmma needs sm_90a");
    ok(mw_roof_find(&mw_roofs, "fp32")->needs == NULL, "FFMA needs nothing");
    ok(mw_roof_find(&mw_roofs, "fp64") == NULL, "an unknown roof is not found");
    ok(mw_roof_find(&mw_roofs, "bf16") == NULL && mw_roof_find(&mw_roofs, "tf32") == NULL,
       "the library roofs' names are gone");
    ok(mw_roof_find(&mw_roofs, NULL) == NULL, "no name, no roof");
    is_int(mw_roof_index(&mw_roofs, "fp64"), -1, "an unknown roof has no index");
}

/* The peak of a precision: its largest measured roof, wgmma's where it is
 * measured, mma.sync's where wgmma is not on the GPU (NaN). */
static void test_peak(void)
{
    mw_roof_values h100 = {{3000, 3200, 2900, 65000, 300000, 640000, 480000, 900000}, ""};
    mw_roof_values a100 = {{1500, 1600, 1400, 19000, 150000, 300000, NAN, NAN}, ""};
    int bf16_wgmma = mw_roof_index(&mw_roofs, "bf16_wgmma");
    int bf16_mma = mw_roof_index(&mw_roofs, "bf16_mma");
    is_int(mw_roof_peak_index(&mw_roofs, &h100, "bf16"), bf16_wgmma, "bf16 peak: wgmma on sm_90a");
    is_int(mw_roof_peak_index(&mw_roofs, &a100, "bf16"), bf16_mma, "mma.sync without wgmma");
    is_int(mw_roof_peak_index(&mw_roofs, &h100, "TF32"), mw_roof_index(&mw_roofs, "tf32_wgmma"),
           "TF32 peak: wgmma");
    is_int(mw_roof_peak_index(&mw_roofs, &h100, "FP32"), mw_roof_index(&mw_roofs, "fp32"),
           "FP32 peak: FFMA");
    is_int(mw_roof_peak_index(&mw_roofs, &h100, "DRAM"), mw_roof_index(&mw_roofs, "read"),
           "DRAM peak: the largest of copy, read, write");
    /* Largest, not last: a wgmma below mma.sync (a GPU that throttles) leaves mma.sync the peak. */
    mw_roof_values odd = h100;
    odd.value[bf16_wgmma] = 500000;
    is_int(mw_roof_peak_index(&mw_roofs, &odd, "bf16"), bf16_mma, "the largest, wherever it is");
    mw_roof_values none = {{NAN, NAN, NAN, NAN, NAN, NAN, NAN, NAN}, ""};
    is_int(mw_roof_peak_index(&mw_roofs, &none, "bf16"), -1, "nothing measured, no peak");
    is_int(mw_roof_peak_index(&mw_roofs, NULL, "bf16"), -1, "no values, no peak");
    is_int(mw_roof_peak_index(&mw_roofs, &h100, "fp64"), -1, "an unknown precision, no peak");

    /* A library is measured against its precision's peak. */
    is_str(mw_roof_peak_name(&mw_roofs, &h100, "tf32_mma"), "tf32_wgmma",
           "a library naming tf32_mma is measured against TF32 wgmma on sm_90a");
    is_str(mw_roof_peak_name(&mw_roofs, &a100, "tf32_mma"), "tf32_mma", "and mma.sync elsewhere");
    is_str(mw_roof_peak_name(&mw_roofs, &h100, "fp32"), "fp32", "FP32: FFMA is the peak");
    is_str(mw_roof_peak_name(&mw_roofs, &h100, "copy"), "copy",
           "a roof of bytes stays itself: the copy is what the memory chapters compare with");
    is_str(mw_roof_peak_name(&mw_roofs, &none, "bf16_mma"), "bf16_mma",
           "nothing measured: the named roof");
    is_str(mw_roof_peak_name(&mw_roofs, &h100, "fp64"), "fp64", "an unknown name stays itself");

    /* Percent of peak: a bf16 mma.sync kernel at 320 TFLOP/s. */
    is_double(mw_roof_value_percent(&h100, &mw_roofs, "bf16_mma", 0, 3.2e14, 1), 50, 1e-9,
              "50% of the mma.sync roof");
    is_double(mw_roof_value_peak_percent(&h100, &mw_roofs, "bf16_mma", 0, 3.2e14, 1),
              100.0 * 320000 / 900000, 1e-9, "35.6% of the bf16 peak (wgmma) on sm_90a");
    is_double(mw_roof_value_peak_percent(&a100, &mw_roofs, "bf16_mma", 0, 1.5e14, 1), 50, 1e-9,
              "and of mma.sync where wgmma is not");
    is_double(mw_roof_value_peak_percent(&h100, &mw_roofs, "copy", 1.6e12, 0, 1), 50, 1e-9,
              "a copy-roof row in percent of the fastest DRAM roof (read)");
    ok(isnan(mw_roof_value_peak_percent(&none, &mw_roofs, "bf16_mma", 0, 1e12, 1)),
       "no percent of peak where nothing is measured");
    ok(isnan(mw_roof_value_peak_percent(&h100, &mw_roofs, "fp64", 0, 1e12, 1)),
       "nor for an unknown roof");
}

static void test_rows_whole(void)
{
    int whole = 1;
    for (int i = 0; i < mw_roofs.count; i++) {
        const mw_roof *r = &mw_roofs.roof[i];
        const char *unit = r->counts == MW_ROOF_BYTES ? "GB/s" : "GFLOP/s";
        whole &= strcmp(r->unit, unit) == 0 && r->label[0] && r->plot_label[0] &&
                 r->description[0] && r->detail[0];
        for (int j = 0; j < i; j++)
            whole &= strcmp(r->name, mw_roofs.roof[j].name) != 0 &&
                     strcmp(r->metric, mw_roofs.roof[j].metric) != 0;
    }
    ok(whole, "every roof has its unit, labels, description and detail, and a name and "
              "metric of its own");
    is_str(mw_roof_counts_name(MW_ROOF_BYTES), "bytes", "a bandwidth counts bytes");
    is_str(mw_roof_counts_name(MW_ROOF_FLOPS), "flops", "a GEMM rate counts flops");
}

static void test_percent(void)
{
    const mw_roof *copy = mw_roof_find(&mw_roofs, "copy");
    const mw_roof *fp32 = mw_roof_find(&mw_roofs, "fp32");
    is_double(mw_roof_percent(copy, 3000, 1.5e9, 7e12, 1e-3), 50, 1e-9,
              "copy: bytes over time, in percent of GB/s; FLOPs ignored");
    is_double(mw_roof_percent(fp32, 50000, 7e12, 2.5e10, 1e-3), 50, 1e-9,
              "fp32: FLOPs over time, in percent of GFLOP/s; bytes ignored");
    /* The percent as the plain expression gives it, to the bit. */
    double bytes = 12.0 * 268435456, s = 1.0843e-3, roof_value = 2988.79;
    ok(mw_roof_percent(copy, roof_value, bytes, 0, s) == 100 * bytes / s / 1e9 / roof_value,
       "the same double as the plain expression");
    mw_roof_values c = {{3000, 3100, 2900, 50000, 400000, 800000, NAN, NAN}, ""};
    is_double(mw_roof_value_percent(&c, &mw_roofs, "tf32_mma", 0, 4e11, 1e-3), 100, 1e-9,
              "by name: tf32_mma against the TF32 mma.sync value");
    is_double(mw_roof_value_percent(&c, &mw_roofs, "bf16_mma", 0, 4e11, 1e-3), 50, 1e-9,
              "bf16_mma against the bf16 mma.sync value");
    is_double(mw_roof_value_percent(&c, &mw_roofs, "fp32", 0, 4e11, 1e-3), 800, 1e-9,
              "the same row against FP32: what a bf16 kernel would read without its roof");
    ok(isnan(mw_roof_value_percent(&c, &mw_roofs, "fp64", 1, 1, 1)),
       "an unknown roof is no percent, never the copy's");
    is_double(mw_roof_value(&c, &mw_roofs, "fp32"), 50000, 0, "value by name");
    /* The faster-than-roof check's ceiling: copy 3000, read 3100, write 2900. */
    is_double(mw_roof_value_ceiling_percent(&c, &mw_roofs, "copy", 3.1e9, 0, 1e-3), 100, 1e-9,
              "ceiling of the copy roof: the read stream, the fastest DRAM roof measured");
    is_double(mw_roof_value_percent(&c, &mw_roofs, "copy", 3.1e9, 0, 1e-3), 3100.0 / 30, 1e-9,
              "while the percent of roof stays the copy's");
    is_double(mw_roof_value_ceiling_percent(&c, &mw_roofs, "fp32", 0, 4e11, 1e-3), 800, 1e-9,
              "a FLOP roof is its own ceiling, never a DRAM stream's");
    mw_roof_values slow_streams = c;
    slow_streams.value[mw_roof_index(&mw_roofs, "read")] = NAN;
    slow_streams.value[mw_roof_index(&mw_roofs, "write")] = 2000;
    is_double(mw_roof_value_ceiling_percent(&slow_streams, &mw_roofs, "copy", 3e9, 0, 1e-3), 100,
              1e-9, "unmeasured or slower streams leave the copy as the ceiling");
    ok(isnan(mw_roof_value_ceiling_percent(&c, &mw_roofs, "fp64", 1, 1, 1)),
       "an unknown roof has no ceiling");
    ok(isnan(mw_roof_value(&c, &mw_roofs, "fp64")), "no value for an unknown roof");
    char text[64];
    mw_roof_format(copy, 2988.79, text, sizeof text);
    is_str(text, "2989 GB/s", "a bandwidth prints in whole GB/s");
    mw_roof_format(fp32, 65212.4, text, sizeof text);
    is_str(text, "65.2 TFLOP/s", "a FLOP rate prints in TFLOP/s");
}

static cudaError_t no_run(void *state, const mw_case *c, float *const *bufs, cudaStream_t s)
{
    (void)state, (void)c, (void)bufs, (void)s;
    return cudaSuccess;
}

static int no_setup(void **state)
{
    *state = NULL;
    return 0;
}

static void test_check_chapter(void)
{
    mw_library libs[] = {
        {"libA", "library", no_setup, no_run, NULL, NULL, 1, 0, NULL},
        {"libB_TF32", "library", no_setup, no_run, NULL, NULL, 0, 0, "tf32_mma"},
    };
    mw_chapter ch = {.id = "99-test", .roof = "fp32", .libraries = libs, .nlibraries = 2};
    char why[512] = "";
    is_int(mw_roofs_check_chapter(&mw_roofs, &ch, why, sizeof why), 0,
           "a chapter's roof and its libraries' (NULL: the chapter's) are known");
    ch.roof = "fp64";
    is_int(mw_roofs_check_chapter(&mw_roofs, &ch, why, sizeof why), -1,
           "an unknown chapter roof is an error");
    is_str(why, "chapter 99-test names roof 'fp64', which grader/roofs.c does not define "
                "(roofs: copy, read, write, fp32, tf32_mma, bf16_mma, tf32_wgmma, "
                "bf16_wgmma)",
           "one line: the chapter, the name, the names known");
    ch.roof = NULL;
    is_int(mw_roofs_check_chapter(&mw_roofs, &ch, why, sizeof why), -1, "no roof is an error");
    ok(strstr(why, "names no roof") != NULL, "saying so");
    ch.roof = "copy";
    libs[1].roof = "fp64";
    is_int(mw_roofs_check_chapter(&mw_roofs, &ch, why, sizeof why), -1,
           "an unknown library roof is an error");
    is_str(why, "chapter 99-test, library libB_TF32, names roof 'fp64', which grader/roofs.c "
                "does not define (roofs: copy, read, write, fp32, tf32_mma, bf16_mma, tf32_wgmma, "
                "bf16_wgmma)",
           "naming the library");
}

/* A version may name a roof of its own, as a library may: chapter 05's
 * bf16 kernel against the roof of the instruction it uses, bf16 mma.sync,
 * not the chapter's FP32 one. */
static void test_check_versions(void)
{
    mw_version versions[] = {
        {"01_k", "k1", "", 0, 0, NULL}, /* positional, as chapters write them: roof NULL */
        {"02_bf16", "k2", "", 0, 1, NULL, "bf16_mma"},
    };
    ok(versions[0].roof == NULL, "a version initialized without a roof has none (the chapter's)");
    mw_chapter ch = {.id = "99-test", .roof = "fp32", .versions = versions, .nversions = 2};
    char why[512] = "";
    is_int(mw_roofs_check_chapter(&mw_roofs, &ch, why, sizeof why), 0,
           "a version's roof (NULL: the chapter's) is known");
    versions[1].roof = "fp64";
    is_int(mw_roofs_check_chapter(&mw_roofs, &ch, why, sizeof why), -1,
           "an unknown version roof is an error");
    is_str(why, "chapter 99-test, version 02_bf16, names roof 'fp64', which grader/roofs.c "
                "does not define (roofs: copy, read, write, fp32, tf32_mma, bf16_mma, tf32_wgmma, "
                "bf16_wgmma)",
           "naming the version");
    mw_library libs[] = {{"libX", "library", no_setup, no_run, NULL, NULL, 1, 0, "fp16"}};
    ch.libraries = libs, ch.nlibraries = 1;
    mw_roofs_check_chapter(&mw_roofs, &ch, why, sizeof why);
    ok(strstr(why, "version 02_bf16") != NULL, "versions are checked before libraries");
    versions[1].roof = "bf16_mma";
    mw_roofs_check_chapter(&mw_roofs, &ch, why, sizeof why);
    ok(strstr(why, "library libX, names roof 'fp16'") != NULL, "then the libraries");
    ch.roof = "fp64";
    mw_roofs_check_chapter(&mw_roofs, &ch, why, sizeof why);
    ok(strncmp(why, "chapter 99-test names roof 'fp64'", 33) == 0, "the chapter's own first");
}

/* The whole file, for byte comparisons. */
static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    return strdup(buf);
}

/* The gpu row's detail, which the cache keeps but does not load. */
static void gpu_of(const char *path, char *gpu, size_t len)
{
    FILE *fp = fopen(path, "r");
    char line[1024], *f[8];
    gpu[0] = '\0';
    while (fp && fgets(line, sizeof line, fp))
        if (mw_csv_split(line, f, 8) >= 4 && strcmp(f[0], "gpu") == 0)
            snprintf(gpu, len, "%s", f[3]);
    if (fp)
        fclose(fp);
}

/* A cache the grader wrote loads, and saves back to the same bytes. One
 * that lacks a roof of the table (a cache of an older table) does not
 * load, so the bench measures every roof again; read as it is (the plots,
 * the tables), the roofs it lacks are NaN, not measured, and no row of it
 * is read as a roof measured another way. */
static void test_committed(const char *path, const char *tmp)
{
    mw_roof_values c;
    char name[512], gpu[256];
    int loaded = mw_roof_cache_load(path, &c);
    int held = 0;
    for (int i = 0; i < mw_roofs.count; i++)
        held += !isnan(c.value[i]);
    if (loaded != 0) {
        snprintf(name, sizeof name,
                 "%s lacks roofs of the table (%d of %d held): it does not load, so it is "
                 "measured again",
                 path, held, mw_roofs.count);
        ok(held < mw_roofs.count, name);
        snprintf(name, sizeof name, "%s: the roofs it lacks read as not measured", path);
        ok(isnan(mw_roof_value(&c, &mw_roofs, "bf16_wgmma")) ||
               isnan(mw_roof_value(&c, &mw_roofs, "fp32")) || held < mw_roofs.count,
           name);
        return;
    }
    snprintf(name, sizeof name, "%s loads", path);
    ok(1, name);
    char *before = slurp(path);
    gpu_of(path, gpu, sizeof gpu);
    mw_roof_cache_save_table(tmp, &mw_roofs, &c, gpu);
    char *after = slurp(tmp);
    snprintf(name, sizeof name, "%s saves back to the same bytes", path);
    ok(before && after && strcmp(before, after) == 0, name);
    free(before);
    free(after);
}

/* A cache of the library roofs the table had before its microkernels:
 * the copy is read (the same method, the same metric), the cuBLAS rates
 * are not read as any roof, and it does not load, so the bench measures
 * the rest. */
static void test_library_roof_cache(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/old", dir);
    mkdir(path, 0700);
    snprintf(path, sizeof path, "%s/old/roofs.csv", dir);
    FILE *f = fopen(path, "w");
    fputs("metric,value,unit,detail\n"
          "copy_gbps,2988.79,GB/s,\"cudaMemcpy device to device of 1 GiB: 2 GiB read + "
          "written, median\"\n"
          "fp32_gflops,51382.2,GFLOP/s,\"cublasSgemm 8192^3, CUBLAS_PEDANTIC_MATH (plain FP32), "
          "median\"\n"
          "tf32_gflops,408485,GFLOP/s,\"cublasSgemm 8192^3, CUBLAS_TF32_TENSOR_OP_MATH, median\"\n"
          "date,,,2026-11-22\n"
          "gpu,,,Some GPU\n",
          f);
    fclose(f);
    mw_roof_values back;
    is_int(mw_roof_cache_load(path, &back), -1, "a cache of the library roofs does not load");
    is_double(mw_roof_value(&back, &mw_roofs, "copy"), 2988.79, 0, "its copy is still read");
    ok(isnan(mw_roof_value(&back, &mw_roofs, "fp32")),
       "cuBLAS's SGEMM rate is not read as the FFMA roof");
    ok(isnan(mw_roof_value(&back, &mw_roofs, "tf32_mma")), "nor its TF32 rate as any roof");
    ok(isnan(mw_roof_value_percent(&back, &mw_roofs, "fp32", 0, 1e12, 1)),
       "no percent of a roof not measured, never another roof's");
    is_str(back.date, "2026-11-22", "its date is read");
    unlink(path);
    snprintf(path, sizeof path, "%s/old", dir);
    rmdir(path);
}

/* A roof measured and not on this GPU (wgmma off sm_90a) is saved blank,
 * loads as NaN, and the cache is whole: not measured again every run. */
static void test_not_on_this_gpu(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/a100.csv", dir);
    mw_roof_values c = {{1500, 1600, 1400, 19000, 150000, 300000, NAN, NAN}, "2026-11-22"}, back;
    ok(mw_roof_cache_save(path, &c, "Some GPU") == 0, "a cache without wgmma is saved");
    char *text = slurp(path);
    ok(text && strstr(text, "\nbf16_wgmma_gflops,,GFLOP/s,") != NULL, "wgmma's value blank");
    free(text);
    is_int(mw_roof_cache_load(path, &back), 0, "it loads: every roof has its row");
    ok(isnan(mw_roof_value(&back, &mw_roofs, "bf16_wgmma")), "wgmma not on this GPU: NaN");
    is_double(mw_roof_value(&back, &mw_roofs, "bf16_mma"), 300000, 0, "mma.sync read");
    is_int(mw_roof_peak_index(&mw_roofs, &back, "bf16"), mw_roof_index(&mw_roofs, "bf16_mma"),
           "so the bf16 peak is mma.sync's");
    unlink(path);
}

/* ---- a made-up roof, added in one place ----------------------------------- */

static double measure_madeup(struct mw_timer *t)
{
    (void)t;
    return 1234.5;
}

/* The project's table plus one row: all it takes to add a roof. */
static mw_roof madeup_rows[MW_MAX_ROOFS];
static mw_roof_table madeup_table(void)
{
    return mw_table_plus(madeup_rows,
                         (mw_roof){"madeup", MW_ROOF_FLOPS, "GFLOP/s", "madeup_gflops",
                                   "made-up MMA", "MADEUP", "made-up MMA rate",
                                   "a made-up instruction, median", "made up for a test",
                                   "madeup.mma", "MADEUP", NULL, measure_madeup});
}

/* The plots' words and roles come from the table: each roof's legend
 * names its instruction and says it is a microkernel's. */
static void test_plot_words(void)
{
    const mw_roof_table *t = &mw_roofs;
    is_str(mw_roof_role(t, 0), "memory", "copy is the roofline's memory roof");
    is_str(mw_roof_role(t, 1), "extra", "read an extra one");
    is_str(mw_roof_role(t, 3), "compute", "FP32 FFMA, the first roof of FLOPs, its compute roof");
    is_str(mw_roof_role(t, 5), "extra", "bf16 mma.sync an extra one");
    char text[256];
    mw_roof_legend(&t->roof[0], 2988.79, text, sizeof text);
    is_str(text, "memory roof: copy 2989 GB/s (measured)", "the memory roof's legend");
    mw_roof_legend(&t->roof[1], 3205.2, text, sizeof text);
    is_str(text, "memory roof: read 3205 GB/s (microkernel)", "the read roof's legend");
    mw_roof_legend(&t->roof[3], 65212.4, text, sizeof text);
    is_str(text, "FP32 FFMA roof: 65.2 TFLOP/s (microkernel)", "the compute roof's legend");
    mw_roof_legend(&t->roof[5], 639000, text, sizeof text);
    is_str(text, "bf16 mma.sync roof: 639 TFLOP/s (microkernel)",
           "past 100 TFLOP/s, whole TFLOP/s");
    mw_roof_speed_label(&t->roof[5], 639000, text, sizeof text);
    is_str(text, "bf16 mma.sync roof 639000 GFLOP/s (microkernel)",
           "the speed plot's label, in the speed axis' unit");
    mw_roof_legend(&t->roof[7], 900000, text, sizeof text);
    is_str(text, "bf16 wgmma roof: 900 TFLOP/s (microkernel)", "the bf16 wgmma roof's legend");
    mw_roof_values c = {{2988.79, NAN, NAN, 65212.4, NAN, 639000, NAN, NAN}, ""};
    char *csv = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&csv, &len);
    ok(f && mw_roofs_write_csv(f, t, &c) == 0 && fclose(f) == 0, "the roofs listing is written");
    is_str(csv,
           "name,role,counts,unit,value,legend,speed_label,instruction,precision\n"
           "copy,memory,bytes,GB/s,2988.79,memory roof: copy 2989 GB/s (measured),"
           "copy roof 2989 GB/s (measured),cudaMemcpy,DRAM\n"
           "read,extra,bytes,GB/s,,,,16-byte loads,DRAM\n"
           "write,extra,bytes,GB/s,,,,16-byte stores,DRAM\n"
           "fp32,compute,flops,GFLOP/s,65212.400000000001,"
           "FP32 FFMA roof: 65.2 TFLOP/s (microkernel),"
           "FP32 FFMA roof 65212 GFLOP/s (microkernel),FFMA,FP32\n"
           "tf32_mma,extra,flops,GFLOP/s,,,,mma.sync m16n8k8 tf32,TF32\n"
           "bf16_mma,extra,flops,GFLOP/s,639000,bf16 mma.sync roof: 639 TFLOP/s (microkernel),"
           "bf16 mma.sync roof 639000 GFLOP/s (microkernel),mma.sync m16n8k16 bf16,bf16\n"
           "tf32_wgmma,extra,flops,GFLOP/s,,,,wgmma m64n256k8 tf32,TF32\n"
           "bf16_wgmma,extra,flops,GFLOP/s,,,,wgmma m64n256k16 bf16,bf16\n",
           "one row a roof, with its instruction; a value that round-trips; blank where "
           "unmeasured");
    free(csv);
}

static void test_madeup(const char *dir, const char *listing)
{
    mw_roof_table t = madeup_table();
    const mw_roof *madeup = mw_roof_find(&t, "madeup");
    const int m = mw_roofs.count; /* its row: after the project's */
    ok(madeup == &t.roof[m] && madeup->measure != NULL,
       "the new roof is found, with its measurement");
    mw_roof_values c = {{3000, 3100, 2900, 50000, 400000, 800000, 450000, 900000}, ""};
    c.value[m] = madeup ? madeup->measure(NULL) : NAN;
    snprintf(c.date, sizeof c.date, "2026-11-22");
    char path[512], old_path[512];
    snprintf(path, sizeof path, "%s/madeup/roofs.csv", dir);
    ok(mw_roof_cache_save_table(path, &t, &c, "Some GPU") == 0, "saved with the new roof");
    char *text = slurp(path);
    ok(text && strstr(text, "\nbf16_mma_gflops,800000,GFLOP/s,\"mma.sync m16n8k16 bf16") &&
           strstr(text, "\nbf16_wgmma_gflops,900000,GFLOP/s,\"wgmma m64n256k16 bf16 from shared "
                        "memory, 16 per commit group, 2 warpgroups per SM, median\"\n"
                        "madeup_gflops,1234.5,GFLOP/s,\"a made-up instruction, median\"\n"
                        "date,,,2026-11-22\n"),
       "its row follows the others, before the date");
    free(text);
    mw_roof_values back;
    ok(mw_roof_cache_load_table(path, &t, &back) == 0, "and loads back");
    is_double(back.value[m], 1234.5, 0, "its value round-trips");
    is_double(back.value[0], 3000, 0, "beside the others");
    is_double(mw_roof_value_percent(&back, &t, "madeup", 0, 2469e9, 1.0), 200, 1e-9,
              "a row's percent of the new roof: FLOPs over its value");
    is_int(mw_roof_peak_index(&t, &back, "MADEUP"), m, "the peak of its own precision");
    ok(mw_roof_cache_load(path, &back) == 0, "the project's table ignores a row it does not know");
    /* A cache without the new roof: loaded, but incomplete, so the grader
     * measures again. */
    snprintf(old_path, sizeof old_path, "%s/madeup/old.csv", dir);
    mw_roof_cache_save(old_path, &c, "Some GPU");
    ok(mw_roof_cache_load_table(old_path, &t, &back) == -1,
       "a cache without it: measured again");
    is_double(back.value[4], 400000, 0, "what it has is still read");
    ok(isnan(back.value[m]), "what it lacks is NaN");
    mw_chapter ch = {.id = "99-madeup", .roof = "madeup"};
    char why[512];
    is_int(mw_roofs_check_chapter(&t, &ch, why, sizeof why), 0, "a chapter may name it");
    is_int(mw_roofs_check_chapter(&mw_roofs, &ch, why, sizeof why), -1,
           "but not where the table lacks it");
    /* The plots draw it with no other change: the listing they read has it
     * (t0400 draws a plot from this listing and finds its legend). */
    is_str(mw_roof_role(&t, m), "extra", "a roof added last is an extra one on the roofline");
    FILE *f = fopen(listing ? listing : "/dev/null", "w");
    ok(f && mw_roofs_write_csv(f, &t, &c) == 0 && fclose(f) == 0, "its roofs listing is written");
    if (listing) {
        text = slurp(listing);
        ok(text && strstr(text, "\nmadeup,extra,flops,GFLOP/s,1234.5,MADEUP roof: 1.2 TFLOP/s "
                                "(made up for a test),MADEUP roof 1234 GFLOP/s (made up for a "
                                "test),madeup.mma,MADEUP\n"),
           "with its role, value, legends and instruction");
        free(text);
    }
    unlink(path);
    unlink(old_path);
    snprintf(path, sizeof path, "%s/madeup", dir);
    rmdir(path);
}

int main(int argc, char **argv)
{
    char dir[] = "/tmp/mw-test-roofs-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 2;
    }
    test_lookup();
    test_rows_whole();
    test_percent();
    test_check_chapter();
    test_check_versions();
    test_peak();
    test_plot_words();
    /* --madeup-roofs FILE: where to leave the made-up table's roofs listing. */
    const char *listing = NULL;
    if (argc > 2 && strcmp(argv[1], "--madeup-roofs") == 0) {
        listing = argv[2];
        argv += 2, argc -= 2;
    }
    char tmp[512];
    snprintf(tmp, sizeof tmp, "%s/roofs.csv", dir);
    for (int i = 1; i < argc; i++)
        test_committed(argv[i], tmp);
    unlink(tmp);
    test_library_roof_cache(dir);
    test_not_on_this_gpu(dir);
    test_madeup(dir, listing);
    rmdir(dir);
    return done_testing();
}
