/* workers.c: a class on several GPUs of one host (mw-batch --gpus).
 *
 * One worker per GPU. A worker is a slot in this process, not a process of
 * its own: each student is a child, `mw-batch ... --student NAME`, in its
 * own process group, with CUDA_VISIBLE_DEVICES set to the worker's GPU, so
 * that a timed run never shares its GPU, and with a scratch root of the
 * worker's (MW_BATCH_SCRATCH), so that what a killed child leaves is found
 * and removed. Students are handed out in the class's order as workers free
 * up, so that a slow student holds one GPU and no queue behind it.
 *
 * The child writes the student's files itself, as a one-GPU run does. What
 * it cannot say, this process says for it in students/<name>/not-graded.txt:
 * it was killed (a signal), it ran past the whole-student limit (the sum of
 * its steps' own limits), or it exited otherwise. A child that exits 77
 * found its GPU unusable: its worker stops, the others go on, and students
 * no worker is left for are recorded with that reason. Nothing a child does
 * costs another student anything; the same command grades again the
 * students without a grade. This process is the subreaper of the children's
 * steps (which run in process groups of their own), so that a killed child
 * leaves nothing running on its GPU. */
#define _GNU_SOURCE
#include "batch.h"
#include "csv.h"
#include "proc.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_GPUS 64

typedef struct worker {
    char gpu[64];        /* what CUDA_VISIBLE_DEVICES gets: "2", or a GPU's UUID */
    char scratch[PATH_MAX]; /* the children's scratch root */
    pid_t pid;           /* the child grading a student; 0 when free */
    int student;         /* its index in the class */
    time_t started;
    int retired;         /* its GPU was found unusable */
} worker;

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
    stop_signal = sig;
}

/* ---- the GPUs ------------------------------------------------------------------ */

/* "0,2,3" (or UUIDs) into gpus; -1 with why on a malformed or repeated one. */
static int parse_list(const char *list, char gpus[][64], int *n, char *why, size_t len)
{
    *n = 0;
    char copy[256];
    snprintf(copy, sizeof copy, "%s", list);
    for (char *save, *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        for (const char *p = t; *p; p++)
            if (!isalnum((unsigned char)*p) && *p != '-') {
                snprintf(why, len, "GPUS=%s: '%s' is not a GPU index or UUID", list, t);
                return -1;
            }
        for (int i = 0; i < *n; i++)
            if (strcmp(gpus[i], t) == 0) {
                snprintf(why, len, "GPUS=%s names GPU %s twice", list, t);
                return -1;
            }
        if (*n == MAX_GPUS || strlen(t) >= 64) {
            snprintf(why, len, "GPUS=%s: too many GPUs, or too long a name", list);
            return -1;
        }
        snprintf(gpus[(*n)++], 64, "%s", t);
    }
    if (*n == 0)
        snprintf(why, len, "GPUS=%s names no GPU", list);
    return *n ? 0 : -1;
}

/* GPUS=all: the indices `nvidia-smi -L` lists ("GPU 0: NVIDIA H100 ..."),
 * within what CUDA_VISIBLE_DEVICES already allows, if it is set. */
static int list_all(char gpus[][64], int *n)
{
    *n = 0;
    FILE *p = popen("nvidia-smi -L 2>/dev/null", "r");
    char line[512];
    while (p && fgets(line, sizeof line, p)) {
        int index;
        if (sscanf(line, "GPU %d:", &index) == 1 && *n < MAX_GPUS)
            snprintf(gpus[(*n)++], 64, "%d", index);
    }
    if (p)
        pclose(p);
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");
    if (*n && visible && visible[0]) {
        char why[256];
        return parse_list(visible, gpus, n, why, sizeof why);
    }
    return *n ? 0 : -1;
}

/* ---- the children --------------------------------------------------------------- */

/* Kills what the children left behind: processes that came to this one
 * when their parent died, each with its process group. */
static void kill_orphans(const worker *w, int nw)
{
    for (int pass = 0; pass < 3; pass++) {
        DIR *d = opendir("/proc");
        struct dirent *e;
        int killed = 0;
        while (d && (e = readdir(d))) {
            pid_t pid = (pid_t)atoi(e->d_name), ppid, pgrp;
            char state;
            if (pid <= 0 || mw_proc_stat(pid, &state, &ppid, &pgrp) != 0 || ppid != getpid())
                continue;
            int busy = 0;
            for (int i = 0; i < nw; i++)
                busy |= w[i].pid == pid;
            if (busy)
                continue;
            if (pgrp > 1 && pgrp != (int)getpgrp())
                kill(-pgrp, SIGKILL);
            kill(pid, SIGKILL);
            waitpid(pid, NULL, 0); /* by its pid: a worker's child is reaped by its loop */
            killed++;
        }
        if (d)
            closedir(d);
        if (!killed)
            return;
        struct timespec pause = {0, 20 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
}

/* The arguments the child gets: this run's, for one student. */
static void child_argv(const context *cx, const char *self, const char *student, char *argv[],
                       char timeout[32])
{
    int n = 0;
    snprintf(timeout, 32, "%.0f", cx->opt.timeout_s);
    argv[n++] = (char *)self;
    argv[n++] = "--chapter";
    argv[n++] = (char *)cx->opt.chapter;
    argv[n++] = "--submissions";
    argv[n++] = (char *)cx->opt.submissions;
    argv[n++] = "--out";
    argv[n++] = (char *)cx->opt.out;
    argv[n++] = "--timeout";
    argv[n++] = timeout;
    argv[n++] = "--rubric";
    argv[n++] = (char *)cx->opt.rubric;
    if (cx->opt.hidden[0]) {
        argv[n++] = "--hidden";
        argv[n++] = (char *)cx->opt.hidden;
    }
    argv[n++] = "--force"; /* this process decided that it is to be graded */
    argv[n++] = "--student";
    argv[n++] = (char *)student;
    argv[n] = NULL;
}

static void start(const context *cx, const mw_class *c, const char *self, worker *w, int i)
{
    char *argv[24], timeout[32];
    child_argv(cx, self, c->subs[i].student, argv, timeout);
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0)
        die("cannot start a worker's child: %s", strerror(errno));
    if (pid == 0) {
        setpgid(0, 0);
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        setenv("CUDA_VISIBLE_DEVICES", w->gpu, 1);
        setenv("MW_BATCH_SCRATCH", w->scratch, 1);
        execv(self, argv);
        _exit(127);
    }
    setpgid(pid, pid);
    w->pid = pid;
    w->student = i;
    w->started = time(NULL);
}

/* The scratch folder a killed child was grading in (the one with step
 * logs), so that the logs of its attempt are kept; "" when none. */
static void left_scratch(const worker *w, char *dir, size_t len)
{
    dir[0] = '\0';
    DIR *d = opendir(w->scratch);
    struct dirent *e;
    while (d && (e = readdir(d)) && !dir[0]) {
        char unpack[PATH_MAX], build[PATH_MAX];
        snprintf(unpack, sizeof unpack, "%s/%s/unpack.log", w->scratch, e->d_name);
        snprintf(build, sizeof build, "%s/%s/build.log", w->scratch, e->d_name);
        if (e->d_name[0] != '.' && (access(unpack, F_OK) == 0 || access(build, F_OK) == 0))
            snprintf(dir, len, "%s/%s", w->scratch, e->d_name);
    }
    if (d)
        closedir(d);
}

/* Empties a worker's scratch root, keeping the root. */
static void empty_scratch(const worker *w)
{
    DIR *d = opendir(w->scratch);
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", w->scratch, e->d_name);
        if (e->d_name[0] != '.')
            remove_tree(path);
    }
    if (d)
        closedir(d);
}

/* Why the child that ended with status (STOPPED_PAST_LIMIT, STOPPED_BY_US)
 * left no word of its own. */
enum { STOPPED_PAST_LIMIT = -1, STOPPED_BY_US = -2 };
static void child_why(const worker *one, int status, double limit, char *why, size_t len)
{
    if (status == STOPPED_PAST_LIMIT)
        snprintf(why, len,
                 "worker on GPU %s ran past the whole-student limit of %.0f s and was stopped",
                 one->gpu, limit);
    else if (status == STOPPED_BY_US)
        snprintf(why, len, "the run was stopped (signal %d) while GPU %s graded it",
                 (int)stop_signal, one->gpu);
    else if (WIFSIGNALED(status))
        snprintf(why, len, "worker on GPU %s exited on signal %d (%s)", one->gpu,
                 WTERMSIG(status), strsignal(WTERMSIG(status)));
    else
        snprintf(why, len, "worker on GPU %s exited with code %d", one->gpu,
                 WEXITSTATUS(status));
}

/* What became of the child that ended with status; the student is recorded
 * as not graded where the child said nothing of it: it was killed, stopped,
 * or died before it could write. */
static outcome finish(const context *cx, const mw_class *c, worker *w, int nw, worker *one,
                      int status, double limit)
{
    const char *name = c->subs[one->student].student;
    one->pid = 0;
    int code = status >= 0 && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    if (code != 0 && code != 2 && code != 77)
        kill_orphans(w, nw); /* its steps, in their own process groups */
    char why[512];
    not_graded_reason(cx, name, why, sizeof why);
    if (code == 77) {
        one->retired = 1;
        fprintf(stderr, "mw-batch: GPU %s is unusable (%s): its worker stops; the other workers "
                        "go on\n",
                one->gpu, why[0] ? why : "no reason given");
    }
    int graded = already_graded(cx, name);
    if (!graded && (!why[0] || code < 0)) {
        child_why(one, status, limit, why, sizeof why);
        char scratch[PATH_MAX];
        left_scratch(one, scratch, sizeof scratch);
        mw_notes none = {0};
        save_not_graded(cx, scratch[0] ? scratch : "/nonexistent", name, why, &none);
        printf("  %-16s NOT GRADED: %s\n", name, why);
        fflush(stdout);
    }
    empty_scratch(one);
    return graded ? GRADED : code == 77 ? GPU_LOST : NOT_GRADED;
}

/* ---- the class ------------------------------------------------------------------- */

typedef struct tally {
    int graded, kept, not_graded, no_gpu;
} tally;

static void count(tally *t, outcome o)
{
    t->graded += o == GRADED;
    t->not_graded += o != GRADED;
    t->no_gpu += o == GPU_LOST;
}

/* Hands out the students in queue[0..nq) until each is done or every
 * worker has stopped; returns how many were handed out. */
static int run_workers(const context *cx, const mw_class *c, const char *self, worker *w,
                       int nw, const int *queue, int nq, tally *t)
{
    double limit = student_limit_s(cx);
    int next = 0;
    for (;;) {
        int busy = 0, alive = 0;
        for (int i = 0; i < nw; i++) {
            if (!w[i].pid && !w[i].retired && next < nq && !stop_signal)
                start(cx, c, self, &w[i], queue[next++]);
            busy += w[i].pid != 0;
            alive += !w[i].retired;
        }
        if (!busy && (next == nq || !alive || stop_signal))
            return next;
        int status;
        pid_t pid;
        while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
            for (int i = 0; i < nw; i++)
                if (w[i].pid == pid)
                    count(t, finish(cx, c, w, nw, &w[i], status, limit));
        for (int i = 0; i < nw; i++)
            if (w[i].pid && (stop_signal || difftime(time(NULL), w[i].started) > limit)) {
                kill(-w[i].pid, SIGKILL);
                waitpid(w[i].pid, &status, 0);
                count(t, finish(cx, c, w, nw, &w[i],
                                stop_signal ? STOPPED_BY_US : STOPPED_PAST_LIMIT, limit));
            }
        struct timespec pause = {0, 50 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
}

/* The GPUs to use, or the exit code of a refusal (77: none). */
static int choose_gpus(const context *cx, char gpus[][64], int *n)
{
    char why[512];
    if (strcmp(cx->opt.gpus, "all") != 0) {
        if (parse_list(cx->opt.gpus, gpus, n, why, sizeof why) == 0)
            return 0;
        fprintf(stderr, "mw-batch: %s\n", why);
        return 2;
    }
    if (list_all(gpus, n) == 0)
        return 0;
    /* No GPU listed: the chapter program says why, as a one-GPU run does. */
    int rc = probe_gpu(cx, why, sizeof why);
    fprintf(stderr,
            "mw-batch: no usable GPU: %s (nvidia-smi -L lists none%s%s): nothing was graded "
            "and nothing written; run make grade on the machine with the GPUs\n",
            rc ? why : "nvidia-smi is missing or failed", rc ? "; " : "",
            rc ? "mw-chapter info agrees" : "");
    return 77;
}

int grade_on_gpus(context *cx, const mw_class *c, const char *self)
{
    static char gpus[MAX_GPUS][64];
    int ngpus;
    int rc = choose_gpus(cx, gpus, &ngpus);
    if (rc != 0)
        return rc;
    time_t started = time(NULL);
    if (mw_mkdirs(cx->opt.out) != 0)
        die("cannot make the output folder %s", cx->opt.out);
    char out[PATH_MAX]; /* the children's steps run elsewhere: an absolute path */
    if (realpath(cx->opt.out, out))
        snprintf(cx->opt.out, sizeof cx->opt.out, "%s", out);
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    signal(SIGINT, on_stop);
    signal(SIGTERM, on_stop);
    worker w[MAX_GPUS];
    memset(w, 0, sizeof w);
    printf("memwall grade %s: %d submission(s) from %s on %d GPU(s):", cx->opt.chapter, c->n,
           cx->opt.submissions, ngpus);
    for (int i = 0; i < ngpus; i++) {
        snprintf(w[i].gpu, sizeof w[i].gpu, "%s", gpus[i]);
        snprintf(w[i].scratch, sizeof w[i].scratch, "%s/mw-batch-gpu-XXXXXX", scratch_root());
        if (!mkdtemp(w[i].scratch))
            die("cannot make a worker's scratch folder: %s", strerror(errno));
        chmod(w[i].scratch, 0755); /* user nobody makes its folders inside */
        printf(" %s", w[i].gpu);
    }
    printf("\n");
    tally t = {0};
    int *queue = malloc((size_t)(c->n ? c->n : 1) * sizeof *queue), nq = 0;
    for (int i = 0; i < c->n; i++) {
        if (!cx->opt.force && already_graded(cx, c->subs[i].student)) {
            printf("  %-16s already graded (use --force, or FORCE=1, to grade again)\n",
                   c->subs[i].student);
            t.kept++;
        } else {
            queue[nq++] = i;
        }
    }
    int handed = run_workers(cx, c, self, w, ngpus, queue, nq, &t);
    for (int i = handed; i < nq && !stop_signal; i++) { /* every worker stopped */
        const char *name = c->subs[queue[i]].student;
        char why[600], last[512] = "";
        for (int k = 0; k < ngpus && !last[0]; k++)
            if (w[k].retired && w[k].student >= 0)
                not_graded_reason(cx, c->subs[w[k].student].student, last, sizeof last);
        snprintf(why, sizeof why, "%s (every worker's GPU was found unusable)",
                 last[0] ? last : "no usable GPU");
        mw_notes none = {0};
        save_not_graded(cx, "/nonexistent", name, why, &none);
        printf("  %-16s NOT GRADED: %s\n", name, why);
        count(&t, GPU_LOST);
    }
    free(queue);
    for (int i = 0; i < ngpus; i++)
        rmdir(w[i].scratch);
    write_class_gradebook(cx, c);
    if (stop_signal) {
        fprintf(stderr, "mw-batch: stopped by signal %d: the students graded are kept; the "
                        "same command grades the rest\n",
                (int)stop_signal);
        return 128 + (int)stop_signal;
    }
    return report_class(cx, c->n, t.graded, t.kept, t.not_graded, t.no_gpu,
                        (long)(time(NULL) - started));
}
