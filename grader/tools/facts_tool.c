/* facts_tool.c: build/tools/mw-facts, the facts of a bench.csv (facts.h)
 * decided from the file alone, by the module the bench decides them with.
 *
 *   mw-facts [--roof-cache FILE] BENCH.csv [OUT.csv]   write the facts columns
 *   mw-facts --table BENCH.csv                         the bench's terminal table
 *   mw-facts --roofs ROOFS.csv                         the roofs, as the plots draw them
 *
 * The first form writes BENCH.csv (or OUT.csv) with MW_FACTS_COLUMNS after
 * its own columns, which are copied byte for byte; where the file already
 * has the facts columns (all of them, last, in order) they are decided
 * again. So the facts of a bench.csv made by hand (the tests' made-up
 * runs) are the bench's, and those the bench wrote can be checked against
 * facts.c without the GPU that measured them (t0420). What the file
 * cannot tell:
 *   - roof_value: the bench does not record the roof values it used; they are
 *     read from FILE (default: roofs.csv two folders up, as
 *     results/<gpu>/<chapter>/bench.csv has it), which is right as long as
 *     the GPU's roofs were not measured again since; blank without one.
 *   - chapter_roof: where the file has the column (the bench wrote it),
 *     its first row's value is kept; a file without it does not say, and
 *     the chapter's roof is the roof of its first non-library row
 *     (mw_facts_chapter_roof).
 *   - roof_unit to roof_description: from the roof table this tool is
 *     built with (grader/roofs.c); blank for a roof it lacks.
 *   - the terminal's GB/s and GFLOP/s (--table) are the file's, rounded to
 *     6 digits; the bench prints them at full precision.
 * The third form writes to stdout the roof table this tool is built with,
 * with the values measured in ROOFS.csv (blank where it lacks one, or
 * where the file does not exist): name, role (how the roofline draws it:
 * mw_roof_role), counts, unit, value, and the words of the plots' legends.
 * plots/plot.sh draws every roof from it, none by name.
 * Exit status: 0 done, 1 bad input, 2 usage. */
#define _POSIX_C_SOURCE 200809L
#include "facts.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLUMNS MW_CSV_MAX_FIELDS

/* Where the columns a row is read by are in the file. */
typedef struct columns {
    int impl, kind, size, median, flag, roof, op, gbps, gflops;
    int chapter_roof; /* among the facts columns the file has; -1 where absent */
    int shape;        /* -1 where absent (a file made by hand): every shape matches */
} columns;

/* One file in memory: each data line twice, as written and split. */
typedef struct bench_file {
    char *header;
    char **raw, **split;
    mw_bench_row *rows;
    mw_row_facts *facts;
    int n, cap;
    int own;   /* columns of the file before the facts' */
    columns c;
    const char *chapter_roof; /* the first row's chapter_roof; NULL where absent */
} bench_file;

/* Length of the first k fields of a line as written (quotes kept). */
static size_t prefix_len(const char *line, int k)
{
    size_t i = 0;
    int quoted = 0;
    for (int f = 0; line[i] && line[i] != '\n' && line[i] != '\r'; i++) {
        if (line[i] == '"')
            quoted = !quoted;
        else if (line[i] == ',' && !quoted && ++f == k)
            return i;
    }
    return i;
}

/* Are h[0..n) the facts columns, all of them, in order? */
static int facts_columns(char *const *h, int n)
{
    char names[] = MW_FACTS_COLUMNS, *facts[MW_FACTS_NCOLUMNS];
    int count = mw_csv_split(names, facts, MW_FACTS_NCOLUMNS);
    if (n != count)
        return 0;
    for (int i = 0; i < n; i++)
        if (strcmp(h[i], facts[i]) != 0)
            return 0;
    return 1;
}

/* Reads the header: the columns the facts need, and where the file's own
 * columns end (at the facts columns, which must be last). */
static int read_header(bench_file *b, const mw_csv_reader *r, const char *path)
{
    char *const *h = r->header;
    const int count = r->nheader;
    columns c = {mw_csv_column(h, count, "impl"),   mw_csv_column(h, count, "kind"),
                 mw_csv_column(h, count, "size"),   mw_csv_column(h, count, "median_ms"),
                 mw_csv_column(h, count, "flag"),   mw_csv_column(h, count, "roof"),
                 mw_csv_column(h, count, "op"),     mw_csv_column(h, count, "gbps"),
                 mw_csv_column(h, count, "gflops"), mw_csv_column(h, count, "chapter_roof"),
                 mw_csv_column(h, count, "shape")};
    b->c = c;
    int first = mw_csv_column(h, count, "roof_value");
    b->own = first < 0 ? count : first;
    int bad = c.impl < 0 || c.kind < 0 || c.size < 0 || c.median < 0 || c.flag < 0 ||
              c.roof < 0 || c.op < 0 || c.gbps < 0 || c.gflops < 0 ||
              (first >= 0 && !facts_columns(h + first, count - first));
    if (bad)
        fprintf(stderr, "mw-facts: %s: not a bench.csv header (impl, kind, size, median_ms, "
                        "gbps, gflops, roof, flag and op needed; facts columns, if any, all of "
                        "them, last)\n", path);
    return bad ? -1 : 0;
}

static int add_row(bench_file *b, char *line, const char *path)
{
    if (b->n == b->cap) {
        b->cap = b->cap ? 2 * b->cap : 64;
        b->raw = realloc(b->raw, (size_t)b->cap * sizeof *b->raw);
        b->split = realloc(b->split, (size_t)b->cap * sizeof *b->split);
        b->rows = realloc(b->rows, (size_t)b->cap * sizeof *b->rows);
        if (!b->raw || !b->split || !b->rows)
            return -1;
    }
    char *f[MAX_COLUMNS];
    b->raw[b->n] = line;
    b->split[b->n] = strdup(line);
    int n = mw_csv_split(b->split[b->n], f, MAX_COLUMNS);
    if (n < b->own) {
        fprintf(stderr, "mw-facts: %s: row %d has fewer than %d columns\n", path, b->n + 2,
                b->own);
        return -1;
    }
    const columns *c = &b->c;
    if (b->n == 0 && c->chapter_roof >= 0 && c->chapter_roof < n)
        b->chapter_roof = f[c->chapter_roof];
    b->rows[b->n++] = (mw_bench_row){.impl = f[c->impl],
                                     .kind = f[c->kind],
                                     .size = mw_csv_number(f[c->size]),
                                     .op = *f[c->op] ? atoi(f[c->op]) : -1,
                                     .median_ms = mw_csv_number(f[c->median]),
                                     .gbps = mw_csv_number(f[c->gbps]),
                                     .gflops = mw_csv_number(f[c->gflops]),
                                     .flag = f[c->flag],
                                     .roof = f[c->roof],
                                     .shape = c->shape >= 0 && c->shape < n ? f[c->shape] : NULL};
    return 0;
}

static int read_file(bench_file *b, const char *path)
{
    FILE *fp = fopen(path, "r");
    mw_csv_reader r;
    memset(b, 0, sizeof *b);
    if (!fp || mw_csv_reader_start(&r, fp) != 0 || !(b->header = strdup(r.line))) {
        fprintf(stderr, "mw-facts: cannot read %s\n", path);
        if (fp)
            mw_csv_reader_end(&r), fclose(fp);
        return -1;
    }
    int bad = read_header(b, &r, path), got = 0;
    while (!bad && (got = mw_csv_reader_next(&r)) > 0) {
        char *line = strdup(r.line);
        bad = !line || add_row(b, line, path);
    }
    bad = bad || got < 0;
    mw_csv_reader_end(&r);
    fclose(fp);
    return bad;
}

/* The chapter's roof as the bench wrote it: no row's roof tells it for
 * sure, as a version may name its own. A file without the column (made by
 * hand) has it guessed from its rows. */
static const char *file_chapter_roof(const bench_file *b)
{
    if (b->chapter_roof && b->chapter_roof[0])
        return b->chapter_roof;
    return mw_facts_chapter_roof(b->rows, b->n);
}

/* The file's own columns as written, then the facts. */
static int write_file(const bench_file *b, const char *out)
{
    mw_csv csv;
    char header[4096];
    snprintf(header, sizeof header, "%.*s,%s", (int)prefix_len(b->header, b->own), b->header,
             MW_FACTS_COLUMNS);
    if (mw_csv_open(&csv, out, header) != 0)
        return -1;
    const char *chapter_roof = file_chapter_roof(b);
    for (int i = 0; i < b->n; i++) {
        fprintf(csv.fp, "%.*s", (int)prefix_len(b->raw[i], b->own), b->raw[i]);
        csv.fields_in_row = b->own;
        mw_facts_write(&csv, b->rows, b->facts, i, chapter_roof);
        mw_csv_end_row(&csv);
    }
    return mw_csv_close(&csv);
}

/* roofs.csv two folders up from the bench.csv, where results/ keeps it. */
static void default_roof_cache(const char *bench, char *path, size_t len)
{
    snprintf(path, len, "%s", bench);
    for (int up = 0; up < 2; up++) {
        char *slash = strrchr(path, '/');
        if (slash)
            *slash = '\0';
        else
            snprintf(path, len, "..");
    }
    size_t used = strlen(path);
    snprintf(path + used, len - used, "/roofs.csv");
}

static void print_table(const bench_file *b)
{
    double largest = -INFINITY;
    for (int i = 0; i < b->n; i++)
        if (b->rows[i].size > largest)
            largest = b->rows[i].size;
    mw_facts_print_table(stdout, b->rows, b->facts, b->n, largest);
}

static int usage(void)
{
    fprintf(stderr, "usage: mw-facts [--roof-cache FILE] BENCH.csv [OUT.csv]\n"
                    "       mw-facts [--roof-cache FILE] --table BENCH.csv\n"
                    "       mw-facts --roofs ROOFS.csv\n");
    return 2;
}

int main(int argc, char **argv)
{
    const char *roof_cache_path = NULL;
    int table = 0, a = 1;
    if (argc == 3 && strcmp(argv[1], "--roofs") == 0) {
        mw_roof_values c;
        mw_roof_cache_load(argv[2], &c); /* a roof it lacks is NaN: a blank value */
        return mw_roofs_write_csv(stdout, &mw_roofs, &c) == 0 && fflush(stdout) == 0 ? 0 : 1;
    }
    for (; a < argc && argv[a][0] == '-' && argv[a][1] == '-'; a++)
        if (strcmp(argv[a], "--table") == 0)
            table = 1;
        else if (strcmp(argv[a], "--roof-cache") == 0 && a + 1 < argc)
            roof_cache_path = argv[++a];
        else
            return usage();
    if (argc - a < 1 || argc - a > (table ? 1 : 2))
        return usage();
    const char *in = argv[a], *out = argc - a == 2 ? argv[a + 1] : in;
    char found[4096];
    if (!roof_cache_path)
        default_roof_cache(in, found, sizeof found), roof_cache_path = found;
    mw_roof_values c;
    mw_roof_cache_load(roof_cache_path, &c); /* a roof it lacks is NaN: a blank value */
    bench_file b;
    if (read_file(&b, in) != 0)
        return 1;
    b.facts = calloc((size_t)b.n + 1, sizeof *b.facts);
    if (!b.facts)
        return 1;
    mw_facts_decide(b.rows, b.n, &c, &mw_roofs, b.facts);
    if (table) {
        print_table(&b);
        return 0;
    }
    return write_file(&b, out) == 0 ? 0 : 1;
}
