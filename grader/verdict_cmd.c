/* verdict_cmd.c: mw-chapter verdict DIR: the verdict make bench prints at
 * its end, from the bench.csv a run wrote (DIR = results/<gpu>/<chapter>,
 * this machine's or a committed run of another): a student without a GPU
 * reads the measured verdict of the machines that have results, and the
 * verdict's words are tested without one. The rows a verdict may rest on
 * are those make bench gives it: timed, with a flag facts.c lets in. */
#define _POSIX_C_SOURCE 200809L
#include "verdict_cmd.h"

#include "csv.h"
#include "facts.h"
#include "roofs_cache.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { COL_CHAPTER, COL_IMPL, COL_KIND, COL_SIZE, COL_MEDIAN, COL_GBPS, COL_GFLOPS, COL_TIMED,
       COL_FLAG, NCOLS };
static const char *const kColumns[NCOLS] = {"chapter", "impl",   "kind",  "size", "median_ms",
                                            "gbps",    "gflops", "timed", "flag"};

static double number_or_nan(const char *text)
{
    char *end;
    double v = strtod(text, &end);
    return *text && *end == '\0' ? v : NAN;
}

typedef struct verdict_rows {
    mw_result *r;
    int n, cap;
} verdict_rows;

static int add_row(verdict_rows *rows, char *const *f, const int *col)
{
    if (rows->n == rows->cap) {
        int cap = rows->cap ? 2 * rows->cap : 64;
        mw_result *r = realloc(rows->r, (size_t)cap * sizeof *r);
        if (!r)
            return -1;
        rows->r = r, rows->cap = cap;
    }
    const int counts = strcmp(f[col[COL_TIMED]], "1") == 0 && mw_flag_in_verdict(f[col[COL_FLAG]]);
    char *impl = strdup(f[col[COL_IMPL]]), *kind = strdup(f[col[COL_KIND]]);
    if (!impl || !kind) {
        free(impl), free(kind);
        return -1;
    }
    rows->r[rows->n++] = (mw_result){impl, kind, number_or_nan(f[col[COL_SIZE]]),
                                     counts ? number_or_nan(f[col[COL_MEDIAN]]) : NAN,
                                     counts ? number_or_nan(f[col[COL_GBPS]]) : NAN,
                                     counts ? number_or_nan(f[col[COL_GFLOPS]]) : NAN};
    return 0;
}

static void free_rows(verdict_rows *rows)
{
    for (int i = 0; i < rows->n; i++) {
        free((char *)rows->r[i].impl);
        free((char *)rows->r[i].kind);
    }
    free(rows->r);
}

/* The reader's row into rows, if it has the header's fields and is
 * ch's; 0, or -1 with a message. */
static int add_row_checked(const mw_chapter *ch, const mw_csv_reader *r, int need, const int *col,
                           const char *path, verdict_rows *rows)
{
    if (r->nf < need) {
        fprintf(stderr, "mw-chapter verdict: %s line %d has %d fields, the header %d\n", path,
                r->lineno, r->nf, need);
        return -1;
    }
    if (strcmp(r->f[col[COL_CHAPTER]], ch->id) != 0) {
        fprintf(stderr, "mw-chapter verdict: %s line %d is chapter %s's, not %s's\n", path,
                r->lineno, r->f[col[COL_CHAPTER]], ch->id);
        return -1;
    }
    if (add_row(rows, r->f, col) != 0) {
        fprintf(stderr, "mw-chapter verdict: out of memory\n");
        return -1;
    }
    return 0;
}

/* Every row of ch's, its fields found by name in the header; 0, or 2
 * with a message. */
static int read_rows(const mw_chapter *ch, FILE *fp, const char *path, verdict_rows *rows)
{
    mw_csv_reader r;
    int col[NCOLS];
    if (mw_csv_reader_start(&r, fp) != 0) {
        fprintf(stderr, "mw-chapter verdict: %s is empty\n", path);
        return 2;
    }
    const int need = mw_csv_reader_columns(&r, kColumns, NCOLS, col);
    int status = 0, got = 0;
    if (need < 0) {
        fprintf(stderr, "mw-chapter verdict: %s has no column '%s': not a bench.csv\n", path,
                kColumns[-1 - need]);
        status = 2;
    }
    while (status == 0 && (got = mw_csv_reader_next(&r)) > 0)
        if (add_row_checked(ch, &r, need, col, path, rows) != 0)
            status = 2;
    if (got < 0) {
        fprintf(stderr, "mw-chapter verdict: out of memory\n");
        status = 2;
    }
    mw_csv_reader_end(&r);
    return status;
}

int mw_cmd_verdict(const mw_chapter *ch, const char *dir)
{
    char path[4096], roofs[4096];
    if (snprintf(path, sizeof path, "%s/bench.csv", dir) >= (int)sizeof path ||
        snprintf(roofs, sizeof roofs, "%s/../roofs.csv", dir) >= (int)sizeof roofs) {
        fprintf(stderr, "mw-chapter verdict: path too long\n");
        return 2;
    }
    FILE *fp = fopen(path, "r");
    if (!fp) {
        fprintf(stderr, "mw-chapter verdict: no %s: run make bench CH=%.2s on a GPU first\n", path,
                ch->id);
        return 2;
    }
    verdict_rows rows = {0};
    int status = read_rows(ch, fp, path, &rows);
    fclose(fp);
    if (status == 0 && rows.n == 0) {
        fprintf(stderr, "mw-chapter verdict: %s holds no rows\n", path);
        status = 2;
    }
    if (status == 0) {
        /* Missing roofs are NaN: a verdict that compares with the copy
         * bandwidth leaves that comparison out. */
        mw_roof_values rv;
        mw_roof_cache_load(roofs, &rv);
        printf("%s: the verdict of %s\n", ch->title, path);
        ch->verdict(rows.r, rows.n, mw_roof_value(&rv, &mw_roofs, "copy"));
    }
    free_rows(&rows);
    return status;
}
