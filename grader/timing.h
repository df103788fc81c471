/* timing.h: how every number in bench.csv is measured.
 *
 * Per repetition: flush L2 (write a buffer twice its size), wait, record a
 * start event, call, record a stop event, then cudaDeviceSynchronize so that
 * work sneaked onto another stream still finishes inside the repetition.
 * Warm-up first; then repetitions until the relative standard error of the
 * mean is under 1% (at least 10, at most 1000, or a time cap). Reported:
 * median and quartiles of the event times.
 *
 * The host clock around each repetition is kept too. If it exceeds the
 * event time by more than the harness's own launch overhead (measured at
 * start with an empty kernel), the work ran outside the timed stream: the
 * result is flagged "side-stream" and its time is the wall time less that
 * overhead, so escaping the events never makes anything look faster. */
#ifndef MW_TIMING_H
#define MW_TIMING_H

#include "gpu.h"

typedef cudaError_t (*mw_timed_fn)(void *ctx, cudaStream_t s);

typedef struct mw_timer {
    cudaStream_t stream;
    void *flush;
    size_t flush_bytes;
    mw_gpu_event start, stop;
    double base_gap_ms; /* wall - event for an empty kernel */
    double cap_s;       /* time cap per measurement */
    int min_reps, max_reps;
    double target_rse;
    /* Optional, untimed, before each repetition (fresh inputs, say). */
    cudaError_t (*prepare)(void *ctx, int rep);
    void *prepare_ctx;
} mw_timer;

typedef struct mw_timing {
    int reps;
    double median_ms, q1_ms, q3_ms; /* event times */
    double wall_ms;                 /* median host time per repetition */
    int side_stream;                /* work escaped the timed stream */
    double time_ms;                 /* what to report: median_ms, or wall less overhead */
} mw_timing;

/* Allocates the flush buffer (2 x L2), events, and measures the empty-launch
 * overhead. Returns a CUDA error code. */
cudaError_t mw_timer_init(mw_timer *t, size_t l2_bytes, cudaStream_t s);
void mw_timer_free(mw_timer *t);
/* Times fn(ctx, stream). Returns the first CUDA error (the call's own included). */
cudaError_t mw_time(mw_timer *t, mw_timed_fn fn, void *ctx, mw_timing *out);


#endif
