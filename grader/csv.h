/* csv.h: writing and reading the project's CSV files.
 *
 * Every data file has a header row. Fields are quoted only when they hold a
 * comma, a quote or a newline (quotes doubled inside), as RFC 4180 says.
 * Files are written to "<path>.tmp" and renamed on close, so a crash never
 * leaves half a file. Pure C, unit-tested. */
#ifndef MW_CSV_H
#define MW_CSV_H

#include <stdio.h>

typedef struct mw_csv {
    FILE *fp;
    char path[4096];
    char tmp[4200];
    int fields_in_row;
} mw_csv;

/* Opens `path` for writing (creating parent folders) and writes the header,
 * a comma-separated list of names. Returns 0, or -1 with a message. */
int mw_csv_open(mw_csv *c, const char *path, const char *header);
void mw_csv_str(mw_csv *c, const char *s);
/* A number with up to `digits` significant digits; NaN writes an empty field. */
void mw_csv_num(mw_csv *c, double v, int digits);
/* The double a reader of the file gets back for mw_csv_num(v, digits):
 * what is decided from a written number is then decided the same from
 * the file (build/tools/mw-facts) as when it was written (the bench). */
double mw_csv_rounded(double v, int digits);
void mw_csv_end_row(mw_csv *c);
/* Flushes, closes and renames into place. Returns 0 or -1. */
int mw_csv_close(mw_csv *c);
/* Drops the temporary file (on error paths). */
void mw_csv_abort(mw_csv *c);

/* Writes `s` to fp as one CSV field (quoted if needed). */
void mw_csv_write_field(FILE *fp, const char *s);

/* Splits one CSV line into at most `max` fields, in place (quotes removed,
 * doubled quotes undone). Returns the field count. */
int mw_csv_split(char *line, char **fields, int max);

/* The index of column `name` among a header's n fields, or -1: readers
 * find columns by name, so that a column added later moves nothing. */
int mw_csv_column(char *const *header, int n, const char *name);

/* mkdir -p. Returns 0 or -1. */
int mw_mkdirs(const char *path);

#endif
