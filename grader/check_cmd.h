/* check_cmd.h: the check command. */
#ifndef MW_CHECK_CMD_H
#define MW_CHECK_CMD_H

#include "mw.h"

typedef struct mw_check_opts {
    const char *lib_dir;      /* build/<src>/<chapter> */
    const char *src_label;    /* "exercises/01-vector-add", for messages */
    const char *only_version; /* EX=02: versions whose file starts with this */
    uint64_t seed;
    double timeout_s;         /* per case */
    double timeout_per_gib;   /* and this many seconds more per GiB of the case's buffers */
    double below_bytes;       /* only the cases of fewer bytes (0: any; make mutants) */
    double from_bytes;        /* only the cases of at least this many bytes (0: any) */
    int small;                /* only small cases (sanitizers) */
    int one_per_shape;        /* with small: one case per launch shape (racecheck) */
    int smallest_first;       /* each version's cases, smallest first (make mutants) */
    int no_fork;              /* run in-process (sanitizers) */
    int required_only;        /* leave out optional versions (the batch's sanitizer) */
    int exact_views;          /* no guard bands: each view allocated exactly (sanitizers) */
    const char *results_path; /* per-case CSV for the batch grader, or NULL */
    int first_cases;          /* with smallest_first: only each version's first N (0: all) */
    int quick_sanitize;       /* end with memcheck and initcheck on the smallest cases
                                 (sanitize_step.h; make check) */
    const char *self;         /* the chapter program, which that step runs again */
} mw_check_opts;

/* Exit codes: 0 pass, 1 wrong answer, 2 CUDA error/crash/timeout,
 * 77 not implemented or no GPU. Last line: "N passed, N failed". */
int mw_cmd_check(const mw_chapter *ch, const mw_check_opts *opt);

#endif
