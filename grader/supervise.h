/* supervise.h: a child process held at arm's length: forked, read line by
 * line over a pipe, killed when it stays silent past its deadline.
 *
 * The check (check_cmd.c) runs the student's kernels in such a child, so
 * that an illegal address, a segfault or an endless loop ends the child,
 * never the grader. What a crash or a timeout means for the grade is the
 * check's to say; this file only runs, reads, waits and kills. */
#ifndef MW_SUPERVISE_H
#define MW_SUPERVISE_H

typedef struct mw_child {
    /* In the child: the work, its lines written to out_fd; returns the
     * child's exit status. */
    int (*run)(void *ctx, int out_fd);
    /* In the parent: one line the child wrote, without its newline. */
    void (*on_line)(void *ctx, const char *line);
    /* In the parent, before each read: how many milliseconds the child may
     * stay silent from now on before it counts as hung (-1: forever). */
    int (*wait_ms)(void *ctx);
    void *ctx;
} mw_child;

/* How the child ended. */
typedef struct mw_child_end {
    int timed_out; /* silent past its deadline, so killed (SIGKILL) */
    int wstatus;   /* as waitpid reports it */
} mw_child_end;

/* Forks the child, hands its lines to child->on_line until it closes the pipe
 * or outlives child->wait_ms, and reaps it. Exits the process (status 2)
 * when no pipe can be made. */
mw_child_end mw_supervise(const mw_child *child);

#endif
