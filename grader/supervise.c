/* supervise.c: fork a child, read its pipe line by line, enforce its
 * deadline (supervise.h). */
#define _GNU_SOURCE
#include "supervise.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* Reads one line from the child, waiting at most `wait_ms` (-1: forever).
 * Returns 1 with a line, 0 on end of stream, -1 on timeout. */
static int read_line(int fd, char *buf, size_t len, int wait_ms, char *pending, size_t *plen)
{
    for (;;) {
        char *nl = memchr(pending, '\n', *plen);
        if (nl) {
            size_t l = (size_t)(nl - pending);
            size_t copy = l < len - 1 ? l : len - 1;
            memcpy(buf, pending, copy);
            buf[copy] = '\0';
            memmove(pending, nl + 1, *plen - l - 1);
            *plen -= l + 1;
            return 1;
        }
        struct pollfd p = {fd, POLLIN, 0};
        int r = poll(&p, 1, wait_ms);
        if (r == 0)
            return -1;
        if (r < 0 && errno == EINTR)
            continue;
        ssize_t got = read(fd, pending + *plen, 8192 - *plen - 1);
        if (got <= 0)
            return 0;
        *plen += (size_t)got;
    }
}

mw_child_end mw_supervise(const mw_child *child)
{
    int fds[2];
    if (pipe(fds) != 0) {
        perror("pipe");
        exit(2);
    }
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        close(fds[0]);
        _exit(child->run(child->ctx, fds[1]));
    }
    close(fds[1]);
    char line[2048], pending[8192];
    size_t plen = 0;
    mw_child_end end = {0, 0};
    for (;;) {
        int r = read_line(fds[0], line, sizeof line, child->wait_ms(child->ctx), pending, &plen);
        if (r == 0)
            break;
        if (r < 0) {
            end.timed_out = 1;
            kill(pid, SIGKILL);
            break;
        }
        child->on_line(child->ctx, line);
    }
    close(fds[0]);
    waitpid(pid, &end.wstatus, 0);
    return end;
}
