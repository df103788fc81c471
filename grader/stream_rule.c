/* stream_rule.c: the stream rule, checked by capture (stream_rule.h). */
#include "stream_rule.h"

#include "compare.h"
#include "device.h"

/* Output elements of v that are no longer the poison pattern. */
static cudaError_t count_written(const mw_views *v, long long *written)
{
    *written = 0;
    for (int o = 0; o < v->nout; o++) {
        int b = v->out[o];
        unsigned long long r[3];
        cudaError_t err =
            mw_dev_count_not(v->view[b], v->spec[b].type, v->spec[b].count, MW_POISON_BITS, r);
        if (err != cudaSuccess)
            return err;
        *written += (long long)r[0];
    }
    return cudaSuccess;
}

/* The launcher once more, uncaptured, on a freshly poisoned output. */
static cudaError_t run_plainly(cudaStream_t stream, mw_views *v, mw_launch_fn launch, void *arg)
{
    mw_gpu_take_error(); /* the capture's error, not the launcher's */
    cudaError_t err = mw_views_poison_output(v, 0);
    if (err == cudaSuccess)
        err = mw_gpu_sync();
    if (err != cudaSuccess)
        return err;
    return launch(arg, stream);
}

cudaError_t mw_stream_rule_run(cudaStream_t stream, mw_views *v, mw_launch_fn launch,
                               void *arg, long long *outside, cudaError_t *ran, int *unjoined)
{
    *outside = -1;
    *ran = cudaSuccess;
    *unjoined = 0;
    /* Relaxed: the launcher may still call cudaMalloc and the like. */
    if (mw_gpu_capture_begin(stream) != cudaSuccess)
        return run_plainly(stream, v, launch, arg);
    cudaError_t launched = launch(arg, stream);
    mw_gpu_graph graph = NULL;
    cudaError_t captured = mw_gpu_capture_end(stream, &graph);
    if (launched != cudaSuccess || captured != cudaSuccess || !graph) {
        if (graph)
            mw_gpu_graph_destroy(graph);
        /* A stream that waited on an event of the captured one joined the
         * capture; ending it with that stream's work not waited for again
         * fails with this error alone: forked, never joined. */
        *unjoined = launched == cudaSuccess && captured == cudaErrorStreamCaptureUnjoined;
        /* A launcher that failed is called again, so that its own error is
         * what the check reports, now outside any capture. */
        return run_plainly(stream, v, launch, arg);
    }
    /* Nothing the launcher queued on the stream has run: what the output
     * holds now was written by work launched elsewhere. */
    cudaError_t err2 = mw_gpu_sync();
    long long written = 0;
    if (err2 == cudaSuccess)
        err2 = count_written(v, &written);
    if (err2 == cudaSuccess)
        err2 = mw_gpu_graph_replay(graph, stream);
    mw_gpu_graph_destroy(graph);
    if (err2 == cudaSuccess)
        *outside = written;
    *ran = err2;
    return launched;
}
