/* batch_output.c: what mw-batch leaves in OUT, and what it reads back from
 * an earlier run.
 *
 * students/<name>/ holds either a grade (score.csv, written last, report.md
 * and results.json) or not-graded.txt, whose first line says why there is
 * none; never both, so that a re-run, the gradebook and the instructor read
 * one answer. A student's old files are removed before the new ones are
 * written, score.csv first: a batch killed in between leaves a student
 * without a score, whom the next run grades again. */
#define _GNU_SOURCE
#include "batch.h"
#include "csv.h"
#include "gradebook.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const step_logs[] = {"unpack.log", "build.log",    "check.log", "check.csv",
                                        "sanitize.log", "perf.log", "perf.csv", "steps.csv"};
enum { NLOGS = sizeof step_logs / sizeof step_logs[0] };

static void student_dir(const context *cx, const char *name, char *dir, size_t len)
{
    snprintf(dir, len, "%s/students/%s", cx->opt.out, name);
}

static int exists(const char *dir, const char *file)
{
    char path[PATH_MAX + 300];
    snprintf(path, sizeof path, "%s/%s", dir, file);
    return access(path, F_OK) == 0;
}

/* A grade is all of the student's files, no not-graded.txt, and a score
 * of this student with a finite total and maximum: anything less was cut
 * short, and is graded again. */
static int read_genuine(const char *dir, const char *name, mw_student *s)
{
    char path[PATH_MAX + 300];
    snprintf(path, sizeof path, "%s/score.csv", dir);
    if (mw_read_score(path, s) != 0 || !exists(dir, "report.md") ||
        !exists(dir, "results.json") || exists(dir, "not-graded.txt"))
        return -1;
    int genuine = strcmp(s->name, name) == 0 && isfinite(s->total) && isfinite(s->max);
    return genuine ? 0 : -1;
}

int already_graded(const context *cx, const char *name)
{
    char dir[PATH_MAX + 160];
    mw_student s;
    student_dir(cx, name, dir, sizeof dir);
    return read_genuine(dir, name, &s) == 0;
}

static void clear_outputs(const char *dir)
{
    const char *results[] = {"score.csv", "report.md", "results.json", "not-graded.txt"};
    char path[PATH_MAX + 300];
    for (int i = 0; i < 4; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, results[i]);
        unlink(path);
    }
    for (int i = 0; i < NLOGS; i++) {
        snprintf(path, sizeof path, "%s/%s", dir, step_logs[i]);
        unlink(path);
    }
}

void version_build_log(const char *scratch, const char *version, char *out, size_t len)
{
    snprintf(out, len, "%s/build-%s.log", scratch, version);
}

void gather_build_logs(const context *cx, const char *scratch)
{
    char log[PATH_MAX + 16], one[PATH_MAX + 96];
    snprintf(log, sizeof log, "%s/build.log", scratch);
    FILE *all = NULL;
    for (int v = 0; v < cx->nversions; v++) {
        version_build_log(scratch, cx->versions[v], one, sizeof one);
        if (access(one, F_OK) != 0 || (!all && !(all = write_step_file(log, 1))))
            continue;
        append_step_file(one, all);
        unlink(one);
    }
    if (all)
        fclose(all);
}

/* A fresh students/<name>/ with the step logs of this run. */
static void start_student(const context *cx, const char *scratch, const char *name, char *dir,
                          size_t len)
{
    gather_build_logs(cx, scratch); /* a child killed while it built left them apart */
    student_dir(cx, name, dir, len);
    mw_mkdirs(dir);
    clear_outputs(dir);
    for (int i = 0; i < NLOGS; i++) {
        char from[PATH_MAX + 32], to[PATH_MAX + 300];
        snprintf(from, sizeof from, "%s/%s", scratch, step_logs[i]);
        snprintf(to, sizeof to, "%s/%s", dir, step_logs[i]);
        copy_step_file(from, to, 0644);
    }
}

static void write_notes(FILE *fp, const mw_notes *notes)
{
    for (int i = 0; i < notes->n; i++)
        fprintf(fp, "- `%s`: %s\n", notes->file[i], notes->note[i]);
}

/* The report's last section: what was handed in and not graded, so that a
 * student whose 01_Naive.cu was "not submitted" sees why. */
static void append_notes(const context *cx, const char *report, const mw_notes *notes)
{
    FILE *fp = notes->n ? fopen(report, "a") : NULL;
    if (!fp)
        return;
    fputs("\n## Files not graded\n\nOnly the chapter's exercise files are graded (", fp);
    for (int v = 0; v < cx->nversions; v++)
        fprintf(fp, "%s`%s.cu`", v ? ", " : "", cx->versions[v]);
    fputs("); these were handed in too:\n\n", fp);
    write_notes(fp, notes);
    fclose(fp);
}

void save_graded(const context *cx, const char *scratch, const mw_student *s,
                 const mw_notes *notes)
{
    char dir[PATH_MAX + 160], path[PATH_MAX + 200];
    start_student(cx, scratch, s->name, dir, sizeof dir);
    snprintf(path, sizeof path, "%s/report.md", dir);
    mw_write_report(path, s, cx->opt.chapter);
    append_notes(cx, path, notes);
    snprintf(path, sizeof path, "%s/results.json", dir);
    mw_write_results_json(path, s);
    /* Last: its presence means "graded" to a re-run. */
    snprintf(path, sizeof path, "%s/score.csv", dir);
    mw_write_score(path, s);
}

void save_not_graded(const context *cx, const char *scratch, const char *name, const char *why,
                     const mw_notes *notes)
{
    char dir[PATH_MAX + 160], path[PATH_MAX + 200], tmp[PATH_MAX + 210];
    start_student(cx, scratch, name, dir, sizeof dir);
    snprintf(path, sizeof path, "%s/not-graded.txt", dir);
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *fp = fopen(tmp, "w");
    if (!fp)
        return;
    fprintf(fp, "%s\n\nNo score was recorded for %s. Run the same `make grade` command again "
                "(once the cause above is fixed) to grade it; the logs of this attempt are "
                "beside this file.\n",
            why, name);
    if (notes->n) {
        fputs("\nFiles handed in and not graded:\n", fp);
        write_notes(fp, notes);
    }
    if (fclose(fp) != 0 || rename(tmp, path) != 0)
        unlink(tmp);
}

/* A row with no points, whose status says why: a spreadsheet imports an
 * empty cell as "no grade", where a 0 would be a grade. */
static void not_graded_row(mw_student *s, const char *name, const char *why)
{
    memset(s, 0, sizeof *s);
    snprintf(s->name, sizeof s->name, "%s", name);
    snprintf(s->status, sizeof s->status, "NOT GRADED: %s", why);
    s->total = s->max = s->sanitize_score = s->perf_score = NAN;
    s->t_student = s->t_ref = s->t_lib = NAN;
}

/* 0 when students/<name>/ holds a grade or says why it holds none. */
static int gradebook_row(const char *dir, const char *name, mw_student *s)
{
    if (read_genuine(dir, name, s) == 0)
        return 0;
    char path[PATH_MAX + 300], why[200], line[200];
    snprintf(path, sizeof path, "%s/not-graded.txt", dir);
    first_line(path, why, sizeof why);
    mw_student old;
    snprintf(path, sizeof path, "%s/score.csv", dir);
    if (!why[0] && mw_read_score(path, &old) == 0) {
        snprintf(line, sizeof line, "%.150s", old.status);
        snprintf(why, sizeof why, "an earlier run recorded no genuine score (%s)", line);
    }
    if (!why[0])
        return -1;
    not_graded_row(s, name, why);
    return 0;
}

/* The gradebook's rows, as they are read. */
typedef struct rows {
    mw_student *all;
    int n, cap, ungraded;
} rows;

/* students/<name>/'s row; for a student of the class that OUT holds nothing
 * of (in_class), a row "not graded yet". */
static void add_row(rows *r, const char *dir, const char *name, int in_class)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 32;
        r->all = realloc(r->all, (size_t)r->cap * sizeof *r->all);
    }
    char path[PATH_MAX + 200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    if (gradebook_row(path, name, &r->all[r->n]) == 0)
        r->ungraded += !isfinite(r->all[r->n++].total);
    else if (in_class) {
        not_graded_row(&r->all[r->n++], name, "not graded yet");
        r->ungraded++;
    }
}

static int listed(const rows *r, const char *name)
{
    for (int i = 0; i < r->n; i++)
        if (strcmp(r->all[i].name, name) == 0)
            return 1;
    return 0;
}

/* Every students/<name>/ in OUT, then each student of c (when given) not
 * among them; writes gradebook.csv and returns how many rows hold no
 * grade. */
static int gradebook_of(const context *cx, const mw_class *c)
{
    char dir[PATH_MAX + 16], path[PATH_MAX + 200];
    snprintf(dir, sizeof dir, "%s/students", cx->opt.out);
    rows r = {0};
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.')
            add_row(&r, dir, e->d_name, 0);
    if (d)
        closedir(d);
    for (int i = 0; c && i < c->n; i++)
        if (!listed(&r, c->subs[i].student))
            add_row(&r, dir, c->subs[i].student, 1);
    snprintf(path, sizeof path, "%s/gradebook.csv", cx->opt.out);
    if (mw_write_gradebook(path, r.all, r.n, &cx->rubric) != 0)
        fprintf(stderr, "mw-batch: cannot write %s\n", path);
    free(r.all);
    return r.ungraded;
}

void write_gradebook(const context *cx)
{
    gradebook_of(cx, NULL);
}

int write_class_gradebook(const context *cx, const mw_class *c)
{
    return gradebook_of(cx, c);
}

void not_graded_reason(const context *cx, const char *name, char *why, size_t len)
{
    char path[PATH_MAX + 200];
    snprintf(path, sizeof path, "%s/students/%s/not-graded.txt", cx->opt.out, name);
    first_line(path, why, len);
}

void clear_not_graded(const context *cx, const char *name)
{
    char path[PATH_MAX + 200];
    snprintf(path, sizeof path, "%s/students/%s/not-graded.txt", cx->opt.out, name);
    unlink(path);
}

int report_class(const context *cx, int n, int graded, int kept, int not_graded, int no_gpu,
                 long seconds)
{
    printf("wrote %s/gradebook.csv (%d submissions: %d graded, %d already graded, %d not "
           "graded; %ld s)\n",
           cx->opt.out, n, graded, kept, not_graded, seconds);
    fflush(stdout);
    if (not_graded) {
        fprintf(stderr,
                "mw-batch: %d submission(s) not graded and given no score (NOT GRADED above; "
                "why in students/<name>/not-graded.txt): fix that and run the same command "
                "again to grade them\n",
                not_graded);
        return no_gpu ? 77 : 2;
    }
    return 0;
}
