/* proc.c: finding programs, waiting for them, the clock (proc.h). */
#define _POSIX_C_SOURCE 200809L
#include "proc.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int mw_which(const char *name, char *out, size_t len)
{
    const char *path = getenv("PATH");
    char buf[8192];
    snprintf(buf, sizeof buf, "%s:/usr/local/cuda/bin", path ? path : "/usr/bin:/bin");
    for (char *save, *d = strtok_r(buf, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
        snprintf(out, len, "%s/%s", d, name);
        if (access(out, X_OK) == 0)
            return 0;
    }
    out[0] = '\0';
    return -1;
}

int mw_poll_group(pid_t pid, double started_s, double limit_s, int *rc)
{
    int status;
    if (waitpid(pid, &status, WNOHANG) == pid) {
        kill(-pid, SIGKILL); /* what it left behind in its group */
        *rc = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        return 1;
    }
    if (mw_now_s() - started_s <= limit_s)
        return 0;
    kill(-pid, SIGKILL);
    waitpid(pid, &status, 0);
    *rc = -1;
    return 1;
}

int mw_wait_group(pid_t pid, double limit_s)
{
    double start = mw_now_s();
    struct timespec pause = {0, 20 * 1000 * 1000};
    int rc;
    while (!mw_poll_group(pid, start, limit_s, &rc))
        nanosleep(&pause, NULL);
    return rc;
}

int mw_proc_stat(pid_t pid, char *state, pid_t *ppid, pid_t *pgrp)
{
    char path[64], buf[512];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *fp = fopen(path, "r");
    if (!fp)
        return -1;
    size_t got = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[got] = '\0';
    char *after = strrchr(buf, ')'); /* the name may hold anything */
    int parent, group;
    if (!after || sscanf(after + 1, " %c %d %d", state, &parent, &group) != 3)
        return -1;
    *ppid = (pid_t)parent;
    *pgrp = (pid_t)group;
    return 0;
}

double mw_now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}
