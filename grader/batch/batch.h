/* batch.h: what the parts of mw-batch share: the batch's context, the
 * sandbox its steps run in (batch_sandbox.c), how a submission is turned
 * into files to grade (batch_stage.c), how its results become points
 * (batch_score.c), and what it writes to OUT (batch_output.c). See batch.c,
 * the driver, for the whole. */
#ifndef MW_BATCH_H
#define MW_BATCH_H

#include "batch_layout.h"
#include "gradebook.h"
#include "rubric.h"

#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#define MAX_VERSIONS 16

typedef struct options {
    char chapter[128];
    char submissions[PATH_MAX], out[PATH_MAX], hidden[PATH_MAX], rubric[PATH_MAX];
    double timeout_s; /* per case */
    double student_limit_s; /* --student-limit: a worker's child at most; 0: derived */
    int force;
    int list; /* --list: show what would be graded, and stop */
    /* One student (--student NAME, --student-index I over the sorted
     * class), the gradebook alone (--merge), the students a run would
     * grade (--pending), a student's time limit (--time-limit), or the
     * class on several GPUs (--gpus LIST). */
    char student[128];
    int student_index;   /* -1: none */
    char ungraded[512];  /* --ungraded WHY: record the student as not graded */
    int merge, pending, time_limit;
    char gpus[256];
} options;

/* What the batch knows of the chapter and the machine. */
typedef struct context {
    options opt;
    char root[PATH_MAX];                 /* the instructor's repository */
    char grader[PATH_MAX];               /* build/<chapter>/mw-chapter */
    char make[PATH_MAX], nvcc[PATH_MAX], arch[32];
    char tar[PATH_MAX], unzip[PATH_MAX]; /* empty when not installed */
    char versions[MAX_VERSIONS][64];     /* "01_naive" */
    int optional[MAX_VERSIONS];          /* an open challenge: no points either way */
    int nversions;
    mw_rubric rubric;
    uid_t uid;                           /* who runs the steps */
    gid_t gid;
    int drop;                            /* started as root: run steps as nobody */
    long long fsize;                     /* a step's largest file; 0: 64 MB */
    int sanitizer;                       /* compute-sanitizer is installed */
    int nhidden;                         /* cases in the hidden file */
    int ncases;                          /* the chapter's own cases */
    char groups[MW_RUBRIC_MAX][32];      /* their groups, each once */
    int ngroups;
} context;

/* What became of one submission. GPU_LOST: no usable GPU, before its
 * check or after it. */
typedef enum { GRADED, NOT_GRADED, GPU_LOST } outcome;

/* ---- workers.c ------------------------------------------------------------ */

/* The class on the GPUs that cx->opt.gpus names ("all", or "0,2,3"): one
 * worker per GPU, each student a child `self --student NAME` pinned with
 * CUDA_VISIBLE_DEVICES; then the gradebook. Returns the exit code. */
int grade_on_gpus(context *cx, const mw_class *c, const char *self);

/* ---- batch_sandbox.c ---------------------------------------------------- */

/* Whether the steps can use a GPU (`mw-chapter info`, run as they run);
 * 0, or its exit code (77: no GPU) with its first line in why. */
int probe_gpu(const context *cx, char *why, size_t len);
/* The most one student can take: --student-limit, or every step's own
 * limit added up. */
double student_limit_s(const context *cx);
/* The check step's limit: every case may take the timeout, for every version. */
double check_limit_s(const context *cx);

/* Prints "mw-batch: " and the message, and exits 2. */
void die(const char *fmt, const char *arg);
int is_dir(const char *path);
int ends_with(const char *s, const char *suffix);
int copy_file(const char *from, const char *to, mode_t mode);
/* A file a step wrote in its scratch folder, opened to read: NULL unless it
 * is a regular file. The steps' user can put a link in its place, to
 * anything the batch (root) could read, which would then be copied into
 * OUT, where students may see it. */
FILE *open_step_file(const char *path);
/* A file of the scratch folder opened by the batch to write (append, or
 * truncated), never through a link a step left in its place. */
FILE *write_step_file(const char *path, int append);
/* copy_file of a file a step wrote: -1 unless it is a regular file. */
int copy_step_file(const char *from, const char *to, mode_t mode);
/* A file a step wrote, appended to the open `to`: -1 unless it is a
 * regular file. */
int append_step_file(const char *from, FILE *to);
/* The first line of a file, without its newline; "" when there is none. */
void first_line(const char *path, char *out, size_t len);
/* Runs argv in `dir` as the steps run (own process group, limits, an
 * emptied environment, as nobody when root), stdout appended to `out` and
 * stderr to `log` (they may be one file); returns the exit status, 128 +
 * signal, or -1 on a timeout (the whole process group is killed). */
int sandbox_run_to(const context *cx, const char *dir, char *const argv[], const char *out,
                   const char *log, double timeout_s);
int sandbox_run(const context *cx, const char *dir, char *const argv[], const char *log,
                double timeout_s);
/* Runs n such steps in `dir`, at most `width` at a time (each a free CPU:
 * a step that waits for one would eat into its own time limit), each with
 * its own log (stdout and stderr) and timeout_s seconds from its start;
 * rcs[i] is the i-th's sandbox_run result (-2: it could not start). */
void sandbox_run_each(const context *cx, const char *dir, char **const argvs[], char *const logs[],
                      int n, int width, double timeout_s, int rcs[]);
/* Where scratch folders are made: $MW_BATCH_SCRATCH (an absolute path),
 * else /tmp. */
const char *scratch_root(void);
/* A scratch folder with src/, lib/, tmp/ and sub/, which the steps' user
 * can write: in /tmp, or in $MW_BATCH_SCRATCH (a worker's folder, which it
 * empties when a child grading a student is killed). */
void make_scratch(const context *cx, char *dir, size_t len);
/* A folder the steps' user can write (mkdir, chown when dropping). */
int make_step_dir(const context *cx, const char *path);
/* Kills the steps sandbox_run and sandbox_run_each are waiting for, if
 * any, with their process groups (async-signal-safe: for a handler that stops the batch). */
void sandbox_stop_running(void);
void remove_tree(const char *dir);

/* ---- batch_stage.c ------------------------------------------------------ */

/* A submission made ready to grade: where its exercise files are looked
 * for, and what was said about its files. */
typedef struct staged {
    char from[PATH_MAX]; /* a folder, or a .cu file that stands for every version */
    int single_file;     /* `from` is that .cu file */
    char why[512];       /* when it cannot be graded at all: why */
    mw_notes notes;      /* files not graded, and why */
    int nrenamed;        /* Canvas: a file's name in `from` -> its download name */
    char (*renamed)[2][256];
} staged;

/* Unpacks or gathers a submission into scratch/sub (an archive, a Canvas
 * download), or points at it where it lies (a folder, a .cu file).
 * 0, or -1 with why set: it cannot be graded (no unzip, an archive refused
 * or unreadable). Writes what it ran to scratch/unpack.log. */
int stage_submission(const context *cx, const mw_submission *sub, const char *scratch,
                     staged *st);
/* Notes every file under st->from that is none of the `used` paths
 * ("matched no exercise"), folders named by dots skipped. */
void note_unmatched(staged *st, char used[][PATH_MAX], int nused);
/* How a staged path is shown: relative to st->from, by its download name
 * where Canvas renamed it. */
void shown_name(const staged *st, const char *path, char *out, size_t len);
void staged_free(staged *st);

/* ---- batch_score.c ------------------------------------------------------- */

/* out = scratch/name: where a step's log goes. */
void log_path(char *out, size_t len, const char *scratch, const char *name);
/* check.csv at path into s's cases and group tallies; 0, or -1 when the
 * file cannot be read. */
int read_check(const context *cx, const char *path, mw_student *s);
/* Step 3: compute-sanitizer on the small cases, when every version ran. */
void score_sanitizer(const context *cx, const char *scratch, mw_student *s);
/* Step 4: performance points, when every case passed. */
void score_performance(const context *cx, const char *scratch, mw_student *s);

/* ---- batch_output.c ------------------------------------------------------ */

/* Where one version's build writes its messages in the scratch folder
 * (the versions build at once), until they join build.log. */
void version_build_log(const char *scratch, const char *version, char *out, size_t len);
/* Appends the versions' build logs to the scratch's build.log, in the
 * versions' order, and removes them. */
void gather_build_logs(const context *cx, const char *scratch);

/* The terminal's account of a class run, and its exit code: 0 every
 * submission graded, 2 some not, 77 some not for want of a GPU. */
int report_class(const context *cx, int n, int graded, int kept, int not_graded, int no_gpu,
                 long seconds);

/* Whether OUT holds a complete, genuine score for the student: score.csv
 * (of this student, with a finite total and maximum), report.md and
 * results.json, and no not-graded.txt. */
int already_graded(const context *cx, const char *name);
/* A graded student's files: the logs, report.md (ending with the files not
 * graded), results.json, and score.csv last. */
void save_graded(const context *cx, const char *scratch, const mw_student *s,
                 const mw_notes *notes);
/* A student not graded: the logs and not-graded.txt (why, on its first
 * line); any earlier score is removed. */
void save_not_graded(const context *cx, const char *scratch, const char *name, const char *why,
                     const mw_notes *notes);
/* gradebook.csv from every students/<name>/ in OUT: a row per grade, and a
 * row without points for each student not graded. */
void write_gradebook(const context *cx);
/* The same, and a row "not graded yet" for each student of the class that
 * OUT holds nothing of. Returns how many rows have no grade. */
int write_class_gradebook(const context *cx, const mw_class *c);
/* The first line of students/<name>/not-graded.txt; "" when there is none. */
void not_graded_reason(const context *cx, const char *name, char *why, size_t len);
/* Removes students/<name>/not-graded.txt: the student is being graded. */
void clear_not_graded(const context *cx, const char *name);

#endif
