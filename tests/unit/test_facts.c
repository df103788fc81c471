/* test_facts.c: the facts of a bench run's rows (grader/facts.c), without a
 * GPU: which rows are timed and why not, which library row each is compared
 * with (chapter 02's two libraries compute two different chains), the
 * ratio as bench.csv holds it, the roofs' values and the chapter's roof,
 * the columns written and the terminal table. */
#define _POSIX_C_SOURCE 200809L
#include "tap.h"

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
 * library row (op 0), which the terminal used to take: 2.64x, not 1.80x. */
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
        {"library/sgemm_TF32", "library", 8, 0, 1, 1, 1, "", "tf32"},
        {"reference/k", "reference", 8, 0, 1, 1, 1, "", "fp32"},
        {"library/odd", "library", 8, 0, 1, 1, 1, "", "fp64"},
    };
    mw_ceilings c = {{2988.79, 51382.2, 408485}, ""};
    mw_row_facts f[3];
    mw_facts_decide(r, 3, &c, &mw_roofs, f);
    is_double(f[0].roof_value, 408485, 0, "a TF32 row: the TF32 roof's value");
    is_double(f[1].roof_value, 51382.2, 0, "an FP32 row: the FP32 roof's value");
    ok(isnan(f[2].roof_value), "an unknown roof: no value");
    mw_facts_decide(r, 3, NULL, &mw_roofs, f);
    ok(isnan(f[1].roof_value), "no ceilings: no value");
    is_str(mw_facts_chapter_roof(r, 3), "fp32", "the chapter's roof: its first non-library row's");
    is_str(mw_facts_chapter_roof(r, 1), "tf32", "only libraries: the first row's");
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
    mw_ceilings c = {{2988.79, 51382.2, 408485}, ""};
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
    ok(strstr(text, "2988.79,copy,0,not implemented,,library/cublasSgeam+cudnnActivation+cublasSscal\n") != NULL,
       "an untimed row's columns");
    ok(strstr(text, "2988.79,copy,1,,2.63986,library/cublasSgeam+cudnnActivation+cublasSscal\n") != NULL,
       "reference/02_chain's columns");
    ok(strstr(text, "\n2988.79,copy,1,,,\n") != NULL, "a roof row's columns");
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

int main(void)
{
    test_flags();
    test_two_libraries();
    test_untimed();
    test_no_op();
    test_roofs();
    test_output();
    test_rounded();
    return done_testing();
}
