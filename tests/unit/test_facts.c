/* test_facts.c: the facts of a bench run's rows (grader/facts.c), without a
 * GPU: which rows are timed and why not, which library row each is compared
 * with (chapter 02's two libraries compute two different chains), the
 * ratio as bench.csv holds it, the roofs' values and the chapter's roof,
 * the columns written and the terminal table; and a made-up roof, added in
 * one place (a row of its roof table), whose unit, count and names reach
 * the bench.csv the bench would write.
 *
 * Argument (optional): where to leave that made-up chapter's bench.csv,
 * for t0420 to lay out with the tables and plots. */
#define _POSIX_C_SOURCE 200809L
#include "tap.h"
#include "table_plus.h"

#include "facts.h"

#include <stdlib.h>
#include <unistd.h>

static void test_flags(void)
{
    const char *kept[] = {"", "side-stream", "faster-than-roof"};
    const char *dropped[] = {"wrong", "not-implemented", "no-memory", "wrong-when-timed", "bogus"};
    for (int i = 0; i < 3; i++) {
        ok(mw_flag_timed(kept[i]), kept[i][0] ? kept[i] : "no flag: timed");
        is_str(mw_flag_not_timed_why(kept[i]), "", "a timed flag gives no reason");
    }
    ok(mw_flag_timed(NULL), "a NULL flag is no flag");
    for (int i = 0; i < 5; i++)
        ok(!mw_flag_timed(dropped[i]), dropped[i]);
    is_str(mw_flag_not_timed_why("not-implemented"), "not implemented", "why: not implemented");
    is_str(mw_flag_not_timed_why("no-memory"), "its workspace does not fit in GPU memory",
           "why: no memory");
    is_str(mw_flag_not_timed_why("wrong-when-timed"), "wrong output after timing",
           "why: wrong when timed");
    is_str(mw_flag_not_timed_why("bogus"), "unknown flag", "an unknown flag is not timed, and says so");
    ok(mw_flag_in_verdict("") && mw_flag_in_verdict("side-stream"), "a verdict rests on these");
    ok(!mw_flag_in_verdict("faster-than-roof"), "not on a time faster than the roof");
    ok(!mw_flag_in_verdict("wrong"), "nor on an untimed row");
}

/* Chapter 02 at n = 2^28, as results/ has it: the reference chain must be
 * compared with the three-call library chain (op 1), not with the first
 * library row (op 0), the shorter chain: 2.64x, not 1.80x. */
static const mw_bench_row ch02[] = {
    {"student/01_fused", "student", 268435456, 0, NAN, NAN, NAN, "not-implemented", "copy"},
    {"student/02_chain", "student", 268435456, 1, NAN, NAN, NAN, "not-implemented", "copy"},
    {"reference/01_fused", "reference", 268435456, 0, 1.06494, 3024.78, 504.131, "", "copy"},
    {"reference/02_chain", "reference", 268435456, 1, 1.06435, 3026.47, 1008.82, "", "copy"},
    {"library/cublasSgeam+cudnnActivation", "library", 268435456, 0, 1.9137, 1683.25, 280.541,
     "", "copy"},
    {"library/cublasSgeam+cudnnActivation+cublasSscal", "library", 268435456, 1, 2.80974,
     1146.45, 382.149, "", "copy"},
    {"roof/add", "roof", 268435456, 0, 1.05778, 3045.28, 253.773, "", "copy"},
};
enum { NCH02 = sizeof ch02 / sizeof ch02[0] };

static void test_two_libraries(void)
{
    mw_row_facts f[NCH02];
    mw_facts_decide(ch02, NCH02, NULL, &mw_roofs, f);
    is_int(f[3].library, 5, "reference/02_chain: against the library of its op");
    is_double(f[3].vs_library, 2.63986, 0, "reference/02_chain: 2.80974 / 1.06435, 6 digits");
    ok(fabs(f[3].vs_library - 1.9137 / 1.06435) > 0.5, "not against the first library row");
    is_int(f[2].library, 4, "reference/01_fused: against the library of op 0");
    is_double(f[2].vs_library, 1.797, 0, "reference/01_fused: 1.9137 / 1.06494");
    is_double(f[4].vs_library, 1, 0, "each library against itself: 1");
    is_double(f[5].vs_library, 1, 0, "the second library against itself too, not the first");
    is_int(f[6].library, -1, "a roof row is compared with no library");
    ok(isnan(f[6].vs_library) && f[6].timed, "a roof row: timed, no ratio");
    is_int(f[1].library, 5, "an untimed row still names its library");
    ok(isnan(f[1].vs_library), "but has no ratio");
}

static void test_untimed(void)
{
    mw_bench_row r[] = {
        {"student/a", "student", 64, 0, NAN, NAN, NAN, "not-implemented", "copy"},
        {"student/b", "student", 64, 0, 0.5, 1, 1, "wrong-when-timed", "copy"},
        {"student/c", "student", 64, 0, 0.25, 1, 1, "side-stream", "copy"},
        {"student/d", "student", 64, 0, 0.125, 1, 1, "faster-than-roof", "copy"},
        {"student/e", "student", 64, 0, NAN, NAN, NAN, "", "copy"},
        {"library/x", "library", 64, 0, 1.0, 1, 1, "", "copy"},
        {"student/f", "student", 128, 0, 0.5, 1, 1, "", "copy"},
        {"library/y", "library", 128, 0, NAN, NAN, NAN, "no-memory", "copy"},
    };
    mw_row_facts f[8];
    mw_facts_decide(r, 8, NULL, &mw_roofs, f);
    ok(!f[0].timed && isnan(f[0].vs_library), "not implemented: not timed, no ratio");
    is_str(f[0].not_timed_why, "not implemented", "and says why");
    ok(!f[1].timed && isnan(f[1].vs_library), "wrong when timed: its time does not count");
    is_double(f[2].vs_library, 4, 0, "side-stream: timed, compared");
    is_double(f[3].vs_library, 8, 0, "faster-than-roof: timed, compared");
    is_str(f[3].not_timed_why, "", "a timed row gives no reason");
    ok(!f[4].timed, "no flag but no time: not timed");
    is_str(f[4].not_timed_why, "no time recorded", "and says so");
    is_int(f[6].library, 7, "compared at its own size only");
    ok(isnan(f[6].vs_library), "against an untimed library: no ratio");
    is_str(f[7].not_timed_why, "its workspace does not fit in GPU memory", "no memory: why");
}

/* Without an op column (-1 everywhere) every row matches the first library. */
static void test_no_op(void)
{
    mw_bench_row r[] = {
        {"reference/k", "reference", 8, -1, 0.25, 1, 1, "", "copy"},
        {"library/a", "library", 8, -1, 0.5, 1, 1, "", "copy"},
        {"library/b", "library", 8, -1, 1.0, 1, 1, "", "copy"},
    };
    mw_row_facts f[3];
    mw_facts_decide(r, 3, NULL, &mw_roofs, f);
    is_double(f[0].vs_library, 2, 0, "no op column: the first library");
    is_double(f[2].vs_library, 0.5, 0, "a second library against the first");
}

static void test_roofs(void)
{
    mw_bench_row r[] = {
        {"library/sgemm_TF32", "library", 8, 0, 1, 1, 1, "", "tf32_mma"},
        {"reference/k", "reference", 8, 0, 1, 1, 1, "", "fp32"},
        {"library/odd", "library", 8, 0, 1, 1, 1, "", "fp64"},
        {"reference/03_bf16", "reference", 8, 0, 1, 1, 1, "", "bf16_mma"},
    };
    mw_roof_values c = {{2988.79, 3205.2, 2901.7, 65212.4, 320000, 639000, NAN, NAN}, ""};
    mw_row_facts f[4];
    mw_facts_decide(r, 4, &c, &mw_roofs, f);
    is_double(f[0].roof_value, 320000, 0, "a TF32 row: the TF32 mma.sync roof's value");
    is_double(f[1].roof_value, 65212.4, 0, "an FP32 row: the FFMA roof's value");
    ok(isnan(f[2].roof_value), "an unknown roof: no value");
    is_double(f[3].roof_value, 639000, 0,
              "a version with a roof of its own: the bf16 mma.sync roof's value");
    ok(f[3].roof && f[3].roof == mw_roof_find(&mw_roofs, "bf16_mma") &&
           strcmp(f[3].roof->plot_label, "bf16 mma.sync") == 0,
       "and its row of the table, for its label");
    ok(f[0].roof && f[0].roof == mw_roof_find(&mw_roofs, "tf32_mma") &&
           f[1].roof == mw_roof_find(&mw_roofs, "fp32"),
       "each row's roof: its row of the table");
    ok(f[2].roof == NULL, "an unknown roof: no row");
    /* A bench.csv of the library roofs (before the microkernels): rows
     * naming them have no roof of the table, and so no value. */
    mw_bench_row old[] = {{"reference/03_bf16", "reference", 8, 0, 1, 1, 1, "", "bf16"}};
    mw_facts_decide(old, 1, &c, &mw_roofs, f);
    ok(f[0].roof == NULL && isnan(f[0].roof_value), "an old roof name: no row, no value");
    mw_facts_decide(r, 3, NULL, &mw_roofs, f);
    ok(isnan(f[1].roof_value), "no roof values: no value");
    ok(f[1].roof == mw_roof_find(&mw_roofs, "fp32"), "but its row of the table all the same");
    is_str(mw_facts_chapter_roof(r, 3), "fp32", "the chapter's roof: its first non-library row's");
    is_str(mw_facts_chapter_roof(r, 1), "tf32_mma", "only libraries: the first row's");
    ok(mw_facts_chapter_roof(r, 0) == NULL, "no rows: none");
}

/* The file's text of a written row, and of the terminal table. */
static char *slurp(const char *path)
{
    static char text[8192];
    FILE *fp = fopen(path, "r");
    size_t n = fp ? fread(text, 1, sizeof text - 1, fp) : 0;
    text[n] = '\0';
    if (fp)
        fclose(fp);
    return text;
}

static void test_output(void)
{
    mw_row_facts f[NCH02];
    mw_roof_values c = {{2988.79, 51382.2, 408485}, ""};
    mw_facts_decide(ch02, NCH02, &c, &mw_roofs, f);
    char path[] = "/tmp/test_facts.XXXXXX";
    int fd = mkstemp(path);
    ok(fd >= 0, "a temporary file");
    mw_csv csv;
    mw_csv_open(&csv, path, MW_FACTS_COLUMNS);
    for (int i = 0; i < NCH02; i++) {
        mw_facts_write(&csv, ch02, f, i, "copy");
        mw_csv_end_row(&csv);
    }
    mw_csv_close(&csv);
    char *text = slurp(path);
    ok(strstr(text, "2988.79,copy,0,not implemented,,library/cublasSgeam+cudnnActivation+cublasSscal,"
                    "GB/s,bytes,copy,device-to-device copy bandwidth\n") != NULL,
       "an untimed row's columns");
    ok(strstr(text, "2988.79,copy,1,,2.63986,library/cublasSgeam+cudnnActivation+cublasSscal,"
                    "GB/s,bytes,copy,device-to-device copy bandwidth\n") != NULL,
       "reference/02_chain's columns");
    ok(strstr(text, "\n2988.79,copy,1,,,,GB/s,bytes,copy,device-to-device copy bandwidth\n") != NULL,
       "a roof row's columns");
    FILE *fp = fopen(path, "w");
    mw_facts_print_table(fp, ch02, f, NCH02, 268435456);
    fclose(fp);
    text = slurp(path);
    ok(strstr(text, "  reference/02_chain              1.0643 ms     3026.5       1008.8      2.64x\n") != NULL,
       "terminal: reference/02_chain at 2.64x");
    ok(strstr(text, "  student/01_fused              (not timed) not implemented\n") != NULL,
       "terminal: an untimed row says why");
    ok(strstr(text, "  roof/add                        1.0578 ms     3045.3            -          -\n") != NULL,
       "terminal: a roof row has no ratio");
    mw_row_facts g[NCH02];
    mw_bench_row flagged[NCH02];
    memcpy(flagged, ch02, sizeof flagged);
    flagged[3].flag = "faster-than-roof";
    mw_facts_decide(flagged, NCH02, &c, &mw_roofs, g);
    fp = fopen(path, "w");
    mw_facts_print_table(fp, flagged, g, NCH02, 268435456);
    fclose(fp);
    ok(strstr(slurp(path), "2.64x faster-than-roof\n") != NULL,
       "terminal: a time kept with a flag shows the flag");
    unlink(path);
    close(fd);
}

static void test_rounded(void)
{
    is_double(mw_csv_rounded(1.06493721, 6), 1.06494, 0, "6 digits, as written");
    ok(isnan(mw_csv_rounded(NAN, 6)), "NaN stays NaN (a blank field)");
}

/* ---- a made-up roof, added in one place ----------------------------------- */

/* The project's table plus one row, as tests/unit/test_roofs.c adds one: a
 * bandwidth not named "copy", so that whatever knows roofs by name, not by
 * bench.csv's columns, gets it wrong (takes it for FLOPs, names it FP32). */
static mw_roof madeup_rows[MW_MAX_ROOFS];
static mw_roof_table madeup_table(void)
{
    return mw_table_plus(madeup_rows, (mw_roof){"madeup", MW_ROOF_BYTES, "GB/s", "madeup_gbps",
                                                "made-up copy", "MADEUP",
                                                "made-up scratchpad bandwidth",
                                                "a made-up copy of 1 GiB, median", "made up", NULL});
}

/* A chapter measured against it, 12 bytes and 1 FLOP an element, and its
 * roof row (a copy: 8 bytes, no FLOPs), at two sizes. */
static const struct {
    const char *impl, *kind;
    double size, ms, bytes_per;
} madeup_runs[] = {
    {"reference/01_k", "reference", 1048576, 0.0125829, 12},
    {"library/lib", "library", 1048576, 0.0251658, 12},
    {"roof/madeup", "roof", 1048576, 0.00838861, 8},
    {"reference/01_k", "reference", 16777216, 0.201327, 12},
    {"library/lib", "library", 16777216, 0.268435, 12},
    {"roof/madeup", "roof", 16777216, 0.134218, 8},
};
enum { NMADEUP = sizeof madeup_runs / sizeof madeup_runs[0] };
#define MADEUP_VALUE 1234.5

/* Writes the chapter's bench.csv as the bench would: its own columns, then
 * the facts decided with table t. */
static int write_madeup(const char *path, const mw_roof_table *t, const mw_bench_row *rows,
                        const mw_row_facts *f)
{
    mw_csv csv;
    if (mw_csv_open(&csv, path,
                    "chapter,impl,kind,size,shape,model_bytes,model_flops,reps,median_ms,q1_ms,"
                    "q3_ms,wall_ms,gbps,gflops,roof,pct_roof,flag,op," MW_FACTS_COLUMNS) != 0)
        return -1;
    for (int i = 0; i < NMADEUP; i++) {
        double size = madeup_runs[i].size, bytes = madeup_runs[i].bytes_per * size;
        double flops = strcmp(rows[i].kind, "roof") == 0 ? 0 : size, ms = rows[i].median_ms;
        char shape[64];
        snprintf(shape, sizeof shape, "n=%.0f", size);
        const char *own[] = {"99-madeup", rows[i].impl, rows[i].kind};
        for (int k = 0; k < 3; k++)
            mw_csv_str(&csv, own[k]);
        mw_csv_num(&csv, size, 12);
        mw_csv_str(&csv, shape);
        mw_csv_num(&csv, bytes, 12);
        mw_csv_num(&csv, flops, 12);
        mw_csv_num(&csv, 10, 6);
        for (int k = 0; k < 3; k++) /* median, q1, q3: one time */
            mw_csv_num(&csv, ms, 6);
        mw_csv_num(&csv, NAN, 6);
        mw_csv_num(&csv, bytes / ms / 1e6, 6);
        mw_csv_num(&csv, flops / ms / 1e6, 6);
        mw_csv_str(&csv, rows[i].roof);
        mw_csv_num(&csv, mw_roof_percent(mw_roof_find(t, "madeup"), MADEUP_VALUE, bytes, flops,
                                         ms * 1e-3),
                   3);
        mw_csv_str(&csv, rows[i].flag);
        mw_csv_num(&csv, rows[i].op, 6);
        mw_facts_write(&csv, rows, f, i, mw_facts_chapter_roof(rows, NMADEUP));
        mw_csv_end_row(&csv);
    }
    return mw_csv_close(&csv);
}

static void test_madeup(const char *out)
{
    mw_roof_table t = madeup_table();
    mw_bench_row rows[NMADEUP];
    for (int i = 0; i < NMADEUP; i++)
        rows[i] = (mw_bench_row){.impl = madeup_runs[i].impl,
                                 .kind = madeup_runs[i].kind,
                                 .size = madeup_runs[i].size,
                                 .median_ms = madeup_runs[i].ms,
                                 .gbps = NAN,
                                 .gflops = NAN,
                                 .flag = "",
                                 .roof = "madeup"};
    mw_roof_values c = {{2988.79, 51382.2, 408485, 725000}, ""};
    c.value[mw_roofs.count] = MADEUP_VALUE; /* its row: after the project's */
    mw_row_facts f[NMADEUP];
    mw_facts_decide(rows, NMADEUP, &c, &t, f);
    ok(f[3].roof == &madeup_rows[mw_roofs.count],
       "a row of the made-up roof: its row of the table");
    is_double(f[3].roof_value, MADEUP_VALUE, 0, "and its measured value");
    is_double(f[3].vs_library, 1.33333, 0, "compared with the library as any row is");

    char tmp[] = "/tmp/test_facts_madeup.XXXXXX";
    int fd = mkstemp(tmp);
    const char *path = out ? out : tmp;
    ok(fd >= 0 && write_madeup(path, &t, rows, f) == 0, "its bench.csv is written");
    char *text = slurp(path);
    ok(strstr(text, "\n99-madeup,reference/01_k,reference,16777216,n=16777216,201326592,16777216,"
                    "10,0.201327,0.201327,0.201327,,999.998,83.3332,madeup,81,,0,1234.5,madeup,1,,"
                    "1.33333,library/lib,GB/s,bytes,MADEUP,made-up scratchpad bandwidth\n") != NULL,
       "its unit, what it counts, its label and description: from its row of the table");
    ok(strstr(text, "\n99-madeup,roof/madeup,roof,16777216,n=16777216,134217728,0,10,0.134218,"
                    "0.134218,0.134218,,999.998,0,madeup,81,,0,1234.5,madeup,1,,,,GB/s,bytes,"
                    "MADEUP,made-up scratchpad bandwidth\n") != NULL,
       "its roof row the same");

    /* The project's table lacks it: the same rows, nothing said of it. */
    mw_facts_decide(rows, NMADEUP, &c, &mw_roofs, f);
    ok(f[3].roof == NULL && isnan(f[3].roof_value), "a table without the row knows nothing of it");
    mw_csv csv;
    mw_csv_open(&csv, tmp, MW_FACTS_COLUMNS);
    mw_facts_write(&csv, rows, f, 3, "madeup");
    mw_csv_end_row(&csv);
    mw_csv_close(&csv);
    ok(strstr(slurp(tmp), "\n,madeup,1,,1.33333,library/lib,,,,\n") != NULL,
       "and writes its unit, count and names blank");
    unlink(tmp);
    if (fd >= 0)
        close(fd);
}

int main(int argc, char **argv)
{
    test_flags();
    test_two_libraries();
    test_untimed();
    test_no_op();
    test_roofs();
    test_output();
    test_rounded();
    test_madeup(argc > 1 ? argv[1] : NULL);
    return done_testing();
}
