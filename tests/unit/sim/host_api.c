/* host_api.c: the emulation's host side (grader/sim/host.c) against
 * hand-computed answers: device memory and its regions, copies and
 * memsets, errors sticky and not, streams, events, capture (a fork joined
 * back and one that is not), occupancy and a launch's configuration
 * checks. Linked with the stand-in scheduler (standin/host/run_grid.c),
 * which runs the body once per thread in a loop. The sticky fault comes
 * last: nothing after it can succeed. */
#define _POSIX_C_SOURCE 200809L
#include "run_grid.h"
#include "tap.h"

#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- a kernel for the launches: counts its threads, writes its index ---- */

typedef struct closure {
    int *out;       /* host memory: out[global thread index] = 1 + index */
    int runs;       /* threads that ran */
    int released;   /* times release was called */
} closure;

static void body(void *arg)
{
    closure *c = arg;
    unsigned i = standin_block.x * 64 + standin_thread.x;
    if (c->out)
        c->out[i] = (int)i + 1;
    c->runs++;
}

static void release(void *arg)
{
    closure *c = arg;
    c->released++;
}

static void kernel_key(void) {}
static void other_kernel_key(void) {}

static mw_sim_launch launch_of(closure *c, dim3 grid, dim3 block, size_t smem, cudaStream_t s)
{
    mw_sim_launch l = {.grid = grid,
                       .block = block,
                       .dynamic_smem = smem,
                       .stream = s,
                       .func = (const void *)(uintptr_t)kernel_key,
                       .name = "kernel",
                       .file = "host_api.c",
                       .line = __LINE__,
                       .body = body,
                       .closure = c,
                       .release = release};
    return l;
}

static dim3 d3(unsigned x, unsigned y, unsigned z)
{
    dim3 d = {x, y, z};
    return d;
}

static int all_bytes(const void *p, size_t n, unsigned char v)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        if (b[i] != v)
            return 0;
    return 1;
}

/* ---- device ------------------------------------------------------------- */

static void test_device(void)
{
    int n = -1, dev = -1, v = 0;
    is_int(cudaGetDeviceCount(&n), cudaSuccess, "cudaGetDeviceCount succeeds");
    is_int(n, 1, "one device");
    is_int(cudaGetDevice(&dev), cudaSuccess, "cudaGetDevice succeeds");
    is_int(dev, 0, "device 0 is current");
    is_int(cudaSetDevice(1), cudaErrorInvalidDevice, "cudaSetDevice(1): no such device");
    cudaGetLastError();
    struct cudaDeviceProp p;
    is_int(cudaGetDeviceProperties(&p, 0), cudaSuccess, "cudaGetDeviceProperties succeeds");
    is_str(p.name, "memwall CPU emulation", "the device's name");
    ok(p.major == 9 && p.minor == 0, "compute capability 9.0");
    is_int(p.multiProcessorCount, 4, "4 SMs");
    is_int(p.maxThreadsPerBlock, 1024, "1024 threads a block");
    is_int(p.maxGridSize[0], 2147483647, "grid x up to 2^31 - 1");
    is_int(p.maxThreadsDim[2], 64, "block z up to 64");
    is_int(p.l2CacheSize, 50 << 20, "50 MiB of L2");
    is_int(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlock, 0), cudaSuccess,
           "attribute: shared memory per block");
    is_int(v, 48 * 1024, "48 KiB a block by default");
    cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
    is_int(v, 227 * 1024, "227 KiB a block opted in");
    cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 0);
    is_int(v, 4, "attribute: 4 SMs");
    is_int(cudaDeviceGetAttribute(&v, cudaDevAttrMultiProcessorCount, 1), cudaErrorInvalidDevice,
           "attribute of device 1: no such device");
    cudaGetLastError();
    size_t free_b = 0, total_b = 0;
    is_int(cudaMemGetInfo(&free_b, &total_b), cudaSuccess, "cudaMemGetInfo succeeds");
    ok(total_b > 0 && free_b <= total_b, "the machine's memory: some, and free within total");
    int drv = 0, rt = 0;
    cudaDriverGetVersion(&drv);
    cudaRuntimeGetVersion(&rt);
    ok(drv == 13000 && rt == 13000, "driver and runtime report CUDA 13.0");
}

/* ---- memory and regions ------------------------------------------------------ */

static void test_memory(void)
{
    char *p = NULL;
    is_int(cudaMalloc((void **)&p, 1000), cudaSuccess, "cudaMalloc(1000) succeeds");
    ok(p && (uintptr_t)p % 256 == 0, "256-byte aligned");
    char fill[1000];
    cudaMemcpy(fill, p, sizeof fill, cudaMemcpyDeviceToHost);
    ok(all_bytes(fill, sizeof fill, 0xFF), "filled with 0xFF, not zeroed");
    const mw_sim_region *r = mw_sim_region_find(p);
    ok(r && r->base == p && r->bytes == 1000, "registered as a region of exactly 1000 bytes");
    ok(mw_sim_region_find(p + 999) == r, "its last byte is in it");
    ok(mw_sim_region_find(p + 1000) == NULL, "the byte past its end is in none");
    ok(mw_sim_region_find(p - 1) == NULL, "the byte before it is in none");

    char *q = NULL;
    cudaMalloc((void **)&q, 300);
    ok(mw_sim_region_find(q + 299) && mw_sim_region_find(q + 299)->base == q,
       "a second allocation is a region of its own");
    ok(mw_sim_region_find(p + 10) == r, "and the first is still found");

    void *z = (void *)1;
    is_int(cudaMalloc(&z, 0), cudaSuccess, "cudaMalloc(0) succeeds");
    ok(z == NULL, "with NULL");

    void *huge = NULL;
    is_int(cudaMalloc(&huge, SIZE_MAX / 2), cudaErrorMemoryAllocation,
           "a size the machine cannot give: cudaErrorMemoryAllocation, no abort");
    is_int(cudaGetLastError(), cudaErrorMemoryAllocation, "left for cudaGetLastError");
    is_int(cudaGetLastError(), cudaSuccess, "and cleared by it: not sticky");

    int local;
    is_int(cudaFree(&local), cudaErrorInvalidValue, "cudaFree of an unknown pointer");
    is_int(cudaFree(p + 1), cudaErrorInvalidValue, "cudaFree inside an allocation");
    cudaGetLastError();
    is_int(cudaFree(NULL), cudaSuccess, "cudaFree(NULL) is a no-op");
    is_int(cudaFree(p), cudaSuccess, "cudaFree of the allocation");
    ok(mw_sim_region_find(p) == NULL, "its region is gone");
    ok(mw_sim_region_find(q) != NULL, "the other stays");
    is_int(cudaFree(q), cudaSuccess, "cudaFree of the second");
    is_int(cudaFree(q), cudaErrorInvalidValue, "freeing it twice is an error");
    cudaGetLastError();
}

/* ---- lazily mapped allocations (lazy.c) ------------------------------------ */

/* A content for the tests: byte k of the device stands as its address's
 * low byte plus ctx[0], so that where a byte came from shows. */
static void produce_address(const void *ctx, char *dst, const char *at, size_t n)
{
    for (size_t k = 0; k < n; k++)
        dst[k] = (char)((uintptr_t)(at + k) + *(const unsigned char *)ctx);
}

static void test_lazy(void)
{
    const size_t bytes = MW_SIM_LAZY_BYTES + 4096 * 3 + 100, page = 4096;
    char *p = NULL;
    is_int(cudaMalloc((void **)&p, bytes), cudaSuccess,
           "an allocation past MW_SIM_LAZY_BYTES succeeds");
    const mw_sim_region *r = mw_sim_region_find(p);
    ok(r && r->lazy && r->bytes == bytes, "a region of exactly its bytes, mapped lazily");

    const mw_sim_content *c = NULL;
    size_t piece = mw_sim_lazy_piece(p, bytes, &c);
    int byte = 0;
    ok(piece == bytes && c && mw_sim_content_is_bytes(c, &byte) && byte == 0xFF,
       "untouched, all of it holds cudaMalloc's 0xFF bytes, as one piece");

    char got[16];
    cudaMemcpy(got, p + bytes - 16, 16, cudaMemcpyDeviceToHost);
    ok(all_bytes(got, 16, 0xFF), "its last bytes read 0xFF");
    is_int((int)mw_sim_lazy_piece(p + bytes - 100, 100, &c), 100,
           "the copy touched the last page: one piece of memory");
    ok(c == NULL, "read as memory, not as a content");

    is_int(cudaMemsetAsync(p + page + 10, 0x3c, 2 * page, 0), cudaSuccess, "a memset into it succeeds");
    mw_sim_content addr;
    memset(&addr, 0, sizeof addr);
    addr.produce = produce_address;
    addr.ctx[0] = 7;
    is_int(mw_sim_lazy_set(p + 5 * page, 3 * page, &addr), 1, "a content of its own is recorded");
    cudaMemcpy(got, p + page + 8, 4, cudaMemcpyDeviceToHost);
    ok((unsigned char)got[0] == 0xFF && (unsigned char)got[1] == 0xFF &&
           (unsigned char)got[2] == 0x3c && (unsigned char)got[3] == 0x3c,
       "a page two contents share reads each where it lies");
    char want = (char)((uintptr_t)(p + 6 * page + 3) + 7);
    ok(mw_sim_lazy_read(p + 6 * page + 3, got, 1) == 1 && got[0] == want,
       "mw_sim_lazy_read of an untouched page produces its content");
    ok(mw_sim_lazy_piece(p + 6 * page, page, &c) == page && c &&
           c->produce == produce_address,
       "and leaves it untouched: a piece of that content");
    is_int(mw_sim_lazy_touch(r, p + 6 * page + 3, 1), 0, "touching it (as a kernel's access)");
    is_int(cudaMemsetAsync(p + 6 * page, 0x11, 2, 0), cudaSuccess, "then a memset over part of it");
    cudaMemcpy(got, p + 6 * page, 4, cudaMemcpyDeviceToHost);
    ok(got[0] == 0x11 && got[1] == 0x11 && got[2] == (char)((uintptr_t)(p + 6 * page + 2) + 7),
       "a touched page takes a later content at once, where it lies");

    int ordinary;
    ok(mw_sim_lazy_set(&ordinary, sizeof ordinary, &addr) == 0 &&
           mw_sim_lazy_piece(&ordinary, sizeof ordinary, &c) == 0 &&
           mw_sim_lazy_read(&ordinary, got, 1) == 0,
       "outside a lazy region the lazy calls do nothing and say so");
    is_int(cudaFree(p), cudaSuccess, "cudaFree of a lazy allocation");
    ok(mw_sim_region_find(p) == NULL, "its region is gone");
}

/* ---- copies and memsets ---------------------------------------------------------- */

static void test_copies(void)
{
    int host[64], back[64];
    for (int i = 0; i < 64; i++)
        host[i] = i * 3;
    int *a = NULL, *b = NULL;
    cudaMalloc((void **)&a, sizeof host);
    cudaMalloc((void **)&b, sizeof host);
    is_int(cudaMemcpy(a, host, sizeof host, cudaMemcpyHostToDevice), cudaSuccess,
           "host to device");
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    is_int(cudaMemcpyAsync(b, a, sizeof host, cudaMemcpyDeviceToDevice, s), cudaSuccess,
           "device to device, async");
    is_int(cudaStreamSynchronize(s), cudaSuccess, "stream synchronize");
    is_int(cudaMemcpy(back, b, sizeof back, cudaMemcpyDeviceToHost), cudaSuccess,
           "device to host");
    ok(memcmp(back, host, sizeof host) == 0, "the round trip keeps every byte");
    is_int(cudaMemsetAsync(a, 0x01, 8, s), cudaSuccess, "memset async");
    cudaMemcpy(back, a, sizeof back, cudaMemcpyDeviceToHost);
    ok(back[0] == 0x01010101 && back[1] == 0x01010101 && back[2] == 6,
       "memset sets exactly its bytes");
    is_int(cudaMemcpy(back, a, sizeof back + 4, cudaMemcpyDeviceToHost), cudaErrorInvalidValue,
           "a copy past the allocation's end");
    is_int(cudaMemcpy(host, back, sizeof host, cudaMemcpyHostToDevice), cudaErrorInvalidValue,
           "host to device into host memory");
    is_int(cudaMemsetAsync(a + 60, 0, 32, s), cudaErrorInvalidValue,
           "a memset past the allocation's end");
    is_int(cudaGetLastError(), cudaErrorInvalidValue, "the error is left behind");
    is_int(cudaMemcpy(back, a, 0, cudaMemcpyDeviceToHost), cudaSuccess, "0 bytes: nothing to do");
    cudaStreamDestroy(s);
    cudaFree(a);
    cudaFree(b);
}

/* ---- device memory closed to the host --------------------------------------------- */

/* Whether a child process that reads through p dies of SIGSEGV. */
static int host_read_faults(const int *p)
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0)
        _exit(*(const volatile int *)p == 12345 ? 1 : 0);
    int status = 0;
    waitpid(pid, &status, 0);
    return pid > 0 && WIFSIGNALED(status) && WTERMSIG(status) == SIGSEGV;
}

static void test_closed_to_host(void)
{
    int *p = NULL, host[64];
    cudaMalloc((void **)&p, sizeof host);
    ok(host_read_faults(p), "a host read through a device pointer: SIGSEGV, as on a GPU");
    for (int i = 0; i < 64; i++)
        host[i] = -i;
    cudaMemcpy(p, host, sizeof host, cudaMemcpyHostToDevice);
    cudaMemsetAsync(p, 0, 4, 0);
    cudaMemcpy(host, p, sizeof host, cudaMemcpyDeviceToHost);
    ok(host[0] == 0 && host[63] == -63, "the runtime's copies and memsets reach it");
    ok(host_read_faults(p), "and close it again");
    closure c = {p, 0, 0};
    mw_sim_launch l = launch_of(&c, d3(1, 1, 1), d3(64, 1, 1), 0, 0);
    is_int(mw_sim_launch_kernel(&l), cudaSuccess, "a kernel writes through it");
    cudaMemcpy(host, p, sizeof host, cudaMemcpyDeviceToHost);
    ok(host[0] == 1 && host[63] == 64, "what it wrote is there");
    ok(host_read_faults(p), "and once the grid has run it is closed again");
    cudaFree(p);
}

/* ---- errors, names ---------------------------------------------------------------- */

static void test_errors(void)
{
    static const struct {
        cudaError_t err;
        const char *name;
    } names[] = {
        {cudaSuccess, "cudaSuccess"},
        {cudaErrorInvalidValue, "cudaErrorInvalidValue"},
        {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation"},
        {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration"},
        {cudaErrorNotYetImplemented, "cudaErrorNotYetImplemented"},
        {cudaErrorInsufficientDriver, "cudaErrorInsufficientDriver"},
        {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction"},
        {cudaErrorInvalidDevice, "cudaErrorInvalidDevice"},
        {cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice"},
        {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle"},
        {cudaErrorIllegalState, "cudaErrorIllegalState"},
        {cudaErrorNotReady, "cudaErrorNotReady"},
        {cudaErrorIllegalAddress, "cudaErrorIllegalAddress"},
        {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources"},
        {cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress"},
        {cudaErrorLaunchFailure, "cudaErrorLaunchFailure"},
        {cudaErrorNotSupported, "cudaErrorNotSupported"},
        {cudaErrorStreamCaptureUnsupported, "cudaErrorStreamCaptureUnsupported"},
        {cudaErrorStreamCaptureInvalidated, "cudaErrorStreamCaptureInvalidated"},
        {cudaErrorStreamCaptureUnmatched, "cudaErrorStreamCaptureUnmatched"},
        {cudaErrorStreamCaptureUnjoined, "cudaErrorStreamCaptureUnjoined"},
        {cudaErrorUnknown, "cudaErrorUnknown"},
    };
    int named = 0, said = 0;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        named += strcmp(cudaGetErrorName(names[i].err), names[i].name) == 0;
        const char *text = cudaGetErrorString(names[i].err);
        said += text && *text && strcmp(text, "unrecognized error code") != 0;
    }
    is_int(named, (int)(sizeof names / sizeof names[0]), "every declared error has its name");
    is_int(said, (int)(sizeof names / sizeof names[0]), "and a sentence");
    is_str(cudaGetErrorString(cudaErrorIllegalAddress), "an illegal memory access was encountered",
           "the toolkit's sentence");
    is_str(cudaGetErrorName((cudaError_t)12345), "unrecognized error code", "an unknown value");

    cudaSetDevice(7);
    is_int(cudaPeekAtLastError(), cudaErrorInvalidDevice, "peek sees the last error");
    is_int(cudaPeekAtLastError(), cudaErrorInvalidDevice, "and leaves it");
    int n;
    cudaGetDeviceCount(&n);
    is_int(cudaGetLastError(), cudaErrorInvalidDevice, "a call that succeeds keeps it");
    is_int(cudaGetLastError(), cudaSuccess, "cudaGetLastError cleared it");
}

/* ---- streams and events --------------------------------------------------------------- */

static void test_streams_events(void)
{
    cudaStream_t s;
    cudaEvent_t a, b, untimed;
    is_int(cudaStreamCreate(&s), cudaSuccess, "cudaStreamCreate");
    is_int(cudaStreamQuery(s), cudaSuccess, "a stream's work is always done");
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming);
    is_int(cudaEventQuery(a), cudaSuccess, "an event never recorded is complete");
    float ms = -1;
    is_int(cudaEventElapsedTime(&ms, a, b), cudaErrorInvalidResourceHandle,
           "elapsed time of events never recorded");
    cudaEventRecord(a, s);
    struct timespec pause = {0, 3 * 1000 * 1000};
    nanosleep(&pause, NULL);
    cudaEventRecord(b, 0);
    is_int(cudaEventSynchronize(b), cudaSuccess, "event synchronize");
    is_int(cudaEventElapsedTime(&ms, a, b), cudaSuccess, "elapsed time");
    ok(ms >= 3.0f && ms < 1000.0f, "from the host clock: at least the 3 ms slept");
    cudaEventRecord(untimed, s);
    is_int(cudaEventElapsedTime(&ms, a, untimed), cudaErrorInvalidResourceHandle,
           "an event without timing has no elapsed time");
    cudaGetLastError();
    cudaEventDestroy(a);
    cudaEventDestroy(b);
    cudaEventDestroy(untimed);
    is_int(cudaStreamDestroy(s), cudaSuccess, "stream destroy");
    is_int(cudaStreamSynchronize(s), cudaErrorInvalidResourceHandle, "a destroyed stream");
    cudaGetLastError();
}

/* ---- capture ------------------------------------------------------------------------------ */

static void test_capture(void)
{
    cudaStream_t s, side, other;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
    cudaStreamCreateWithFlags(&other, cudaStreamNonBlocking);
    int *dev = NULL, host[128];
    cudaMalloc((void **)&dev, sizeof host);

    /* Recorded, not run; run by the replay, as often as it is replayed. */
    closure c = {NULL, 0, 0};
    is_int(cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed), cudaSuccess, "begin capture");
    is_int(cudaMemsetAsync(dev, 0, sizeof host, s), cudaSuccess, "a memset is recorded");
    mw_sim_launch l = launch_of(&c, d3(2, 1, 1), d3(64, 1, 1), 0, s);
    is_int(mw_sim_launch_kernel(&l), cudaSuccess, "a launch is recorded");
    closure plain = {NULL, 0, 0};
    mw_sim_launch lo = launch_of(&plain, d3(1, 1, 1), d3(8, 1, 1), 0, other);
    mw_sim_launch_kernel(&lo);
    is_int(plain.runs, 8, "a launch on a stream outside the capture runs at once");
    is_int(c.runs, 0, "the captured launch has not run");
    cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost);
    ok(all_bytes(host, sizeof host, 0xFF), "nor has the captured memset");
    cudaGraph_t g = NULL;
    is_int(cudaStreamEndCapture(s, &g), cudaSuccess, "end capture");
    ok(g != NULL, "gives a graph");
    cudaGraphExec_t x = NULL;
    is_int(cudaGraphInstantiate(&x, g, 0), cudaSuccess, "instantiate");
    is_int(cudaGraphLaunch(x, s), cudaSuccess, "graph launch");
    is_int(c.runs, 128, "the replay runs the launch: every thread once");
    cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost);
    ok(all_bytes(host, sizeof host, 0), "and the memset");
    cudaGraphLaunch(x, s);
    is_int(c.runs, 256, "a second replay runs it again");
    is_int(cudaGraphExecDestroy(x), cudaSuccess, "exec destroy");
    is_int(c.released, 0, "the graph still holds the closure");
    is_int(cudaGraphDestroy(g), cudaSuccess, "graph destroy");
    is_int(c.released, 1, "then it is released, once");

    /* Forked onto another stream and joined back: a graph. */
    cudaEvent_t fork, join;
    cudaEventCreateWithFlags(&fork, cudaEventDisableTiming);
    cudaEventCreateWithFlags(&join, cudaEventDisableTiming);
    closure j = {NULL, 0, 0};
    cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
    cudaEventRecord(fork, s);
    is_int(cudaStreamWaitEvent(side, fork, 0), cudaSuccess, "a stream joins the capture");
    mw_sim_launch lj = launch_of(&j, d3(1, 1, 1), d3(4, 1, 1), 0, side);
    mw_sim_launch_kernel(&lj);
    is_int(j.runs, 0, "its launch is recorded too");
    cudaEventRecord(join, side);
    cudaStreamWaitEvent(s, join, 0);
    g = NULL;
    is_int(cudaStreamEndCapture(s, &g), cudaSuccess, "a fork joined back ends the capture");
    cudaGraphInstantiate(&x, g, 0);
    cudaGraphLaunch(x, s);
    is_int(j.runs, 4, "and the forked launch replays");
    cudaGraphExecDestroy(x);
    cudaGraphDestroy(g);
    is_int(j.released, 1, "released once");

    /* Forked and never joined back: the toolkit's error, no graph. */
    closure u = {NULL, 0, 0};
    cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
    cudaEventRecord(fork, s);
    cudaStreamWaitEvent(side, fork, 0);
    mw_sim_launch lu = launch_of(&u, d3(1, 1, 1), d3(4, 1, 1), 0, side);
    mw_sim_launch_kernel(&lu);
    g = (cudaGraph_t)&u;
    is_int(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureUnjoined,
           "a fork never joined back: cudaErrorStreamCaptureUnjoined");
    ok(g == NULL, "and no graph");
    ok(u.runs == 0 && u.released == 1, "the forked launch never ran, and was released once");
    cudaGetLastError();
    closure after = {NULL, 0, 0};
    mw_sim_launch la = launch_of(&after, d3(1, 1, 1), d3(4, 1, 1), 0, side);
    is_int(mw_sim_launch_kernel(&la), cudaSuccess, "the forked stream left the capture");
    is_int(after.runs, 4, "its next launch runs at once");

    /* A launch the device refuses fails the capture, and is released. */
    closure bad = {NULL, 0, 0};
    cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
    mw_sim_launch lbad = launch_of(&bad, d3(1, 1, 1), d3(2048, 1, 1), 0, s);
    is_int(mw_sim_launch_kernel(&lbad), cudaErrorInvalidConfiguration,
           "a launch with 2048 threads inside a capture: cudaErrorInvalidConfiguration");
    ok(bad.runs == 0 && bad.released == 1, "not recorded, and released once");
    g = NULL;
    is_int(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureInvalidated,
           "the capture ends invalidated");
    ok(g == NULL, "with no graph");
    cudaGetLastError();

    /* A synchronization inside the capture fails it. */
    cudaStreamBeginCapture(s, cudaStreamCaptureModeRelaxed);
    is_int(cudaStreamSynchronize(s), cudaErrorStreamCaptureUnsupported,
           "synchronizing a capturing stream");
    g = NULL;
    is_int(cudaStreamEndCapture(s, &g), cudaErrorStreamCaptureInvalidated,
           "then the capture ends invalidated");
    is_int(cudaStreamBeginCapture(0, cudaStreamCaptureModeRelaxed),
           cudaErrorStreamCaptureUnsupported, "the legacy stream cannot be captured");
    is_int(cudaStreamEndCapture(s, &g), cudaErrorIllegalState, "ending a capture never begun");
    cudaGetLastError();

    cudaEventDestroy(fork);
    cudaEventDestroy(join);
    cudaStreamDestroy(s);
    cudaStreamDestroy(side);
    cudaStreamDestroy(other);
    cudaFree(dev);
}

/* ---- occupancy ------------------------------------------------------------------------------ */

static void test_occupancy(void)
{
    const void *k = (const void *)(uintptr_t)other_kernel_key;
    int n = -1;
    is_int(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, 256, 0), cudaSuccess,
           "occupancy succeeds");
    is_int(n, 8, "256 threads: 2048 / 256 = 8 blocks");
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, 1024, 0);
    is_int(n, 2, "1024 threads: 2 blocks");
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, 32, 0);
    is_int(n, 32, "32 threads: the 32-block limit, not 64");
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, 96, 0);
    is_int(n, 21, "96 threads: 3 warps each, 64 / 3 = 21");
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, 33, 0);
    is_int(n, 32, "33 threads round up to 2 warps: 32 blocks");
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, 128, 48 * 1024);
    is_int(n, 4, "48 KiB each (+1 KiB reserved): 228 / 49 = 4");
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, 128, 48 * 1024 + 1);
    is_int(n, 0, "past the kernel's 48 KiB default: none");
    is_int(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024),
           cudaSuccess, "opting in to 227 KiB");
    is_int((long long)mw_sim_func_max_dynamic_smem(k), 227 * 1024, "the kernel's limit is kept");
    is_int((long long)mw_sim_func_max_dynamic_smem((const void *)(uintptr_t)kernel_key),
           48 * 1024, "another kernel's stays the default");
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, 128, 227 * 1024);
    is_int(n, 1, "227 KiB: one block");
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, 128, 100 * 1024);
    is_int(n, 2, "100 KiB: 228 / 101 = 2");
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, 1025, 0);
    is_int(n, 0, "1025 threads: none");
    is_int(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, k, 0, 0), cudaErrorInvalidValue,
           "0 threads: invalid");
    is_int(cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024 + 1),
           cudaErrorInvalidValue, "opting in past 227 KiB");
    is_int(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout,
                                cudaSharedmemCarveoutMaxShared),
           cudaSuccess, "a carveout");
    is_int(cudaFuncSetAttribute(k, cudaFuncAttributePreferredSharedMemoryCarveout, 101),
           cudaErrorInvalidValue, "a carveout past 100");
    cudaGetLastError();
}

/* ---- launch configuration ----------------------------------------------------------------- */

static void bad_launch(dim3 grid, dim3 block, size_t smem, cudaError_t want, const char *name)
{
    closure c = {NULL, 0, 0};
    mw_sim_launch l = launch_of(&c, grid, block, smem, 0);
    int grids = standin_grids;
    int same = mw_sim_launch_kernel(&l) == want;
    same = same && cudaGetLastError() == want && cudaGetLastError() == cudaSuccess;
    same = same && c.runs == 0 && c.released == 1 && standin_grids == grids;
    ok(same, name);
}

static void test_launch(void)
{
    int out[256];
    memset(out, 0, sizeof out);
    closure c = {out, 0, 0};
    mw_sim_launch l = launch_of(&c, d3(4, 1, 1), d3(64, 1, 1), 0, 0);
    is_int(mw_sim_launch_kernel(&l), cudaSuccess, "a launch runs");
    int right = 1;
    for (int i = 0; i < 256; i++)
        right &= out[i] == i + 1;
    ok(right && c.runs == 256, "every thread of every block once");
    is_int(c.released, 1, "the closure is released once");

    bad_launch(d3(1, 1, 1), d3(1025, 1, 1), 0, cudaErrorInvalidConfiguration,
               "1025 threads in x: cudaErrorInvalidConfiguration, not run, released once");
    bad_launch(d3(1, 1, 1), d3(32, 32, 2), 0, cudaErrorInvalidConfiguration,
               "2048 threads a block: cudaErrorInvalidConfiguration");
    bad_launch(d3(1, 1, 1), d3(1, 1, 65), 0, cudaErrorInvalidConfiguration,
               "block z of 65: cudaErrorInvalidConfiguration");
    bad_launch(d3(1, 65536, 1), d3(32, 1, 1), 0, cudaErrorInvalidConfiguration,
               "grid y of 65536: cudaErrorInvalidConfiguration");
    bad_launch(d3(0, 1, 1), d3(32, 1, 1), 0, cudaErrorInvalidConfiguration,
               "an empty grid: cudaErrorInvalidConfiguration");
    bad_launch(d3(1, 1, 1), d3(0, 1, 1), 0, cudaErrorInvalidConfiguration,
               "an empty block: cudaErrorInvalidConfiguration");
    bad_launch(d3(1, 1, 1), d3(32, 1, 1), 48 * 1024 + 1, cudaErrorInvalidValue,
               "dynamic shared memory past the default: cudaErrorInvalidValue");

    closure big = {NULL, 0, 0};
    mw_sim_launch lb = launch_of(&big, d3(2147483647u, 1, 1), d3(1, 1, 1), 0, 0);
    lb.grid = d3(1, 65535, 1);
    is_int(mw_sim_launch_kernel(&lb), cudaSuccess, "grid y of 65535 is allowed");
    is_int(big.runs, 65535, "and runs every block");
    cudaFuncSetAttribute((const void *)(uintptr_t)kernel_key,
                         cudaFuncAttributeMaxDynamicSharedMemorySize, 64 * 1024);
    closure opt = {NULL, 0, 0};
    mw_sim_launch lopt = launch_of(&opt, d3(1, 1, 1), d3(32, 1, 1), 64 * 1024, 0);
    is_int(mw_sim_launch_kernel(&lopt), cudaSuccess, "64 KiB once the kernel opted in");
    is_int(opt.runs, 32, "and it runs");
}

/* ---- sticky faults (last: nothing succeeds after one) --------------------------------------- */

static void fault_body(void *arg)
{
    closure *c = arg;
    c->runs++;
    if (standin_block.x == 1 && standin_thread.x == 3) {
        mw_sim_error_set(cudaErrorIllegalAddress, 1,
                         "block (1,0,0) thread (3,0,0) of kernel: out of bounds at host_api.c:1");
        standin_fault = cudaErrorIllegalAddress;
    }
}

static void test_sticky(void)
{
    ok(mw_sim_error_detail() == NULL, "no fault yet: no detail");
    closure c = {NULL, 0, 0};
    mw_sim_launch l = launch_of(&c, d3(4, 1, 1), d3(8, 1, 1), 0, 0);
    l.body = fault_body;
    is_int(mw_sim_launch_kernel(&l), cudaErrorIllegalAddress, "a faulting launch returns it");
    ok(c.runs == 12 && c.released == 1, "the grid stopped at the fault; the closure released");
    is_str(mw_sim_error_detail(),
           "block (1,0,0) thread (3,0,0) of kernel: out of bounds at host_api.c:1",
           "the fault's line is kept");
    is_int(cudaGetLastError(), cudaErrorIllegalAddress, "cudaGetLastError returns it");
    is_int(cudaGetLastError(), cudaErrorIllegalAddress, "and again: sticky");
    is_int(cudaDeviceSynchronize(), cudaErrorIllegalAddress, "every synchronization returns it");
    void *p = NULL;
    is_int(cudaMalloc(&p, 64), cudaErrorIllegalAddress, "so does cudaMalloc");
    mw_sim_error_set(cudaErrorLaunchFailure, 1, NULL);
    is_int(cudaPeekAtLastError(), cudaErrorIllegalAddress, "a later fault does not replace it");
    closure d = {NULL, 0, 0};
    mw_sim_launch l2 = launch_of(&d, d3(1, 1, 1), d3(1, 1, 1), 0, 0);
    is_int(mw_sim_launch_kernel(&l2), cudaErrorIllegalAddress, "a later launch fails with it");
    ok(d.runs == 0 && d.released == 1, "without running, and released");
}

int main(void)
{
    test_device();
    test_memory();
    test_lazy();
    test_copies();
    test_closed_to_host();
    test_errors();
    test_streams_events();
    test_capture();
    test_occupancy();
    test_launch();
    test_sticky();
    return done_testing();
}
