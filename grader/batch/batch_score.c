/* batch_score.c: a graded submission's points, from the files the grader's
 * own process wrote: check.csv into cases and group tallies (a skipped case
 * counts in no group), the sanitizer step, and the performance points from
 * perf.csv against the reference timed in the same batch. Columns are
 * found by name. See batch.c for the steps around it. */
#define _GNU_SOURCE
#include "batch.h"
#include "csv.h"
#include "rubric.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void log_path(char *out, size_t len, const char *scratch, const char *name)
{
    snprintf(out, len, "%s/%s", scratch, name);
}

/* The group an optional version's cases are tallied under: no rubric gives
 * it points, and it blocks nothing. */
static const char optional_group[] = "optional";

static int is_optional(const context *cx, const char *version)
{
    for (int v = 0; v < cx->nversions; v++)
        if (strcmp(cx->versions[v], version) == 0)
            return cx->optional[v];
    return 0;
}

/* The columns of check.csv (check_cmd.c's write_results) this file reads. */
enum { CK_VERSION, CK_GROUP, CK_CASE, CK_STATUS, CK_DETAIL, CK_COUNT };
static const char *const check_columns[CK_COUNT] = {"version", "group", "case", "status",
                                                    "detail"};

/* Reads check.csv into the student's cases and group tallies; its columns
 * are found by name in its header. */
int read_check(const context *cx, const char *path, mw_student *s)
{
    FILE *fp = open_step_file(path);
    if (!fp)
        return -1;
    mw_csv_reader r;
    int cap = 0, col[CK_COUNT];
    /* need: the fields a row must have; negative when a column is missing */
    const int need = mw_csv_reader_start(&r, fp) == 0
                         ? mw_csv_reader_columns(&r, check_columns, CK_COUNT, col)
                         : -1;
    while (need >= 0 && mw_csv_reader_next(&r) > 0) {
        char *const *f = r.f;
        if (r.nf < need)
            continue;
        if (s->ncases == cap) {
            cap = cap ? 2 * cap : 64;
            s->cases = realloc(s->cases, (size_t)cap * sizeof *s->cases);
        }
        mw_case_result *c = &s->cases[s->ncases++];
        const char *version = f[col[CK_VERSION]];
        snprintf(c->version, sizeof c->version, "%s", version);
        snprintf(c->group, sizeof c->group, "%s",
                 is_optional(cx, version) ? optional_group : f[col[CK_GROUP]]);
        snprintf(c->shape, sizeof c->shape, "%s", f[col[CK_CASE]]);
        snprintf(c->status, sizeof c->status, "%s", f[col[CK_STATUS]]);
        c->detail = strdup(f[col[CK_DETAIL]]);
        int g = 0;
        while (g < s->ngroups && strcmp(s->groups[g].name, c->group) != 0)
            g++;
        if (g == s->ngroups && s->ngroups < MW_RUBRIC_MAX)
            snprintf(s->groups[s->ngroups++].name, sizeof s->groups[0].name, "%s", c->group);
        if (g < MW_RUBRIC_MAX)
            mw_rubric_tally(&s->groups[g], c->status);
    }
    mw_csv_reader_end(&r);
    fclose(fp);
    return 0;
}

static int any_status(const mw_student *s, const char *status);

/* Every case that ran passed (a case skipped for lack of GPU memory is
 * skipped for everyone, and blocks nothing). */
static int all_passed(const mw_student *s)
{
    return any_status(s, "pass") && !any_status(s, "fail") && !any_status(s, "error") &&
           !any_status(s, "todo");
}

/* Whether a case of a required version has this status: an optional
 * version's cases count for nothing, here as in the points. */
static int any_status(const mw_student *s, const char *status)
{
    for (int i = 0; i < s->ncases; i++)
        if (strcmp(s->cases[i].status, status) == 0 &&
            strcmp(s->cases[i].group, optional_group) != 0)
            return 1;
    return 0;
}

/* The student's, the reference's and the library's rows in perf.csv. */
static void read_perf(const context *cx, const char *path, mw_student *s, char *flag,
                      size_t flen)
{
    char want_student[96], want_ref[96];
    snprintf(want_student, sizeof want_student, "student/%s", cx->rubric.perf_version);
    snprintf(want_ref, sizeof want_ref, "reference/%s", cx->rubric.perf_version);
    /* The library row is the one computing the same operation, as the
     * bench decided it (column vs_library_impl, grader/facts.c): read the
     * file once for the names, once more for that row's time. */
    char want_lib[160] = "";
    FILE *fp = open_step_file(path);
    char line[2048], *f[32];
    /* Columns by name (bench.c's header); vs_library_impl may be absent. */
    int nh = fp && fgets(line, sizeof line, fp) ? mw_csv_split(line, f, 32) : 0;
    int impl = mw_csv_column(f, nh, "impl"), median = mw_csv_column(f, nh, "median_ms"),
        flag_col = mw_csv_column(f, nh, "flag"), lib_col = mw_csv_column(f, nh, "vs_library_impl");
    int need = impl > median ? impl : median;
    need = flag_col > need ? flag_col : need;
    if (impl < 0 || median < 0 || flag_col < 0)
        need = -1;
    for (int pass = 0; pass < 2 && fp && need >= 0; pass++) {
        rewind(fp);
        if (!fgets(line, sizeof line, fp)) /* the header */
            break;
        while (fgets(line, sizeof line, fp)) {
            int n = mw_csv_split(line, f, 32);
            if (n <= need)
                continue;
            double ms = *f[median] ? strtod(f[median], NULL) : NAN;
            if (pass == 1) {
                if (want_lib[0] && strcmp(f[impl], want_lib) == 0)
                    s->t_lib = ms;
                continue;
            }
            int is_student = strcmp(f[impl], want_student) == 0;
            if (is_student) {
                s->t_student = ms;
                snprintf(flag, flen, "%s", f[flag_col]);
            } else if (strcmp(f[impl], want_ref) == 0) {
                s->t_ref = ms;
            }
            /* the student's row names it; the reference's, when it does not */
            if ((is_student || (!want_lib[0] && strcmp(f[impl], want_ref) == 0)) && lib_col >= 0 &&
                n > lib_col)
                snprintf(want_lib, sizeof want_lib, "%s", f[lib_col]);
        }
    }
    if (fp)
        fclose(fp);
}

void score_performance(const context *cx, const char *scratch, mw_student *s)
{
    const mw_rubric *r = &cx->rubric;
    s->perf_max = r->perf_points;
    if (r->perf_points <= 0) {
        snprintf(s->perf_note, sizeof s->perf_note, "no performance points in this rubric");
        return;
    }
    if (!all_passed(s)) {
        snprintf(s->perf_note, sizeof s->perf_note,
                 "not timed: performance counts only when every case passes");
        return;
    }
    char out[PATH_MAX + 16], log[PATH_MAX + 16], size[64], lib[PATH_MAX + 8], ref[PATH_MAX];
    char results[PATH_MAX];
    snprintf(out, sizeof out, "%s/perf.csv", scratch);
    log_path(log, sizeof log, scratch, "perf.log");
    snprintf(size, sizeof size, "%.0f", r->perf_size);
    snprintf(lib, sizeof lib, "%s/lib", scratch);
    snprintf(ref, sizeof ref, "%s/build/solutions/%s", cx->root, cx->opt.chapter);
    snprintf(results, sizeof results, "%s/results", cx->root);
    /* The submission, sandboxed; then the reference solution, as the
     * instructor, right after it on the same GPU: user nobody never needs
     * to read the solutions. */
    char *argv[] = {(char *)cx->grader, "perf", "--student", lib, "--results", results,
                    "--size", size, "--out", out, NULL};
    int rc = sandbox_run(cx, scratch, argv, log, 600);
    char ref_out[PATH_MAX + 16];
    snprintf(ref_out, sizeof ref_out, "%s/perf-reference.csv", scratch);
    char *ref_argv[] = {(char *)cx->grader, "perf", "--reference", ref, "--results", results,
                        "--size", size, "--out", ref_out, NULL};
    context trusted = *cx;
    trusted.drop = 0;
    int ref_rc = sandbox_run(&trusted, scratch, ref_argv, log, 600);
    char flag[64] = "", unused[64];
    read_perf(cx, out, s, flag, sizeof flag);
    read_perf(cx, ref_out, s, unused, sizeof unused);
    if (ref_rc != 0)
        rc = ref_rc;
    s->perf_score = mw_rubric_perf_score(r, 1, s->t_student, s->t_ref, flag);
    if (rc != 0)
        snprintf(s->perf_note, sizeof s->perf_note, "timing failed (%s): see perf.log",
                 rc == -1 ? "timed out" : "error");
    else if (flag[0])
        snprintf(s->perf_note, sizeof s->perf_note,
                 "%s at %s elements: flagged %s: no performance points (see docs/instructors.md)",
                 r->perf_version, size, flag);
    else
        snprintf(s->perf_note, sizeof s->perf_note,
                 "%s at %s elements: %.4f ms against the reference's %.4f ms (%.2fx); full "
                 "points at or under %.2fx",
                 r->perf_version, size, s->t_student, s->t_ref, s->t_student / s->t_ref,
                 r->perf_full_at);
}

void score_sanitizer(const context *cx, const char *scratch, mw_student *s)
{
    s->sanitize_max = cx->sanitizer ? cx->rubric.sanitize_points : 0;
    if (!cx->sanitizer) {
        snprintf(s->sanitize_note, sizeof s->sanitize_note,
                 "compute-sanitizer is not installed on the grading machine: not counted");
        return;
    }
    if (cx->rubric.sanitize_points <= 0)
        return;
    if (any_status(s, "todo") || any_status(s, "error") || !any_status(s, "pass")) {
        snprintf(s->sanitize_note, sizeof s->sanitize_note,
                 "not run: every version must build, be implemented and run without a CUDA "
                 "error first");
        return;
    }
    char log[PATH_MAX + 16], lib[PATH_MAX + 8], script[PATH_MAX + 32];
    log_path(log, sizeof log, scratch, "sanitize.log");
    snprintf(lib, sizeof lib, "%s/lib", scratch);
    snprintf(script, sizeof script, "%s/grader/mk/sanitize.sh", cx->root);
    char *argv[] = {"/bin/sh", script, (char *)cx->grader, lib, s->name, "--required-only", NULL};
    int rc = sandbox_run(cx, scratch, argv, log, 900);
    s->sanitize_score = rc == 0 ? cx->rubric.sanitize_points : 0;
    snprintf(s->sanitize_note, sizeof s->sanitize_note, "%s",
             rc == 0    ? "memcheck, racecheck, initcheck and synccheck found nothing"
             : rc == -1 ? "timed out under compute-sanitizer: see sanitize.log"
                        : "compute-sanitizer found problems, or the cases failed under it: see "
                          "sanitize.log");
}

