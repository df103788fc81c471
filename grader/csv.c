/* csv.c: CSV writer with atomic rename, a small splitter and a row reader. */
#define _POSIX_C_SOURCE 200809L
#include "csv.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int mw_mkdirs(const char *path)
{
    char buf[4096];
    size_t len = strlen(path);
    if (len == 0 || len >= sizeof buf)
        return -1;
    memcpy(buf, path, len + 1);
    for (char *p = buf + 1; *p; p++) {
        if (*p != '/')
            continue;
        *p = '\0';
        if (mkdir(buf, 0777) != 0 && errno != EEXIST)
            return -1;
        *p = '/';
    }
    if (mkdir(buf, 0777) != 0 && errno != EEXIST)
        return -1;
    return 0;
}

static int make_parent(const char *path)
{
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash || slash == dir)
        return 0;
    *slash = '\0';
    return mw_mkdirs(dir);
}

int mw_csv_open(mw_csv *c, const char *path, const char *header)
{
    memset(c, 0, sizeof *c);
    snprintf(c->path, sizeof c->path, "%s", path);
    snprintf(c->tmp, sizeof c->tmp, "%s.tmp", path);
    if (make_parent(path) != 0) {
        fprintf(stderr, "cannot create the folder for %s: %s\n", path, strerror(errno));
        return -1;
    }
    c->fp = fopen(c->tmp, "w");
    if (!c->fp) {
        fprintf(stderr, "cannot write %s: %s\n", c->tmp, strerror(errno));
        return -1;
    }
    fprintf(c->fp, "%s\n", header);
    return 0;
}

void mw_csv_write_field(FILE *fp, const char *s)
{
    if (!s)
        s = "";
    if (strpbrk(s, ",\"\n\r") == NULL) {
        fputs(s, fp);
        return;
    }
    fputc('"', fp);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', fp);
        fputc(*s, fp);
    }
    fputc('"', fp);
}

static void separator(mw_csv *c)
{
    if (c->fields_in_row++ > 0)
        fputc(',', c->fp);
}

void mw_csv_str(mw_csv *c, const char *s)
{
    separator(c);
    mw_csv_write_field(c->fp, s);
}

void mw_csv_num(mw_csv *c, double v, int digits)
{
    separator(c);
    if (!isnan(v))
        fprintf(c->fp, "%.*g", digits, v);
}

double mw_csv_rounded(double v, int digits)
{
    char text[64];
    if (isnan(v))
        return v;
    snprintf(text, sizeof text, "%.*g", digits, v);
    return strtod(text, NULL);
}

void mw_csv_end_row(mw_csv *c)
{
    fputc('\n', c->fp);
    c->fields_in_row = 0;
}

int mw_csv_close(mw_csv *c)
{
    if (!c->fp)
        return -1;
    int bad = ferror(c->fp);
    bad |= fclose(c->fp) != 0;
    c->fp = NULL;
    if (bad || rename(c->tmp, c->path) != 0) {
        fprintf(stderr, "cannot write %s: %s\n", c->path, strerror(errno));
        remove(c->tmp);
        return -1;
    }
    return 0;
}

void mw_csv_abort(mw_csv *c)
{
    if (c->fp)
        fclose(c->fp);
    c->fp = NULL;
    remove(c->tmp);
}

double mw_csv_number(const char *field)
{
    return *field ? strtod(field, NULL) : NAN;
}

int mw_csv_column(char *const *header, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(header[i], name) == 0)
            return i;
    return -1;
}

int mw_csv_split(char *line, char **fields, int max)
{
    int count = 0;
    char *src = line, *dst = line;
    line[strcspn(line, "\r\n")] = '\0';
    while (count < max) {
        fields[count++] = dst;
        if (*src == '"') {
            src++;
            while (*src) {
                if (*src == '"' && src[1] == '"') {
                    *dst++ = '"';
                    src += 2;
                } else if (*src == '"') {
                    src++;
                    break;
                } else {
                    *dst++ = *src++;
                }
            }
        }
        while (*src && *src != ',')
            *dst++ = *src++;
        if (*src != ',') {
            *dst = '\0';
            break;
        }
        src++;
        *dst++ = '\0';
    }
    return count;
}

/* Splits r->line into r->copy, r->f and r->nf. 0, or -1 out of memory. */
static int split_line(mw_csv_reader *r)
{
    size_t len = strlen(r->line) + 1;
    if (len > r->copy_cap) {
        char *copy = realloc(r->copy, len);
        if (!copy)
            return -1;
        r->copy = copy, r->copy_cap = len;
    }
    memcpy(r->copy, r->line, len);
    r->nf = mw_csv_split(r->copy, r->f, MW_CSV_MAX_FIELDS);
    return 0;
}

int mw_csv_reader_start(mw_csv_reader *r, FILE *fp)
{
    memset(r, 0, sizeof *r);
    r->fp = fp;
    if (getline(&r->line, &r->line_cap, fp) < 0 || !(r->header_copy = strdup(r->line))) {
        mw_csv_reader_end(r);
        return -1;
    }
    r->lineno = 1;
    r->nheader = mw_csv_split(r->header_copy, r->header, MW_CSV_MAX_FIELDS);
    return 0;
}

int mw_csv_reader_columns(const mw_csv_reader *r, const char *const *names, int n, int *col)
{
    int need = 0;
    for (int i = 0; i < n; i++) {
        if ((col[i] = mw_csv_column(r->header, r->nheader, names[i])) < 0)
            return -1 - i;
        need = col[i] >= need ? col[i] + 1 : need;
    }
    return need;
}

int mw_csv_reader_next(mw_csv_reader *r)
{
    while (getline(&r->line, &r->line_cap, r->fp) >= 0) {
        r->lineno++;
        if (r->line[strspn(r->line, " \t\r\n")] != '\0')
            return split_line(r) == 0 ? 1 : -1;
    }
    return 0;
}

void mw_csv_reader_end(mw_csv_reader *r)
{
    free(r->line);
    free(r->copy);
    free(r->header_copy);
    r->line = r->copy = r->header_copy = NULL;
    r->line_cap = r->copy_cap = 0;
}
