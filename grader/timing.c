/* timing.c: flushed, synchronized, adaptive timing with CUDA events. */
#define _POSIX_C_SOURCE 200809L
#include "timing.h"

#include "proc.h"
#include "stats.h"

#include <math.h>
#include <stdlib.h>

/* One repetition: returns the event time and the host time around it. */
static cudaError_t one_rep(mw_timer *t, mw_timed_fn fn, void *ctx, int rep, double *event_ms,
                           double *wall_ms)
{
    cudaError_t err = t->prepare ? t->prepare(t->prepare_ctx, rep) : cudaSuccess;
    /* A different byte each time, so no layer can skip the write. */
    if (err == cudaSuccess)
        err = mw_gpu_memset_async(t->flush, rep & 0xff, t->flush_bytes, t->stream);
    if (err == cudaSuccess)
        err = mw_gpu_sync();
    if (err != cudaSuccess)
        return err;
    double t0 = mw_now_s();
    mw_gpu_event_record(t->start, t->stream);
    err = fn(ctx, t->stream);
    mw_gpu_event_record(t->stop, t->stream);
    cudaError_t sync = mw_gpu_sync();
    double t1 = mw_now_s();
    if (err == cudaSuccess)
        err = sync;
    if (err == cudaSuccess)
        err = mw_gpu_take_error();
    if (err != cudaSuccess)
        return err;
    float ms = 0;
    err = mw_gpu_event_elapsed_ms(&ms, t->start, t->stop);
    *event_ms = ms;
    *wall_ms = (t1 - t0) * 1e3;
    return err;
}

static cudaError_t empty_launch(void *ctx, cudaStream_t s)
{
    (void)ctx;
    extern cudaError_t mw_dev_empty(cudaStream_t);
    return mw_dev_empty(s);
}

cudaError_t mw_timer_init(mw_timer *t, size_t l2_bytes, cudaStream_t s)
{
    t->stream = s;
    t->flush_bytes = 2 * (l2_bytes ? l2_bytes : ((size_t)64 << 20));
    t->cap_s = 1.0;
    t->min_reps = 10;
    t->max_reps = 1000;
    t->target_rse = 0.01;
    t->prepare = NULL;
    t->prepare_ctx = NULL;
    const char *cap = getenv("MW_TIME_CAP");
    if (cap && atof(cap) > 0)
        t->cap_s = atof(cap);
    cudaError_t err = mw_gpu_alloc(&t->flush, t->flush_bytes);
    if (err == cudaSuccess)
        err = mw_gpu_event_create(&t->start);
    if (err == cudaSuccess)
        err = mw_gpu_event_create(&t->stop);
    if (err != cudaSuccess)
        return err;
    enum { N = 30 };
    double gap[N], ev, wall;
    for (int i = 0; i < N && err == cudaSuccess; i++) {
        err = one_rep(t, empty_launch, NULL, i, &ev, &wall);
        gap[i] = wall - ev;
    }
    t->base_gap_ms = mw_median(gap, N);
    return err;
}

void mw_timer_free(mw_timer *t)
{
    mw_gpu_free(t->flush);
    mw_gpu_event_destroy(t->start);
    mw_gpu_event_destroy(t->stop);
}

cudaError_t mw_time(mw_timer *t, mw_timed_fn fn, void *ctx, mw_timing *out)
{
    double *ev = malloc((size_t)t->max_reps * sizeof *ev);
    double *wall = malloc((size_t)t->max_reps * sizeof *wall);
    double *gap = malloc((size_t)t->max_reps * sizeof *gap);
    cudaError_t err = (ev && wall && gap) ? cudaSuccess : cudaErrorMemoryAllocation;
    double e0, w0;
    for (int i = 0; i < 3 && err == cudaSuccess; i++) /* warm-up */
        err = one_rep(t, fn, ctx, i, &e0, &w0);

    int n = 0;
    double started = mw_now_s();
    while (err == cudaSuccess && n < t->max_reps) {
        err = one_rep(t, fn, ctx, n, &ev[n], &wall[n]);
        gap[n] = wall[n] - ev[n];
        n++;
        int enough = n >= t->min_reps && mw_rel_stderr(ev, (size_t)n) < t->target_rse;
        if (enough || (n >= 3 && mw_now_s() - started > t->cap_s))
            break;
    }
    if (err == cudaSuccess) {
        out->reps = n;
        out->median_ms = mw_median(ev, (size_t)n);
        out->q1_ms = mw_quantile(ev, (size_t)n, 0.25);
        out->q3_ms = mw_quantile(ev, (size_t)n, 0.75);
        out->wall_ms = mw_median(wall, (size_t)n);
        double extra = mw_median(gap, (size_t)n) - t->base_gap_ms;
        /* 20 us plus 10% of the event time: far above the jitter of a
         * synchronize, far below the work a side stream would hide. */
        out->side_stream = extra > 0.02 + 0.1 * out->median_ms;
        out->time_ms = out->side_stream ? out->median_ms + extra : out->median_ms;
    }
    free(ev);
    free(wall);
    free(gap);
    return err;
}
