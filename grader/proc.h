/* proc.h: running other programs the way every part of the grader does:
 * finding them, and waiting for them with a time limit. */
#ifndef MW_PROC_H
#define MW_PROC_H

#include <stddef.h>
#include <sys/types.h>

/* The executable `name` on the PATH, then in the toolkit's usual place,
 * /usr/local/cuda/bin (where ncu and compute-sanitizer live when only nvcc
 * was put on the PATH); its path in out and 0, or -1 with out empty. */
int mw_which(const char *name, char *out, size_t len);

/* Waits for child `pid`, the leader of its own process group, for at most
 * limit_s seconds, then kills the group: what the child left running, or,
 * past the limit, the child and all it started. Returns the child's exit
 * code (128 + the signal when one ended it), or -1 past the limit. */
int mw_wait_group(pid_t pid, double limit_s);

/* One look at such a child, started at started_s (mw_now_s) with limit_s
 * seconds: 0 while it runs within them; else 1, its group killed and *rc
 * as mw_wait_group returns it. For a caller that waits on several. */
int mw_poll_group(pid_t pid, double started_s, double limit_s, int *rc);

/* Process `pid`'s state letter ('R', 'S', 'Z' ...), parent and process
 * group, from /proc/<pid>/stat; 0, or -1 where it cannot be read. */
int mw_proc_stat(pid_t pid, char *state, pid_t *ppid, pid_t *pgrp);

/* Seconds on the monotonic clock: for durations, never the date. */
double mw_now_s(void);

#endif
