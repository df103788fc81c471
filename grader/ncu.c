/* ncu.c: parse ncu's CSV rows into kernels, then into marker segments. */
#define _POSIX_C_SOURCE 200809L
#include "ncu.h"

#include "csv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

double mw_ncu_number(const char *s)
{
    char digits[64];
    size_t n = 0;
    for (; *s && n + 1 < sizeof digits; s++)
        if (*s != ',')
            digits[n++] = *s;
    digits[n] = '\0';
    char *end;
    double v = strtod(digits, &end);
    return (n == 0 || *end != '\0') ? NAN : v;
}

/* Column positions, found from the header row by name. */
typedef struct columns {
    int id, name, grid, metric, value, count;
} columns;

static int column_of(char **fields, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(fields[i], name) == 0)
            return i;
    return -1;
}

static int read_header(char **fields, int n, columns *c)
{
    c->id = column_of(fields, n, "ID");
    c->name = column_of(fields, n, "Kernel Name");
    c->grid = column_of(fields, n, "Grid Size");
    c->metric = column_of(fields, n, "Metric Name");
    c->value = column_of(fields, n, "Metric Value");
    c->count = n;
    return c->id >= 0 && c->name >= 0 && c->grid >= 0 && c->metric >= 0 && c->value >= 0;
}

/* Returns the kernel with this id, appending it if new. */
static mw_ncu_kernel *kernel_for(mw_ncu_kernel **list, int *count, int *cap, int id)
{
    if (*count > 0 && (*list)[*count - 1].id == id)
        return &(*list)[*count - 1];
    if (*count == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        mw_ncu_kernel *grown = realloc(*list, (size_t)*cap * sizeof **list);
        if (!grown)
            return NULL;
        *list = grown;
    }
    mw_ncu_kernel *k = &(*list)[(*count)++];
    memset(k, 0, sizeof *k);
    k->id = id;
    k->dram_read = k->dram_write = k->time_ns = NAN;
    return k;
}

static void store_metric(mw_ncu_kernel *k, const char *metric, double v)
{
    if (strcmp(metric, "dram__bytes_read.sum") == 0)
        k->dram_read = v;
    else if (strcmp(metric, "dram__bytes_write.sum") == 0)
        k->dram_write = v;
    else if (strcmp(metric, "gpu__time_duration.sum") == 0)
        k->time_ns = v;
}

int mw_ncu_parse(FILE *fp, mw_ncu_kernel **out)
{
    char *line = NULL;
    size_t len = 0;
    char *fields[64];
    columns col;
    int have_header = 0, count = 0, cap = 0;
    mw_ncu_kernel *list = NULL;

    while (getline(&line, &len, fp) != -1) {
        if (line[0] != '"')
            continue; /* warnings, ==PROF== lines, the program's output */
        int n = mw_csv_split(line, fields, 64);
        if (!have_header) {
            have_header = read_header(fields, n, &col);
            continue;
        }
        if (n < col.count)
            continue;
        mw_ncu_kernel *k = kernel_for(&list, &count, &cap, atoi(fields[col.id]));
        if (!k)
            break;
        snprintf(k->name, sizeof k->name, "%s", fields[col.name]);
        k->grid_x = strtol(fields[col.grid] + (fields[col.grid][0] == '('), NULL, 10);
        store_metric(k, fields[col.metric], mw_ncu_number(fields[col.value]));
    }
    free(line);
    *out = list;
    return have_header ? count : -1;
}

static int is_marker(const mw_ncu_kernel *k)
{
    return strncmp(k->name, "mw_marker", 9) == 0;
}

static double add_known(double sum, double v)
{
    return isnan(v) ? sum : sum + v;
}

int mw_ncu_segments(const mw_ncu_kernel *kernels, int count, mw_ncu_segment **out)
{
    mw_ncu_segment *segs = calloc((size_t)count + 1, sizeof *segs);
    int nseg = 0;
    mw_ncu_segment *open = NULL;
    for (int i = 0; segs && i < count; i++) {
        const mw_ncu_kernel *k = &kernels[i];
        if (is_marker(k)) {
            /* The marker that closes segment k repeats k; any other opens one. */
            if (open && open->k == k->grid_x) {
                open = NULL;
            } else {
                open = &segs[nseg++];
                open->k = k->grid_x;
            }
            continue;
        }
        if (!open)
            continue;
        open->kernels++;
        open->dram_read = add_known(open->dram_read, k->dram_read);
        open->dram_write = add_known(open->dram_write, k->dram_write);
        open->time_ns = add_known(open->time_ns, k->time_ns);
    }
    *out = segs;
    return segs ? nseg : -1;
}
