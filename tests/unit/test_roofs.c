/* test_roofs.c: the table of roofs (grader/roofs.c) and the roofs cache
 * that follows it (grader/roofs_cache.c), without a GPU: lookup, percent
 * of roof, the startup check of a chapter's roof names (its own, its
 * versions' and its libraries'), the committed caches read and written
 * back byte for byte, and a made-up roof added in one place (a table row)
 * that the cache and the percent then follow.
 *
 * Arguments: roofs.csv files written by the grader (results/<gpu>/),
 * each of which must load (or, lacking a roof the table has, be measured
 * again), and save back to the same bytes. */
#define _POSIX_C_SOURCE 200809L
#include "tap.h"
#include "table_plus.h"

#include "csv.h"
#include "mw.h"
#include "roofs.h"
#include "roofs_cache.h"

#include <stdlib.h>
#include <unistd.h>

static void test_lookup(void)
{
    const char *names[] = {"copy", "fp32", "tf32", "bf16"};
    const char *metrics[] = {"copy_gbps", "fp32_gflops", "tf32_gflops", "bf16_gflops"};
    is_int(mw_roofs.count, 4, "the project has four roofs");
    for (int i = 0; i < 4; i++) {
        const mw_roof *r = mw_roof_find(&mw_roofs, names[i]);
        ok(r == &mw_roofs.roof[i], names[i]);
        is_int(mw_roof_index(&mw_roofs, names[i]), i, "its index is its row");
        /* value[i] of a cache is roof i: a new roof goes last, so that the
         * rows committed caches hold keep their place. */
        is_str(r ? r->metric : NULL, metrics[i], "cached under its metric, in this order");
    }
    const mw_roof *bf16 = mw_roof_find(&mw_roofs, "bf16");
    ok(bf16 && bf16->counts == MW_ROOF_FLOPS && strcmp(bf16->unit, "GFLOP/s") == 0 &&
           strcmp(bf16->label, "bf16 GEMM") == 0 && strcmp(bf16->plot_label, "bf16") == 0,
       "bf16 counts FLOPs, in GFLOP/s, and is called bf16");
    ok(bf16 && strstr(bf16->detail, "cublasGemmEx 8192^3") &&
           strstr(bf16->detail, "bf16 A and B") && strstr(bf16->detail, "CUBLAS_COMPUTE_32F"),
       "measured by cublasGemmEx at 8192^3, bf16 inputs, FP32 accumulation");
    ok(mw_roof_find(&mw_roofs, "fp64") == NULL, "an unknown roof is not found");
    ok(mw_roof_find(&mw_roofs, "COPY") == NULL, "names are exact");
    ok(mw_roof_find(&mw_roofs, NULL) == NULL, "no name, no roof");
    is_int(mw_roof_index(&mw_roofs, "fp64"), -1, "an unknown roof has no index");
}

/* Each row is whole: a unit that matches what it counts, a metric and a
 * name of its own, its labels, what it is and how it is measured. */
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
    mw_roof_values c = {0};
    c.value[0] = 3000, c.value[1] = 50000, c.value[2] = 400000, c.value[3] = 800000;
    is_double(mw_roof_value_percent(&c, &mw_roofs, "tf32", 0, 4e11, 1e-3), 100, 1e-9,
              "by name: tf32 against the TF32 value");
    is_double(mw_roof_value_percent(&c, &mw_roofs, "bf16", 0, 4e11, 1e-3), 50, 1e-9,
              "bf16 against the bf16 value");
    is_double(mw_roof_value_percent(&c, &mw_roofs, "fp32", 0, 4e11, 1e-3), 800, 1e-9,
              "the same row against FP32: what a bf16 kernel would read without its roof");
    ok(isnan(mw_roof_value_percent(&c, &mw_roofs, "fp64", 1, 1, 1)),
       "an unknown roof is no percent, never the copy's");
    is_double(mw_roof_value(&c, &mw_roofs, "fp32"), 50000, 0, "value by name");
    ok(isnan(mw_roof_value(&c, &mw_roofs, "fp64")), "no value for an unknown roof");
    char text[64];
    mw_roof_format(copy, 2988.79, text, sizeof text);
    is_str(text, "2989 GB/s", "a bandwidth prints in whole GB/s");
    mw_roof_format(fp32, 51382.2, text, sizeof text);
    is_str(text, "51.4 TFLOP/s", "a GEMM rate prints in TFLOP/s");
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
        {"libB_TF32", "library", no_setup, no_run, NULL, NULL, 0, 0, "tf32"},
    };
    mw_chapter ch = {.id = "99-test", .roof = "fp32", .libraries = libs, .nlibraries = 2};
    char why[512] = "";
    is_int(mw_roofs_check_chapter(&mw_roofs, &ch, why, sizeof why), 0,
           "a chapter's roof and its libraries' (NULL: the chapter's) are known");
    ch.roof = "fp64";
    is_int(mw_roofs_check_chapter(&mw_roofs, &ch, why, sizeof why), -1,
           "an unknown chapter roof is an error");
    is_str(why, "chapter 99-test names roof 'fp64', which grader/roofs.c does not define "
                "(roofs: copy, fp32, tf32, bf16)",
           "one line: the chapter, the name, the names known");
    ch.roof = NULL;
    is_int(mw_roofs_check_chapter(&mw_roofs, &ch, why, sizeof why), -1, "no roof is an error");
    ok(strstr(why, "names no roof") != NULL, "saying so");
    ch.roof = "copy";
    libs[1].roof = "fp64";
    is_int(mw_roofs_check_chapter(&mw_roofs, &ch, why, sizeof why), -1,
           "an unknown library roof is an error");
    is_str(why, "chapter 99-test, library libB_TF32, names roof 'fp64', which grader/roofs.c "
                "does not define (roofs: copy, fp32, tf32, bf16)",
           "naming the library");
}

/* A version may name a roof of its own, as a library may: chapter 05's
 * bf16 kernel against the bf16 roof, not the chapter's FP32 one. */
static void test_check_versions(void)
{
    mw_version versions[] = {
        {"01_k", "k1", "", 0, 0, NULL}, /* positional, as chapters write them: roof NULL */
        {"02_bf16", "k2", "", 0, 1, NULL, "bf16"},
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
                "does not define (roofs: copy, fp32, tf32, bf16)",
           "naming the version");
    mw_library libs[] = {{"libX", "library", no_setup, no_run, NULL, NULL, 1, 0, "fp16"}};
    ch.libraries = libs, ch.nlibraries = 1;
    mw_roofs_check_chapter(&mw_roofs, &ch, why, sizeof why);
    ok(strstr(why, "version 02_bf16") != NULL, "versions are checked before libraries");
    versions[1].roof = "bf16";
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

/* The project's roofs a loaded cache has a value of: its first n rows,
 * where the table has more (new roofs go last); -1 when it lacks a roof
 * that comes before one it has. */
static int held_prefix(const mw_roof_values *c)
{
    int n = 0;
    while (n < mw_roofs.count && !isnan(c->value[n]))
        n++;
    for (int i = n; i < mw_roofs.count; i++)
        if (!isnan(c->value[i]))
            return -1;
    return n;
}

/* A cache the grader wrote loads, and saves back to the same bytes. One
 * that lacks a roof of the table does not load: the bench measures every
 * roof again, the missing one included. */
static void test_committed(const char *path, const char *tmp)
{
    mw_roof_values c;
    char name[512], gpu[256];
    int loaded = mw_roof_cache_load(path, &c), n = held_prefix(&c);
    int whole = n == mw_roofs.count;
    snprintf(name, sizeof name, "%s %s", path,
             whole ? "loads"
                   : "lacks the table's last roofs: it does not load, so it is measured again");
    ok(n > 0 && loaded == (whole ? 0 : -1), name);
    mw_roof_table held = {mw_roofs.roof, n > 0 ? n : 0};
    char *before = slurp(path);
    gpu_of(path, gpu, sizeof gpu);
    mw_roof_cache_save_table(tmp, &held, &c, gpu);
    char *after = slurp(tmp);
    snprintf(name, sizeof name, "%s saves back to the same bytes", path);
    ok(before && after && strcmp(before, after) == 0, name);
    free(before);
    free(after);
}

/* A cache of the first three roofs, without bf16: its three roofs are
 * read, but it does not load, so the bf16 roof gets measured. */
static void test_three_roof_cache(const char *dir)
{
    char path[512];
    snprintf(path, sizeof path, "%s/old/roofs.csv", dir);
    mw_roof_table three = {mw_roofs.roof, 3};
    mw_roof_values c = {{2988.79, 51382.2, 408485}, "2026-11-22"}, back;
    ok(mw_roof_cache_save_table(path, &three, &c, "Some GPU") == 0, "a cache of copy, fp32, tf32");
    is_int(mw_roof_cache_load(path, &back), -1, "without bf16 it does not load: measured again");
    is_double(back.value[2], 408485, 0, "what it holds is still read");
    ok(isnan(mw_roof_value(&back, &mw_roofs, "bf16")), "bf16 has no value");
    ok(isnan(mw_roof_value_percent(&back, &mw_roofs, "bf16", 0, 1e12, 1)),
       "and no percent of it, never another roof's");
    unlink(path);
    snprintf(path, sizeof path, "%s/old", dir);
    rmdir(path);
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
    return mw_table_plus(madeup_rows, (mw_roof){"madeup", MW_ROOF_FLOPS, "GFLOP/s",
                                                "madeup_gflops", "made-up GEMM", "MADEUP",
                                                "made-up GEMM rate",
                                                "a made-up GEMM, 4096^3, median", "made up for a test",
                                                measure_madeup});
}

/* The plots' words and roles come from the table: the committed H100
 * plots' legends, to the character. */
static void test_plot_words(void)
{
    const mw_roof_table *t = &mw_roofs;
    is_str(mw_roof_role(t, 0), "memory", "copy is the roofline's memory roof");
    is_str(mw_roof_role(t, 1), "compute", "FP32, the first roof of FLOPs, its compute roof");
    is_str(mw_roof_role(t, 2), "extra", "TF32 an extra one");
    char text[256];
    mw_roof_legend(&t->roof[0], 2988.79, text, sizeof text);
    is_str(text, "memory roof: copy 2989 GB/s (measured)", "the memory roof's legend");
    mw_roof_legend(&t->roof[1], 51382.2, text, sizeof text);
    is_str(text, "FP32 roof: 51.4 TFLOP/s (measured, cuBLAS SGEMM)", "the compute roof's legend");
    mw_roof_legend(&t->roof[2], 408485, text, sizeof text);
    is_str(text, "TF32 roof: 408 TFLOP/s (measured; tensor cores, lower precision)",
           "past 100 TFLOP/s, whole TFLOP/s");
    mw_roof_speed_label(&t->roof[2], 408485, text, sizeof text);
    is_str(text, "TF32 roof 408485 GFLOP/s (measured; tensor cores, lower precision)",
           "the speed plot's label, in the speed axis' unit");
    is_str(mw_roof_role(t, 3), "extra", "bf16 an extra one too, dashed beside TF32");
    mw_roof_legend(&t->roof[3], 725000, text, sizeof text);
    is_str(text, "bf16 roof: 725 TFLOP/s (measured; tensor cores, bf16)", "the bf16 roof's legend");
    mw_roof_speed_label(&t->roof[3], 725000, text, sizeof text);
    is_str(text, "bf16 roof 725000 GFLOP/s (measured; tensor cores, bf16)",
           "and its speed plot label");
    mw_roof_values c = {{2988.79, 51382.2, NAN, 725000}, ""};
    char *csv = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&csv, &len);
    ok(f && mw_roofs_write_csv(f, t, &c) == 0 && fclose(f) == 0, "the roofs listing is written");
    is_str(csv,
           "name,role,counts,unit,value,legend,speed_label\n"
           "copy,memory,bytes,GB/s,2988.79,memory roof: copy 2989 GB/s (measured),"
           "copy roof 2989 GB/s (measured)\n"
           "fp32,compute,flops,GFLOP/s,51382.199999999997,"
           "\"FP32 roof: 51.4 TFLOP/s (measured, cuBLAS SGEMM)\","
           "\"FP32 roof 51382 GFLOP/s (measured, cuBLAS SGEMM)\"\n"
           "tf32,extra,flops,GFLOP/s,,,\n"
           "bf16,extra,flops,GFLOP/s,725000,\"bf16 roof: 725 TFLOP/s (measured; tensor cores, "
           "bf16)\",\"bf16 roof 725000 GFLOP/s (measured; tensor cores, bf16)\"\n",
           "one row a roof; a value that round-trips; blank where unmeasured");
    free(csv);
}

static void test_madeup(const char *dir, const char *listing)
{
    mw_roof_table t = madeup_table();
    const mw_roof *madeup = mw_roof_find(&t, "madeup");
    const int m = mw_roofs.count; /* its row: after the project's */
    ok(madeup == &t.roof[m] && madeup->measure != NULL,
       "the new roof is found, with its measurement");
    mw_roof_values c = {0};
    c.value[0] = 3000, c.value[1] = 50000, c.value[2] = 400000, c.value[3] = 800000;
    c.value[m] = madeup ? madeup->measure(NULL) : NAN;
    snprintf(c.date, sizeof c.date, "2026-11-22");
    char path[512], old_path[512];
    snprintf(path, sizeof path, "%s/madeup/roofs.csv", dir);
    ok(mw_roof_cache_save_table(path, &t, &c, "Some GPU") == 0, "saved with the new roof");
    char *text = slurp(path);
    ok(text && strstr(text, "\ntf32_gflops,400000,GFLOP/s,\"cublasSgemm 8192^3") &&
           strstr(text, "\nbf16_gflops,800000,GFLOP/s,\"cublasGemmEx 8192^3, bf16 A and B, bf16 "
                        "C, CUBLAS_COMPUTE_32F, median\"\n"
                        "madeup_gflops,1234.5,GFLOP/s,\"a made-up GEMM, 4096^3, median\"\n"
                        "date,,,2026-11-22\n"),
       "its row follows the others, before the date");
    free(text);
    mw_roof_values back;
    ok(mw_roof_cache_load_table(path, &t, &back) == 0, "and loads back");
    is_double(back.value[m], 1234.5, 0, "its value round-trips");
    is_double(back.value[0], 3000, 0, "beside the others");
    is_double(mw_roof_value_percent(&back, &t, "madeup", 0, 2469e9, 1.0), 200, 1e-9,
              "a row's percent of the new roof: FLOPs over its value");
    ok(mw_roof_cache_load(path, &back) == 0, "the project's table ignores a row it does not know");
    /* A cache without the new roof: loaded, but incomplete, so the grader
     * measures again. */
    snprintf(old_path, sizeof old_path, "%s/madeup/old.csv", dir);
    mw_roof_cache_save(old_path, &c, "Some GPU");
    ok(mw_roof_cache_load_table(old_path, &t, &back) == -1,
       "a cache without it: measured again");
    is_double(back.value[2], 400000, 0, "what it has is still read");
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
                                "(made up for a test),MADEUP roof 1234 GFLOP/s (made up for a test)\n"),
           "with its role, value and legends");
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
    test_three_roof_cache(dir);
    test_madeup(dir, listing);
    rmdir(dir);
    return done_testing();
}
