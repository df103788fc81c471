/* stream_gate.c: the stream rule, checked (stream_gate.h). */
#include "stream_gate.h"

#include "check.h"
#include "device.h"

#include <string.h>

cudaError_t mw_gate_init(mw_gate *g)
{
    memset(g, 0, sizeof *g);
    cudaError_t err = cudaStreamCreateWithFlags(&g->stream, cudaStreamNonBlocking);
    if (err == cudaSuccess)
        err = cudaHostAlloc((void **)&g->flag, sizeof *g->flag, cudaHostAllocMapped);
    if (err == cudaSuccess)
        err = cudaHostGetDevicePointer((void **)&g->flag_dev, (void *)g->flag, 0);
    if (err == cudaSuccess)
        err = cudaMalloc((void **)&g->count_dev, 3 * sizeof *g->count_dev);
    if (err == cudaSuccess)
        err = cudaEventCreateWithFlags(&g->legacy_done, cudaEventDisableTiming);
    if (g->flag)
        *g->flag = 1;
    return err;
}

void mw_gate_free(mw_gate *g)
{
    mw_gate_open(g);
    if (g->stream)
        cudaStreamDestroy(g->stream);
    if (g->flag)
        cudaFreeHost((void *)g->flag);
    cudaFree(g->count_dev);
    if (g->legacy_done)
        cudaEventDestroy(g->legacy_done);
    memset(g, 0, sizeof *g);
}

cudaError_t mw_gate_close(mw_gate *g)
{
    *g->flag = 0;
    cudaError_t err = mw_dev_gate(g->flag_dev, MW_GATE_NS, g->stream);
    g->shut = err == cudaSuccess;
    if (!g->shut)
        *g->flag = 1;
    return err;
}

void mw_gate_open(mw_gate *g)
{
    if (g->flag)
        *g->flag = 1;
    g->shut = 0;
}

/* Output elements of v that are no longer the poison pattern. Everything
 * here runs on the legacy stream and allocates nothing: cudaMalloc and
 * cudaFree may wait for every stream, the held one too. */
static cudaError_t count_written(mw_gate *g, const mw_views *v, unsigned long long *written)
{
    *written = 0;
    for (int o = 0; o < v->nout; o++) {
        int b = v->out[o];
        unsigned long long r[3] = {0, ~0ULL, 0};
        cudaError_t err = cudaMemcpy(g->count_dev, r, sizeof r, cudaMemcpyHostToDevice);
        if (err == cudaSuccess)
            err = mw_dev_count_not_on(v->view[b], v->spec[b].count, MW_POISON_BITS, g->count_dev,
                                      cudaStreamLegacy);
        if (err == cudaSuccess)
            err = cudaMemcpy(r, g->count_dev, sizeof r, cudaMemcpyDeviceToHost);
        if (err != cudaSuccess)
            return err;
        *written += r[0];
    }
    return cudaSuccess;
}

cudaError_t mw_gate_judge_and_open(mw_gate *g, const mw_views *v, long long *outside)
{
    *outside = -1;
    if (!g->shut)
        return cudaSuccess;
    /* An event on the legacy stream completes after the work queued there
     * and on every blocking stream: wherever else a launcher might put it. */
    cudaError_t err = cudaEventRecord(g->legacy_done, cudaStreamLegacy);
    if (err == cudaSuccess)
        err = cudaEventSynchronize(g->legacy_done);
    unsigned long long written = 0;
    if (err == cudaSuccess)
        err = count_written(g, v, &written);
    /* Still shut (0) after the count: nothing queued on the stream ran. */
    if (err == cudaSuccess && *g->flag == 0)
        *outside = (long long)written;
    mw_gate_open(g);
    return err;
}
