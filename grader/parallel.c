/* parallel.c: a loop split over the CPU's cores (parallel.h). */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "parallel.h"

#include <pthread.h>
#include <sched.h>
#include <unistd.h>

enum { THREADS_MAX = 64 };

/* Not the cores online alone: a Slurm task or a taskset may hold a few of a
 * large node's, and a thread per core online would crowd those few. */
size_t mw_cores(void)
{
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) == 0 && CPU_COUNT(&allowed) > 0)
        return (size_t)CPU_COUNT(&allowed);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : (size_t)n;
}

typedef struct range {
    void (*fn)(void *ctx, size_t first, size_t end);
    void *ctx;
    size_t first, end;
} range;

static void *run_range(void *arg)
{
    const range *r = arg;
    if (r->first < r->end)
        r->fn(r->ctx, r->first, r->end);
    return NULL;
}

void mw_parallel_ranges(size_t count, size_t threads, size_t min_items,
                        void (*fn)(void *ctx, size_t first, size_t end), void *ctx)
{
    if (threads == 0)
        threads = mw_cores();
    if (threads > THREADS_MAX)
        threads = THREADS_MAX;
    if (min_items < 1)
        min_items = 1;
    if (threads > count / min_items)
        threads = count / min_items;
    if (threads < 1)
        threads = 1;
    pthread_t tid[THREADS_MAX];
    range part[THREADS_MAX];
    int started[THREADS_MAX] = {0};
    /* Range t is [t count / threads, (t + 1) count / threads): sizes differ by one at most. */
    for (size_t t = 0; t < threads; t++) {
        part[t] = (range){fn, ctx, count / threads * t + count % threads * t / threads,
                          count / threads * (t + 1) + count % threads * (t + 1) / threads};
        if (t > 0)
            started[t] = pthread_create(&tid[t], NULL, run_range, &part[t]) == 0;
    }
    run_range(&part[0]);
    for (size_t t = 1; t < threads; t++) {
        if (started[t])
            pthread_join(tid[t], NULL);
        else
            run_range(&part[t]); /* no thread could start: this one does its range */
    }
}
