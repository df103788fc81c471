/* gradebook.h: a graded submission, and the files an instructor gets:
 * score.csv per student (what resume and the gradebook read back),
 * report.md, results.json (Gradescope's format) and gradebook.csv.
 * Every file is written to a temporary name and renamed. Pure C. */
#ifndef MW_GRADEBOOK_H
#define MW_GRADEBOOK_H

#include "rubric.h"

#include <stdio.h>

typedef struct mw_case_result {
    char version[32], group[32], shape[160], status[16];
    char *detail; /* the grader's diagnostics; malloc'd or NULL */
} mw_case_result;

typedef struct mw_student {
    char name[128];
    char status[256]; /* "graded", or what stopped it: "02_fast does not compile" */
    int ngroups;
    mw_group_tally groups[MW_RUBRIC_MAX];
    double group_score[MW_RUBRIC_MAX], group_max[MW_RUBRIC_MAX];
    double sanitize_score, sanitize_max;
    char sanitize_note[256];
    double perf_score, perf_max;
    double t_student, t_ref, t_lib; /* ms at the rubric's size; NaN when unknown */
    char perf_note[256];
    double total, max;
    int ncases;
    mw_case_result *cases;
    char hidden_group[32]; /* cases of this group are shown after publication */
} mw_student;

void mw_student_free(mw_student *s);
/* Adds up total and max from the parts. */
void mw_student_total(mw_student *s);

int mw_write_score(const char *path, const mw_student *s);
int mw_read_score(const char *path, mw_student *s);
int mw_write_report(const char *path, const mw_student *s, const char *chapter);
int mw_write_results_json(const char *path, const mw_student *s);
/* One row per student (sorted by name), one column per rubric part. */
int mw_write_gradebook(const char *path, mw_student *students, int n, const mw_rubric *r);

/* s as a JSON string, quoted and escaped (control and non-ASCII bytes as
 * \u00XX, so that the output is valid JSON whatever a diagnostic holds). */
void mw_json_string(FILE *fp, const char *s);

#endif
