/* rubric.h: how a submission's results become points.
 *
 * A rubric file (chapters/NN-name/rubric is the default; an instructor's
 * file overrides it) has lines:
 *   group NAME POINTS                     points for a group of cases, split
 *                                         evenly over its cases (all versions)
 *   sanitize POINTS                       compute-sanitizer finds nothing and
 *                                         the small cases pass under it
 *   performance POINTS VERSION SIZE FULL_AT
 *                                         only when every case passes: full
 *                                         points at t <= FULL_AT * t_ref, else
 *                                         POINTS * FULL_AT * t_ref / t
 * and # comments. A group worth 0 points must say why in a comment (on its
 * line or the line above), and every group of a chapter's cases (and
 * `hidden`, with hidden cases) must be named: a group the rubric leaves
 * out would be worth nothing without anyone deciding so. Pure C,
 * unit-tested. */
#ifndef MW_RUBRIC_H
#define MW_RUBRIC_H

#include <stddef.h>

#define MW_RUBRIC_MAX 32

typedef struct mw_rubric {
    int ngroups;
    char group[MW_RUBRIC_MAX][32];
    double group_points[MW_RUBRIC_MAX];
    double sanitize_points;
    double perf_points;
    char perf_version[64];
    double perf_size;
    double perf_full_at;
} mw_rubric;

/* 0, or -1 with "FILE:LINE: what" in err. */
int mw_rubric_load(const char *path, mw_rubric *r, char *err, size_t errlen);

/* 1 when the rubric has a `group GROUP` line (points or an explicit 0). */
int mw_rubric_names(const mw_rubric *r, const char *group);

/* The groups of groups[0..n) the rubric does not name, quoted and joined
 * by ", " into out; returns how many. */
int mw_rubric_unnamed(const mw_rubric *r, const char *const *groups, int n, char *out,
                      size_t len);

/* Case counts of one group in a submission's results. */
typedef struct mw_group_tally {
    char name[32];
    int passed, total;
} mw_group_tally;

/* Counts one case with status STATUS ("pass", "fail", "error", "todo",
 * "skip") in its group's tally. A skipped case (the GPU could not hold it)
 * is skipped for everyone and counts in no tally: it costs no one a point. */
void mw_rubric_tally(mw_group_tally *g, const char *status);

/* Points for one group: its rubric points times the share of cases passed;
 * the batch refuses a rubric that leaves a group of the cases unnamed. */
double mw_rubric_group_score(const mw_rubric *r, const mw_group_tally *g, double *max);

/* Performance points: 0 unless every case passed and both times are known;
 * a flagged student time (side stream, faster than the roof, wrong when
 * timed) earns 0. */
double mw_rubric_perf_score(const mw_rubric *r, int all_passed, double t_student, double t_ref,
                            const char *flag);

#endif
