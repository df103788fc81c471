/* sanitize_step.h: make check's last step, compute-sanitizer's memcheck and
 * initcheck over the smallest cases of each version.
 *
 * A read past the end of a view that lands in the check's guard band, or a
 * read of memory nothing wrote whose value ends up unused, leaves every
 * output right: `make check` would pass it, and only `make sanitize`, which
 * a student may never run, would say. So where compute-sanitizer is found
 * (mw_which: the PATH, then the toolkit), `make check` (mw-chapter check
 * --quick-sanitize) ends by running the chapter program again under memcheck, then initcheck, in-process, on
 * the MW_SANITIZE_CASES smallest cases of each version, each view allocated
 * exactly (no guard bands, so one element past the end is outside the
 * allocation). A tool that finds nothing is one more passed line; a finding
 * is a failed line with the tool's location (kernel, file:line, thread and
 * block) and the case it ran. racecheck and synccheck, slower, stay in
 * `make sanitize`. */
#ifndef MW_SANITIZE_STEP_H
#define MW_SANITIZE_STEP_H

#include <stdint.h>

/* How many of each version's smallest cases the step runs: the edge cases
 * (1, 2 and 3 elements in chapter 01) where a grid rounded up reads past
 * the end, a few seconds under each tool. */
#define MW_SANITIZE_CASES 4

/* One tool's verdict. */
typedef struct mw_sanitize_finding {
    char kind[200];    /* "Invalid __global__ read of size 4 bytes" */
    char where[300];   /* "add_naive_kernel in 01_naive.cu:14" */
    char file[64];     /* "01_naive": the version whose file it is, if any */
    char who[120];     /* "thread (1,0,0) in block (0,0,0)" */
    char address[200]; /* the tool's line on the address, if it gave one */
    char during[200];  /* the check line of the case that was running */
} mw_sanitize_finding;

/* Reads a tool's log (compute-sanitizer's lines interleaved with the
 * check's): 1 and the first finding in f when the tool reported one, else
 * 0. Pure text, unit-tested. */
int mw_sanitize_parse(const char *log, mw_sanitize_finding *f);

/* The check the step runs again under each tool: the chapter program,
 * the same libraries, label, version filter and seed as the check's. */
typedef struct mw_sanitize_target {
    const char *self;         /* the chapter program */
    const char *lib_dir;      /* build/<src>/<chapter> */
    const char *src_label;    /* for messages, or NULL */
    const char *only_version; /* EX=02, or NULL */
    uint64_t seed;
} mw_sanitize_target;

/* Runs both tools as described; prints their lines and adds them to
 * *passed and *failed. Prints one note and counts nothing when
 * compute-sanitizer is missing or a tool could not finish. */
void mw_sanitize_step(const mw_sanitize_target *target, int *passed, int *failed,
                      int version_width);

#endif
