/* gradebook.c: the instructor's output files. */
#define _POSIX_C_SOURCE 200809L
#include "gradebook.h"

#include "csv.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void mw_student_free(mw_student *s)
{
    for (int i = 0; i < s->ncases; i++)
        free(s->cases[i].detail);
    free(s->cases);
    s->cases = NULL;
    s->ncases = 0;
}

void mw_student_total(mw_student *s)
{
    s->total = s->sanitize_score + s->perf_score;
    s->max = s->sanitize_max + s->perf_max;
    for (int i = 0; i < s->ngroups; i++) {
        s->total += s->group_score[i];
        s->max += s->group_max[i];
    }
}

/* A file written as "<path>.tmp", renamed into place by finish(). */
static FILE *start(const char *path, char *tmp, size_t len)
{
    snprintf(tmp, len, "%s.tmp", path);
    return fopen(tmp, "w");
}

static int finish(FILE *fp, const char *tmp, const char *path)
{
    int bad = ferror(fp);
    bad |= fclose(fp) != 0;
    if (bad || rename(tmp, path) != 0) {
        remove(tmp);
        return -1;
    }
    return 0;
}

static void kv(mw_csv *c, const char *key, const char *value)
{
    mw_csv_str(c, key);
    mw_csv_str(c, value);
    mw_csv_end_row(c);
}

static void kv_num(mw_csv *c, const char *key, double value)
{
    mw_csv_str(c, key);
    mw_csv_num(c, value, 8);
    mw_csv_end_row(c);
}

int mw_write_score(const char *path, const mw_student *s)
{
    mw_csv c;
    if (mw_csv_open(&c, path, "key,value") != 0)
        return -1;
    kv(&c, "student", s->name);
    kv(&c, "status", s->status);
    kv_num(&c, "total", s->total);
    kv_num(&c, "max", s->max);
    for (int i = 0; i < s->ngroups; i++) {
        char key[64];
        snprintf(key, sizeof key, "group:%s", s->groups[i].name);
        kv_num(&c, key, s->group_score[i]);
        snprintf(key, sizeof key, "max:%s", s->groups[i].name);
        kv_num(&c, key, s->group_max[i]);
    }
    kv_num(&c, "sanitize", s->sanitize_score);
    kv_num(&c, "max:sanitize", s->sanitize_max);
    kv_num(&c, "performance", s->perf_score);
    kv_num(&c, "max:performance", s->perf_max);
    kv_num(&c, "time_ms", s->t_student);
    kv_num(&c, "ref_ms", s->t_ref);
    kv_num(&c, "lib_ms", s->t_lib);
    return mw_csv_close(&c);
}

int mw_read_score(const char *path, mw_student *s)
{
    memset(s, 0, sizeof *s);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return -1;
    char line[1024], *f[4];
    while (fgets(line, sizeof line, fp)) {
        if (mw_csv_split(line, f, 4) < 2)
            continue;
        const char *k = f[0], *v = f[1];
        if (strcmp(k, "student") == 0)
            snprintf(s->name, sizeof s->name, "%s", v);
        else if (strcmp(k, "status") == 0)
            snprintf(s->status, sizeof s->status, "%s", v);
        else if (strcmp(k, "total") == 0)
            s->total = mw_csv_number(v);
        else if (strcmp(k, "max") == 0)
            s->max = mw_csv_number(v);
        else if (strncmp(k, "group:", 6) == 0 && s->ngroups < MW_RUBRIC_MAX) {
            snprintf(s->groups[s->ngroups].name, sizeof s->groups[0].name, "%s", k + 6);
            s->group_score[s->ngroups++] = mw_csv_number(v);
        } else if (strncmp(k, "max:", 4) == 0) {
            for (int i = 0; i < s->ngroups; i++)
                if (strcmp(s->groups[i].name, k + 4) == 0)
                    s->group_max[i] = mw_csv_number(v);
            if (strcmp(k + 4, "sanitize") == 0)
                s->sanitize_max = mw_csv_number(v);
            if (strcmp(k + 4, "performance") == 0)
                s->perf_max = mw_csv_number(v);
        } else if (strcmp(k, "sanitize") == 0)
            s->sanitize_score = mw_csv_number(v);
        else if (strcmp(k, "performance") == 0)
            s->perf_score = mw_csv_number(v);
        else if (strcmp(k, "time_ms") == 0)
            s->t_student = mw_csv_number(v);
        else if (strcmp(k, "ref_ms") == 0)
            s->t_ref = mw_csv_number(v);
        else if (strcmp(k, "lib_ms") == 0)
            s->t_lib = mw_csv_number(v);
    }
    fclose(fp);
    return s->name[0] ? 0 : -1;
}

static double group_points(const mw_student *s, const char *group)
{
    for (int i = 0; i < s->ngroups; i++)
        if (strcmp(s->groups[i].name, group) == 0)
            return s->group_score[i];
    return NAN;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(((const mw_student *)a)->name, ((const mw_student *)b)->name);
}

int mw_write_gradebook(const char *path, mw_student *students, int n, const mw_rubric *r)
{
    char header[2048] = "student,total,max";
    for (int g = 0; g < r->ngroups; g++) {
        strncat(header, ",", sizeof header - strlen(header) - 1);
        strncat(header, r->group[g], sizeof header - strlen(header) - 1);
    }
    strncat(header, ",sanitize,performance,time_ms,reference_ms,library_ms,status",
            sizeof header - strlen(header) - 1);
    qsort(students, (size_t)n, sizeof *students, by_name);
    mw_csv c;
    if (mw_csv_open(&c, path, header) != 0)
        return -1;
    for (int i = 0; i < n; i++) {
        const mw_student *s = &students[i];
        mw_csv_str(&c, s->name);
        mw_csv_num(&c, s->total, 6);
        mw_csv_num(&c, s->max, 6);
        for (int g = 0; g < r->ngroups; g++)
            mw_csv_num(&c, group_points(s, r->group[g]), 6);
        mw_csv_num(&c, s->sanitize_score, 6);
        mw_csv_num(&c, s->perf_score, 6);
        mw_csv_num(&c, s->t_student, 6);
        mw_csv_num(&c, s->t_ref, 6);
        mw_csv_num(&c, s->t_lib, 6);
        mw_csv_str(&c, s->status);
        mw_csv_end_row(&c);
    }
    return mw_csv_close(&c);
}

void mw_json_string(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(fp, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", fp);
        else if (*p < 0x20 || *p >= 0x7f)
            fprintf(fp, "\\u%04x", *p);
        else
            fputc(*p, fp);
    }
    fputc('"', fp);
}

/* A number for JSON: NaN and infinities are not JSON, so they become null. */
static void json_number(FILE *fp, double v)
{
    if (isfinite(v))
        fprintf(fp, "%.6g", v);
    else
        fputs("null", fp);
}

static void json_test(FILE *fp, const char *name, double score, double max, const char *output,
                      const char *visibility, int *first)
{
    fprintf(fp, "%s\n    {\"name\": ", *first ? "" : ",");
    *first = 0;
    mw_json_string(fp, name);
    fputs(", \"score\": ", fp);
    json_number(fp, score);
    fputs(", \"max_score\": ", fp);
    json_number(fp, max);
    fputs(", \"output\": ", fp);
    mw_json_string(fp, output);
    fputs(", \"visibility\": ", fp);
    mw_json_string(fp, visibility);
    fputs("}", fp);
}

/* The cases of one group, one line each with diagnostics, as one text. */
static char *group_output(const mw_student *s, const char *group)
{
    size_t cap = 256, len = 0;
    char *text = calloc(cap, 1);
    for (int i = 0; text && i < s->ncases; i++) {
        const mw_case_result *c = &s->cases[i];
        if (strcmp(c->group, group) != 0)
            continue;
        size_t need = strlen(c->version) + strlen(c->shape) + strlen(c->status) +
                      (c->detail ? strlen(c->detail) : 0) + 16;
        if (len + need >= cap) {
            cap = 2 * (len + need);
            char *grown = realloc(text, cap);
            if (!grown)
                break;
            text = grown;
        }
        len += (size_t)snprintf(text + len, cap - len, "%s %s %s%s%s\n", c->status, c->version,
                                c->shape, c->detail && *c->detail ? ": " : "",
                                c->detail ? c->detail : "");
    }
    return text;
}

int mw_write_results_json(const char *path, const mw_student *s)
{
    char tmp[4200];
    FILE *fp = start(path, tmp, sizeof tmp);
    if (!fp)
        return -1;
    fputs("{\n  \"score\": ", fp);
    json_number(fp, s->total);
    fputs(",\n  \"output\": ", fp);
    mw_json_string(fp, s->status);
    fputs(",\n  \"tests\": [", fp);
    int first = 1;
    for (int i = 0; i < s->ngroups; i++) {
        char *out = group_output(s, s->groups[i].name);
        char name[96];
        snprintf(name, sizeof name, "%s (%d of %d cases)", s->groups[i].name,
                 s->groups[i].passed, s->groups[i].total);
        int hidden = s->hidden_group[0] && strcmp(s->groups[i].name, s->hidden_group) == 0;
        json_test(fp, name, s->group_score[i], s->group_max[i], out,
                  hidden ? "after_published" : "visible", &first);
        free(out);
    }
    json_test(fp, "compute-sanitizer", s->sanitize_score, s->sanitize_max, s->sanitize_note,
              "visible", &first);
    json_test(fp, "performance", s->perf_score, s->perf_max, s->perf_note, "visible", &first);
    fputs("\n  ],\n  \"leaderboard\": [\n    {\"name\": \"time (ms)\", \"value\": ", fp);
    json_number(fp, s->t_student);
    fputs(", \"order\": \"asc\"}\n  ]\n}\n", fp);
    return finish(fp, tmp, path);
}

static void md_time(FILE *fp, const char *what, double ms)
{
    if (isfinite(ms))
        fprintf(fp, "| %s | %.4f ms |\n", what, ms);
    else
        fprintf(fp, "| %s | not timed |\n", what);
}

int mw_write_report(const char *path, const mw_student *s, const char *chapter)
{
    char tmp[4200];
    FILE *fp = start(path, tmp, sizeof tmp);
    if (!fp)
        return -1;
    fprintf(fp, "# %s: %s\n\n", chapter, s->name);
    fprintf(fp, "**%.1f of %.1f points.** %s\n\n", s->total, s->max, s->status);
    fputs("| part | cases passed | points |\n|---|--:|--:|\n", fp);
    for (int i = 0; i < s->ngroups; i++)
        fprintf(fp, "| %s | %d of %d | %.1f of %.1f |\n", s->groups[i].name, s->groups[i].passed,
                s->groups[i].total, s->group_score[i], s->group_max[i]);
    fprintf(fp, "| compute-sanitizer | | %.1f of %.1f |\n", s->sanitize_score, s->sanitize_max);
    fprintf(fp, "| performance | | %.1f of %.1f |\n\n", s->perf_score, s->perf_max);
    fprintf(fp, "## Performance\n\n%s\n\n| implementation | median time |\n|---|--:|\n",
            s->perf_note);
    md_time(fp, "yours", s->t_student);
    md_time(fp, "reference solution", s->t_ref);
    md_time(fp, "library", s->t_lib);
    fprintf(fp, "\n## compute-sanitizer\n\n%s\n\n## Cases that did not pass\n\n", s->sanitize_note);
    int shown = 0;
    for (int i = 0; i < s->ncases; i++) {
        const mw_case_result *c = &s->cases[i];
        if (strcmp(c->status, "pass") == 0)
            continue;
        int hidden = s->hidden_group[0] && strcmp(c->group, s->hidden_group) == 0;
        fprintf(fp, "- **%s** %s `%s` %s", c->status, c->version, c->group,
                hidden ? "(hidden case)" : c->shape);
        if (c->detail && *c->detail && !hidden)
            fprintf(fp, ": %s", c->detail);
        fputc('\n', fp);
        shown++;
    }
    if (!shown)
        fputs(s->ncases ? "None: every case passed.\n" : "No case was graded.\n", fp);
    return finish(fp, tmp, path);
}
