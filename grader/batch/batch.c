/* batch.c: mw-batch, grading a folder of submissions in one command.
 *
 *   mw-batch --chapter 01-vector-add --submissions DIR --out DIR
 *            [--hidden FILE] [--rubric FILE] [--timeout S] [--force]
 *   mw-batch --chapter 01-vector-add --submissions DIR --list
 *
 * DIR holds one entry per student, in any of the layouts batch_layout.h
 * reads: a folder, a .cu file (used for every version), an archive (.zip,
 * .tar.gz, .tgz, .tar) or a Canvas download (name_userid_attachmentid_file,
 * grouped by name). batch_stage.c makes each ready, unpacking archives
 * safely; the chapter's exercise files are then found in it by name, up to
 * six folders down. Only those files are taken; the harness, cases, rubric
 * and Makefile are the instructor's; the others are listed in the report.
 * Per submission, in a scratch folder of its own:
 *   0. unpack or gather it (archives, Canvas),      unpack.log
 *   1. build each version (`make lib`, at once),    build.log
 *   2. grade every case, hidden ones too,          check.log, check.csv
 *   3. compute-sanitizer on the small cases,        sanitize.log
 *   4. time it against the reference (`perf`),      perf.log, perf.csv
 * each step a child process in its own process group, with a wall-clock
 * timeout, CPU, file-size and open-file limits, an emptied environment, no
 * inherited file descriptors, and, when run as root, as user nobody
 * (batch_sandbox.c). The scores come from the files the grader's own
 * (parent) process writes, never from what a submission prints.
 *
 * A batch never records a score it did not grade. Before it touches any
 * student, the chapter program must find a GPU the steps can use
 * (`mw-chapter info`, run as the steps run): without one every case would be
 * skipped and every student would get a zero that looks like a grade, so
 * mw-batch says why and exits 77, writing nothing. A submission that cannot
 * be graded (an archive that cannot be unpacked, a check that found no GPU
 * or did not finish) gets no score: students/<name>/not-graded.txt says why,
 * its gradebook row has no points, and the next run grades it again. After
 * each student the GPU is asked for again; if it is gone, that student is
 * not graded and the batch stops (exit 77).
 *
 * The same steps serve one student at a time (--student NAME, or
 * --student-index I over the class's sorted order): a worker's child on one
 * of several GPUs (workers.c) or a Slurm array task (grader/mk/slurm.sh).
 * It builds before it asks for the GPU, and without one records why for
 * its student and exits 77. --merge writes the gradebook from what OUT
 * holds, every student of the class in it, "not graded yet" where OUT holds
 * nothing; --pending lists who a run would grade; --time-limit prints the
 * most one student may take.
 *
 * Outputs in OUT: students/<name>/score.csv, report.md, results.json and the
 * logs; gradebook.csv. Every file is written whole (temporary name, then
 * rename), score.csv last; a re-run skips students with a complete,
 * genuine score unless --force. Exit: 0 every submission graded, 2 a usage
 * or layout error or some submission not graded, 77 no usable GPU. */
#define _GNU_SOURCE
#include "batch.h"
#include "cases_file.h"
#include "csv.h"
#include "gradebook.h"
#include "rubric.h"
#include "parallel.h"
#include "proc.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <pwd.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* ---- one submission's steps ------------------------------------------------ */

/* Searches dir, up to six folders down, for a regular file named `name`
 * (symbolic links are ignored); the first found, in directory order, wins.
 * 0 when found. */
static int find_file(const char *dir, const char *name, char *out, size_t len, int depth)
{
    DIR *d = opendir(dir);
    if (!d || depth > 6) {
        if (d)
            closedir(d);
        return -1;
    }
    struct dirent *e;
    int found = -1;
    while (found != 0 && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) != 0 || S_ISLNK(st.st_mode))
            continue; /* links could point at anything this user can read */
        if (strcmp(e->d_name, name) == 0 && S_ISREG(st.st_mode)) {
            snprintf(out, len, "%s", path);
            found = 0;
        } else if (is_dir(path)) {
            found = find_file(path, name, out, len, depth + 1);
        }
    }
    closedir(d);
    return found;
}

/* ---- the chapter ----------------------------------------------------------- */

/* Notes a case's group once; a chapter with more groups than a rubric can
 * name could never be scored whole. */
static void add_group(context *cx, const char *group)
{
    for (int g = 0; g < cx->ngroups; g++)
        if (strcmp(cx->groups[g], group) == 0)
            return;
    if (cx->ngroups == MW_RUBRIC_MAX)
        die("the chapter's cases have more groups than a rubric can name (%s)", "32");
    snprintf(cx->groups[cx->ngroups++], sizeof cx->groups[0], "%s", group);
}

/* Versions, which are optional, the number of cases and their groups, from
 * the listing `mw-chapter list --csv` makes for programs (columns by name). */
static void read_chapter(context *cx)
{
    char cmd[PATH_MAX + 24];
    snprintf(cmd, sizeof cmd, "'%s' list --csv", cx->grader);
    FILE *p = popen(cmd, "r");
    if (!p)
        die("cannot run %s list --csv", cx->grader);
    char header[512], line[512], *h[16], *f[16];
    int nh = fgets(header, sizeof header, p) ? mw_csv_split(header, h, 16) : 0;
    int kind = mw_csv_column(h, nh, "kind"), name = mw_csv_column(h, nh, "name"),
        optional = mw_csv_column(h, nh, "optional"), group = mw_csv_column(h, nh, "group");
    while (kind >= 0 && name >= 0 && optional >= 0 && group >= 0 && fgets(line, sizeof line, p)) {
        int n = mw_csv_split(line, f, 16);
        if (n <= kind || n <= name || n <= optional || n <= group)
            continue;
        if (strcmp(f[kind], "case") == 0) {
            cx->ncases++;
            add_group(cx, f[group]);
        }
        else if (strcmp(f[kind], "version") == 0 && cx->nversions < MAX_VERSIONS) {
            snprintf(cx->versions[cx->nversions], sizeof cx->versions[0], "%s", f[name]);
            cx->optional[cx->nversions++] = strcmp(f[optional], "1") == 0;
        }
    }
    if (pclose(p) != 0 || cx->nversions == 0)
        die("%s list --csv gave no versions: build the chapter first (make build)", cx->grader);
}

/* ---- one submission --------------------------------------------------------- */

/* Copies the submission's exercise files into scratch/src, noting in used[v]
 * where each was found (empty when not); returns how many versions were
 * found. */
static int collect(const context *cx, const staged *st, const char *scratch,
                   int found[MAX_VERSIONS], char used[][PATH_MAX])
{
    int count = 0;
    for (int v = 0; v < cx->nversions; v++) {
        char name[80], from[PATH_MAX], to[PATH_MAX + 96];
        snprintf(name, sizeof name, "%s.cu", cx->versions[v]);
        struct stat s;
        int regular = lstat(st->from, &s) == 0 && S_ISREG(s.st_mode);
        found[v] = st->single_file ? (snprintf(from, sizeof from, "%s", st->from), regular)
                                   : find_file(st->from, name, from, sizeof from, 0) == 0;
        used[v][0] = '\0';
        if (!found[v])
            continue;
        snprintf(to, sizeof to, "%s/src/%s", scratch, name);
        found[v] = copy_file(from, to, 0644) == 0;
        if (found[v])
            snprintf(used[v], PATH_MAX, "%s", from);
        count += found[v];
    }
    return count;
}

/* One version's build, `make lib` of its file into the scratch's lib/. */
typedef struct version_build {
    char ch[160], kernel[PATH_MAX + 96], libdir[PATH_MAX + 16], nvcc[PATH_MAX + 8];
    char arch[48], log[PATH_MAX + 32];
    char *argv[13];
} version_build;

static void describe_build(const context *cx, const char *scratch, int v, version_build *b)
{
    snprintf(b->ch, sizeof b->ch, "CH=%s", cx->opt.chapter);
    snprintf(b->kernel, sizeof b->kernel, "KERNEL=%s/src/%s.cu", scratch, cx->versions[v]);
    snprintf(b->libdir, sizeof b->libdir, "LIBDIR=%s/lib", scratch);
    snprintf(b->nvcc, sizeof b->nvcc, "NVCC=%s", cx->nvcc);
    snprintf(b->arch, sizeof b->arch, "ARCH=%s", cx->arch);
    version_build_log(scratch, cx->versions[v], b->log, sizeof b->log);
    char *argv[] = {(char *)cx->make, "-s", "--no-print-directory", "-C", (char *)cx->root, "lib",
                    b->ch, b->kernel, b->libdir, b->nvcc, b->arch, "GRADED=1", NULL};
    memcpy(b->argv, argv, sizeof argv);
}

/* Builds each version found, at once on as many CPUs as this process may
 * use (a version's nvcc is one CPU's work, and chapter 05's four take 30 s
 * one after another), each within 300 s of its start; build.log holds their
 * messages in the versions' order. Notes those that do not compile. */
static void build_versions(const context *cx, const char *scratch, const int found[],
                           int built[], char *status, size_t len)
{
    static version_build builds[MAX_VERSIONS];
    char **argvs[MAX_VERSIONS], *logs[MAX_VERSIONS];
    int which[MAX_VERSIONS], rcs[MAX_VERSIONS], n = 0;
    for (int v = 0; v < cx->nversions; v++) {
        built[v] = 0;
        if (!found[v])
            continue;
        describe_build(cx, scratch, v, &builds[n]);
        argvs[n] = builds[n].argv;
        logs[n] = builds[n].log;
        which[n++] = v;
    }
    char log[PATH_MAX + 16];
    log_path(log, sizeof log, scratch, "build.log");
    FILE *all = write_step_file(log, 1); /* there from the start: a killed child's logs are kept */
    if (all)
        fclose(all);
    sandbox_run_each(cx, scratch, argvs, logs, n, (int)mw_cores(), 300, rcs);
    gather_build_logs(cx, scratch);
    for (int i = 0; i < n; i++) {
        int v = which[i];
        built[v] = rcs[i] == 0;
        if (!built[v]) {
            size_t used = strlen(status);
            snprintf(status + used, len - used, "%s%s does not compile%s", used ? "; " : "",
                     cx->versions[v], rcs[i] == -1 ? " (build timed out)" : "");
        }
    }
}


/* Steps 2: every case (and the hidden ones); returns the check's exit code. */
static int run_check(const context *cx, const char *scratch, const char *name)
{
    char log[PATH_MAX + 16], lib[PATH_MAX + 8], results[PATH_MAX + 16], timeout[32];
    char cases[PATH_MAX + 16];
    log_path(log, sizeof log, scratch, "check.log");
    snprintf(lib, sizeof lib, "%s/lib", scratch);
    snprintf(results, sizeof results, "%s/check.csv", scratch);
    snprintf(timeout, sizeof timeout, "%.0f", cx->opt.timeout_s);
    char *argv[16] = {(char *)cx->grader, "check", "--lib-dir", lib, "--label", (char *)name,
                      "--results", results, "--timeout", timeout};
    int n = 10;
    if (cx->opt.hidden[0]) {
        snprintf(cases, sizeof cases, "%s/hidden.cases", scratch);
        if (copy_file(cx->opt.hidden, cases, 0444) != 0)
            die("cannot copy the hidden cases %s", cx->opt.hidden);
        argv[n++] = "--cases";
        argv[n++] = cases;
    }
    argv[n] = NULL;
    return sandbox_run(cx, scratch, argv, log, check_limit_s(cx));
}

/* Appends a part to a status ("graded", or what went wrong, "; " between). */
static void add_status(char *status, size_t len, const char *fmt, ...)
{
    size_t used = strlen(status);
    if (used + 2 >= len)
        return;
    if (used)
        used += (size_t)snprintf(status + used, len - used, "; ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(status + used, len - used, fmt, ap);
    va_end(ap);
}

/* The check ran without a GPU: every case is "skip" with "no CUDA GPU"
 * (check_cmd.c's write_results). No grade can come of it. */
static int check_found_no_gpu(const mw_student *s)
{
    for (int i = 0; i < s->ncases; i++)
        if (strcmp(s->cases[i].status, "skip") == 0 && s->cases[i].detail &&
            strncmp(s->cases[i].detail, "no CUDA GPU", 11) == 0)
            return 1;
    return 0;
}

/* What is missing, for the status: nothing found at all, or versions. */
static void note_missing(const context *cx, const int found[], int count, char *status,
                         size_t len)
{
    if (count == 0) {
        char expected[MAX_VERSIONS * 70] = "";
        for (int v = 0; v < cx->nversions; v++)
            snprintf(expected + strlen(expected), sizeof expected - strlen(expected), " %s.cu",
                     cx->versions[v]);
        add_status(status, len, "no exercise file found; expected:%s", expected);
        return;
    }
    for (int v = 0; v < cx->nversions; v++)
        if (!found[v] && !cx->optional[v])
            add_status(status, len, "%s.cu not submitted", cx->versions[v]);
}

/* steps.csv: the wall time of steps 1 to 4, where a class's grading time
 * goes (grader/mk/class-bench.sh sums them); a step that did not run (the
 * sanitizer or the timing after a failed case) takes about 0 s. */
static void write_step_times(const char *scratch, const double t[5])
{
    static const char *const step[] = {"build", "check", "sanitize", "perf"};
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/steps.csv", scratch);
    FILE *fp = write_step_file(path, 0);
    if (!fp)
        return;
    fprintf(fp, "step,seconds\n");
    for (int i = 0; i < 4; i++)
        fprintf(fp, "%s,%.1f\n", step[i], t[i + 1] - t[i]);
    fclose(fp);
}

static int one_student(const context *cx)
{
    return cx->opt.student[0] != '\0';
}

/* Steps 1 to 4 on a staged submission, into s. NOT_GRADED, with why, when
 * the check gave nothing a score can come from. */
static outcome run_steps(const context *cx, const char *scratch, staged *st, mw_student *s,
                         char *why, size_t wlen)
{
    int found[MAX_VERSIONS], built[MAX_VERSIONS];
    static char used[MAX_VERSIONS][PATH_MAX]; /* 64 KB: off the stack */
    char status[256] = "";
    int count = collect(cx, st, scratch, found, used);
    note_missing(cx, found, count, status, sizeof status);
    note_unmatched(st, used, cx->nversions);
    double t[5];
    t[0] = mw_now_s();
    build_versions(cx, scratch, found, built, status, sizeof status);
    t[1] = mw_now_s();
    /* One student at a time (a worker's child, a Slurm task) asks for the
     * GPU only now: the build needs none, and its build.log is kept either
     * way (a task on a node whose GPU is gone still says whether the
     * submission compiles). */
    char gpu[512];
    if (one_student(cx) && probe_gpu(cx, gpu, sizeof gpu) != 0) {
        snprintf(why, wlen, "no usable GPU: %s", gpu);
        return GPU_LOST;
    }
    int rc = run_check(cx, scratch, s->name);
    t[2] = mw_now_s();
    char results[PATH_MAX + 16];
    snprintf(results, sizeof results, "%s/check.csv", scratch);
    if (read_check(cx, results, s) != 0 || s->ncases == 0) {
        snprintf(why, wlen, "the grader could not finish the check (%s): see check.log",
                 rc == -1 ? "timed out" : rc >= 128 ? "crashed" : "it wrote no results");
        return NOT_GRADED;
    }
    if (check_found_no_gpu(s)) {
        snprintf(why, wlen, "the check found no CUDA GPU: see check.log");
        return NOT_GRADED;
    }
    /* Groups as the cases name them; the rubric gives each its points. */
    for (int g = 0; g < s->ngroups; g++)
        s->group_score[g] = mw_rubric_group_score(&cx->rubric, &s->groups[g], &s->group_max[g]);
    score_sanitizer(cx, scratch, s);
    t[3] = mw_now_s();
    score_performance(cx, scratch, s);
    t[4] = mw_now_s();
    write_step_times(scratch, t);
    snprintf(s->status, sizeof s->status, "%s", status[0] ? status : "graded");
    mw_student_total(s);
    return GRADED;
}


/* The terminal's note of what a graded submission held besides its
 * exercise files: the first few, and how many. */
static void print_notes(const mw_notes *notes)
{
    if (!notes->n)
        return;
    printf("  %-16s %d file(s) not graded:", "", notes->n);
    for (int i = 0; i < notes->n && i < 3; i++)
        printf("%s %s", i ? "," : "", notes->file[i]);
    printf("%s (see report.md)\n", notes->n > 3 ? ", ..." : "");
}

/* The scratch folder of the student being graded ("" between students),
 * for remove_scratch_and_stop. */
static char scratch_in_use[PATH_MAX];

/* A class graded one student at a time and stopped (Ctrl-C, `timeout`, a
 * scheduler's SIGTERM): the step running (in a process group of its own,
 * which the signal missed) is killed, the scratch folder of the student
 * being graded goes, as a finished student's does, and the batch then
 * dies of the signal. The students graded before are kept, and the same command
 * grades the rest. remove_tree's fork, execl and waitpid are
 * async-signal-safe. */
static void remove_scratch_and_stop(int sig)
{
    sandbox_stop_running();
    if (scratch_in_use[0])
        remove_tree(scratch_in_use);
    signal(sig, SIG_DFL);
    raise(sig);
}

static outcome grade_one(const context *cx, const mw_submission *sub)
{
    mw_student s;
    memset(&s, 0, sizeof s);
    snprintf(s.name, sizeof s.name, "%s", sub->student);
    snprintf(s.hidden_group, sizeof s.hidden_group, "hidden");
    s.t_student = s.t_ref = s.t_lib = NAN;
    char scratch[PATH_MAX], why[700] = "", gpu[512];
    make_scratch(cx, scratch, sizeof scratch);
    snprintf(scratch_in_use, sizeof scratch_in_use, "%s", scratch);
    staged st;
    outcome result = NOT_GRADED;
    if (stage_submission(cx, sub, scratch, &st) != 0) {
        snprintf(why, sizeof why, "%s", st.why);
    } else {
        result = run_steps(cx, scratch, &st, &s, why, sizeof why);
        /* A GPU lost during the steps fails them all, quietly in places
         * (a timing that errs scores 0): ask again before recording. */
        if (result != GPU_LOST && probe_gpu(cx, gpu, sizeof gpu) != 0) {
            snprintf(why, sizeof why, "the GPU became unusable: %s", gpu);
            result = GPU_LOST;
        }
    }
    if (result == GRADED) {
        save_graded(cx, scratch, &s, &st.notes);
        printf("  %-16s %6.1f of %5.1f  %s\n", s.name, s.total, s.max, s.status);
        print_notes(&st.notes);
    } else {
        save_not_graded(cx, scratch, s.name, why, &st.notes);
        printf("  %-16s NOT GRADED: %s\n", s.name, why);
    }
    fflush(stdout);
    mw_student_free(&s);
    staged_free(&st);
    remove_tree(scratch);
    scratch_in_use[0] = '\0';
    return result;
}

/* ---- --list: the class as the batch would take it ---------------------------- */

static void csv_row(const char *student, const char *layout, const char *version,
                    const char *file, const char *note)
{
    const char *f[] = {student, layout, version, file, note};
    for (int i = 0; i < 5; i++) {
        if (i)
            fputc(',', stdout);
        mw_csv_write_field(stdout, f[i]);
    }
    fputc('\n', stdout);
}

/* One submission's rows: each version and the file it is taken from, then
 * the files not graded. 0, or -1 when it could not be read. */
static int list_one(const context *cx, const mw_submission *sub)
{
    const char *layout = mw_layout_name(sub->layout);
    char scratch[PATH_MAX];
    make_scratch(cx, scratch, sizeof scratch);
    staged st;
    int rc = stage_submission(cx, sub, scratch, &st);
    if (rc != 0) {
        csv_row(sub->student, layout, "", sub->entry, st.why);
    } else {
        int found[MAX_VERSIONS];
        static char used[MAX_VERSIONS][PATH_MAX]; /* 64 KB: off the stack */
        collect(cx, &st, scratch, found, used);
        for (int v = 0; v < cx->nversions; v++) {
            char shown[256] = "";
            if (found[v] && st.single_file)
                snprintf(shown, sizeof shown, "%s", sub->entry);
            else if (found[v])
                shown_name(&st, used[v], shown, sizeof shown);
            csv_row(sub->student, layout, cx->versions[v], shown,
                    found[v] ? "" : cx->optional[v] ? "not submitted (optional)" : "not submitted");
        }
        note_unmatched(&st, used, cx->nversions);
        for (int i = 0; i < st.notes.n; i++)
            csv_row(sub->student, layout, "", st.notes.file[i], st.notes.note[i]);
    }
    if (cx->opt.out[0]) /* what a run into OUT would do with it */
        csv_row(sub->student, layout, "", "",
                already_graded(cx, sub->student) ? "already graded in OUT: skipped unless --force"
                                                 : "not graded in OUT yet: would be graded");
    staged_free(&st);
    remove_tree(scratch);
    return rc;
}

/* CSV on stdout: student,layout,version,file,note. Exit 2 when some
 * submission cannot be read, so that it serves as a check before grading. */
static int list_class(const context *cx, const mw_class *c)
{
    printf("student,layout,version,file,note\n");
    int unreadable = 0;
    for (int i = 0; i < c->n; i++)
        unreadable += list_one(cx, &c->subs[i]) != 0;
    for (int i = 0; i < c->nignored; i++)
        csv_row("", "ignored", "", c->ignored[i], "not a submission: set aside");
    return unreadable ? 2 : 0;
}

/* ---- the class ----------------------------------------------------------------- */

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: mw-batch --chapter NN-name --submissions DIR --out DIR [--hidden FILE]\n"
            "                [--rubric FILE] [--timeout SECONDS] [--force]\n"
            "       mw-batch --chapter NN-name --submissions DIR --list\n"
            "       mw-batch ... --out DIR --gpus all|0,2,3 [--student-limit SECONDS]\n"
            "       mw-batch ... --out DIR --student NAME | --student-index I [--ungraded WHY]\n"
            "       mw-batch ... --out DIR --merge | --pending | --time-limit\n"
            "Grades every submission in DIR with the chapter's harness, cases and rubric,\n"
            "each in a sandboxed scratch folder, and writes OUT/gradebook.csv and\n"
            "OUT/students/<name>/{report.md,results.json,score.csv,logs}, or\n"
            "not-graded.txt for a submission that could not be graded. Students with a\n"
            "genuine score are skipped unless --force. Without a GPU the steps can use it\n"
            "grades nothing and exits 77. --list prints, as CSV, what would be graded\n"
            "(each student's layout, the file taken for each version, the files not\n"
            "graded; with --out, whether OUT already holds a grade), without a GPU.\n"
            "--gpus grades on several GPUs, a worker per GPU, each student in a child\n"
            "pinned with CUDA_VISIBLE_DEVICES and stopped past --student-limit (default:\n"
            "its steps' own limits added up). --student (or --student-index, in the\n"
            "class's sorted order) grades one student into OUT, or with --ungraded WHY\n"
            "records it as not graded, unless it has a grade; --merge writes the gradebook\n"
            "from OUT, every student of DIR in it; --pending lists (index, name) the\n"
            "students a run would grade; --time-limit prints the seconds one student may\n"
            "take at most.\n"
            "Run it from the repository root, after `make build`.\n"
            "DIR holds one entry per student:\n%s\n"
            "Exit: 0 all graded, 2 usage or layout error or some not graded, 77 no GPU.\n",
            mw_layouts_expected);
}

static void parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->timeout_s = 30;
    o->student_index = -1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0) {
            usage(stdout);
            exit(0);
        } else if (strcmp(a, "--force") == 0) {
            o->force = 1;
            continue;
        } else if (strcmp(a, "--list") == 0) {
            o->list = 1;
            continue;
        } else if (strcmp(a, "--merge") == 0 || strcmp(a, "--pending") == 0 ||
                   strcmp(a, "--time-limit") == 0) {
            *(a[2] == 'm' ? &o->merge : a[2] == 'p' ? &o->pending : &o->time_limit) = 1;
            continue;
        } else if (!v) {
            usage(stderr);
            exit(2);
        } else if (strcmp(a, "--chapter") == 0)
            snprintf(o->chapter, sizeof o->chapter, "%s", v);
        else if (strcmp(a, "--submissions") == 0)
            snprintf(o->submissions, sizeof o->submissions, "%s", v);
        else if (strcmp(a, "--out") == 0)
            snprintf(o->out, sizeof o->out, "%s", v);
        else if (strcmp(a, "--hidden") == 0)
            snprintf(o->hidden, sizeof o->hidden, "%s", v);
        else if (strcmp(a, "--rubric") == 0)
            snprintf(o->rubric, sizeof o->rubric, "%s", v);
        else if (strcmp(a, "--timeout") == 0)
            o->timeout_s = atof(v) > 0 ? atof(v) : 30;
        else if (strcmp(a, "--student") == 0)
            snprintf(o->student, sizeof o->student, "%s", v);
        else if (strcmp(a, "--student-index") == 0 && strspn(v, "0123456789") == strlen(v))
            o->student_index = atoi(v);
        else if (strcmp(a, "--ungraded") == 0 && v[0])
            snprintf(o->ungraded, sizeof o->ungraded, "%s", v);
        else if (strcmp(a, "--student-limit") == 0 && atof(v) > 0)
            o->student_limit_s = atof(v);
        else if (strcmp(a, "--gpus") == 0 && v[0])
            snprintf(o->gpus, sizeof o->gpus, "%s", v);
        else {
            usage(stderr);
            exit(2);
        }
        i++;
    }
    int one = o->student[0] || o->student_index >= 0;
    int modes = o->list + o->merge + o->pending + o->time_limit + one + (o->gpus[0] != 0);
    if (!o->chapter[0] || !o->submissions[0] || (!o->out[0] && !o->list && !o->time_limit) ||
        modes > 1 || (o->ungraded[0] && !one) || (o->student[0] && o->student_index >= 0)) {
        usage(stderr);
        exit(2);
    }
}

/* Absolute paths, since the steps run in their scratch folders. */
static void absolute(char *path, size_t len)
{
    char abs[PATH_MAX];
    if (path[0] && realpath(path, abs))
        snprintf(path, len, "%s", abs);
}

/* User nobody must be able to read the repository (the Makefile, the
 * chapter program, the reference libraries) to build and grade. */
static void check_readable(const context *cx)
{
    char scratch[PATH_MAX], log[PATH_MAX + 16], test[PATH_MAX + 64];
    make_scratch(cx, scratch, sizeof scratch);
    snprintf(log, sizeof log, "%s/access.log", scratch);
    snprintf(test, sizeof test, "test -r '%s/Makefile' && test -x '%s'", cx->root, cx->grader);
    char *argv[] = {"/bin/sh", "-c", test, NULL};
    int rc = sandbox_run(cx, scratch, argv, log, 30);
    remove_tree(scratch);
    if (rc != 0)
        die("user nobody cannot read the repository at %s: put it where every user can read "
            "it (not under a private home folder), or set MW_NO_DROP=1 to run submissions as "
            "yourself (see docs/instructors.md)",
            cx->root);
    make_scratch(cx, scratch, sizeof scratch);
    snprintf(log, sizeof log, "%s/access.log", scratch);
    snprintf(test, sizeof test, "test -r '%s/solutions' || test -r '%s/build/solutions'",
             cx->root, cx->root);
    char *probe[] = {"/bin/sh", "-c", test, NULL};
    /* One student is a part of a class run (a worker's child, a Slurm
     * task) whose start warned already. */
    if (!cx->opt.student[0] && cx->opt.student_index < 0 &&
        sandbox_run(cx, scratch, probe, log, 30) == 0)
        fprintf(stderr, "warning: user nobody can read solutions/ or build/solutions/: a "
                        "submission could include or load the reference. Before grading: "
                        "chmod -R go= solutions build/solutions tests/class instructor\n");
    remove_tree(scratch);
}

/* The rubric and the hidden cases, read before anyone is graded. */
static void load_rubric_and_hidden(context *cx)
{
    if (!cx->opt.rubric[0])
        snprintf(cx->opt.rubric, sizeof cx->opt.rubric, "%s/chapters/%s/rubric", cx->root,
                 cx->opt.chapter);
    char err[512];
    if (mw_rubric_load(cx->opt.rubric, &cx->rubric, err, sizeof err) != 0)
        die("%s", err);
    mw_cases_file hidden;
    if (cx->opt.hidden[0] && mw_cases_file_load(cx->opt.hidden, &hidden, err, sizeof err) != 0)
        die("%s", err);
    for (int i = 0; cx->opt.hidden[0] && i < hidden.ncases; i++)
        if (strcmp(hidden.cases[i].group, "hidden") != 0)
            die("%s: every hidden case must be in group 'hidden', so that reports keep it "
                "hidden",
                cx->opt.hidden);
    if (cx->opt.hidden[0]) {
        cx->nhidden = hidden.ncases;
        mw_cases_file_free(&hidden);
    }
}

/* Every group of the cases, and `hidden` when there are hidden cases, is
 * named by the rubric in force: a group it leaves out would be worth 0
 * points with nobody having decided so. */
static void check_rubric_groups(context *cx)
{
    if (cx->nhidden > 0)
        add_group(cx, "hidden");
    const char *groups[MW_RUBRIC_MAX];
    for (int g = 0; g < cx->ngroups; g++)
        groups[g] = cx->groups[g];
    char names[1024], why[1400];
    int n = mw_rubric_unnamed(&cx->rubric, groups, cx->ngroups, names, sizeof names);
    if (n == 0)
        return;
    snprintf(why, sizeof why,
             "%s names no line for the case group%s %s: give %s points, or 0 with a # "
             "comment saying why (group NAME POINTS)",
             cx->opt.rubric, n > 1 ? "s" : "", names, n > 1 ? "each" : "it");
    die("%s", why);
}

static void setup(context *cx)
{
    if (!getcwd(cx->root, sizeof cx->root))
        die("%s", "cannot read the current folder");
    snprintf(cx->grader, sizeof cx->grader, "%s/build/%s/mw-chapter", cx->root, cx->opt.chapter);
    if (access(cx->grader, X_OK) != 0)
        die("%s is not built: run make build (or make grade) first", cx->grader);
    if (mw_which("make", cx->make, sizeof cx->make) != 0 || mw_which("nvcc", cx->nvcc, sizeof cx->nvcc) != 0)
        die("%s", "make and nvcc must be on the PATH");
    mw_which("tar", cx->tar, sizeof cx->tar); /* each archive says so if missing */
    mw_which("unzip", cx->unzip, sizeof cx->unzip);
    FILE *fp = popen("sh grader/mk/detect-arch.sh", "r");
    if (!fp || !fgets(cx->arch, sizeof cx->arch, fp))
        snprintf(cx->arch, sizeof cx->arch, "sm_90");
    if (fp)
        pclose(fp);
    cx->arch[strcspn(cx->arch, "\n")] = '\0';
    const char *env_arch = getenv("ARCH");
    if (env_arch && *env_arch)
        snprintf(cx->arch, sizeof cx->arch, "%s", env_arch);
    absolute(cx->opt.submissions, sizeof cx->opt.submissions);
    absolute(cx->opt.hidden, sizeof cx->opt.hidden);
    load_rubric_and_hidden(cx);
    read_chapter(cx);
    check_rubric_groups(cx);
    int known = cx->rubric.perf_points <= 0;
    for (int v = 0; v < cx->nversions; v++)
        known |= strcmp(cx->versions[v], cx->rubric.perf_version) == 0;
    if (!known)
        die("the rubric times version '%s', which this chapter does not have",
            cx->rubric.perf_version);
    char found[PATH_MAX];
    cx->sanitizer = mw_which("compute-sanitizer", found, sizeof found) == 0;
    const char *no_drop = getenv("MW_NO_DROP");
    cx->drop = geteuid() == 0 && !(no_drop && strcmp(no_drop, "1") == 0);
    if (geteuid() == 0 && !cx->drop)
        fprintf(stderr, "warning: MW_NO_DROP is set: submissions run as root\n");
    if (cx->drop) {
        struct passwd *pw = getpwnam("nobody");
        if (!pw)
            die("%s", "running as root, but there is no user nobody to run submissions as");
        cx->uid = pw->pw_uid;
        cx->gid = pw->pw_gid;
        /* What runs no submission needs no access. */
        if (!cx->opt.merge && !cx->opt.time_limit && !cx->opt.ungraded[0])
            check_readable(cx);
    }
}

/* The class, or an error that says which layouts were expected. A folder
 * whose entries are the exercise files themselves is one student's, given
 * by mistake for the class's. */
static void read_class(const context *cx, mw_class *c)
{
    char err[2048];
    if (mw_class_scan(cx->opt.submissions, c, err, sizeof err) != 0)
        die("%s", err);
    for (int i = 0; i < c->n; i++)
        for (int v = 0; v < cx->nversions; v++)
            if (c->subs[i].layout == MW_LAYOUT_FILE &&
                strcmp(c->subs[i].student, cx->versions[v]) == 0)
                die("%s holds the exercise files themselves: it looks like one student's "
                    "submission; give the folder that holds one entry per student",
                    cx->opt.submissions);
}

static void print_class(const context *cx, const mw_class *c)
{
    int count[4] = {0};
    for (int i = 0; i < c->n; i++)
        count[c->subs[i].layout]++;
    printf("memwall grade %s: %d submission(s) from %s%s%s (", cx->opt.chapter, c->n,
           cx->opt.submissions, cx->opt.hidden[0] ? ", hidden cases from " : "", cx->opt.hidden);
    const char *what[] = {"folder", ".cu file", "archive", "Canvas download"};
    for (int l = 0, first = 1; l < 4; l++)
        if (count[l]) {
            printf("%s%d %s%s", first ? "" : ", ", count[l], what[l], count[l] > 1 ? "s" : "");
            first = 0;
        }
    printf(")\n");
    if (c->nignored) {
        printf("set aside (not a folder, .cu file, archive or Canvas download):");
        for (int i = 0; i < c->nignored; i++)
            printf("%s %s", i ? "," : "", c->ignored[i]);
        printf("\n");
    }
}

/* Grades the class; returns the exit code. */
static int grade_class(const context *cx, const mw_class *c)
{
    time_t started = time(NULL);
    int graded = 0, kept = 0, not_graded = 0;
    signal(SIGINT, remove_scratch_and_stop);
    signal(SIGTERM, remove_scratch_and_stop);
    signal(SIGHUP, remove_scratch_and_stop);
    for (int i = 0; i < c->n; i++) {
        const mw_submission *sub = &c->subs[i];
        if (!cx->opt.force && already_graded(cx, sub->student)) {
            printf("  %-16s already graded (use --force, or FORCE=1, to grade again)\n",
                   sub->student);
            kept++;
            continue;
        }
        outcome o = grade_one(cx, sub);
        write_gradebook(cx);
        graded += o == GRADED;
        not_graded += o != GRADED;
        if (o == GPU_LOST) {
            fflush(stdout); /* the student's line before the batch's last word */
            fprintf(stderr,
                    "mw-batch: the GPU became unusable while grading %s: the batch stopped; "
                    "the students graded before are kept, and the same command grades the "
                    "rest once the GPU works (see %s/students/%s/not-graded.txt)\n",
                    sub->student, cx->opt.out, sub->student);
            return 77;
        }
    }
    write_gradebook(cx);
    return report_class(cx, c->n, graded, kept, not_graded, 0, (long)(time(NULL) - started));
}


/* ---- one student, and the gradebook alone -------------------------------------- */

/* The student --student or --student-index names. */
static const mw_submission *named_student(const context *cx, const mw_class *c)
{
    if (cx->opt.student_index >= 0) {
        char index[32];
        snprintf(index, sizeof index, "%d", cx->opt.student_index);
        if (cx->opt.student_index >= c->n)
            die("--student-index %s is past the class's last student", index);
        return &c->subs[cx->opt.student_index];
    }
    for (int i = 0; i < c->n; i++)
        if (strcmp(c->subs[i].student, cx->opt.student) == 0)
            return &c->subs[i];
    die("no student %s among the submissions", cx->opt.student);
    return NULL;
}

/* One student into OUT (a worker's child, a Slurm task): 0 graded (or
 * already), 2 not graded, 77 no usable GPU, which the student's
 * not-graded.txt says too, so that the gradebook lists why. */
static int grade_student(context *cx, const mw_class *c)
{
    const mw_submission *sub = named_student(cx, c);
    snprintf(cx->opt.student, sizeof cx->opt.student, "%s", sub->student);
    if (mw_mkdirs(cx->opt.out) != 0)
        die("cannot make the output folder %s", cx->opt.out);
    absolute(cx->opt.out, sizeof cx->opt.out);
    if (!cx->opt.force && already_graded(cx, sub->student)) {
        printf("  %-16s already graded (use --force, or FORCE=1, to grade again)\n",
               sub->student);
        return 0;
    }
    /* A reason given from outside (a Slurm task that ended with no word of
     * its own) never replaces the student's own; with --force it replaces
     * an earlier grade, which the run that ended was meant to replace. */
    if (cx->opt.ungraded[0]) {
        char earlier[512];
        not_graded_reason(cx, sub->student, earlier, sizeof earlier);
        if (!earlier[0]) {
            mw_notes none = {0};
            save_not_graded(cx, "/nonexistent", sub->student, cx->opt.ungraded, &none);
            printf("  %-16s NOT GRADED: %s\n", sub->student, cx->opt.ungraded);
        }
        return 2;
    }
    /* An earlier reason no longer holds: a grading cut short now leaves no
     * status, which the gradebook reports as "not graded yet". */
    clear_not_graded(cx, sub->student);
    outcome o = grade_one(cx, sub);
    return o == GRADED ? 0 : o == GPU_LOST ? 77 : 2;
}

/* The gradebook from what OUT holds: 0 every student graded, 2 not. */
static int merge_class(context *cx, const mw_class *c)
{
    if (mw_mkdirs(cx->opt.out) != 0)
        die("cannot make the output folder %s", cx->opt.out);
    absolute(cx->opt.out, sizeof cx->opt.out);
    int ungraded = write_class_gradebook(cx, c);
    printf("wrote %s/gradebook.csv (%d submissions: %d graded, %d not graded)\n", cx->opt.out,
           c->n, c->n - ungraded, ungraded);
    for (int i = 0; i < c->n; i++) {
        char why[512] = "not graded yet";
        if (already_graded(cx, c->subs[i].student))
            continue;
        not_graded_reason(cx, c->subs[i].student, why, sizeof why);
        printf("  %-16s NOT GRADED: %s\n", c->subs[i].student, why[0] ? why : "not graded yet");
    }
    fflush(stdout);
    if (ungraded)
        fprintf(stderr,
                "mw-batch: %d submission(s) not graded and given no score (why in "
                "gradebook.csv): run the same command again to grade them\n",
                ungraded);
    return ungraded ? 2 : 0;
}

/* "INDEX NAME" of each student a run would grade, in the class's order. */
static int list_pending(const context *cx, const mw_class *c)
{
    for (int i = 0; i < c->n; i++)
        if (cx->opt.force || !already_graded(cx, c->subs[i].student))
            printf("%d %s\n", i, c->subs[i].student);
    return 0;
}

int main(int argc, char **argv)
{
    static context cx;
    parse_args(argc, argv, &cx.opt);
    setup(&cx);
    mw_class c;
    read_class(&cx, &c);
    if (cx.opt.time_limit) {
        printf("%.0f\n", student_limit_s(&cx));
        return 0;
    }
    if (cx.opt.list || cx.opt.merge || cx.opt.pending || one_student(&cx) ||
        cx.opt.student_index >= 0) {
        int rc = cx.opt.list      ? list_class(&cx, &c)
                 : cx.opt.merge   ? merge_class(&cx, &c)
                 : cx.opt.pending ? list_pending(&cx, &c)
                                  : grade_student(&cx, &c);
        mw_class_free(&c);
        return rc;
    }
    if (cx.opt.gpus[0]) {
        char self[PATH_MAX];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        if (n <= 0)
            die("%s", "cannot find this program's own path (/proc/self/exe)");
        self[n] = '\0';
        int rc = grade_on_gpus(&cx, &c, self);
        mw_class_free(&c);
        return rc;
    }
    /* Before any student: without a GPU every case would be skipped and
     * every student would get a zero that looks like a grade. */
    char why[512];
    int rc = probe_gpu(&cx, why, sizeof why);
    if (rc != 0) {
        fprintf(stderr,
                "mw-batch: %s: %s (%s info, exit %d): nothing was graded and nothing "
                "written; run make grade on the machine with the GPU\n",
                rc == 77 ? "no usable GPU" : "cannot ask the chapter program for the GPU", why,
                cx.grader, rc);
        mw_class_free(&c);
        return rc == 77 ? 77 : 2;
    }
    if (mw_mkdirs(cx.opt.out) != 0)
        die("cannot make the output folder %s", cx.opt.out);
    absolute(cx.opt.out, sizeof cx.opt.out);
    print_class(&cx, &c);
    printf("GPU: %s\n", why);
    if (cx.drop)
        printf("running each submission as user nobody (uid %d)\n", (int)cx.uid);
    rc = grade_class(&cx, &c);
    mw_class_free(&c);
    return rc;
}
