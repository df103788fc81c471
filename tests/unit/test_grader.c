/* test_grader.c: unit tests of the grader's pure-C parts (no GPU needed):
 * tolerance and NaN policy, diagnosis, statistics, CSV, the ncu parser on a
 * sample ncu wrote on an H100, the roofs cache, the input generator, the
 * loop split over cores, mismatch counts merged from parts, bf16 rounding,
 * the bytes of a case's buffers by element type, cases set against the
 * GPU's shared-memory limits, compute-sanitizer's reports as make
 * check's sanitizer step reads them, the marker of a version built for
 * an older GPU than it needs, and the emulation's time limit. */
#define _GNU_SOURCE /* sched_setaffinity, for mw_cores */
#include "tap.h"
#include "merge_check.h"

#include "bf16.h"
#include "compare.h"
#include "csv.h"
#include "emulation.h"
#include "gpu_limits.h"
#include "harness.h"
#include "ncu.h"
#include "parallel.h"
#include "rng.h"
#include "roofs_cache.h"
#include "sanitize_step.h"
#include "skip_marker.h"
#include "stats.h"

#include <float.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *data_dir = "tests/data";

static void test_nan_policy(void)
{
    mw_tol tol = {0.0, 1e-6};
    float nan = mw_from_bits(0x7fc00000u), poison = mw_from_bits(MW_POISON_BITS);
    ok(mw_matches(nan, NAN, tol), "NaN matches a NaN reference");
    ok(!mw_matches(nan, 1.0, tol), "NaN never matches a finite reference");
    ok(!mw_matches(1.0f, NAN, tol), "a finite value never matches a NaN reference");
    ok(!mw_matches(poison, 0.0, tol), "the poison pattern never matches");
    ok(!mw_matches(poison, NAN, tol), "the poison does not pass where the answer is NaN");
    ok(mw_matches(INFINITY, INFINITY, tol), "+Inf matches +Inf");
    ok(!mw_matches(-INFINITY, INFINITY, tol), "-Inf does not match +Inf");
    ok(!mw_matches(1e30f, INFINITY, tol), "a large finite value does not match Inf");
    ok(!mw_matches(INFINITY, 1e30, tol), "Inf does not match a large finite reference");
    ok(mw_matches(1.0f, 1.0 + 0.5e-6, tol), "inside rtol passes");
    ok(!mw_matches(1.0f, 1.0 + 2e-6, tol), "outside rtol fails");
    mw_tol abs_tol = {1e-3, 0};
    ok(mw_matches(0.0f, 0.9e-3, abs_tol), "inside atol passes");
    ok(!mw_matches(0.0f, 1.1e-3, abs_tol), "outside atol fails");
}

/* Chapter 01's tolerance is one float ulp: a correctly rounded float add
 * passes, one ulp of error on top of it does not. */
static void test_add_tolerance(void)
{
    mw_tol tol = {0.0, ldexp(1.0, -23)};
    float a = 0.1f, b = 0.2f;
    double exact = (double)a + (double)b;
    float sum = a + b;
    ok(mw_matches(sum, exact, tol), "float a+b passes the add tolerance");
    float off = nextafterf(nextafterf(sum, 1.f), 1.f);
    ok(!mw_matches(off, exact, tol), "two ulps off fails the add tolerance");
}

static int has_hint(char hints[][256], int n, const char *needle)
{
    for (int i = 0; i < n; i++)
        if (strstr(hints[i], needle))
            return 1;
    return 0;
}

static void test_diagnosis(void)
{
    mw_tol tol = {0, 1e-6};
    float poison = mw_from_bits(MW_POISON_BITS);
    char hints[6][256];
    mw_mismatch m;
    mw_run_findings f;

    /* Tail never written. */
    mw_mismatch_init(&m);
    memset(&f, 0, sizeof f);
    f.n = 1000;
    for (size_t i = 0; i < 1000; i++)
        mw_mismatch_add(&m, i, i < 768 ? 1.0f : poison, 1.0, tol);
    is_int((long long)m.wrong, 232, "tail: 232 wrong");
    is_int((long long)m.unwritten, 232, "tail: all never written");
    int n = mw_diagnose(&m, &f, hints, 6);
    ok(has_hint(hints, n, "the tail") && has_hint(hints, n, "768..999"),
       "tail: the hint names the unwritten range");

    /* First half only. */
    mw_mismatch_init(&m);
    f.n = 1001;
    for (size_t i = 0; i < 1001; i++)
        mw_mismatch_add(&m, i, i < 500 ? 1.0f : poison, 1.0, tol);
    n = mw_diagnose(&m, &f, hints, 6);
    ok(has_hint(hints, n, "first half"), "half: the hint says only the first half");
    /* n = 3 with element 0 alone written: no "half" (that is element 0
     * here), but thread 0 alone storing where it belongs. */
    mw_mismatch_init(&m);
    f.n = 3;
    for (size_t i = 0; i < 3; i++)
        mw_mismatch_add(&m, i, i < 1 ? 1.0f : poison, 1.0, tol);
    n = mw_diagnose(&m, &f, hints, 6);
    ok(!has_hint(hints, n, "first half") && has_hint(hints, n, "only element 0 was written") &&
           has_hint(hints, n, "an output index scaled"),
       "element 0 alone: an index scaled or a one-thread grid, not the first half");

    /* A sampled check: the last right element seen before the first wrong
     * one bounds where the true first wrong element can be. */
    mw_mismatch_init(&m);
    size_t seen[] = {0, 7, 40, 41, 90};
    for (int j = 0; j < 5; j++)
        mw_mismatch_add(&m, seen[j], j < 2 ? 1.0f : poison, 1.0, tol);
    ok(m.has_right_before && m.last_right_before == 7 && m.first_wrong == 40,
       "sampled: the last right element before the first wrong one is kept (7, then 40)");
    ok(m.checked - m.checked_before_first_wrong == m.wrong,
       "sampled: every element checked from the first wrong one on is wrong");
    mw_mismatch_init(&m);
    mw_mismatch_add(&m, 3, 2.0f, 1.0, tol);
    mw_mismatch_add(&m, 9, 1.0f, 1.0, tol);
    ok(!m.has_right_before, "wrong from the first element checked: no right element before it");

    /* Out-of-bounds writes and modified inputs, with a right answer. */
    mw_mismatch_init(&m);
    mw_mismatch_add(&m, 0, 1.0f, 1.0, tol);
    f.n = 1;
    f.guard_after = 223;
    f.guard_after_last = 222;
    f.input_changed = 1;
    f.input_name = "a";
    n = mw_diagnose(&m, &f, hints, 6);
    ok(has_hint(hints, n, "missing bounds check"), "guard: names the missing bounds check");
    ok(has_hint(hints, n, "input a was modified"), "input: names the modified input");

    /* Work launched off the given stream, with a right answer. */
    memset(&f, 0, sizeof f);
    f.n = 1;
    f.written_off_stream = 1;
    n = mw_diagnose(&m, &f, hints, 6);
    ok(has_hint(hints, n, "launch on the stream you are given"),
       "stream: output written before the launcher's stream ran is named");
    f.written_off_stream = 0;
    n = mw_diagnose(&m, &f, hints, 6);
    ok(!has_hint(hints, n, "stream you are given"), "stream: no such hint when none was");
    ok(!has_hint(hints, n, "never joined"), "stream: nor of an unjoined fork");
    f.forked_unjoined = 1;
    n = mw_diagnose(&m, &f, hints, 6);
    ok(n >= 1 && strstr(hints[0], "forked onto another stream was never joined back") != NULL,
       "stream: a fork never joined back is named first");

    /* A race. */
    memset(&f, 0, sizeof f);
    f.n = 1;
    f.runs_differ = 1;
    n = mw_diagnose(&m, &f, hints, 6);
    ok(has_hint(hints, n, "race"), "race: two runs that differ are called a race");

    /* Wrong only past 2^31. */
    mw_mismatch_init(&m);
    memset(&f, 0, sizeof f);
    f.n = ((size_t)1 << 31) + 3;
    f.sampled = 1;
    mw_mismatch_add(&m, 5, 1.0f, 1.0, tol);
    mw_mismatch_add(&m, ((size_t)1 << 31) + 1, 2.0f, 1.0, tol);
    n = mw_diagnose(&m, &f, hints, 6);
    ok(has_hint(hints, n, "2^31"), "int overflow: wrong only past 2^31 is named");

    /* A tail past 2^31, sampled: the tail, not an int overflow. */
    mw_mismatch_init(&m);
    memset(&f, 0, sizeof f);
    f.n = ((size_t)1 << 31) + 3;
    f.sampled = 1;
    size_t idx[] = {0, 1, 5, ((size_t)1 << 31), ((size_t)1 << 31) + 1, ((size_t)1 << 31) + 2};
    for (int j = 0; j < 6; j++)
        mw_mismatch_add(&m, idx[j], j < 4 ? 1.0f : poison, 1.0, tol);
    n = mw_diagnose(&m, &f, hints, 6);
    ok(has_hint(hints, n, "the tail") && !has_hint(hints, n, "2^31"),
       "a sampled tail past 2^31 is called a tail, not an overflow");

    /* Nothing written from exactly 2^31 on: the int overflow signature. */
    mw_mismatch_init(&m);
    memset(&f, 0, sizeof f);
    f.n = ((size_t)1 << 31) + 3;
    f.sampled = 1;
    size_t at31[] = {7, ((size_t)1 << 31) - 1, ((size_t)1 << 31), ((size_t)1 << 31) + 2};
    for (int j = 0; j < 4; j++)
        mw_mismatch_add(&m, at31[j], j < 2 ? 1.0f : poison, 1.0, tol);
    n = mw_diagnose(&m, &f, hints, 6);
    ok(has_hint(hints, n, "32-bit int index"), "a hole starting exactly at 2^31 is an int overflow");

    /* Nothing written from exactly 2^32 on: an unsigned product wrapped. */
    mw_mismatch_init(&m);
    memset(&f, 0, sizeof f);
    f.n = ((size_t)1 << 32) + 3;
    f.sampled = 1;
    size_t at32[] = {7, ((size_t)1 << 31) + 1, ((size_t)1 << 32) - 1, ((size_t)1 << 32),
                     ((size_t)1 << 32) + 2};
    for (int j = 0; j < 5; j++)
        mw_mismatch_add(&m, at32[j], j < 3 ? 1.0f : poison, 1.0, tol);
    n = mw_diagnose(&m, &f, hints, 6);
    ok(has_hint(hints, n, "blockIdx.x * blockDim.x wraps") && !has_hint(hints, n, "the tail") &&
           !has_hint(hints, n, "32-bit int index"),
       "a hole starting exactly at 2^32 is an unsigned 32-bit product that wrapped");

    /* Wrong (written, not right) only past 2^32. */
    mw_mismatch_init(&m);
    memset(&f, 0, sizeof f);
    f.n = ((size_t)1 << 32) + 3;
    f.sampled = 1;
    mw_mismatch_add(&m, ((size_t)1 << 31) + 1, 1.0f, 1.0, tol);
    mw_mismatch_add(&m, ((size_t)1 << 32) + 1, 2.0f, 1.0, tol);
    n = mw_diagnose(&m, &f, hints, 6);
    ok(has_hint(hints, n, "2^32") && !has_hint(hints, n, "2^31"),
       "wrong only past 2^32 names the 2^32 wrap, not an int overflow");

    /* Writes outside an input. */
    mw_mismatch_init(&m);
    memset(&f, 0, sizeof f);
    f.n = 1;
    f.input_guard = 3;
    f.input_guard_name = "b";
    n = mw_diagnose(&m, &f, hints, 6);
    ok(has_hint(hints, n, "outside input b"), "writes around an input are named");

    /* Nothing written at all. */
    mw_mismatch_init(&m);
    memset(&f, 0, sizeof f);
    f.n = 10;
    for (size_t i = 0; i < 10; i++)
        mw_mismatch_add(&m, i, poison, 1.0, tol);
    n = mw_diagnose(&m, &f, hints, 6);
    ok(has_hint(hints, n, "no output element was written"), "nothing written is named");
    is_int(m.nshow, 5, "at most five wrong elements are listed");

    ok(mw_cuda_error_hint("cudaErrorMisalignedAddress") != NULL, "misaligned address has a hint");
    ok(mw_cuda_error_hint("cudaErrorIllegalAddress") != NULL, "illegal address has a hint");
    ok(mw_cuda_error_hint("cudaSuccess") == NULL, "no hint for success");
}

static void test_stats(void)
{
    double x[] = {5, 1, 4, 2, 3};
    is_double(mw_median(x, 5), 3, 1e-12, "median of 1..5");
    is_double(mw_quantile(x, 5, 0.25), 2, 1e-12, "first quartile of 1..5");
    is_double(mw_quantile(x, 5, 0.75), 4, 1e-12, "third quartile of 1..5");
    double y[] = {4, 1, 3, 2};
    is_double(mw_median(y, 4), 2.5, 1e-12, "median of an even count interpolates");
    is_double(x[0], 5, 0, "quantile leaves its input unsorted");
    is_double(mw_stddev(x, 5), sqrt(2.5), 1e-12, "sample standard deviation");
    is_double(mw_rel_stderr(x, 5), sqrt(2.5) / sqrt(5.0) / 3.0, 1e-12, "relative standard error");
    double same[] = {2, 2, 2};
    is_double(mw_rel_stderr(same, 3), 0, 0, "no spread, no error");
}

/* Counting a sequence in parts and merging the parts in order gives what
 * counting it in one pass gives, for every split into two and three parts:
 * right, wrong, non-finite and unwritten elements, past 2^31 and 2^32. */
static void test_mismatch_merge(void)
{
    enum { N = 24 };
    float got[N];
    double ref[N];
    size_t index[N];
    float poison;
    uint32_t bits = MW_POISON_BITS;
    memcpy(&poison, &bits, sizeof poison);
    for (int j = 0; j < N; j++) {
        index[j] = (size_t)j * ((size_t)1 << 29) + 3; /* reaches past 2^31 and 2^32 */
        ref[j] = 1.0 + j;
        got[j] = (float)ref[j];
    }
    got[3] = 7.f, got[4] = poison, got[9] = (float)INFINITY, got[10] = 2.5f;
    got[15] = poison, got[17] = NAN, got[20] = 0.f, got[22] = -1.f;
    mw_tol tol = {1e-6, 1e-6};
    mw_mismatch whole;
    count_elements(&whole, NULL, index, got, ref, 0, N, tol);
    ok(every_split_merges(&whole, NULL, index, got, ref, N, tol, 0, sizeof whole),
       "mismatch counts merged from parts equal one pass, for every split in three");
    ok(whole.wrong == 8 && whole.unwritten == 2 && whole.wrong_nonfinite == 2 &&
           whole.first_wrong == index[3] && whole.last_right_before == index[2] &&
           whole.wrong_past_2_32 == 6 && whole.wrong_past_2_31 == 7,
       "the sequence the merge is tested on has wrong, unwritten and non-finite elements");
}

/* Each call marks its range; ranges must cover [0, count) once, none
 * shorter than min_items unless there is only one. */
typedef struct marks {
    int *hits;
    size_t shortest, calls;
} marks;

static void mark_range(void *arg, size_t first, size_t end)
{
    marks *m = arg;
    for (size_t k = first; k < end; k++)
        __atomic_add_fetch(&m->hits[k], 1, __ATOMIC_RELAXED);
    size_t len = end - first, old = __atomic_load_n(&m->shortest, __ATOMIC_RELAXED);
    while (len < old && !__atomic_compare_exchange_n(&m->shortest, &old, len, 0,
                                                     __ATOMIC_RELAXED, __ATOMIC_RELAXED))
        ;
    __atomic_add_fetch(&m->calls, 1, __ATOMIC_RELAXED);
}

static void test_parallel(void)
{
    static const size_t counts[] = {0, 1, 7, 64, 1000, 100003};
    static const size_t threads[] = {0, 1, 3, 64, 200};
    static const size_t mins[] = {1, 10, 5000};
    int all_once = 1, min_kept = 1, no_empty = 1;
    for (size_t a = 0; a < sizeof counts / sizeof *counts; a++)
        for (size_t b = 0; b < sizeof threads / sizeof *threads; b++)
            for (size_t c = 0; c < sizeof mins / sizeof *mins; c++) {
                size_t n = counts[a];
                marks m = {calloc(n + 1, sizeof(int)), (size_t)-1, 0};
                mw_parallel_ranges(n, threads[b], mins[c], mark_range, &m);
                for (size_t k = 0; k < n; k++)
                    all_once &= m.hits[k] == 1;
                if (m.calls > 1 && m.shortest < mins[c])
                    min_kept = 0;
                if (n > 0 && m.shortest == 0)
                    no_empty = 0;
                free(m.hits);
            }
    ok(all_once, "parallel ranges cover every item exactly once");
    ok(min_kept, "parallel ranges: no thread gets fewer than min_items unless it runs alone");
    ok(no_empty, "parallel ranges: no empty range is handed out");
    ok(mw_cores() >= 1, "at least one core");
    /* Held to one core (as a Slurm task or a taskset may be), one thread. */
    cpu_set_t was, one;
    if (sched_getaffinity(0, sizeof was, &was) == 0) {
        int first = 0;
        while (!CPU_ISSET(first, &was))
            first++;
        CPU_ZERO(&one);
        CPU_SET(first, &one);
        int held = sched_setaffinity(0, sizeof one, &one) == 0;
        size_t cores = mw_cores();
        if (held)
            sched_setaffinity(0, sizeof was, &was);
        char name[96];
        snprintf(name, sizeof name, "mw_cores: the cores this process may run on (held to one: %zu)",
                 cores);
        ok(held && cores == 1, name);
    } else {
        ok(0, "sched_getaffinity works");
    }
}

static void test_csv(void)
{
    char path[] = "/tmp/mw-test-csv-XXXXXX";
    int fd = mkstemp(path);
    close(fd);
    unlink(path);
    mw_csv c;
    ok(mw_csv_open(&c, path, "a,b,c") == 0, "csv opens");
    mw_csv_str(&c, "plain");
    mw_csv_str(&c, "with, comma");
    mw_csv_str(&c, "with \"quote\"");
    mw_csv_end_row(&c);
    mw_csv_num(&c, 1.5, 6);
    mw_csv_num(&c, NAN, 6);
    mw_csv_num(&c, 123456789, 15);
    mw_csv_end_row(&c);
    ok(access(path, F_OK) != 0, "nothing at the path before close (atomic)");
    ok(mw_csv_close(&c) == 0, "csv closes");
    FILE *fp = fopen(path, "r");
    char line[256], *f[8];
    ok(fp && fgets(line, sizeof line, fp), "header read back");
    is_str(line, "a,b,c\n", "header as written");
    ok(fgets(line, sizeof line, fp) != NULL, "row 1 read back");
    is_str(line, "plain,\"with, comma\",\"with \"\"quote\"\"\"\n", "quoting per RFC 4180");
    int n = mw_csv_split(line, f, 8);
    is_int(n, 3, "split finds 3 fields");
    is_str(f[1], "with, comma", "split undoes quoting");
    is_str(f[2], "with \"quote\"", "split undoes doubled quotes");
    ok(fgets(line, sizeof line, fp) != NULL, "row 2 read back");
    is_str(line, "1.5,,123456789\n", "NaN is an empty field");
    fclose(fp);
    unlink(path);

    char header[] = "chapter,impl,median_ms\n";
    n = mw_csv_split(header, f, 8);
    is_int(mw_csv_column(f, n, "median_ms"), 2, "a column found by name");
    is_int(mw_csv_column(f, n, "flag"), -1, "a column the header lacks: -1");
}

/* mw_csv_reader: the header kept, columns by name, blank lines skipped,
 * each row as written and split, line numbers, the end and an empty file. */
static void test_csv_reader(void)
{
    static const char text[] = "chapter,impl,\"median, ms\"\n"
                               "05,ref,1.5\n"
                               "\n"
                               "  \t\r\n"
                               "05,\"a, b\",2\n"
                               "05,short\n";
    FILE *fp = fmemopen((void *)text, sizeof text - 1, "r");
    mw_csv_reader r;
    ok(fp && mw_csv_reader_start(&r, fp) == 0, "reader: the header read");
    if (!fp)
        return;
    is_int(r.nheader, 3, "reader: the header's 3 fields");
    is_str(r.header[2], "median, ms", "reader: the header split, quotes undone");
    const char *const names[] = {"impl", "median, ms"}, *const missing[] = {"impl", "flag"};
    int col[2];
    is_int(mw_csv_reader_columns(&r, names, 2, col), 3, "reader: a row needs 3 fields for them");
    ok(col[0] == 1 && col[1] == 2, "reader: columns found by name");
    is_int(mw_csv_reader_columns(&r, missing, 2, col), -2, "reader: the second name missing: -2");
    ok(mw_csv_reader_next(&r) == 1 && r.nf == 3 && strcmp(r.f[2], "1.5") == 0,
       "reader: row 1 split");
    is_str(r.line, "05,ref,1.5\n", "reader: row 1 as written");
    ok(mw_csv_reader_next(&r) == 1 && strcmp(r.f[1], "a, b") == 0, "reader: blank lines skipped");
    is_int(r.lineno, 5, "reader: the line number counts the blank lines");
    is_str(r.line, "05,\"a, b\",2\n", "reader: a quoted field kept as written in line");
    ok(mw_csv_reader_next(&r) == 1 && r.nf == 2, "reader: a short row, its own field count");
    is_int(mw_csv_reader_next(&r), 0, "reader: 0 at the end");
    mw_csv_reader_end(&r);
    fclose(fp);

    fp = tmpfile(); /* empty */
    ok(fp && mw_csv_reader_start(&r, fp) == -1, "reader: an empty stream has no header: -1");
    mw_csv_reader_end(&r); /* safe after a failed start */
    if (fp)
        fclose(fp);
}

static void test_ncu_sample(void)
{
    char path[512];
    snprintf(path, sizeof path, "%s/ncu_sample.csv", data_dir);
    FILE *fp = fopen(path, "r");
    ok(fp != NULL, "the H100 ncu sample is there");
    if (!fp)
        return;
    mw_ncu_kernel *k = NULL;
    int n = mw_ncu_parse(fp, &k);
    fclose(fp);
    is_int(n, 3, "three kernels in the sample (marker, add, marker)");
    if (n != 3)
        return;
    is_str(k[1].name, "add(const float *, const float *, float *, unsigned long)", "kernel name");
    is_double(k[1].dram_read, 134235648, 0, "thousands separators are removed (read)");
    is_double(k[1].dram_write, 54499584, 0, "write bytes");
    is_double(k[1].time_ns, 72160, 0, "duration in ns");
    is_int(k[0].grid_x, 7, "the marker's grid size is read");
    mw_ncu_segment *s = NULL;
    int ns = mw_ncu_segments(k, n, &s);
    is_int(ns, 2, "markers 7 and 8 open two segments");
    is_int(s[0].k, 7, "segment 7 first");
    is_int(s[0].kernels, 1, "segment 7 holds the add");
    is_double(s[0].dram_read, 134235648, 0, "segment 7 read bytes");
    free(k);
    free(s);
    is_double(mw_ncu_number("1,234"), 1234, 0, "number with separator");
    ok(isnan(mw_ncu_number("n/a")), "n/a is NaN");
}

/* A library that launches two kernels between markers with the same k. */
static void test_ncu_segments(void)
{
    const char *csv =
        "==PROF== Connected to process 1\n"
        "\"ID\",\"Kernel Name\",\"Grid Size\",\"Metric Name\",\"Metric Unit\",\"Metric Value\"\n"
        "\"0\",\"mw_fill_kernel\",\"(9, 1, 1)\",\"dram__bytes_read.sum\",\"byte\",\"5\"\n"
        "\"1\",\"mw_marker()\",\"(3, 1, 1)\",\"dram__bytes_read.sum\",\"byte\",\"0\"\n"
        "\"2\",\"lib_a\",\"(64, 1, 1)\",\"dram__bytes_read.sum\",\"byte\",\"1,000\"\n"
        "\"2\",\"lib_a\",\"(64, 1, 1)\",\"dram__bytes_write.sum\",\"byte\",\"10\"\n"
        "\"3\",\"lib_b\",\"(64, 1, 1)\",\"dram__bytes_read.sum\",\"byte\",\"2,000\"\n"
        "\"3\",\"lib_b\",\"(64, 1, 1)\",\"dram__bytes_write.sum\",\"byte\",\"20\"\n"
        "\"4\",\"mw_marker()\",\"(3, 1, 1)\",\"dram__bytes_read.sum\",\"byte\",\"0\"\n"
        "\"5\",\"mw_fill_kernel\",\"(9, 1, 1)\",\"dram__bytes_read.sum\",\"byte\",\"7\"\n";
    FILE *fp = fmemopen((void *)csv, strlen(csv), "r");
    mw_ncu_kernel *k = NULL;
    int n = mw_ncu_parse(fp, &k);
    fclose(fp);
    is_int(n, 6, "six kernels parsed");
    mw_ncu_segment *s = NULL;
    int ns = mw_ncu_segments(k, n, &s);
    is_int(ns, 1, "one bracketed segment");
    is_int(s[0].kernels, 2, "both library kernels counted, harness kernels outside left out");
    is_double(s[0].dram_read, 3000, 0, "reads summed over the segment");
    is_double(s[0].dram_write, 30, 0, "writes summed over the segment");
    free(k);
    free(s);
    fp = fmemopen((void *)"no table here\n", 14, "r");
    ok(mw_ncu_parse(fp, &k) == -1, "output without a table is an error");
    fclose(fp);
    free(k);
}

static void test_roof_cache(void)
{
    char dir[] = "/tmp/mw-test-roofs-XXXXXX";
    ok(mkdtemp(dir) != NULL, "temp dir");
    char path[256];
    snprintf(path, sizeof path, "%s/gpu/roofs.csv", dir);
    /* copy, read, write, fp32 (FFMA), tf32 and bf16 mma.sync, tf32 and bf16 wgmma */
    mw_roof_values c = {{3013.5, 3250, 2950, 51700, 454000, 750000, 480000, 900000}, "2026-11-22"},
                   back;
    ok(mw_roof_cache_load(path, &back) == -1, "a missing cache does not load");
    ok(mw_roof_cache_save(path, &c, "Some GPU, 80GB") == 0, "cache saved (folders created)");
    ok(mw_roof_cache_load(path, &back) == 0, "cache loads");
    is_double(mw_roof_value(&back, &mw_roofs, "copy"), 3013.5, 1e-9, "copy bandwidth round-trips");
    is_double(mw_roof_value(&back, &mw_roofs, "read"), 3250, 1e-9, "read bandwidth round-trips");
    is_double(mw_roof_value(&back, &mw_roofs, "fp32"), 51700, 1e-9, "FFMA rate round-trips");
    is_double(mw_roof_value(&back, &mw_roofs, "tf32_mma"), 454000, 1e-9,
              "TF32 mma.sync rate round-trips");
    is_double(mw_roof_value(&back, &mw_roofs, "bf16_mma"), 750000, 1e-9,
              "bf16 mma.sync rate round-trips");
    is_double(mw_roof_value(&back, &mw_roofs, "bf16_wgmma"), 900000, 1e-9,
              "bf16 wgmma rate round-trips");
    is_str(back.date, "2026-11-22", "date round-trips");
    FILE *fp = fopen(path, "w");
    fputs("metric,value,unit,detail\ncopy_gbps,3000,GB/s,x\n", fp);
    fclose(fp);
    ok(mw_roof_cache_load(path, &back) == -1, "an incomplete cache does not load");
    fp = fopen(path, "w");
    fputs("metric,value,unit,detail\ncopy_gbps,3000,GB/s,x\nfp32_gflops,50000,GFLOP/s,x\n"
          "tf32_gflops,400000,GFLOP/s,x\nbf16_gflops,800000,GFLOP/s,x\ndate,,,2026-11-22\n",
          fp);
    fclose(fp);
    ok(mw_roof_cache_load(path, &back) == -1,
       "a cache of the cuBLAS roofs does not load: the roofs are measured again");
    ok(isnan(mw_roof_value(&back, &mw_roofs, "fp32")),
       "and cuBLAS's SGEMM rate is not read as the FFMA roof");
    unlink(path);
    snprintf(path, sizeof path, "%s/gpu", dir);
    rmdir(path);
    rmdir(dir);
}

static void test_generator(void)
{
    int in_range = 1, specials = 0, exact = 1;
    for (uint64_t i = 0; i < 100000; i++) {
        float u = mw_gen(42, 1, i, MW_GEN_UNIFORM, 1.f);
        in_range &= u >= -1.f && u < 1.f;
        exact &= (double)u * 8388608.0 == floor((double)u * 8388608.0);
        float s = mw_gen(42, 1, i, MW_GEN_SPECIAL, 1.f);
        specials += !isfinite(s) || s == 0.f;
    }
    ok(in_range, "uniform values lie in [-1, 1)");
    ok(exact, "uniform values are multiples of 2^-23 (exact on host and device)");
    ok(specials > 5000 && specials < 20000, "about 1 in 8 special values are special");
    ok(mw_gen(42, 1, 7, 0, 1.f) == mw_gen(42, 1, 7, 0, 1.f), "same seed, same value");
    ok(mw_gen(42, 1, 7, 0, 1.f) != mw_gen(43, 1, 7, 0, 1.f), "another seed, another value");
    ok(mw_gen(42, 1, 7, 0, 1.f) != mw_gen(42, 2, 7, 0, 1.f), "another stream, another value");
    float k = mw_gen(42, 1, 7, MW_GEN_SMALLINT, 1.f);
    ok(k == floorf(k) && k >= -4 && k <= 4, "small integers are integers in [-4, 4]");

    int logprob_ok = 1, dominant = 0, others_ok = 1;
    for (uint64_t i = 0; i < 100000; i++) {
        double v = mw_gen(42, 1, i, MW_GEN_LOGPROB, 1.f);
        /* in [-101, -99), on a 2^-15 grid: exact, whatever the compiler fuses */
        logprob_ok &= v >= -101 && v < -99 && (v + 100) * 32768 == floor((v + 100) * 32768);
        float d = mw_gen(42, 1, i, MW_GEN_DOMINANT, 1.f);
        dominant += d == 100.f;
        others_ok &= d == 100.f || (d >= -1.f && d < 1.f);
    }
    ok(logprob_ok, "log-probability values lie in [-101, -99), on a 2^-15 grid");
    ok(dominant > 50 && dominant < 150 && others_ok, "about 1 in 1024 values dominate (+100)");
    int masked_ok = 1;
    for (uint64_t i = 0; i < 200000; i += 7) {
        float v = mw_gen(42, 1, i, MW_GEN_MASKED, 1.f);
        masked_ok &= (i >> 15) & 1 ? v == -INFINITY : v >= -1.f && v < 1.f;
    }
    ok(masked_ok, "masked: every other run of 32768 elements is -inf, the rest uniform");
    int tail_ok = 1;
    const uint64_t two31 = (uint64_t)1 << 31;
    for (uint64_t i = two31 - 5000; i < two31 + 5000; i++) {
        float v = mw_gen(42, 1, i, MW_GEN_TAIL, 1.f);
        tail_ok &= i >= two31 ? v == 100.f : v >= -1.f && v < 1.f;
    }
    ok(tail_ok, "tail: every element from index 2^31 on is +100, the rest uniform");
    /* lone: rows of 1000 columns, 1100 of them: at most one +100 a row,
     * and every column holds one in some row. */
    int lone_ok = 1, lone_rows_max = 0;
    static unsigned char lone_col[1000];
    for (uint64_t r = 0; r < 1100; r++) {
        int in_row = 0;
        for (uint64_t c = 0; c < 1000; c++) {
            float v = mw_gen(42, 1, r * 1000 + c, MW_GEN_LONE, 1.f);
            lone_ok &= v == 100.f || (v >= -1.f && v < 1.f);
            if (v == 100.f)
                in_row++, lone_col[c] = 1;
        }
        lone_rows_max = in_row > lone_rows_max ? in_row : lone_rows_max;
    }
    int lone_cols = 0;
    for (int c = 0; c < 1000; c++)
        lone_cols += lone_col[c];
    ok(lone_ok && lone_rows_max == 1 && lone_cols == 1000,
       "lone: at most one +100 per row of 1000 columns, at every column in 1100 rows");
    /* lonewide: three rows of 16777259 columns, each +100 at its head
     * only (sampled around the row boundaries and at random inside). */
    const uint64_t wide = 16777259;
    int wide_ok = 1, wide_heads = 0;
    for (uint64_t r = 0; r < 3; r++)
        for (int k = -3000; k < 3000; k++) {
            uint64_t i = r * wide + (uint64_t)(k + (k < 0 ? (int64_t)wide : 0));
            if (r == 0 && k < 0)
                i = mw_hash(7, 3, (uint64_t)-k) % wide; /* random inside row 0 */
            float v = mw_gen(42, 1, i, MW_GEN_LONE_WIDE, 1.f);
            const int head = i % wide == 0;
            wide_ok &= head ? v == 100.f : v >= -1.f && v < 1.f;
            wide_heads += v == 100.f;
        }
    ok(wide_ok && wide_heads == 3,
       "lonewide: in rows of 16777259 columns, +100 at each row's head and nowhere else");
    /* opposed: [1/2, 1) times scale, K's stream (4k + 2) negative, Q's
     * and V's (4k + 1, 4k + 3) positive. */
    int opp_ok = 1;
    for (uint32_t k = 0; k < 4; k++)
        for (uint64_t i = 0; i < 20000; i++)
            for (uint32_t b = 0; b < 3; b++) {
                const float v = mw_gen(42, 4 * k + b + 1, i, MW_GEN_OPPOSED, 10.f);
                const float a = b == 1 ? -v : v;
                opp_ok &= a >= 5.f && a < 10.f;
            }
    ok(opp_ok, "opposed: Q and V in [5, 10), K in (-10, -5] at scale 10");
    /* overflow: opposed, except K's elements with bit 16 of the index set,
     * in (-2^127, -2^126]: finite, and q K past FLT_MAX for any q >= 4. */
    int ovf_ok = 1, ovf_huge = 0;
    for (uint32_t k = 0; k < 2; k++)
        for (uint64_t i = 0; i < 3 * 65536; i += 7)
            for (uint32_t b = 0; b < 3; b++) {
                const float v = mw_gen(42, 4 * k + b + 1, i, MW_GEN_OVERFLOW, 10.f);
                const int huge = b == 1 && ((i >> 16) & 1);
                const float a = b == 1 ? -v : v; /* as the opposed check above */
                ovf_huge += huge;
                ovf_ok &= huge ? v > -0x1p127f && v <= -0x1p126f && isfinite(v)
                               : a >= 5.f && a < 10.f;
            }
    ok(ovf_ok && ovf_huge > 0,
       "overflow: K in (-2^127, -2^126] where bit 16 of the index is set, else as opposed");
    /* nanthird: NaN only in the third stream of each case (4k + 3, V),
     * about 1 in 256 there; the rest uniform times scale. */
    int third_ok = 1;
    uint64_t third_nans = 0;
    const uint64_t per_stream = 1 << 16;
    for (uint32_t k = 0; k < 4; k++)
        for (uint32_t b = 0; b < 4; b++)
            for (uint64_t i = 0; i < per_stream; i++) {
                const float v = mw_gen(42, 4 * k + b + 1, i, MW_GEN_NAN_THIRD, 2.f);
                if (v != v)
                    third_ok &= b == 2, third_nans++;
                else
                    third_ok &= v >= -2.f && v < 2.f;
            }
    ok(third_ok && third_nans > 4 * per_stream / 256 * 9 / 10 &&
           third_nans < 4 * per_stream / 256 * 11 / 10,
       "nanthird: NaN in V's stream alone, about 1 in 256 of it");
    ok(mw_gen_has_nan(MW_GEN_NAN_THIRD), "nanthird counts as a class with NaN");
    /* lonenan: NaN in the third stream exactly at the positive multiples
     * of 16383; in heads of 16384 elements (N d, as N = 128 at d = 128),
     * head k's one NaN is its element 16383 - k: the last key, column
     * d - 1 - k, for the first d heads. */
    int lonenan_ok = 1;
    for (uint32_t b = 0; b < 4; b++)
        for (uint64_t i = 0; i < 3 * 16384; i++) {
            const float v = mw_gen(42, 4 + b + 1, i, MW_GEN_LONE_NAN, 2.f);
            const int want_nan = b == 2 && i > 0 && i % 16383 == 0;
            lonenan_ok &= want_nan ? v != v : v >= -2.f && v < 2.f;
        }
    ok(lonenan_ok, "lonenan: NaN at V's positive multiples of 16383 alone");
    const int lone_d = 128, lone_keys = 16384 / lone_d;
    int lone_heads_ok = 1;
    for (int k = 0; k < lone_d; k++) {
        int nans = 0, key = -1, col = -1;
        for (int e = 0; e < 16384; e++) {
            const float v = mw_gen(7, 3, (uint64_t)k * 16384 + (uint64_t)e, MW_GEN_LONE_NAN, 1.f);
            if (v != v)
                nans++, key = e / lone_d, col = e % lone_d;
        }
        lone_heads_ok &= nans == 1 && key == lone_keys - 1 && col == lone_d - 1 - k;
    }
    ok(lone_heads_ok, "lonenan: heads of 128 keys at d = 128 hold one NaN each, at key 127, "
                      "head k at column 127 - k");
    ok(mw_gen_has_nan(MW_GEN_LONE_NAN), "lonenan counts as a class with NaN");
}

/* A bf16's value, its exponent unbounded: 0x7f80 reads as 2^128, the
 * value past the largest bf16 that IEEE rounding measures overflow by. */
static double bf16_unbounded(uint32_t h)
{
    double sign = h & 0x8000u ? -1.0 : 1.0;
    int e = (int)((h >> 7) & 0xffu), m = (int)(h & 0x7fu);
    return sign * (e == 0 ? ldexp(m, -133) : ldexp(128 + m, e - 134));
}

/* f to bf16 by the definition: of the two bf16 around f (f's bits cut to
 * the upper half, and one ulp further from zero), the nearer, on a tie the
 * one with an even significand; past the largest bf16, infinity. */
static uint16_t bf16_by_definition(float f)
{
    uint32_t u = mw_f32_bits(f), lo = u >> 16, hi = lo + 1;
    if ((u & 0xffffu) == 0)
        return (uint16_t)lo;
    double x = f, dlo = fabs(x - bf16_unbounded(lo)), dhi = fabs(bf16_unbounded(hi) - x);
    return (uint16_t)(dlo < dhi ? lo : dhi < dlo ? hi : (lo & 1) ? hi : lo);
}

static int bf16_is(float f, unsigned want)
{
    return mw_bf16_round(f) == want;
}

static void test_bf16_round(void)
{
    /* Exact values: a float whose low 16 bits are 0 is a bf16. */
    ok(bf16_is(1.0f, 0x3f80) && bf16_is(-2.0f, 0xc000) && bf16_is(3.0f, 0x4040) &&
           bf16_is(0.15625f, 0x3e20),
       "bf16: exact values keep their bits");
    ok(bf16_is(0.0f, 0x0000) && bf16_is(-0.0f, 0x8000), "bf16: +0 and -0 keep their sign");
    ok(mw_bf16_to_float(0x3f81) == 1.0078125f && mw_bf16_to_float(0xc000) == -2.0f,
       "bf16: widening is exact");
    int round_trip = 1;
    for (uint32_t h = 0; h < 0x10000u; h++)
        if ((h & 0x7f80u) != 0x7f80u || (h & 0x7fu) == 0) /* not a NaN */
            round_trip &= mw_bf16_round(mw_bf16_to_float((uint16_t)h)) == h;
    ok(round_trip, "bf16: every non-NaN bf16 widened and rounded gives itself back");

    /* To nearest, ties to even. 1 + 2^-8 is halfway between 1 (0x3f80, even)
     * and 1 + 2^-7 (0x3f81). */
    ok(bf16_is(mw_from_bits(0x3f808000u), 0x3f80), "bf16: a tie goes down to the even neighbour");
    ok(bf16_is(mw_from_bits(0x3f818000u), 0x3f82), "bf16: a tie goes up to the even neighbour");
    ok(bf16_is(mw_from_bits(0xbf818000u), 0xbf82),
       "bf16: a negative tie goes to even (away from zero here)");
    ok(bf16_is(mw_from_bits(0x3f808001u), 0x3f81) && bf16_is(mw_from_bits(0x3f807fffu), 0x3f80),
       "bf16: just past a tie rounds up, just short of it down");
    ok(bf16_is(mw_from_bits(0x3f7fffffu), 0x3f80),
       "bf16: rounding up carries into the exponent (just below 1 gives 1)");
    ok(bf16_is(0.1f, 0x3dcd), "bf16: 0.1 rounds to 0x3dcd");

    /* Subnormals: the same rule on the same bits. */
    ok(bf16_is(mw_from_bits(0x00010000u), 0x0001), "bf16: the smallest subnormal is exact");
    ok(bf16_is(mw_from_bits(0x00008000u), 0x0000) && bf16_is(mw_from_bits(0x80008000u), 0x8000),
       "bf16: half the smallest subnormal ties to (signed) zero");
    ok(bf16_is(mw_from_bits(0x00008001u), 0x0001), "bf16: just past half rounds up to it");
    ok(bf16_is(mw_from_bits(0x00018000u), 0x0002), "bf16: a subnormal tie goes to even");
    ok(bf16_is(mw_from_bits(0x00000001u), 0x0000), "bf16: the smallest float subnormal is 0");
    ok(bf16_is(mw_from_bits(0x007fffffu), 0x0080),
       "bf16: the largest float subnormal rounds up to the smallest normal");

    /* Infinities, NaN, overflow. */
    ok(bf16_is(INFINITY, 0x7f80) && bf16_is(-INFINITY, 0xff80), "bf16: infinities stay");
    ok(bf16_is(FLT_MAX, 0x7f80) && bf16_is(-FLT_MAX, 0xff80),
       "bf16: FLT_MAX overflows to infinity (past the largest bf16 by more than half an ulp)");
    ok(bf16_is(mw_from_bits(0x7f7f0000u), 0x7f7f) && bf16_is(mw_from_bits(0x7f7f7fffu), 0x7f7f),
       "bf16: the largest bf16, and just short of halfway past it, stay finite");
    ok(bf16_is(mw_from_bits(0x7f7f8000u), 0x7f80),
       "bf16: halfway past the largest bf16 ties to even: infinity");
    ok(bf16_is(mw_from_bits(0x7fc00000u), 0x7fc0) && bf16_is(mw_from_bits(0xffc00000u), 0xffc0),
       "bf16: a quiet NaN keeps its sign and bits");
    uint16_t low_nan = mw_bf16_round(mw_from_bits(0x7f800001u));
    ok((low_nan & 0x7f80u) == 0x7f80u && (low_nan & 0x7fu) != 0,
       "bf16: a NaN whose payload is in the low half stays a NaN, not infinity");
    ok(isnan(mw_round_to(MW_BF16, NAN)) && mw_round_to(MW_BF16, INFINITY) == INFINITY,
       "bf16: NaN and infinity survive the round trip through bf16");

    /* Against the definition: every upper half with low halves at the edges
     * of rounding (0, just past 0, just short of a tie, a tie, just past,
     * the top) and pseudo-random ones. */
    static const uint32_t lows[] = {0x0000, 0x0001, 0x7fff, 0x8000, 0x8001, 0xffff};
    size_t checked = 0, wrong = 0;
    for (uint32_t hi = 0; hi < 0x10000u; hi++) {
        if ((hi & 0x7f80u) == 0x7f80u) /* Inf and NaN: above */
            continue;
        for (size_t k = 0; k < sizeof lows / sizeof lows[0] + 2; k++) {
            uint32_t low = k < sizeof lows / sizeof lows[0]
                               ? lows[k]
                               : (uint32_t)(mw_hash(7, hi, k) & 0xffffu);
            float f = mw_from_bits(hi << 16 | low);
            checked++;
            if (mw_bf16_round(f) != bf16_by_definition(f)) {
                if (wrong++ < 3)
                    printf("#   %08x: got %04x, want %04x\n", hi << 16 | low, mw_bf16_round(f),
                           bf16_by_definition(f));
            }
        }
    }
    ok(checked > 500000 && wrong == 0,
       "bf16: rounding agrees with round-to-nearest-even by definition on 520k floats");

    /* The poison: bf16's 0xffff reaches the host as the FP32 poison. */
    ok(mw_float_bits(mw_bf16_widen(MW_BF16_POISON_BITS)) == MW_POISON_BITS,
       "bf16: the poison widens to the FP32 poison");
    ok(isnan(mw_bf16_widen(0x7fff)) && mw_float_bits(mw_bf16_widen(0x7fff)) != MW_POISON_BITS,
       "bf16: a computed NaN widens to a NaN that is not the poison");
    ok(mw_bf16_widen(0xbf80) == -1.0f, "bf16: a value widens to itself");
    ok((MW_POISON_BITS & 0xffffu) == MW_BF16_POISON_BITS &&
           (MW_GUARD_BITS & 0xffffu) == MW_BF16_GUARD_BITS,
       "bf16: the patterns are the low halves of the FP32 ones (memset bytes)");
    ok(mw_type_size(MW_F32) == 4 && mw_type_size(MW_BF16) == 2, "element sizes: 4 and 2 bytes");

    /* Generated inputs: a bf16 buffer holds the rounded value. */
    int same = 1, close = 1, specials = 1;
    for (uint64_t i = 0; i < 20000; i++) {
        float f = mw_gen(42, 3, i, MW_GEN_UNIFORM, 1.f), b = mw_gen_as(42, 3, i, 0, 1.f, MW_BF16);
        same &= mw_gen_as(42, 3, i, 0, 1.f, MW_F32) == f && b == mw_round_to(MW_BF16, f);
        close &= fabs((double)b - f) <= ldexp(fabs(f), -8);
        float s = mw_gen(42, 3, i, MW_GEN_SPECIAL, 1.f);
        float t = mw_gen_as(42, 3, i, MW_GEN_SPECIAL, 1.f, MW_BF16);
        specials &= isnan(s)   ? isnan(t)
                    : isinf(s) ? t == s
                               : fabs((double)t - s) <= ldexp(fabs(s), -8);
    }
    ok(same, "bf16 inputs: mw_gen rounded; FP32 inputs: mw_gen itself");
    ok(close, "bf16 inputs: within half a bf16 ulp (2^-8 relative) of the FP32 value");
    ok(specials, "bf16 inputs: NaN stays NaN, Inf stays Inf, the rest rounded");
}

/* A chapter of bf16 inputs, a bf16 output and an FP32 one (as bf16 flash
 * attention: Q, K in, O and L out), for the byte counts and input types. */
static void mixed_buffers(const mw_case *c, mw_buffer_spec *s)
{
    s[0] = (mw_buffer_spec){"q", c->dim[0], 0, MW_BF16};
    s[1] = (mw_buffer_spec){"k", c->dim[0], 0, MW_BF16};
    s[2] = (mw_buffer_spec){"o", c->dim[0], 1, MW_BF16};
    s[3] = (mw_buffer_spec){"l", c->dim[1], 1}; /* no type: FP32 */
}

static void f32_buffers(const mw_case *c, mw_buffer_spec *s)
{
    s[0] = (mw_buffer_spec){"a", c->dim[0], 0};
    s[1] = (mw_buffer_spec){"b", c->dim[0], 0};
    s[2] = (mw_buffer_spec){"c", c->dim[0], 1};
}

/* Shared inputs of two declared types: the storage, and the type, are the first's. */
static void shared_buffers(const mw_case *c, mw_buffer_spec *s)
{
    s[0] = (mw_buffer_spec){"x", c->dim[0], 0, MW_BF16};
    s[1] = (mw_buffer_spec){"y", c->dim[0], 0, MW_F32};
    s[2] = (mw_buffer_spec){"z", c->dim[0], 1, MW_F32};
}

static void test_case_bytes(void)
{
    const size_t g = 2 * MW_GUARD;
    mw_chapter mixed = {.nbufs = 4, .buffers = mixed_buffers};
    mw_chapter f32 = {.nbufs = 3, .buffers = f32_buffers};
    mw_chapter shared = {.nbufs = 3, .buffers = shared_buffers};
    mw_case c = {.dim = {1000, 10}, .offset = {1, 2, 3, 5}};

    is_int((long long)mw_case_bytes(&f32, &c),
           (long long)((1000 + g + 1) * 4 + (1000 + g + 2) * 4 + (1000 + g + 3) * 4),
           "bytes: FP32 buffers take 4 bytes an element, guards and offsets included");
    is_int((long long)mw_case_bytes(&mixed, &c),
           (long long)((1000 + g + 1) * 2 + (1000 + g + 2) * 2 + (1000 + g + 3) * 2 +
                       (10 + g + 5) * 4),
           "bytes: bf16 buffers take 2 bytes an element, their guards and offsets too");
    mw_case big = {.dim = {(size_t)1 << 31, 1}};
    is_int((long long)mw_case_bytes(&mixed, &big),
           (long long)(3 * (((size_t)1 << 31) + g) * 2 + (1 + g) * 4),
           "bytes: 2^31 bf16 elements are 4 GiB, not 8");
    mw_case sh = {.dim = {1000}, .offset = {1, 2, 3}, .shared_inputs = 1};
    is_int((long long)mw_case_bytes(&shared, &sh),
           (long long)((1000 + g + 1) * 2 + (1000 + g + 3) * 4),
           "bytes: a shared input is counted once, in the first input's type");
    is_int((long long)mw_workspace_bytes(100), (long long)((100 + g) * 4),
           "bytes: a workspace is FP32 whatever the buffers are");

    mw_views v;
    mw_views_specs(&mixed, &c, &v);
    ok(v.nout == 2 && v.out[0] == 2 && v.out[1] == 3 && v.out_total == 1010,
       "specs: outputs O (bf16) and L (FP32), 1010 elements flat");
    ok(v.spec[0].type == MW_BF16 && v.spec[2].type == MW_BF16 && v.spec[3].type == MW_F32 &&
           v.spec[4].type == MW_F32,
       "specs: each buffer's type, the workspace slot FP32");
    mw_views_specs(&shared, &sh, &v);
    ok(v.spec[1].type == MW_BF16, "specs: a view of the first input's storage has its type");

    mw_inputs in = mw_case_inputs_for(&mixed, &c, 2, 42);
    ok(in.type[0] == MW_BF16 && in.type[1] == MW_BF16 && in.type[3] == MW_F32,
       "inputs: the types come from the chapter's buffers");
    ok(in.stream[0] == 9 && in.stream[1] == 10 && in.stream[4] == ((uint32_t)1 << 24) + 9,
       "inputs: buffers 0-3 draw streams 4k+1..4k+4, the rest their own range (SEED= replays)");
    int rounded = 1;
    for (size_t i = 0; i < 1000; i++)
        rounded &= mw_input(&in, 0, i) == mw_bf16_to_float(mw_bf16_round(
                                             mw_gen(42, in.stream[0], i, in.gen, in.scale)));
    ok(rounded, "inputs: mw_input of a bf16 buffer is the generator's value rounded to bf16");
    mw_inputs fin = mw_case_inputs_for(&f32, &c, 2, 42);
    int plain = 1;
    for (size_t i = 0; i < 1000; i++)
        plain &= mw_input(&fin, 1, i) == mw_gen(42, fin.stream[1], i, fin.gen, fin.scale);
    ok(plain, "inputs: mw_input of an FP32 buffer is the generator's value");
}

/* A model of 100 FLOPs an element of dim[0], for the emulation's measure. */
static void hundred_flops(const mw_case *c, double *read, double *write, double *flops)
{
    *read = 8.0 * (double)c->dim[0], *write = 4.0 * (double)c->dim[0];
    *flops = 100.0 * (double)c->dim[0];
}

static int no_blocks(const mw_case *c, size_t i, const unsigned grid[3], const unsigned block[3],
                     uint64_t blocks[MW_EMULATION_BLOCKS])
{
    (void)c, (void)i, (void)grid, (void)block, (void)blocks;
    return 0;
}

/* The emulation's time limit beyond TIMEOUT: a case's work at
 * MW_EMULATION_UNITS_PER_S, its budget at most; a case on a sample, the
 * sample budget its blocks may cost. */
static void test_emulation_seconds(void)
{
    mw_chapter ch = {.nbufs = 3, .buffers = f32_buffers, .model = hundred_flops,
                     .emulation_budget = 1e6, .emulation_blocks = no_blocks,
                     .emulation_sample_budget = 1e8};
    mw_case small = {.dim = {1000}}, huge = {.dim = {1000000}}, sampled = {.dim = {1000000},
                                                                           .sampled = 1};
    const double rate = MW_EMULATION_UNITS_PER_S, work = mw_emulation_work(&ch, &small, 0);
    ok(work > 1e5 && work < 1e6, "emulation: the small case is within the budget");
    ok(mw_emulation_seconds(&ch, &small, 0) == work / rate,
       "emulation: a case within the budget may take its work's seconds beyond TIMEOUT");
    ok(mw_emulation_seconds(&ch, &small, 50000) == mw_emulation_work(&ch, &small, 50000) / rate &&
           mw_emulation_seconds(&ch, &small, 50000) > work / rate,
       "emulation: a version's workspace adds to a case's seconds");
    ok(!mw_emulation_on_sample(&ch, &huge, 0) && mw_emulation_seconds(&ch, &huge, 0) == 1e6 / rate,
       "emulation: a case past the budget, not sampled, is counted at the budget");
    ok(mw_emulation_on_sample(&ch, &sampled, 0) &&
           mw_emulation_seconds(&ch, &sampled, 0) == 1e8 / rate,
       "emulation: a case on a sample may take the sample budget's seconds");
    ch.emulation_sample_budget = 0;
    ok(mw_emulation_sample_budget(&ch) == 1e6 && mw_emulation_seconds(&ch, &sampled, 0) == 1e6 / rate,
       "emulation: without a sample budget of its own, a sample's is the chapter's budget");
}

/* mw_case_for: a fixed op replaces the case's, MW_OP_FROM_CASE keeps it,
 * MW_OP_FROM_CASE_WITH(f) keeps it with f's bits set. */
static void test_case_for(void)
{
    mw_case full = {.op = 0}, causal = {.op = 1};
    ok(mw_case_for(&causal, 0).op == 0 && mw_case_for(&full, 2).op == 2,
       "mw_case_for: a version's own op replaces the case's");
    ok(mw_case_for(&causal, MW_OP_FROM_CASE).op == 1 && mw_case_for(&full, MW_OP_FROM_CASE).op == 0,
       "mw_case_for: MW_OP_FROM_CASE keeps the case's op");
    ok(mw_case_for(&causal, MW_OP_FROM_CASE_WITH(2)).op == 3 &&
           mw_case_for(&full, MW_OP_FROM_CASE_WITH(2)).op == 2,
       "mw_case_for: MW_OP_FROM_CASE_WITH(2) keeps the case's op and sets bit 2");
    ok(mw_op_from_case(MW_OP_FROM_CASE) && mw_op_from_case(MW_OP_FROM_CASE_WITH(2)) &&
           !mw_op_from_case(0) && !mw_op_from_case(1),
       "mw_op_from_case: true for both forms, false for a fixed op");
}

/* Logs shaped as compute-sanitizer 2025 writes them, the check's own
 * lines among its findings. */
/* The marker make writes for a version that needs a newer GPU than the
 * build's: its line is the reason check gives for each skipped case. */
static void test_skip_marker(void)
{
    char dir[] = "/tmp/mw-test-skip-XXXXXX", path[256], why[512];
    ok(mkdtemp(dir) != NULL, "temp dir");
    ok(!mw_skip_marker(dir, "03_flash_bf16", why, sizeof why), "no marker: not skipped");
    snprintf(path, sizeof path, "%s/03_flash_bf16.skip", dir);
    FILE *fp = fopen(path, "w");
    fputs("needs sm_80 or newer (mma.sync with bf16); built for sm_75\n", fp);
    fclose(fp);
    ok(mw_skip_marker(dir, "03_flash_bf16", why, sizeof why), "a marker: skipped");
    is_str(why, "needs sm_80 or newer (mma.sync with bf16); built for sm_75",
           "the reason is the marker's line, without its newline");
    ok(!mw_skip_marker(dir, "02_flash", why, sizeof why),
       "another version's marker is not its own");
    fp = fopen(path, "w");
    fclose(fp);
    ok(mw_skip_marker(dir, "03_flash_bf16", why, sizeof why) && strstr(why, "older GPU"),
       "an empty marker still skips, with a reason");
    unlink(path);
    rmdir(dir);
}

static void test_sanitize_parse(void)
{
    char path[512];
    mw_sanitize_finding f;
    snprintf(path, sizeof path, "%s/sanitize/memcheck.log", data_dir);
    ok(mw_sanitize_parse(path, &f) == 1, "sanitize: memcheck's finding is found");
    is_str(f.kind, "Invalid __global__ read of size 4 bytes", "sanitize: what it is");
    is_str(f.where, "add_naive_kernel in 01_naive.cu:14", "sanitize: kernel, file and line");
    is_str(f.file, "01_naive", "sanitize: the version whose file it is");
    is_str(f.who, "thread (1,0,0) in block (0,0,0)", "sanitize: thread and block");
    ok(strstr(f.address, "is out of bounds") != NULL, "sanitize: the address line");
    is_str(f.during, "01_naive     edge     n=1", "sanitize: the case it ran, not the one before");
    snprintf(path, sizeof path, "%s/sanitize/initcheck.log", data_dir);
    ok(mw_sanitize_parse(path, &f) == 1, "sanitize: initcheck's finding is found");
    is_str(f.kind, "Uninitialized __global__ memory read of size 4 bytes", "sanitize: initcheck's kind");
    is_str(f.where, "softmax_fused_kernel in 02_fused.cu:57", "sanitize: a path without folders");
    is_str(f.during, "02_fused       shape    rows=2 cols=1", "sanitize: its case");
    snprintf(path, sizeof path, "%s/sanitize/clean.log", data_dir);
    ok(mw_sanitize_parse(path, &f) == 0, "sanitize: a clean run has no finding");
    ok(mw_sanitize_parse("/nonexistent/log", &f) == 0, "sanitize: no log, no finding");
}

/* Cases set against a limit (mw_case.at) take the GPU's limit in floats
 * plus their delta, in the dim they name; fixed cases are copied as they
 * are; the label says which limit and the delta. An A100's 48 KiB and
 * 163 KiB stand in for a GPU other than the H100 the table is written for. */
static void test_cases_at_limits(void)
{
    const mw_case cases[] = {
        {.group = "fixed", .dim = {7, 1000}},
        {.group = "smem", .dim = {7, 12289}, .at = {.limit = MW_LIMIT_SMEM_DEFAULT, .dim = 1, .delta = 1}},
        {.group = "smem", .dim = {7, 58080}, .at = {.limit = MW_LIMIT_SMEM_OPTIN, .dim = 1, .delta = -32}},
    };
    const mw_gpu_limits a100 = {.smem_default = 48 << 10, .smem_optin = 163 << 10};
    ok(mw_cases_at_limits(cases, 3) == 2, "two of the three cases are set against a limit");
    mw_case *r = mw_cases_resolve(cases, 3, &a100);
    ok(r && r[0].dim[1] == 1000 && r[1].dim[1] == 12289 && r[2].dim[1] == 41728 - 32 &&
           r[2].dim[0] == 7,
       "resolved: fixed dims kept, 12288 + 1 and the A100's 41728 - 32 floats");
    char text[128];
    mw_dim_at_limit_label(&r[2], text, sizeof text);
    ok(strcmp(text, " [smem: 41728 floats, the opt-in maximum 163 KiB per block, -32]") == 0,
       "the label names the opt-in limit, its floats and the delta");
    mw_dim_at_limit_label(&r[0], text, sizeof text);
    ok(text[0] == '\0', "a fixed case has no limit label");
    free(r);
}

int main(int argc, char **argv)
{
    if (argc > 1)
        data_dir = argv[1];
    test_case_for();
    test_nan_policy();
    test_add_tolerance();
    test_diagnosis();
    test_stats();
    test_parallel();
    test_mismatch_merge();
    test_csv();
    test_csv_reader();
    test_ncu_sample();
    test_ncu_segments();
    test_roof_cache();
    test_generator();
    test_bf16_round();
    test_case_bytes();
    test_cases_at_limits();
    test_sanitize_parse();
    test_skip_marker();
    test_emulation_seconds();
    return done_testing();
}
