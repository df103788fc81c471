/* facts.c: the facts of a bench run's rows (facts.h), and the terminal
 * table printed from them. */
#define _POSIX_C_SOURCE 200809L
#include "facts.h"

#include <math.h>
#include <string.h>

/* The flags a row may carry and what each means for its time. Those that
 * keep it say why not to trust it; the others mean there is nothing to
 * trust (see docs/methodology.md, bench.csv's flag column). A time faster
 * than the roof allows is shown, flagged, but no verdict rests on it. */
static const struct {
    const char *flag;
    int timed;
    int in_verdict;
    const char *why; /* why it has no time */
} flags[] = {
    {"", 1, 1, ""},
    {"side-stream", 1, 1, ""},      /* timed, with the side stream's time added */
    {"faster-than-roof", 1, 0, ""}, /* timed; the time is suspect, the flag says so */
    {"wrong", 0, 0, "wrong answer or not loaded"},
    {"not-implemented", 0, 0, "not implemented"},
    {"no-memory", 0, 0, "its workspace does not fit in GPU memory"},
    {"wrong-when-timed", 0, 0, "wrong output after timing"},
};

static int flag_index(const char *flag)
{
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        if (strcmp(flags[i].flag, flag ? flag : "") == 0)
            return (int)i;
    return -1;
}

int mw_flag_timed(const char *flag)
{
    int i = flag_index(flag);
    return i >= 0 && flags[i].timed;
}

int mw_flag_in_verdict(const char *flag)
{
    int i = flag_index(flag);
    return i >= 0 && flags[i].in_verdict;
}

/* An unknown flag is a row the bench did not time as it does today. */
const char *mw_flag_not_timed_why(const char *flag)
{
    int i = flag_index(flag);
    return i >= 0 ? flags[i].why : "unknown flag";
}

/* A row's time counts when its flag keeps it and there is one: a file
 * whose row lost its median (edited by hand) is not taken as timed. */
static void decide_timed(const mw_bench_row *r, mw_row_facts *f)
{
    f->timed = mw_flag_timed(r->flag) && r->median_ms > 0;
    f->not_timed_why = f->timed ? ""
                       : mw_flag_timed(r->flag) ? "no time recorded"
                                                : mw_flag_not_timed_why(r->flag);
}

static int same_shape(const mw_bench_row *a, const mw_bench_row *b)
{
    return !a->shape || !b->shape || !*a->shape || !*b->shape || strcmp(a->shape, b->shape) == 0;
}

/* The library row computing what row i computes: the first of the run at
 * its size and shape with the same op (two libraries of chapter 02 compute
 * two different chains, each row is compared with its own; chapter 05's
 * d = 64 and d = 128 sweeps share their sizes, not their shapes). None for
 * a roof row: it does other work (a copy moves 8 bytes per element, not
 * 12). */
static int library_of(const mw_bench_row *rows, int n, int i)
{
    if (strcmp(rows[i].kind, "roof") == 0)
        return -1;
    for (int s = 0; s < n; s++)
        if (strcmp(rows[s].kind, "library") == 0 && rows[s].size == rows[i].size &&
            rows[s].op == rows[i].op && same_shape(&rows[s], &rows[i]))
            return s;
    return -1;
}

void mw_facts_decide(const mw_bench_row *rows, int n, const mw_roof_values *c,
                     const mw_roof_table *t, mw_row_facts *facts)
{
    for (int i = 0; i < n; i++)
        decide_timed(&rows[i], &facts[i]);
    for (int i = 0; i < n; i++) {
        mw_row_facts *f = &facts[i];
        f->roof_value = c ? mw_roof_value(c, t, rows[i].roof) : NAN;
        f->roof = mw_roof_find(t, rows[i].roof);
        f->library = library_of(rows, n, i);
        f->vs_library = NAN;
        /* Rounded as the file holds it: the terminal, the file and the
         * tables made from the file then show the same number. */
        if (f->library >= 0 && f->timed && facts[f->library].timed)
            f->vs_library = mw_csv_rounded(rows[f->library].median_ms / rows[i].median_ms,
                                           MW_FACTS_RATIO_DIGITS);
    }
}

const char *mw_facts_chapter_roof(const mw_bench_row *rows, int n)
{
    for (int i = 0; i < n; i++)
        if (strcmp(rows[i].kind, "library") != 0)
            return rows[i].roof;
    return n > 0 ? rows[0].roof : NULL;
}

/* What the table says of a row's roof, so that the plots and tables read
 * its unit, what "speed" counts and its names instead of knowing roofs by
 * name: blank for a roof the table lacks. */
static void write_roof(mw_csv *csv, const mw_roof *roof)
{
    mw_csv_str(csv, roof ? roof->unit : "");
    mw_csv_str(csv, roof ? mw_roof_counts_name(roof->counts) : "");
    mw_csv_str(csv, roof ? roof->plot_label : "");
    mw_csv_str(csv, roof ? roof->description : "");
}

void mw_facts_write(mw_csv *csv, const mw_bench_row *rows, const mw_row_facts *facts, int i,
                    const char *chapter_roof)
{
    const mw_row_facts *f = &facts[i];
    mw_csv_num(csv, f->roof_value, 6);
    mw_csv_str(csv, chapter_roof);
    mw_csv_num(csv, f->timed, 1);
    mw_csv_str(csv, f->not_timed_why);
    mw_csv_num(csv, f->vs_library, MW_FACTS_RATIO_DIGITS);
    mw_csv_str(csv, f->library >= 0 ? rows[f->library].impl : "");
    write_roof(csv, f->roof);
}

static void print_row(FILE *fp, const mw_bench_row *r, const mw_row_facts *f)
{
    if (!f->timed)
        fprintf(fp, "  %-28s %12s %s", r->impl, "(not timed)", f->not_timed_why);
    /* A roof row does other work: its speed, not a ratio, is what it
     * contributes, and its FLOPs are not the chapter's. */
    else if (strcmp(r->kind, "roof") == 0)
        fprintf(fp, "  %-28s %9.4f ms %10.1f %12s %10s", r->impl, r->median_ms, r->gbps, "-",
                "-");
    else if (isnan(f->vs_library)) /* no library computes this, or none timed */
        fprintf(fp, "  %-28s %9.4f ms %10.1f %12.1f %10s", r->impl, r->median_ms, r->gbps,
                r->gflops, "-");
    else
        fprintf(fp, "  %-28s %9.4f ms %10.1f %12.1f %9.2fx", r->impl, r->median_ms, r->gbps,
                r->gflops, f->vs_library);
    /* A time kept with a flag (side-stream, faster-than-roof) says so. */
    if (f->timed && r->flag && r->flag[0])
        fprintf(fp, " %s", r->flag);
    fputc('\n', fp);
}

void mw_facts_print_table(FILE *fp, const mw_bench_row *rows, const mw_row_facts *facts, int n,
                          double size)
{
    fprintf(fp, "  %-28s %12s %10s %12s %10s\n", "implementation", "median", "GB/s", "GFLOP/s",
            "vs library");
    for (int i = 0; i < n; i++)
        if (rows[i].size == size)
            print_row(fp, &rows[i], &facts[i]);
}
