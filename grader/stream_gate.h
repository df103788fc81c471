/* stream_gate.h: does a launcher put its work on the stream it is given?
 *
 * Every launcher takes a `stream` and must launch there (the chapters'
 * headers say so): a caller orders its own work after the result by that
 * stream alone. A kernel launched with <<<grid, block>>> goes to the legacy
 * default stream instead, and the answer is right whenever the caller
 * happens to synchronize the whole device, as a plain check does.
 *
 * The check therefore hands the launcher a stream of its own, created
 * non-blocking (the legacy stream does not wait for it), and holds it
 * shut while the launcher runs: a one-thread kernel on it waits for the
 * host (mw_gate_close). Work the launcher queued on that stream cannot
 * start. Once the launcher returns, the gate waits for the legacy stream
 * (and with it every blocking stream), counts the output elements written
 * meanwhile, and opens (mw_gate_judge_and_open). An element written while
 * the stream was held was written by work launched elsewhere.
 *
 * A launcher that waits for the GPU itself (cudaDeviceSynchronize,
 * cudaFree) would wait for the gate forever: the gate kernel gives up after
 * MW_GATE_NS, and the run is then not judged. So would the first launch of
 * a kernel that CUDA loads lazily, and a launcher that tunes itself on its
 * first call: the check holds the stream on a case's second run only. */
#ifndef MW_STREAM_GATE_H
#define MW_STREAM_GATE_H

#include "harness.h"

#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Half a second: far longer than the launch of any case's kernels takes
 * the host, short enough that a launcher that synchronizes costs little. */
#define MW_GATE_NS 500000000ULL

typedef struct mw_gate {
    cudaStream_t stream;           /* the launcher's: created non-blocking */
    volatile int *flag;            /* mapped host memory: 0 shut, 1 opened, 2 gave up */
    int *flag_dev;                 /* its device address */
    unsigned long long *count_dev; /* mw_dev_count_not_on's result */
    cudaEvent_t legacy_done;       /* recorded on the legacy stream */
    int shut;                      /* a gate kernel is waiting on the stream */
} mw_gate;

cudaError_t mw_gate_init(mw_gate *g);
void mw_gate_free(mw_gate *g);
/* Queues the gate on g->stream: work queued after it waits for the host. */
cudaError_t mw_gate_close(mw_gate *g);
/* After the launcher returned: waits for the legacy stream, counts into
 * *outside the output elements of v no longer poisoned, and opens the gate.
 * *outside is -1 when the gate gave up before the count was done (the
 * launcher waited for the GPU): nothing can be said then. */
cudaError_t mw_gate_judge_and_open(mw_gate *g, const mw_views *v, long long *outside);
/* Opens the gate, if shut, without judging (the launcher failed). */
void mw_gate_open(mw_gate *g);

#ifdef __cplusplus
}
#endif

#endif
