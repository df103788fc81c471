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

/* A field's number as mw_csv_num wrote it: an empty field is NaN. */
double mw_csv_number(const char *field);

/* The index of column `name` among a header's n fields, or -1: readers
 * find columns by name, so that a column added later moves nothing. */
int mw_csv_column(char *const *header, int n, const char *name);

/* Reading: a CSV file a row at a time from a stream the caller opened
 * (and closes), its header kept split in `header`. Lines of blanks alone
 * are skipped. */
#define MW_CSV_MAX_FIELDS 64
typedef struct mw_csv_reader {
    FILE *fp;
    char *line;                       /* the current line as written */
    char *copy;                       /* its split copy, which f[] points into */
    size_t line_cap, copy_cap;
    char *header_copy;                /* the header, split: header[] points into it */
    char *header[MW_CSV_MAX_FIELDS];
    int nheader;
    char *f[MW_CSV_MAX_FIELDS];
    int nf;                           /* f[]'s fields: the current row's */
    int lineno;                       /* the current line's, the header's 1 */
} mw_csv_reader;

/* Reads the header. 0, or -1 when the stream holds no line (or memory ran
 * out). Either way mw_csv_reader_end frees what the reader holds. */
int mw_csv_reader_start(mw_csv_reader *r, FILE *fp);
/* col[i] = the header's column named names[i], for each of the n names;
 * returns the fields a row must have to hold them all (1 + the largest
 * index), or -1 - i for the first name the header lacks. */
int mw_csv_reader_columns(const mw_csv_reader *r, const char *const *names, int n, int *col);
/* The next row: 1 with line, f[] and nf set, 0 at the end, -1 when memory
 * ran out. */
int mw_csv_reader_next(mw_csv_reader *r);
/* Frees what the reader holds; the stream stays open. */
void mw_csv_reader_end(mw_csv_reader *r);

/* mkdir -p. Returns 0 or -1. */
int mw_mkdirs(const char *path);

#endif
