/* batch_sandbox.c: where mw-batch's steps run (a scratch folder, a child
 * process in its own group with limits, an emptied environment, user nobody
 * when started as root), and the small file helpers around it. */
#define _GNU_SOURCE
#include "batch.h"
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

void die(const char *fmt, const char *arg)
{
    fprintf(stderr, "mw-batch: ");
    fprintf(stderr, fmt, arg);
    fputc('\n', stderr);
    exit(2);
}

int is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* The rest of `in` onto `out`, and closes in. */
static void drain(FILE *in, FILE *out)
{
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0)
        fwrite(buf, 1, n, out);
    fclose(in);
}

/* Copies the open `in` to a new file `to` of mode `mode`, and closes in. */
static int copy_stream(FILE *in, const char *to, mode_t mode)
{
    FILE *out = fopen(to, "wb");
    if (!out) {
        fclose(in);
        return -1;
    }
    drain(in, out);
    int bad = fclose(out) != 0;
    chmod(to, mode);
    return bad ? -1 : 0;
}

int copy_file(const char *from, const char *to, mode_t mode)
{
    FILE *in = fopen(from, "rb");
    return in ? copy_stream(in, to, mode) : -1;
}

FILE *open_step_file(const char *path)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
        FILE *fp = fdopen(fd, "rb");
        if (fp)
            return fp;
    }
    if (fd >= 0)
        close(fd);
    return NULL;
}

FILE *write_step_file(const char *path, int append)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | (append ? O_APPEND : O_TRUNC),
                  0644);
    FILE *fp = fd >= 0 ? fdopen(fd, append ? "a" : "w") : NULL;
    if (fd >= 0 && !fp)
        close(fd);
    return fp;
}

int copy_step_file(const char *from, const char *to, mode_t mode)
{
    FILE *in = open_step_file(from);
    return in ? copy_stream(in, to, mode) : -1;
}

int append_step_file(const char *from, FILE *to)
{
    FILE *in = open_step_file(from);
    if (!in)
        return -1;
    drain(in, to);
    return 0;
}

void first_line(const char *path, char *out, size_t len)
{
    out[0] = '\0';
    FILE *fp = fopen(path, "r");
    if (!fp)
        return;
    if (fgets(out, (int)len, fp))
        out[strcspn(out, "\r\n")] = '\0';
    fclose(fp);
}

/* The child's side: limits, descriptors, user and environment, then exec. */
static void child(const context *cx, const char *dir, char *const argv[], const char *out,
                  const char *log, double timeout_s)
{
    setpgid(0, 0);
    /* Opened as root, in a folder the steps' user may write: never through
     * a link an earlier step left in a log's place. */
    int flags = O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW;
    int fd = open(log, flags, 0644);
    int fo = strcmp(out, log) == 0 ? fd : open(out, flags, 0644);
    int null = open("/dev/null", O_RDONLY);
    if (fd < 0 || fo < 0 || null < 0 || dup2(null, 0) < 0 || dup2(fo, 1) < 0 || dup2(fd, 2) < 0)
        _exit(126);
    for (int i = 3; i < 4096; i++) /* nothing inherited past stderr */
        close(i);
    rlim_t fmax = cx->fsize > 0 ? (rlim_t)cx->fsize : (rlim_t)64 << 20; /* no log over 64 MB */
    struct rlimit cpu = {(rlim_t)(2 * timeout_s + 60), (rlim_t)(2 * timeout_s + 60)};
    struct rlimit fsize = {fmax, fmax};
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

/* The process groups of the steps running now (0: a free slot): a step has
 * a group of its own, which a signal to the batch's group does not reach. */
#define MAX_RUNNING MAX_VERSIONS
static volatile sig_atomic_t running_steps[MAX_RUNNING];

/* Forks argv as a step (child() above), noted as running in slot. */
static pid_t sandbox_start(const context *cx, const char *dir, char *const argv[], const char *out,
                           const char *log, double timeout_s, int slot)
{
    pid_t pid = fork();
    if (pid < 0)
        return -1;
    if (pid == 0)
        child(cx, dir, argv, out, log, timeout_s);
    setpgid(pid, pid);
    running_steps[slot] = pid;
    return pid;
}

int sandbox_run_to(const context *cx, const char *dir, char *const argv[], const char *out,
                   const char *log, double timeout_s)
{
    pid_t pid = sandbox_start(cx, dir, argv, out, log, timeout_s, 0);
    if (pid < 0)
        return -2;
    int rc = mw_wait_group(pid, timeout_s);
    running_steps[0] = 0;
    return rc;
}

void sandbox_run_each(const context *cx, const char *dir, char **const argvs[], char *const logs[],
                      int n, int width, double timeout_s, int rcs[])
{
    pid_t pid[MAX_RUNNING];
    double started[MAX_RUNNING];
    int task[MAX_RUNNING], next = 0, left = n;
    if (width > MAX_RUNNING)
        width = MAX_RUNNING;
    if (width < 1)
        width = 1;
    for (int s = 0; s < width; s++)
        pid[s] = 0;
    struct timespec pause = {0, 20 * 1000 * 1000};
    while (left > 0) {
        for (int s = 0; s < width && next < n; s++) {
            if (pid[s])
                continue;
            task[s] = next++;
            started[s] = mw_now_s();
            pid[s] = sandbox_start(cx, dir, argvs[task[s]], logs[task[s]], logs[task[s]], timeout_s, s);
            if (pid[s] < 0) {
                pid[s] = 0;
                rcs[task[s]] = -2;
                left--;
            }
        }
        for (int s = 0; s < width; s++)
            if (pid[s] && mw_poll_group(pid[s], started[s], timeout_s, &rcs[task[s]])) {
                pid[s] = running_steps[s] = 0;
                left--;
            }
        if (left > 0)
            nanosleep(&pause, NULL);
    }
}

void sandbox_stop_running(void)
{
    for (int s = 0; s < MAX_RUNNING; s++)
        if (running_steps[s] > 0)
            kill(-(pid_t)running_steps[s], SIGKILL);
}

int sandbox_run(const context *cx, const char *dir, char *const argv[], const char *log,
                double timeout_s)
{
    return sandbox_run_to(cx, dir, argv, log, log, timeout_s);
}

int make_step_dir(const context *cx, const char *path)
{
    if (mkdir(path, 0755) != 0 && errno != EEXIST)
        return -1;
    chmod(path, 0755);
    return cx->drop && chown(path, cx->uid, cx->gid) != 0 ? -1 : 0;
}

const char *scratch_root(void)
{
    const char *root = getenv("MW_BATCH_SCRATCH");
    return root && root[0] == '/' ? root : "/tmp";
}

void make_scratch(const context *cx, char *dir, size_t len)
{
    snprintf(dir, len, "%s/mw-batch-XXXXXX", scratch_root());
    if (!mkdtemp(dir))
        die("cannot make a scratch folder: %s", strerror(errno));
    const char *sub[] = {"src", "lib", "tmp", "sub"};
    for (int i = 0; i < 4; i++) {
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/%s", dir, sub[i]);
        if (make_step_dir(cx, path) != 0)
            die("cannot make %s for user nobody", path);
    }
    chmod(dir, 0755);
    if (cx->drop && chown(dir, cx->uid, cx->gid) != 0)
        die("cannot hand %s to user nobody", dir);
}

void remove_tree(const char *dir)
{
    pid_t pid = fork();
    if (pid == 0) {
        execl("/bin/rm", "rm", "-rf", dir, (char *)NULL);
        _exit(127);
    }
    int status;
    waitpid(pid, &status, 0);
}

/* Every case may take the per-case timeout, for every version, plus CUDA
 * start-up after each crash. */
double check_limit_s(const context *cx)
{
    return (cx->opt.timeout_s + 5) * (cx->ncases + cx->nhidden + 8) * cx->nversions + 120;
}

/* The steps' own limits: unpacking (listing, then unpacking), each
 * version's build, the check, compute-sanitizer, the two timings, and the
 * three asks for the GPU. A student who takes longer is stuck past what any
 * of them allows. */
double student_limit_s(const context *cx)
{
    if (cx->opt.student_limit_s > 0)
        return cx->opt.student_limit_s;
    return 2 * 120 + 300.0 * cx->nversions + check_limit_s(cx) + 900 + 2 * 600 + 3 * 120;
}

/* `mw-chapter info`, run as the steps run (same user, same environment),
 * exits 77 without a GPU. */
int probe_gpu(const context *cx, char *why, size_t len)
{
    char scratch[PATH_MAX], log[PATH_MAX + 16];
    make_scratch(cx, scratch, sizeof scratch);
    snprintf(log, sizeof log, "%s/info.log", scratch);
    char *argv[] = {(char *)cx->grader, "info", "--brief", NULL};
    int rc = sandbox_run(cx, scratch, argv, log, 120);
    first_line(log, why, len);
    if (rc == -1)
        snprintf(why, len, "mw-chapter info timed out after 120 s");
    else if (!why[0])
        snprintf(why, len, "mw-chapter info exited %d", rc);
    remove_tree(scratch);
    return rc;
}
