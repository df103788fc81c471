/* batch.c: mw-batch, grading a folder of submissions in one command.
 *
 *   mw-batch --chapter 01-vector-add --submissions DIR --out DIR
 *            [--hidden FILE] [--rubric FILE] [--timeout S] [--force]
 *
 * Each submission is a folder (the chapter's exercise files are found in it
 * by name, up to six folders down) or a single .cu file (used for every
 * version). Only
 * those files are taken; the harness, cases, rubric and Makefile are the
 * instructor's. Per submission, in a scratch folder of its own:
 *   1. build each version (`make lib`),             build.log
 *   2. grade every case, hidden ones too,          check.log, check.csv
 *   3. compute-sanitizer on the small cases,        sanitize.log
 *   4. time it against the reference (`perf`),      perf.log, perf.csv
 * each step a child process in its own process group, with a wall-clock
 * timeout, CPU, file-size and open-file limits, an emptied environment, no
 * inherited file descriptors, and, when run as root, as user nobody. The
 * scores come from the files the grader's own (parent) process writes, never
 * from what a submission prints. Outputs in OUT: students/<name>/score.csv,
 * report.md, results.json and the logs; gradebook.csv. Every file is
 * written whole (temporary name, then rename); a re-run skips students
 * already graded unless --force. */
#define _GNU_SOURCE
#include "cases_file.h"
#include "csv.h"
#include "gradebook.h"
#include "rubric.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <math.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_VERSIONS 16

typedef struct options {
    char chapter[128];
    char submissions[PATH_MAX], out[PATH_MAX], hidden[PATH_MAX], rubric[PATH_MAX];
    double timeout_s; /* per case */
    int force;
} options;

/* What the batch knows of the chapter and the machine. */
typedef struct context {
    options opt;
    char root[PATH_MAX];                 /* the instructor's repository */
    char grader[PATH_MAX];               /* build/<chapter>/mw-grade */
    char make[PATH_MAX], nvcc[PATH_MAX], arch[32];
    char versions[MAX_VERSIONS][64];     /* "01_naive" */
    int optional[MAX_VERSIONS];          /* an open challenge: no points either way */
    int nversions;
    mw_rubric rubric;
    uid_t uid;                           /* who runs the steps */
    gid_t gid;
    int drop;                            /* started as root: run steps as nobody */
    int sanitizer;                       /* compute-sanitizer is installed */
    int nhidden;                         /* cases in the hidden file */
    int ncases;                          /* the chapter's own cases */
} context;

/* ---- small helpers ------------------------------------------------------- */

static void die(const char *fmt, const char *arg)
{
    fprintf(stderr, "mw-batch: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    exit(2);
}

static int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Finds an executable on the PATH; 0 on success. */
static int which(const char *name, char *out, size_t len)
{
    const char *path = getenv("PATH");
    char buf[8192];
    snprintf(buf, sizeof buf, "%s:/usr/local/cuda/bin", path ? path : "/usr/bin:/bin");
    for (char *save, *d = strtok_r(buf, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(out, len, "%s/%s", d, name);
        if (access(out, X_OK) == 0)
            return 0;
    }
    return -1;
}

static int copy_file(const char *from, const char *to, mode_t mode)
{
    FILE *in = fopen(from, "rb");
    if (!in)
        return -1;
    FILE *out = fopen(to, "wb");
    if (!out) {
        fclose(in);
        return -1;
    }
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, n, out);
    fclose(in);
    int bad = fclose(out) != 0;
    chmod(to, mode);
    return bad ? -1 : 0;
}

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

/* ---- the sandbox ------------------------------------------------------- */

/* Runs argv in `dir` with stdout and stderr appended to `log`; returns the
 * exit status, 128 + signal, or -1 on a timeout (the whole process group is
 * killed). */
static int sandbox_run(const context *cx, const char *dir, char *const argv[], const char *log,
                       double timeout_s)
{
    pid_t pid = fork();
    if (pid < 0)
        return -2;
    if (pid == 0) {
        setpgid(0, 0);
        int fd = open(log, O_WRONLY | O_CREAT | O_APPEND, 0644);
        int null = open("/dev/null", O_RDONLY);
        if (fd < 0 || null < 0 || dup2(null, 0) < 0 || dup2(fd, 1) < 0 || dup2(fd, 2) < 0)
            _exit(126);
        for (int i = 3; i < 4096; i++) /* nothing inherited past stderr */
            close(i);
        struct rlimit cpu = {(rlim_t)(2 * timeout_s + 60), (rlim_t)(2 * timeout_s + 60)};
        struct rlimit fsize = {64 << 20, 64 << 20}; /* no file (log) over 64 MB */
        struct rlimit core = {0, 0}, files = {1024, 1024};
        setrlimit(RLIMIT_CPU, &cpu);
        setrlimit(RLIMIT_FSIZE, &fsize);
        setrlimit(RLIMIT_CORE, &core);
        setrlimit(RLIMIT_NOFILE, &files);
        if (chdir(dir) != 0)
            _exit(126);
        if (cx->drop && (setgroups(0, NULL) != 0 || setgid(cx->gid) != 0 || setuid(cx->uid) != 0))
            _exit(126);
        char path[PATH_MAX + 64], home[PATH_MAX + 8], tmp[PATH_MAX + 16], arch_env[64];
        char nvcc_dir[PATH_MAX];
        snprintf(nvcc_dir, sizeof nvcc_dir, "%s", cx->nvcc);
        char *slash = strrchr(nvcc_dir, '/');
        if (slash)
            *slash = '\0';
        snprintf(path, sizeof path, "PATH=%s:/usr/local/bin:/usr/bin:/bin", nvcc_dir);
        snprintf(home, sizeof home, "HOME=%s", dir);
        snprintf(tmp, sizeof tmp, "TMPDIR=%s/tmp", dir);
        snprintf(arch_env, sizeof arch_env, "ARCH=%s", cx->arch);
        char *env[8] = {path, home, tmp, "LANG=C", arch_env, NULL, NULL, NULL};
        int n = 5;
        const char *keep[] = {"LD_LIBRARY_PATH", "CUDA_VISIBLE_DEVICES"};
        static char kept[2][PATH_MAX + 32];
        for (int i = 0; i < 2; i++)
            if (getenv(keep[i])) {
                snprintf(kept[i], sizeof kept[i], "%s=%s", keep[i], getenv(keep[i]));
                env[n++] = kept[i];
            }
        execve(argv[0], argv, env);
        _exit(127);
    }
    setpgid(pid, pid);
    double start = (double)time(NULL);
    struct timespec pause = {0, 20 * 1000 * 1000};
    for (;;) {
        int status;
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid) {
            kill(-pid, SIGKILL); /* what it left behind in its group */
            return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        }
        if ((double)time(NULL) - start > timeout_s) {
            kill(-pid, SIGKILL);
            waitpid(pid, &status, 0);
            return -1;
        }
        nanosleep(&pause, NULL);
    }
}

/* A scratch folder the step's user can write. */
static void make_scratch(const context *cx, char *dir, size_t len)
{
    snprintf(dir, len, "/tmp/mw-grade-XXXXXX");
    if (!mkdtemp(dir))
        die("cannot make a scratch folder in /tmp: %s", strerror(errno));
    const char *sub[] = {"src", "lib", "tmp"};
    for (int i = 0; i < 3; i++) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, sub[i]);
        mkdir(path, 0755);
        if (cx->drop && chown(path, cx->uid, cx->gid) != 0)
            die("cannot hand %s to user nobody", path);
    }
    chmod(dir, 0755);
    if (cx->drop && chown(dir, cx->uid, cx->gid) != 0)
        die("cannot hand %s to user nobody", dir);
}

static void remove_tree(const char *dir)
{
    pid_t pid = fork();
    if (pid == 0) {
        execl("/bin/rm", "rm", "-rf", dir, (char *)NULL);
        _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);
}

/* ---- the chapter ----------------------------------------------------------- */

/* Versions and the number of cases from `mw-grade list`: the lines under
 * "versions:" and under "cases:". */
static void read_chapter(context *cx)
{
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "'%s' list", cx->grader);
    FILE *p = popen(cmd, "r");
    if (!p)
        die("cannot run %s list", cx->grader);
    char line[512];
    int in_versions = 0, in_cases = 0;
    while (fgets(line, sizeof line, p)) {
        if (strncmp(line, "versions:", 9) == 0)
            in_versions = 1;
        else if (strncmp(line, "cases:", 6) == 0)
            in_versions = 0, in_cases = 1;
        else if (in_cases)
            cx->ncases++;
        else if (in_versions && cx->nversions < MAX_VERSIONS &&
                 sscanf(line, " %63s", cx->versions[cx->nversions]) == 1)
            cx->optional[cx->nversions++] = strstr(line, "(optional)") != NULL;
    }
    if (pclose(p) != 0 || cx->nversions == 0)
        die("%s list gave no versions: build the chapter first (make build)", cx->grader);
}

/* ---- one submission --------------------------------------------------------- */

/* Copies the submission's exercise files into scratch/src; returns how many
 * versions were found. */
static int collect(const context *cx, const char *submission, const char *scratch,
                   int found[MAX_VERSIONS])
{
    int count = 0;
    for (int v = 0; v < cx->nversions; v++) {
        char name[80], from[PATH_MAX], to[PATH_MAX + 96];
        snprintf(name, sizeof name, "%s.cu", cx->versions[v]);
        struct stat st;
        int regular = lstat(submission, &st) == 0 && S_ISREG(st.st_mode);
        found[v] = is_dir(submission) ? find_file(submission, name, from, sizeof from, 0) == 0
                                      : (snprintf(from, sizeof from, "%s", submission), regular);
        if (!found[v])
            continue;
        snprintf(to, sizeof to, "%s/src/%s", scratch, name);
        found[v] = copy_file(from, to, 0644) == 0;
        count += found[v];
    }
    return count;
}

static void log_path(char *out, size_t len, const char *scratch, const char *name)
{
    snprintf(out, len, "%s/%s", scratch, name);
}

/* Builds each version found; notes those that do not compile. */
static void build_versions(const context *cx, const char *scratch, const int found[],
                           int built[], char *status, size_t len)
{
    char log[PATH_MAX + 16];
    log_path(log, sizeof log, scratch, "build.log");
    for (int v = 0; v < cx->nversions; v++) {
        built[v] = 0;
        if (!found[v])
            continue;
        char ch_arg[160], kernel[PATH_MAX + 96], libdir[PATH_MAX + 16], nvcc_arg[PATH_MAX + 8];
        char arch_arg[48], root_arg[PATH_MAX];
        snprintf(ch_arg, sizeof ch_arg, "CH=%s", cx->opt.chapter);
        snprintf(kernel, sizeof kernel, "KERNEL=%s/src/%s.cu", scratch, cx->versions[v]);
        snprintf(libdir, sizeof libdir, "LIBDIR=%s/lib", scratch);
        snprintf(nvcc_arg, sizeof nvcc_arg, "NVCC=%s", cx->nvcc);
        snprintf(arch_arg, sizeof arch_arg, "ARCH=%s", cx->arch);
        snprintf(root_arg, sizeof root_arg, "%s", cx->root);
        char *argv[] = {(char *)cx->make, "-s", "--no-print-directory", "-C", root_arg, "lib",
                        ch_arg, kernel, libdir, nvcc_arg, arch_arg, NULL};
        int rc = sandbox_run(cx, scratch, argv, log, 300);
        built[v] = rc == 0;
        if (!built[v]) {
            size_t used = strlen(status);
            snprintf(status + used, len - used, "%s%s does not compile%s", used ? "; " : "",
                     cx->versions[v], rc == -1 ? " (build timed out)" : "");
        }
    }
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

/* Reads check.csv into the student's cases and group tallies. */
static int read_check(const context *cx, const char *path, mw_student *s)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return -1;
    char *line = NULL, *f[8];
    size_t len = 0;
    int cap = 0;
    while (getline(&line, &len, fp) != -1) {
        if (mw_csv_split(line, f, 8) < 6 || strcmp(f[0], "chapter") == 0)
            continue;
        if (s->ncases == cap) {
            cap = cap ? 2 * cap : 64;
            s->cases = realloc(s->cases, (size_t)cap * sizeof *s->cases);
        }
        mw_case_result *c = &s->cases[s->ncases++];
        snprintf(c->version, sizeof c->version, "%s", f[1]);
        snprintf(c->group, sizeof c->group, "%s", is_optional(cx, f[1]) ? optional_group : f[2]);
        snprintf(c->shape, sizeof c->shape, "%s", f[3]);
        snprintf(c->status, sizeof c->status, "%s", f[4]);
        c->detail = strdup(f[5]);
        int g = 0;
        while (g < s->ngroups && strcmp(s->groups[g].name, c->group) != 0)
            g++;
        if (g == s->ngroups && s->ngroups < MW_RUBRIC_MAX)
            snprintf(s->groups[s->ngroups++].name, sizeof s->groups[0].name, "%s", c->group);
        if (g < MW_RUBRIC_MAX) {
            s->groups[g].total++;
            s->groups[g].passed += strcmp(c->status, "pass") == 0;
        }
    }
    free(line);
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
    FILE *fp = fopen(path, "r");
    char line[2048], *f[20];
    while (fp && fgets(line, sizeof line, fp)) {
        if (mw_csv_split(line, f, 20) < 17)
            continue;
        double ms = *f[8] ? strtod(f[8], NULL) : NAN;
        if (strcmp(f[1], want_student) == 0) {
            s->t_student = ms;
            snprintf(flag, flen, "%s", f[16]);
        } else if (strcmp(f[1], want_ref) == 0) {
            s->t_ref = ms;
        } else if (strcmp(f[2], "library") == 0 && isnan(s->t_lib)) {
            s->t_lib = ms;
        }
    }
    if (fp)
        fclose(fp);
}

static void score_performance(const context *cx, const char *scratch, mw_student *s)
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

static void score_sanitizer(const context *cx, const char *scratch, mw_student *s)
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
    snprintf(script, sizeof script, "%s/grader/sanitize.sh", cx->root);
    char *argv[] = {"/bin/sh", script, (char *)cx->grader, lib, s->name, "--required-only", NULL};
    int rc = sandbox_run(cx, scratch, argv, log, 900);
    s->sanitize_score = rc == 0 ? cx->rubric.sanitize_points : 0;
    snprintf(s->sanitize_note, sizeof s->sanitize_note, "%s",
             rc == 0    ? "memcheck, racecheck, initcheck and synccheck found nothing"
             : rc == -1 ? "timed out under compute-sanitizer: see sanitize.log"
                        : "compute-sanitizer found problems, or the cases failed under it: see "
                          "sanitize.log");
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
    /* Every case may take the per-case timeout, for every version, plus
     * CUDA start-up after each crash. */
    double limit = (cx->opt.timeout_s + 5) * (cx->ncases + cx->nhidden + 8) *
                       cx->nversions + 120;
    return sandbox_run(cx, scratch, argv, log, limit);
}

static void save_outputs(const context *cx, const char *scratch, mw_student *s)
{
    char dir[PATH_MAX + 160], path[PATH_MAX + 200];
    snprintf(dir, sizeof dir, "%s/students/%s", cx->opt.out, s->name);
    mw_mkdirs(dir);
    const char *logs[] = {"build.log", "check.log", "check.csv", "sanitize.log", "perf.log",
                          "perf.csv"};
    for (int i = 0; i < 6; i++) {
        char from[PATH_MAX + 16];
        snprintf(from, sizeof from, "%s/%s", scratch, logs[i]);
        snprintf(path, sizeof path, "%s/%s", dir, logs[i]);
        if (access(from, R_OK) == 0)
            copy_file(from, path, 0644);
    }
    snprintf(path, sizeof path, "%s/report.md", dir);
    mw_write_report(path, s, cx->opt.chapter);
    snprintf(path, sizeof path, "%s/results.json", dir);
    mw_write_results_json(path, s);
    /* Last: its presence means "graded" to a re-run. */
    snprintf(path, sizeof path, "%s/score.csv", dir);
    mw_write_score(path, s);
}

static void grade_one(const context *cx, const char *submission, const char *name)
{
    mw_student s;
    memset(&s, 0, sizeof s);
    snprintf(s.name, sizeof s.name, "%s", name);
    snprintf(s.hidden_group, sizeof s.hidden_group, "hidden");
    s.t_student = s.t_ref = s.t_lib = NAN;
    char scratch[PATH_MAX];
    make_scratch(cx, scratch, sizeof scratch);
    int found[MAX_VERSIONS], built[MAX_VERSIONS];
    char status[256] = "";
    if (collect(cx, submission, scratch, found) == 0) {
        snprintf(status, sizeof status, "no exercise file found; expected:");
        for (int v = 0; v < cx->nversions; v++) {
            size_t used = strlen(status);
            snprintf(status + used, sizeof status - used, " %s.cu", cx->versions[v]);
        }
    } else {
        for (int v = 0; v < cx->nversions; v++)
            if (!found[v] && !cx->optional[v]) {
                size_t used = strlen(status);
                snprintf(status + used, sizeof status - used, "%s%s.cu not submitted",
                         used ? "; " : "", cx->versions[v]);
            }
    }
    build_versions(cx, scratch, found, built, status, sizeof status);
    int rc = run_check(cx, scratch, name);
    char results[PATH_MAX + 16];
    snprintf(results, sizeof results, "%s/check.csv", scratch);
    if (read_check(cx, results, &s) != 0) {
        size_t used = strlen(status);
        snprintf(status + used, sizeof status - used, "%sthe grader could not finish (%s): see "
                 "check.log", used ? "; " : "", rc == -1 ? "timed out" : "crashed");
    }
    /* Groups as the cases name them; the rubric gives each its points. */
    for (int g = 0; g < s.ngroups; g++)
        s.group_score[g] = mw_rubric_group_score(&cx->rubric, &s.groups[g], &s.group_max[g]);
    score_sanitizer(cx, scratch, &s);
    score_performance(cx, scratch, &s);
    if (s.ncases > 0 && !any_status(&s, "pass") && !any_status(&s, "fail") &&
        !any_status(&s, "error") && !any_status(&s, "todo"))
    {
        size_t used = strlen(status);
        snprintf(status + used, sizeof status - used, "%snot graded: no case could run (no CUDA "
                 "GPU?): see check.log", used ? "; " : "");
    }
    snprintf(s.status, sizeof s.status, "%s", status[0] ? status : "graded");
    mw_student_total(&s);
    save_outputs(cx, scratch, &s);
    printf("  %-16s %6.1f of %5.1f  %s\n", s.name, s.total, s.max, s.status);
    fflush(stdout);
    mw_student_free(&s);
    remove_tree(scratch);
}

/* ---- the class ----------------------------------------------------------------- */

static void write_gradebook(const context *cx)
{
    char dir[PATH_MAX + 16], path[PATH_MAX + 200];
    snprintf(dir, sizeof dir, "%s/students", cx->opt.out);
    DIR *d = opendir(dir);
    mw_student *all = NULL;
    int n = 0, cap = 0;
    struct dirent *e;
    while (d && (e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s/score.csv", dir, e->d_name);
        if (n == cap) {
            cap = cap ? 2 * cap : 32;
            all = realloc(all, (size_t)cap * sizeof *all);
        }
        if (mw_read_score(path, &all[n]) == 0)
            n++;
    }
    if (d)
        closedir(d);
    snprintf(path, sizeof path, "%s/gradebook.csv", cx->opt.out);
    if (mw_write_gradebook(path, all, n, &cx->rubric) != 0)
        fprintf(stderr, "mw-batch: cannot write %s\n", path);
    free(all);
}

static int by_string(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Submissions: folders, and .cu files, sorted by name. */
static int list_submissions(const char *dir, char ***names)
{
    DIR *d = opendir(dir);
    if (!d)
        die("cannot read the submissions folder %s", dir);
    int n = 0, cap = 0;
    struct dirent *e;
    *names = NULL;
    while ((e = readdir(d))) {
        char path[PATH_MAX + 256];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (e->d_name[0] == '.' || !(is_dir(path) || ends_with(e->d_name, ".cu")))
            continue;
        if (n == cap) {
            cap = cap ? 2 * cap : 32;
            *names = realloc(*names, (size_t)cap * sizeof **names);
        }
        (*names)[n++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(*names, (size_t)n, sizeof **names, by_string);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            size_t len = strlen((*names)[i]);
            if (i != j && ends_with((*names)[j], ".cu") && strlen((*names)[j]) == len + 3 &&
                strncmp((*names)[i], (*names)[j], len) == 0)
                die("two submissions for one student: %s and its folder; keep one", (*names)[j]);
        }
    return n;
}

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: mw-batch --chapter NN-name --submissions DIR --out DIR [--hidden FILE]\n"
            "                [--rubric FILE] [--timeout SECONDS] [--force]\n"
            "Grades every submission in DIR (a folder or a .cu file per student) with the\n"
            "chapter's harness, cases and rubric, each in a sandboxed scratch folder, and\n"
            "writes DIR_OUT/gradebook.csv and DIR_OUT/students/<name>/{report.md,\n"
            "results.json,score.csv,logs}. Students already graded are skipped unless\n"
            "--force. Run it from the repository root, after `make build`.\n");
}

static void parse_args(int argc, char **argv, options *o)
{
    memset(o, 0, sizeof *o);
    o->timeout_s = 30;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--help") == 0) {
            usage(stdout);
            exit(0);
        } else if (strcmp(a, "--force") == 0) {
            o->force = 1;
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
        else {
            usage(stderr);
            exit(2);
        }
        i++;
    }
    if (!o->chapter[0] || !o->submissions[0] || !o->out[0]) {
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
    if (sandbox_run(cx, scratch, probe, log, 30) == 0)
        printf("warning: user nobody can read solutions/ or build/solutions/: a submission "
               "could include or load the reference. Before grading: chmod -R go= solutions "
               "build/solutions tests/class instructor\n");
    remove_tree(scratch);
}

static void setup(context *cx)
{
    if (!getcwd(cx->root, sizeof cx->root))
        die("%s", "cannot read the current folder");
    snprintf(cx->grader, sizeof cx->grader, "%s/build/%s/mw-grade", cx->root, cx->opt.chapter);
    if (access(cx->grader, X_OK) != 0)
        die("%s is not built: run make build (or make grade) first", cx->grader);
    if (which("make", cx->make, sizeof cx->make) != 0 || which("nvcc", cx->nvcc, sizeof cx->nvcc) != 0)
        die("%s", "make and nvcc must be on the PATH");
    FILE *fp = popen("sh grader/detect-arch.sh", "r");
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
    mw_mkdirs(cx->opt.out);
    absolute(cx->opt.out, sizeof cx->opt.out);
    read_chapter(cx);
    int known = cx->rubric.perf_points <= 0;
    for (int v = 0; v < cx->nversions; v++)
        known |= strcmp(cx->versions[v], cx->rubric.perf_version) == 0;
    if (!known)
        die("the rubric times version '%s', which this chapter does not have",
            cx->rubric.perf_version);
    char found[PATH_MAX];
    cx->sanitizer = which("compute-sanitizer", found, sizeof found) == 0;
    const char *no_drop = getenv("MW_NO_DROP");
    cx->drop = geteuid() == 0 && !(no_drop && strcmp(no_drop, "1") == 0);
    if (geteuid() == 0 && !cx->drop)
        printf("warning: MW_NO_DROP is set: submissions run as root\n");
    if (cx->drop) {
        struct passwd *pw = getpwnam("nobody");
        if (!pw)
            die("%s", "running as root, but there is no user nobody to run submissions as");
        cx->uid = pw->pw_uid;
        cx->gid = pw->pw_gid;
        check_readable(cx);
    }
}

int main(int argc, char **argv)
{
    context cx;
    memset(&cx, 0, sizeof cx);
    parse_args(argc, argv, &cx.opt);
    setup(&cx);
    char **names;
    int n = list_submissions(cx.opt.submissions, &names);
    printf("memwall grade %s: %d submission(s) from %s%s%s\n", cx.opt.chapter, n,
           cx.opt.submissions, cx.opt.hidden[0] ? ", hidden cases from " : "", cx.opt.hidden);
    if (cx.drop)
        printf("running each submission as user nobody (uid %d)\n", (int)cx.uid);
    time_t started = time(NULL);
    for (int i = 0; i < n; i++) {
        char name[256], score[PATH_MAX + 300], path[PATH_MAX + 256];
        snprintf(name, sizeof name, "%s", names[i]);
        if (ends_with(name, ".cu"))
            name[strlen(name) - 3] = '\0';
        snprintf(score, sizeof score, "%s/students/%s/score.csv", cx.opt.out, name);
        snprintf(path, sizeof path, "%s/%s", cx.opt.submissions, names[i]);
        if (!cx.opt.force && access(score, R_OK) == 0) {
            printf("  %-16s already graded (use --force, or FORCE=1, to grade again)\n", name);
        } else {
            grade_one(&cx, path, name);
            write_gradebook(&cx);
        }
        free(names[i]);
    }
    write_gradebook(&cx);
    printf("wrote %s/gradebook.csv (%d submissions, %ld s)\n", cx.opt.out, n,
           (long)(time(NULL) - started));
    free(names);
    return 0;
}
