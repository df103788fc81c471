/* rubric.c: parse a rubric and score with it. */
#define _POSIX_C_SOURCE 200809L
#include "rubric.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

static int fail(char *err, size_t errlen, const char *path, int line, const char *what)
{
    snprintf(err, errlen, "%s:%d: %s", path, line, what);
    return -1;
}

int mw_rubric_load(const char *path, mw_rubric *r, char *err, size_t errlen)
{
    memset(r, 0, sizeof *r);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return fail(err, errlen, path, 0, "cannot read the rubric");
    char line[512];
    int lineno = 0, status = 0, comment_above = 0;
    while (status == 0 && fgets(line, sizeof line, fp)) {
        lineno++;
        char *p = line + strspn(line, " \t");
        char name[64], version[64];
        double points, size, full_at;
        int was_comment = comment_above;
        comment_above = *p == '#';
        if (*p == '#' || *p == '\n' || *p == '\0')
            continue;
        if (sscanf(p, "group %31s %lf", name, &points) == 2 && points >= 0) {
            if (r->ngroups == MW_RUBRIC_MAX)
                status = fail(err, errlen, path, lineno, "too many groups");
            else if (mw_rubric_names(r, name))
                status = fail(err, errlen, path, lineno, "this group is named twice");
            else if (points == 0 && !was_comment && !strchr(p, '#'))
                /* A group worth nothing is a decision a reader must see
                 * argued, or it reads as a forgotten line. */
                status = fail(err, errlen, path, lineno,
                              "a group worth 0 points needs a # comment saying why, on "
                              "its line or the line above");
            else {
                snprintf(r->group[r->ngroups], sizeof r->group[0], "%s", name);
                r->group_points[r->ngroups++] = points;
            }
        } else if (sscanf(p, "sanitize %lf", &points) == 1 && points >= 0) {
            r->sanitize_points = points;
        } else if (sscanf(p, "performance %lf %63s %lf %lf", &points, version, &size, &full_at) ==
                       4 &&
                   points >= 0 && size > 0 && full_at >= 1) {
            r->perf_points = points;
            snprintf(r->perf_version, sizeof r->perf_version, "%s", version);
            r->perf_size = size;
            r->perf_full_at = full_at;
        } else {
            status = fail(err, errlen, path, lineno,
                          "expected 'group NAME POINTS', 'sanitize POINTS' or 'performance "
                          "POINTS VERSION SIZE FULL_AT' (FULL_AT >= 1)");
        }
    }
    fclose(fp);
    return status;
}

void mw_rubric_tally(mw_group_tally *g, const char *status)
{
    if (strcmp(status, "skip") == 0)
        return;
    g->total++;
    g->passed += strcmp(status, "pass") == 0;
}

int mw_rubric_names(const mw_rubric *r, const char *group)
{
    for (int i = 0; i < r->ngroups; i++)
        if (strcmp(r->group[i], group) == 0)
            return 1;
    return 0;
}

int mw_rubric_unnamed(const mw_rubric *r, const char *const *groups, int n, char *out,
                      size_t len)
{
    int count = 0;
    size_t used = 0;
    out[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (mw_rubric_names(r, groups[i]))
            continue;
        int w = snprintf(out + used, len - used, "%s'%s'", count ? ", " : "", groups[i]);
        used = w > 0 && used + (size_t)w < len ? used + (size_t)w : used;
        count++;
    }
    return count;
}

double mw_rubric_group_score(const mw_rubric *r, const mw_group_tally *g, double *max)
{
    *max = 0;
    for (int i = 0; i < r->ngroups; i++)
        if (strcmp(r->group[i], g->name) == 0 && g->total > 0) {
            *max = r->group_points[i];
            return r->group_points[i] * g->passed / g->total;
        }
    return 0;
}

double mw_rubric_perf_score(const mw_rubric *r, int all_passed, double t_student, double t_ref,
                            const char *flag)
{
    if (!all_passed || (flag && flag[0]) || !(t_student > 0) || !(t_ref > 0))
        return 0;
    double share = r->perf_full_at * t_ref / t_student;
    return r->perf_points * (share < 1 ? share : 1);
}
