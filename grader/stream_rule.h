/* stream_rule.h: does a launcher put all its work on the stream it is given?
 *
 * Every launcher takes a `stream` and must launch there (the chapters'
 * headers say so): a caller orders its own work after the result by that
 * stream alone. A kernel launched with <<<grid, block>>> goes to the legacy
 * default stream instead, or to a stream the launcher made, and the answer
 * is right whenever the caller happens to synchronize the whole device, as
 * a plain check does.
 *
 * So the check hands the launcher a stream of its own, created
 * non-blocking (the legacy stream does not wait for it), and on a case's
 * second run records it instead of running it: the stream is in capture
 * mode while the launcher runs (cudaStreamBeginCapture), so what the
 * launcher queues there becomes a graph and does not execute, while work
 * it sends anywhere else runs at once. The harness then synchronizes the
 * whole device and counts the output elements no longer poisoned: each was
 * written by work launched off the stream. Only then does it launch the
 * graph on the stream, and the run is checked as any other.
 *
 * Capture forbids some calls (a synchronize, cudaFree); a launcher that
 * makes one breaks the capture. The recorded work is then dropped, the
 * output poisoned again, and the launcher called once more, plainly. Such
 * a run is judged by why the capture failed: work forked onto another
 * stream (that stream waited on an event recorded on `stream`) and never
 * joined back (`stream` never waited on that stream again) ends the capture
 * with cudaErrorStreamCaptureUnjoined, and breaks the rule as surely as a
 * launch elsewhere: the caller's `stream` does not wait for that work.
 * Other failures (a synchronize, an allocation that needs one) break no
 * rule, and the run is not judged. The first run of a case is never
 * captured: a launcher may tune itself or load its kernels on its first
 * call. */
#ifndef MW_STREAM_RULE_H
#define MW_STREAM_RULE_H

#include "harness.h"

#include "gpu.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Calls the launcher: the caller's function and its argument. */
typedef cudaError_t (*mw_launch_fn)(void *arg, cudaStream_t stream);

/* Runs launch(arg, stream) under capture as above. Returns the launcher's
 * own result; *ran receives the error of running what it recorded (the
 * kernels' own failures among them), *outside the output elements of v
 * written off the stream, or -1 when the run could not be judged that way
 * (the launcher broke the capture, or failed, and was called again
 * plainly: its work may still be running), and *unjoined 1 when the
 * capture broke because the launcher forked work off `stream` and never
 * joined it back. */
cudaError_t mw_stream_rule_run(cudaStream_t stream, mw_views *v, mw_launch_fn launch,
                               void *arg, long long *outside, cudaError_t *ran, int *unjoined);

#ifdef __cplusplus
}
#endif

#endif
