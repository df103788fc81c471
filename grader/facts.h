/* facts.h: what a bench run's rows mean, decided once, in C.
 *
 * Some of bench.csv's numbers follow from its other columns: whether a
 * row's time counts (its flag), which library row it is compared with and
 * its "vs library" ratio, the chapter's roof, the measured value of the
 * row's roof and what the roof table says of that roof (its unit, what its
 * rate counts, how plots and captions name it). They are decided here and
 * nowhere else: the bench writes them as bench.csv's last columns and
 * prints its terminal table from them (grader/bench.c); build/tools/mw-facts
 * decides them from a bench.csv's own columns (grader/tools/facts_tool.c);
 * the plots and the README tables read them from the file (plots/). Pure
 * C, unit-tested (tests/unit/test_facts.c). */
#ifndef MW_FACTS_H
#define MW_FACTS_H

#include "csv.h"
#include "roofs_cache.h"

#include <stdio.h>

/* One row of a bench run, as bench.csv holds it: numbers rounded as they
 * are written (mw_csv_rounded), so that the file alone decides the same. */
typedef struct mw_bench_row {
    const char *impl;  /* "reference/02_chain" */
    const char *kind;  /* student, reference, library, roof */
    double size;
    int op;            /* the chapter operation it computes; -1 where the
                          field is empty (then every op matches) */
    double median_ms;  /* NaN where no time was taken */
    double gbps, gflops; /* for the terminal table only */
    const char *flag;  /* "" or the flag */
    const char *roof;  /* the roof it is measured against: "copy", "tf32", "bf16" */
    const char *shape; /* the case it ran, as the chapter describes it
                          ("B=4 H=16 N=1024 d=128"); NULL or "" where the
                          file has none (then every shape matches) */
} mw_bench_row;

/* What is decided about it. */
typedef struct mw_row_facts {
    int timed;                 /* its time counts: median and rates are written */
    const char *not_timed_why; /* "" when timed, else why not, in words */
    double roof_value;         /* its roof's measured value (the roof's unit); NaN unknown */
    const mw_roof *roof;       /* its roof's row of the table; NULL for a roof it lacks */
    int library;               /* the row it is compared with; -1 none */
    double vs_library;         /* that row's median over this one's, as written; NaN none */
} mw_row_facts;

/* The columns, in order, that follow bench.csv's `...,flag,op`, the last
 * of the file, so that mw-facts can copy the columns before them byte for
 * byte. roof_unit to roof_description are the row's roof's unit, what its
 * rate counts (mw_roof_counts_name), plot_label and description. */
#define MW_FACTS_COLUMNS                                                                  \
    "roof_value,chapter_roof,timed,not_timed_why,vs_library,vs_library_impl,roof_unit," \
    "roof_counts,roof_label,roof_description"
#define MW_FACTS_NCOLUMNS 10
/* Significant digits of vs_library in the file, and so everywhere. */
#define MW_FACTS_RATIO_DIGITS 6

/* Does a row with this flag keep its time? "" (NULL), side-stream and
 * faster-than-roof do; any other flag does not. */
int mw_flag_timed(const char *flag);
/* May a verdict rest on a time with this flag? Not on a faster-than-roof
 * one: the table shows it, flagged; the chapter's verdict leaves it out. */
int mw_flag_in_verdict(const char *flag);
/* Why a row with this flag has no time, in words ("" when it has one). */
const char *mw_flag_not_timed_why(const char *flag);

/* Decides facts[i] for each of rows[0..n): one bench run. c gives the
 * roofs' values (NULL: unknown), t the roof table they follow. */
void mw_facts_decide(const mw_bench_row *rows, int n, const mw_roof_values *c,
                     const mw_roof_table *t, mw_row_facts *facts);

/* The chapter's roof as a bench.csv without a chapter_roof column (one
 * made by hand) shows it: the roof of its first row that is not a
 * library's (a library may have its own, "tf32"); the first row's roof
 * when all are libraries; NULL when n is 0. Only a guess, as a version may
 * name a roof of its own ("bf16"): a file with the column says it there. */
const char *mw_facts_chapter_roof(const mw_bench_row *rows, int n);

/* Row i's MW_FACTS_COLUMNS fields, appended to csv's current row. */
void mw_facts_write(mw_csv *csv, const mw_bench_row *rows, const mw_row_facts *facts, int i,
                    const char *chapter_roof);

/* The terminal's table of the rows of this size: time, GB/s, GFLOP/s and
 * vs library, as the bench prints it under its title line. */
void mw_facts_print_table(FILE *fp, const mw_bench_row *rows, const mw_row_facts *facts, int n,
                          double size);

#endif
