/* host.c: the CUDA runtime API of the CPU emulation, on the host.
 *
 * Device memory is host memory, registered as regions that the checks
 * (checks.c) hold every kernel access against, and closed to the host
 * while no kernel runs. The emulation runs work
 * when it is queued, so every asynchronous call has finished when it
 * returns and a synchronization only reports errors. What a GPU keeps
 * apart is kept apart here as well: a stream being captured records its
 * work instead of running it, and a kernel's fault is sticky. */
#define _GNU_SOURCE
#include "sim.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

/* ---- the emulated device (device.c) ------------------------------------------ */

/* What a GPU of compute capability 9.0 sets aside for each resident block
 * out of the multiprocessor's shared memory: 227 KiB a block opted in plus
 * this is the 228 KiB of a multiprocessor. */
static const size_t smem_reserved_per_block = 1024;


/* ---- errors --------------------------------------------------------------------- */

static cudaError_t last_error;   /* what cudaGetLastError returns and clears */
static cudaError_t sticky_error; /* a kernel's fault: every later call returns it */
static char fault_detail[1024];
static int have_fault_detail;

void mw_sim_error_set(cudaError_t err, int sticky, const char *detail)
{
    last_error = err;
    /* The first fault is the one the GPU reports ever after. */
    if (sticky && sticky_error == cudaSuccess)
        sticky_error = err;
    if (detail) {
        snprintf(fault_detail, sizeof fault_detail, "%s", detail);
        have_fault_detail = 1;
    }
}

const char *mw_sim_error_detail(void)
{
    return have_fault_detail ? fault_detail : NULL;
}

/* Every failing call leaves its error for cudaGetLastError, as the runtime
 * does; a call that succeeds leaves the last error as it was. */
static cudaError_t fail(cudaError_t err)
{
    if (err != cudaSuccess)
        last_error = err;
    return err;
}

cudaError_t cudaGetLastError(void)
{
    if (sticky_error != cudaSuccess)
        return sticky_error;
    cudaError_t err = last_error;
    last_error = cudaSuccess;
    return err;
}

cudaError_t cudaPeekAtLastError(void)
{
    return sticky_error != cudaSuccess ? sticky_error : last_error;
}

/* The names and sentences of the toolkit's runtime. */
static const struct {
    cudaError_t err;
    const char *name, *text;
} error_table[] = {
    {cudaSuccess, "cudaSuccess", "no error"},
    {cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument"},
    {cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory"},
    {cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration",
     "invalid configuration argument"},
    {cudaErrorNotYetImplemented, "cudaErrorNotYetImplemented", "function not yet implemented"},
    {cudaErrorInsufficientDriver, "cudaErrorInsufficientDriver",
     "CUDA driver version is insufficient for CUDA runtime version"},
    {cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function"},
    {cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal"},
    {cudaErrorNoKernelImageForDevice, "cudaErrorNoKernelImageForDevice",
     "no kernel image is available for execution on the device"},
    {cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle"},
    {cudaErrorIllegalState, "cudaErrorIllegalState",
     "the operation cannot be performed in the present state"},
    {cudaErrorNotReady, "cudaErrorNotReady", "device not ready"},
    {cudaErrorIllegalAddress, "cudaErrorIllegalAddress",
     "an illegal memory access was encountered"},
    {cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources",
     "too many resources requested for launch"},
    {cudaErrorMisalignedAddress, "cudaErrorMisalignedAddress", "misaligned address"},
    {cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure"},
    {cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported"},
    {cudaErrorStreamCaptureUnsupported, "cudaErrorStreamCaptureUnsupported",
     "operation not permitted when stream is capturing"},
    {cudaErrorStreamCaptureInvalidated, "cudaErrorStreamCaptureInvalidated",
     "operation failed due to a previous error during capture"},
    {cudaErrorStreamCaptureUnmatched, "cudaErrorStreamCaptureUnmatched",
     "capture was not initiated in this stream"},
    {cudaErrorStreamCaptureUnjoined, "cudaErrorStreamCaptureUnjoined",
     "capturing stream has unjoined work"},
    {cudaErrorUnknown, "cudaErrorUnknown", "unknown error"},
};

static int error_index(cudaError_t err)
{
    for (size_t i = 0; i < sizeof error_table / sizeof error_table[0]; i++)
        if (error_table[i].err == err)
            return (int)i;
    return -1;
}

const char *cudaGetErrorName(cudaError_t err)
{
    int i = error_index(err);
    return i < 0 ? "unrecognized error code" : error_table[i].name;
}

const char *cudaGetErrorString(cudaError_t err)
{
    int i = error_index(err);
    return i < 0 ? "unrecognized error code" : error_table[i].text;
}

/* ---- device queries --------------------------------------------------------------- */

/* The machine's memory: what the emulation's device memory comes from. */
static void machine_memory(size_t *free_b, size_t *total_b)
{
    unsigned long long avail_kb = 0, total_kb = 0, v;
    char line[256];
    FILE *f = fopen("/proc/meminfo", "r");
    while (f && fgets(line, sizeof line, f)) {
        if (sscanf(line, "MemAvailable: %llu kB", &v) == 1)
            avail_kb = v;
        else if (sscanf(line, "MemTotal: %llu kB", &v) == 1)
            total_kb = v;
    }
    if (f)
        fclose(f);
    if (total_kb) {
        *total_b = (size_t)(total_kb * 1024);
        *free_b = (size_t)(avail_kb * 1024);
        return;
    }
    long page = sysconf(_SC_PAGESIZE), all = sysconf(_SC_PHYS_PAGES),
         avail = sysconf(_SC_AVPHYS_PAGES);
    *total_b = page > 0 && all > 0 ? (size_t)page * (size_t)all : 0;
    *free_b = page > 0 && avail > 0 ? (size_t)page * (size_t)avail : 0;
}

cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return fail(cudaErrorInvalidValue);
    *count = 1;
    return cudaSuccess;
}

cudaError_t cudaGetDevice(int *dev)
{
    if (!dev)
        return fail(cudaErrorInvalidValue);
    *dev = 0;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int dev)
{
    return dev == 0 ? cudaSuccess : fail(cudaErrorInvalidDevice);
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int dev)
{
    const mw_sim_device *device = mw_sim_device_get();
    if (!prop)
        return fail(cudaErrorInvalidValue);
    if (dev != 0)
        return fail(cudaErrorInvalidDevice);
    size_t free_b, total_b;
    machine_memory(&free_b, &total_b);
    memset(prop, 0, sizeof *prop);
    snprintf(prop->name, sizeof prop->name, "%s", device->name);
    prop->totalGlobalMem = total_b;
    prop->sharedMemPerBlock = device->smem_default;
    prop->warpSize = 32;
    prop->maxThreadsPerBlock = device->max_threads_per_block;
    for (int i = 0; i < 3; i++) {
        prop->maxThreadsDim[i] = (int)device->max_block[i];
        prop->maxGridSize[i] = (int)device->max_grid[i];
    }
    prop->major = device->cc_major;
    prop->minor = device->cc_minor;
    prop->multiProcessorCount = device->sms;
    prop->l2CacheSize = (int)device->l2_bytes;
    prop->maxThreadsPerMultiProcessor = device->max_threads_per_sm;
    prop->sharedMemPerMultiprocessor = device->smem_per_sm;
    prop->sharedMemPerBlockOptin = device->smem_optin;
    prop->maxBlocksPerMultiProcessor = device->max_blocks_per_sm;
    return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int *value, enum cudaDeviceAttr attr, int dev)
{
    const mw_sim_device *device = mw_sim_device_get();
    if (!value)
        return fail(cudaErrorInvalidValue);
    if (dev != 0)
        return fail(cudaErrorInvalidDevice);
    switch (attr) {
    case cudaDevAttrMaxSharedMemoryPerBlock:
        *value = (int)device->smem_default;
        return cudaSuccess;
    case cudaDevAttrMultiProcessorCount:
        *value = device->sms;
        return cudaSuccess;
    case cudaDevAttrComputeCapabilityMajor:
        *value = device->cc_major;
        return cudaSuccess;
    case cudaDevAttrComputeCapabilityMinor:
        *value = device->cc_minor;
        return cudaSuccess;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin:
        *value = (int)device->smem_optin;
        return cudaSuccess;
    }
    return fail(cudaErrorInvalidValue);
}

cudaError_t cudaMemGetInfo(size_t *free_b, size_t *total_b)
{
    if (!free_b || !total_b)
        return fail(cudaErrorInvalidValue);
    machine_memory(free_b, total_b);
    return cudaSuccess;
}

/* The emulation is its own driver, of the runtime's version. */
cudaError_t cudaDriverGetVersion(int *version)
{
    if (!version)
        return fail(cudaErrorInvalidValue);
    *version = CUDART_VERSION;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *version)
{
    if (!version)
        return fail(cudaErrorInvalidValue);
    *version = CUDART_VERSION;
    return cudaSuccess;
}

/* ---- device memory ----------------------------------------------------------------- */

/* The live regions, sorted by base; each its own allocation, so that a
 * pointer mw_sim_region_find gave stays valid until that region is freed. */
static mw_sim_region **regions;
static size_t nregions, regions_cap;
/* The checks ask for the region of every access a kernel makes, mostly
 * the one they asked for last. */
static const mw_sim_region *last_found;

/* The index of the first region whose base is above addr. */
static size_t regions_above(const char *addr)
{
    size_t lo = 0, hi = nregions;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (regions[mid]->base <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

const mw_sim_region *mw_sim_region_find(const void *addr)
{
    const char *a = addr;
    const mw_sim_region *r = last_found;
    if (r && a >= r->base && (size_t)(a - r->base) < r->bytes)
        return r;
    size_t i = regions_above(a);
    if (i == 0)
        return NULL;
    r = regions[i - 1];
    if ((size_t)(a - r->base) >= r->bytes)
        return NULL;
    last_found = r;
    return r;
}

static int region_add(char *base, size_t bytes, mw_sim_lazy *lazy)
{
    if (nregions == regions_cap) {
        size_t cap = regions_cap ? 2 * regions_cap : 16;
        mw_sim_region **grown = realloc(regions, cap * sizeof *grown);
        if (!grown)
            return -1;
        regions = grown, regions_cap = cap;
    }
    mw_sim_region *r = malloc(sizeof *r);
    if (!r)
        return -1;
    r->base = base, r->bytes = bytes, r->lazy = lazy;
    size_t i = regions_above(base);
    memmove(&regions[i + 1], &regions[i], (nregions - i) * sizeof *regions);
    regions[i] = r;
    nregions++;
    return 0;
}

/* On a GPU the host reaches device memory only through the runtime: a
 * host read through a device pointer is a segmentation fault. Here device
 * memory is host memory, so it is closed to the host (PROT_NONE) whenever
 * no kernel runs, and opened for what a GPU would do with it: a grid's run
 * (every region, since a kernel may reach any; a launch runs to its end
 * inside the call that runs it) and the runtime's own copies and memsets
 * (the regions they touch). */
static int grid_running;

static void region_open(const mw_sim_region *r, int open)
{
    if (r->lazy) /* its touched pages; the others stay closed until touched */
        mw_sim_lazy_open(r, open);
    else
        mprotect(r->base, r->bytes, open ? PROT_READ | PROT_WRITE : PROT_NONE);
}

/* Opens the region holding device pointer p to the host, or closes it. */
static void region_open_at(const void *p, int open)
{
    const mw_sim_region *r = mw_sim_region_find(p);
    if (r && !grid_running)
        region_open(r, open);
}

void mw_sim_host_access(const void *p, int open)
{
    region_open_at(p, open);
}

/* mw_sim_run_grid with every region open. */
static cudaError_t run_grid_opened(const mw_sim_launch *l)
{
    for (size_t i = 0; i < nregions; i++)
        region_open(regions[i], 1);
    grid_running = 1;
    cudaError_t err = mw_sim_run_grid(l);
    grid_running = 0;
    for (size_t i = 0; i < nregions; i++)
        region_open(regions[i], 0);
    return err;
}

/* 1 when the `bytes` bytes at p lie in one live region. */
static int in_region(const void *p, size_t bytes)
{
    const mw_sim_region *r = mw_sim_region_find(p);
    return r && bytes <= r->bytes - (size_t)((const char *)p - r->base);
}

/* Past MW_SIM_LAZY_BYTES (lazy.c): reserved, not committed, so that only
 * the pages a run touches take memory; the machine's memory bounds those,
 * not the allocation. */
static cudaError_t malloc_lazily(void **p, size_t bytes)
{
    void *m = mmap(NULL, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (m == MAP_FAILED)
        return fail(cudaErrorMemoryAllocation);
    mw_sim_lazy *lazy = mw_sim_lazy_new(bytes);
    if (!lazy || region_add(m, bytes, lazy) != 0) {
        mw_sim_lazy_free(lazy);
        munmap(m, bytes);
        return fail(cudaErrorMemoryAllocation);
    }
    *p = m;
    return cudaSuccess;
}

cudaError_t cudaMalloc(void **p, size_t bytes)
{
    if (!p)
        return fail(cudaErrorInvalidValue);
    if (sticky_error != cudaSuccess)
        return fail(sticky_error);
    if (bytes == 0) {
        *p = NULL;
        return cudaSuccess;
    }
    if (bytes > MW_SIM_LAZY_BYTES)
        return malloc_lazily(p, bytes);
    /* Filling the memory commits it: ask for more than the machine has and
     * the kernel's out-of-memory killer, not an error, would answer. */
    size_t free_b = 0, total_b = 0;
    machine_memory(&free_b, &total_b);
    if (bytes > free_b)
        return fail(cudaErrorMemoryAllocation);
    /* Whole pages: 256-byte aligned as cudaMalloc's, and given back to the
     * system when freed. */
    void *m = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED)
        return fail(cudaErrorMemoryAllocation);
    if (region_add(m, bytes, NULL) != 0) {
        munmap(m, bytes);
        return fail(cudaErrorMemoryAllocation);
    }
    /* Not zeroed on a GPU either: NaN bytes make a read of unwritten
     * memory show in the results. */
    memset(m, 0xFF, bytes);
    region_open_at(m, 0);
    *p = m;
    return cudaSuccess;
}

cudaError_t cudaFree(void *p)
{
    if (!p)
        return cudaSuccess;
    size_t i = regions_above(p);
    if (i == 0 || regions[i - 1]->base != (char *)p)
        return fail(cudaErrorInvalidValue);
    mw_sim_region *r = regions[i - 1];
    if (last_found == r)
        last_found = NULL;
    memmove(&regions[i - 1], &regions[i], (nregions - i) * sizeof *regions);
    nregions--;
    munmap(r->base, r->bytes);
    mw_sim_lazy_free(r->lazy);
    free(r);
    return sticky_error != cudaSuccess ? fail(sticky_error) : cudaSuccess;
}

/* ---- streams, events and capture --------------------------------------------------- */

/* A capture sequence: the streams in it and what each has seen of the
 * others' work, as vector clocks. seen[i][j] is how many of member j's
 * operations member i's next operation comes after; a fork (a stream that
 * waits on an event of the capture) is joined back when the origin has
 * seen every operation of it. */
#define CAPTURE_STREAMS 16

typedef struct op {
    enum { OP_LAUNCH, OP_COPY, OP_SET } kind;
    mw_sim_launch launch;
    void *dst;
    const void *src;
    size_t bytes;
    int value;
    enum cudaMemcpyKind copy_kind;
} op;

/* The operations of a graph, shared by the graph and its instances: the
 * last to go releases the launches' closures. */
typedef struct op_list {
    op *ops;
    size_t n, cap;
    int refs;
} op_list;

typedef struct capture {
    struct CUstream_st *member[CAPTURE_STREAMS]; /* member[0]: the origin */
    int nmembers;
    unsigned long done[CAPTURE_STREAMS];
    unsigned long seen[CAPTURE_STREAMS][CAPTURE_STREAMS];
    cudaError_t invalid; /* an error during the capture: it can only fail */
    op_list *ops;
    struct capture *next;
} capture;

struct CUstream_st {
    unsigned flags;
    capture *cap; /* the capture it is part of, or NULL */
    int slot;     /* its index in cap */
    struct CUstream_st *next;
};

struct CUevent_st {
    unsigned flags;
    int recorded;
    struct timespec when;
    capture *cap; /* recorded on a capturing stream: the capture's clock */
    unsigned long seen[CAPTURE_STREAMS];
    struct CUevent_st *next;
};

struct CUgraph_st {
    op_list *ops;
};

struct CUgraphExec_st {
    op_list *ops;
};

static struct CUstream_st legacy_stream;
static struct CUstream_st *streams; /* the live ones, legacy_stream aside */
static struct CUevent_st *events;
static capture *captures;

static struct CUstream_st *stream_of(cudaStream_t s)
{
    if (!s)
        return &legacy_stream;
    for (struct CUstream_st *t = streams; t; t = t->next)
        if (t == s)
            return t;
    return NULL;
}

static struct CUevent_st *event_of(cudaEvent_t e)
{
    for (struct CUevent_st *t = events; t; t = t->next)
        if (t == e && e)
            return t;
    return NULL;
}

static void op_list_drop(op_list *l)
{
    if (!l || --l->refs > 0)
        return;
    for (size_t i = 0; i < l->n; i++)
        if (l->ops[i].kind == OP_LAUNCH && l->ops[i].launch.release)
            l->ops[i].launch.release(l->ops[i].launch.closure);
    free(l->ops);
    free(l);
}

/* Ends cap for every stream in it; the operations go to the caller when
 * it asks for them (keep), else they are dropped. */
static op_list *capture_close(capture *cap, int keep)
{
    for (int i = 0; i < cap->nmembers; i++)
        if (cap->member[i])
            cap->member[i]->cap = NULL;
    for (struct CUevent_st *e = events; e; e = e->next)
        if (e->cap == cap)
            e->cap = NULL, e->recorded = 0;
    for (capture **p = &captures; *p; p = &(*p)->next)
        if (*p == cap) {
            *p = cap->next;
            break;
        }
    op_list *ops = cap->ops;
    free(cap);
    if (keep)
        return ops;
    op_list_drop(ops);
    return NULL;
}

/* An error during a capture fails the capture, as it does on the GPU. */
static cudaError_t capture_spoil(capture *cap, cudaError_t err)
{
    if (cap && cap->invalid == cudaSuccess)
        cap->invalid = cudaErrorStreamCaptureInvalidated;
    return fail(err);
}

/* Appends o, queued on s (a member of a capture), to the capture. */
static cudaError_t capture_record(struct CUstream_st *s, const op *o)
{
    capture *cap = s->cap;
    if (cap->invalid != cudaSuccess)
        return fail(cudaErrorStreamCaptureInvalidated);
    op_list *l = cap->ops;
    if (l->n == l->cap) {
        size_t n = l->cap ? 2 * l->cap : 8;
        op *grown = realloc(l->ops, n * sizeof *grown);
        if (!grown)
            return capture_spoil(cap, cudaErrorMemoryAllocation);
        l->ops = grown, l->cap = n;
    }
    l->ops[l->n++] = *o;
    cap->seen[s->slot][s->slot] = ++cap->done[s->slot];
    return cudaSuccess;
}

cudaError_t cudaStreamCreateWithFlags(cudaStream_t *stream, unsigned int flags)
{
    if (!stream || (flags & ~(unsigned)cudaStreamNonBlocking))
        return fail(cudaErrorInvalidValue);
    if (sticky_error != cudaSuccess)
        return fail(sticky_error);
    struct CUstream_st *s = calloc(1, sizeof *s);
    if (!s)
        return fail(cudaErrorMemoryAllocation);
    s->flags = flags;
    s->next = streams;
    streams = s;
    *stream = s;
    return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t *stream)
{
    return cudaStreamCreateWithFlags(stream, cudaStreamDefault);
}

cudaError_t cudaStreamDestroy(cudaStream_t stream)
{
    struct CUstream_st *s = stream ? stream_of(stream) : NULL;
    if (!s)
        return fail(cudaErrorInvalidResourceHandle);
    if (s->cap) {
        /* Without its origin a capture can never end. */
        if (s->slot == 0)
            capture_close(s->cap, 0);
        else {
            capture_spoil(s->cap, cudaSuccess);
            s->cap->member[s->slot] = NULL;
        }
    }
    for (struct CUstream_st **p = &streams; *p; p = &(*p)->next)
        if (*p == s) {
            *p = s->next;
            break;
        }
    free(s);
    return cudaSuccess;
}

/* Everything queued has run: a synchronization reports the sticky fault,
 * or refuses when it would wait for work a capture holds. */
static cudaError_t sync_stream(struct CUstream_st *s)
{
    if (!s)
        return fail(cudaErrorInvalidResourceHandle);
    if (s->cap)
        return capture_spoil(s->cap, cudaErrorStreamCaptureUnsupported);
    return sticky_error != cudaSuccess ? fail(sticky_error) : cudaSuccess;
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream)
{
    return sync_stream(stream_of(stream));
}

cudaError_t cudaStreamQuery(cudaStream_t stream)
{
    return sync_stream(stream_of(stream));
}

cudaError_t cudaDeviceSynchronize(void)
{
    if (captures) {
        for (capture *c = captures; c; c = c->next)
            capture_spoil(c, cudaSuccess);
        return fail(cudaErrorStreamCaptureUnsupported);
    }
    return sticky_error != cudaSuccess ? fail(sticky_error) : cudaSuccess;
}

cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags)
{
    if (!event || (flags & ~(unsigned)cudaEventDisableTiming))
        return fail(cudaErrorInvalidValue);
    struct CUevent_st *e = calloc(1, sizeof *e);
    if (!e)
        return fail(cudaErrorMemoryAllocation);
    e->flags = flags;
    e->next = events;
    events = e;
    *event = e;
    return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    return cudaEventCreateWithFlags(event, cudaEventDefault);
}

cudaError_t cudaEventDestroy(cudaEvent_t event)
{
    struct CUevent_st *e = event_of(event);
    if (!e)
        return fail(cudaErrorInvalidResourceHandle);
    for (struct CUevent_st **p = &events; *p; p = &(*p)->next)
        if (*p == e) {
            *p = e->next;
            break;
        }
    free(e);
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream)
{
    struct CUevent_st *e = event_of(event);
    struct CUstream_st *s = stream_of(stream);
    if (!e || !s)
        return fail(cudaErrorInvalidResourceHandle);
    if (s->cap) {
        if (s->cap->invalid != cudaSuccess)
            return fail(cudaErrorStreamCaptureInvalidated);
        e->cap = s->cap;
        memcpy(e->seen, s->cap->seen[s->slot], sizeof e->seen);
        e->recorded = 1;
        return cudaSuccess;
    }
    if (sticky_error != cudaSuccess)
        return fail(sticky_error);
    e->cap = NULL;
    clock_gettime(CLOCK_MONOTONIC, &e->when);
    e->recorded = 1;
    return cudaSuccess;
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags)
{
    struct CUevent_st *e = event_of(event);
    struct CUstream_st *s = stream_of(stream);
    if (!e || !s)
        return fail(cudaErrorInvalidResourceHandle);
    if (flags != 0)
        return fail(cudaErrorInvalidValue);
    capture *cap = e->cap;
    if (!cap) /* the event's work has run */
        return sticky_error != cudaSuccess ? fail(sticky_error) : cudaSuccess;
    if (s->cap && s->cap != cap)
        return capture_spoil(s->cap, cudaErrorStreamCaptureUnsupported);
    if (!s->cap) {
        /* The legacy stream cannot be captured: waiting would make it
         * depend on the capture. */
        if (s == &legacy_stream || cap->nmembers == CAPTURE_STREAMS)
            return capture_spoil(cap, cudaErrorStreamCaptureUnsupported);
        s->cap = cap;
        s->slot = cap->nmembers++;
        cap->member[s->slot] = s;
    }
    unsigned long *mine = cap->seen[s->slot];
    for (int j = 0; j < CAPTURE_STREAMS; j++)
        if (e->seen[j] > mine[j])
            mine[j] = e->seen[j];
    return cudaSuccess;
}

static cudaError_t event_done(struct CUevent_st *e)
{
    if (!e)
        return fail(cudaErrorInvalidResourceHandle);
    if (e->cap)
        return capture_spoil(e->cap, cudaErrorStreamCaptureUnsupported);
    return sticky_error != cudaSuccess ? fail(sticky_error) : cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t event)
{
    return event_done(event_of(event));
}

cudaError_t cudaEventQuery(cudaEvent_t event)
{
    return event_done(event_of(event));
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end)
{
    struct CUevent_st *a = event_of(start), *b = event_of(end);
    if (!ms)
        return fail(cudaErrorInvalidValue);
    if (!a || !b || (a->flags & cudaEventDisableTiming) || (b->flags & cudaEventDisableTiming))
        return fail(cudaErrorInvalidResourceHandle);
    if (a->cap || b->cap)
        return fail(cudaErrorStreamCaptureUnsupported);
    if (!a->recorded || !b->recorded)
        return fail(cudaErrorInvalidResourceHandle);
    if (sticky_error != cudaSuccess)
        return fail(sticky_error);
    *ms = (float)((double)(b->when.tv_sec - a->when.tv_sec) * 1e3 +
                  (double)(b->when.tv_nsec - a->when.tv_nsec) / 1e6);
    return cudaSuccess;
}

/* Every mode is taken as relaxed: the harness asks for no other, and the
 * emulation has no unsafe call to forbid. */
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, enum cudaStreamCaptureMode mode)
{
    (void)mode;
    struct CUstream_st *s = stream_of(stream);
    if (!s)
        return fail(cudaErrorInvalidResourceHandle);
    if (s == &legacy_stream)
        return fail(cudaErrorStreamCaptureUnsupported);
    if (s->cap)
        return fail(cudaErrorIllegalState);
    if (sticky_error != cudaSuccess)
        return fail(sticky_error);
    capture *cap = calloc(1, sizeof *cap);
    op_list *ops = calloc(1, sizeof *ops);
    if (!cap || !ops) {
        free(cap);
        free(ops);
        return fail(cudaErrorMemoryAllocation);
    }
    ops->refs = 1;
    cap->ops = ops;
    cap->member[0] = s;
    cap->nmembers = 1;
    cap->next = captures;
    captures = cap;
    s->cap = cap;
    s->slot = 0;
    return cudaSuccess;
}

cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *graph)
{
    struct CUstream_st *s = stream_of(stream);
    if (!graph)
        return fail(cudaErrorInvalidValue);
    *graph = NULL;
    if (!s)
        return fail(cudaErrorInvalidResourceHandle);
    if (!s->cap)
        return fail(cudaErrorIllegalState);
    capture *cap = s->cap;
    if (s->slot != 0)
        return capture_spoil(cap, cudaErrorStreamCaptureUnmatched);
    cudaError_t err = cap->invalid;
    for (int j = 1; j < cap->nmembers && err == cudaSuccess; j++)
        if (cap->member[j] && cap->seen[0][j] < cap->done[j])
            err = cudaErrorStreamCaptureUnjoined;
    struct CUgraph_st *g = err == cudaSuccess ? malloc(sizeof *g) : NULL;
    if (err == cudaSuccess && !g)
        err = cudaErrorMemoryAllocation;
    op_list *ops = capture_close(cap, err == cudaSuccess);
    if (err != cudaSuccess)
        return fail(err);
    g->ops = ops;
    *graph = g;
    return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *exec, cudaGraph_t graph,
                                 unsigned long long flags)
{
    if (!exec || !graph || flags != 0)
        return fail(cudaErrorInvalidValue);
    struct CUgraphExec_st *x = malloc(sizeof *x);
    if (!x)
        return fail(cudaErrorMemoryAllocation);
    x->ops = graph->ops;
    x->ops->refs++;
    *exec = x;
    return cudaSuccess;
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec)
{
    if (!exec)
        return fail(cudaErrorInvalidValue);
    op_list_drop(exec->ops);
    free(exec);
    return cudaSuccess;
}

cudaError_t cudaGraphDestroy(cudaGraph_t graph)
{
    if (!graph)
        return fail(cudaErrorInvalidValue);
    op_list_drop(graph->ops);
    free(graph);
    return cudaSuccess;
}

/* ---- copies, memsets and launches, run or recorded ------------------------------- */

static cudaError_t copy_check(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind)
{
    int dst_dev = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
    int src_dev = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    if (!dst_dev && !src_dev)
        return cudaErrorInvalidValue;
    if (!dst || !src || (dst_dev && !in_region(dst, bytes)) || (src_dev && !in_region(src, bytes)))
        return cudaErrorInvalidValue;
    return cudaSuccess;
}

/* Opens (or closes) the device side of a checked copy. */
static void copy_opened(const op *o, int open)
{
    if (o->copy_kind != cudaMemcpyDeviceToHost)
        region_open_at(o->dst, open);
    if (o->copy_kind != cudaMemcpyHostToDevice)
        region_open_at(o->src, open);
}

/* A copy gives the pages it reaches in a lazily mapped region their bytes
 * first (lazy.c): a copy of a whole huge buffer would commit it all, which
 * the harness never asks for. */
static void copy_touch(const op *o)
{
    const void *side[2] = {o->dst, o->src};
    for (int i = 0; i < 2; i++) {
        const mw_sim_region *r = mw_sim_region_find(side[i]);
        if (r && r->lazy && (i == 0 ? o->copy_kind != cudaMemcpyDeviceToHost
                                    : o->copy_kind != cudaMemcpyHostToDevice))
            mw_sim_lazy_touch(r, side[i], o->bytes);
    }
}

static int lazy_at(const void *p)
{
    const mw_sim_region *r = mw_sim_region_find(p);
    return r && r->lazy;
}

/* A memset into a lazily mapped region is recorded, not done (lazy.c);
 * nothing for an ordinary region. */
static cudaError_t set_lazily(const op *o)
{
    mw_sim_content c;
    mw_sim_content_bytes(&c, o->value);
    return mw_sim_lazy_set(o->dst, o->bytes, &c) < 0 ? cudaErrorMemoryAllocation : cudaSuccess;
}

static cudaError_t run_op(const op *o)
{
    if (sticky_error != cudaSuccess)
        return fail(sticky_error);
    cudaError_t err;
    switch (o->kind) {
    case OP_LAUNCH:
        return fail(run_grid_opened(&o->launch));
    case OP_COPY:
        if ((err = copy_check(o->dst, o->src, o->bytes, o->copy_kind)) != cudaSuccess)
            return fail(err);
        copy_touch(o);
        copy_opened(o, 1);
        memmove(o->dst, o->src, o->bytes);
        copy_opened(o, 0);
        return cudaSuccess;
    case OP_SET:
        if (!in_region(o->dst, o->bytes))
            return fail(cudaErrorInvalidValue);
        if ((err = set_lazily(o)) != cudaSuccess || lazy_at(o->dst))
            return fail(err);
        region_open_at(o->dst, 1);
        memset(o->dst, o->value, o->bytes);
        region_open_at(o->dst, 0);
        return cudaSuccess;
    }
    return fail(cudaErrorUnknown);
}

/* Runs o now, or records it when s is being captured. */
static cudaError_t queue_op(struct CUstream_st *s, const op *o)
{
    if (!s)
        return fail(cudaErrorInvalidResourceHandle);
    return s->cap ? capture_record(s, o) : run_op(o);
}

cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream)
{
    struct CUstream_st *s = stream_of(stream);
    if (!exec)
        return fail(cudaErrorInvalidValue);
    if (!s)
        return fail(cudaErrorInvalidResourceHandle);
    if (s->cap)
        return capture_spoil(s->cap, cudaErrorStreamCaptureUnsupported);
    /* In the order captured: each operation after every one it waited for.
     * A launch runs in the stream the graph is launched in, as on the GPU;
     * the stream it was captured from may be gone. */
    for (size_t i = 0; i < exec->ops->n; i++) {
        op o = exec->ops->ops[i];
        if (o.kind == OP_LAUNCH)
            o.launch.stream = stream;
        cudaError_t err = run_op(&o);
        if (err != cudaSuccess)
            return err;
    }
    return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind)
{
    if (bytes == 0)
        return cudaSuccess;
    op o = {.kind = OP_COPY, .dst = dst, .src = src, .bytes = bytes, .copy_kind = kind};
    return run_op(&o);
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, enum cudaMemcpyKind kind,
                            cudaStream_t stream)
{
    struct CUstream_st *s = stream_of(stream);
    if (bytes == 0)
        return s ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
    cudaError_t err = copy_check(dst, src, bytes, kind);
    if (err != cudaSuccess)
        return s && s->cap ? capture_spoil(s->cap, err) : fail(err);
    op o = {.kind = OP_COPY, .dst = dst, .src = src, .bytes = bytes, .copy_kind = kind};
    return queue_op(s, &o);
}

cudaError_t cudaMemsetAsync(void *p, int value, size_t bytes, cudaStream_t stream)
{
    struct CUstream_st *s = stream_of(stream);
    if (bytes == 0)
        return s ? cudaSuccess : fail(cudaErrorInvalidResourceHandle);
    if (!in_region(p, bytes))
        return s && s->cap ? capture_spoil(s->cap, cudaErrorInvalidValue)
                           : fail(cudaErrorInvalidValue);
    op o = {.kind = OP_SET, .dst = p, .bytes = bytes, .value = value};
    return queue_op(s, &o);
}

/* ---- kernels: attributes, occupancy, launches --------------------------------------- */

/* What cudaFuncSetAttribute set, per kernel. */
typedef struct func_attrs {
    const void *func;
    size_t max_dynamic_smem;
    int carveout;
} func_attrs;

static func_attrs *funcs;
static size_t nfuncs, funcs_cap;

static func_attrs *func_find(const void *func)
{
    for (size_t i = 0; i < nfuncs; i++)
        if (funcs[i].func == func)
            return &funcs[i];
    return NULL;
}

size_t mw_sim_func_max_dynamic_smem(const void *func)
{
    const func_attrs *f = func_find(func);
    return f ? f->max_dynamic_smem : mw_sim_device_get()->smem_default;
}

cudaError_t cudaFuncSetAttribute(const void *func, enum cudaFuncAttribute attr, int value)
{
    const mw_sim_device *device = mw_sim_device_get();
    if (!func)
        return fail(cudaErrorInvalidDeviceFunction);
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
        if (value < 0 || (size_t)value > device->smem_optin)
            return fail(cudaErrorInvalidValue);
    } else if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) {
        if (value < cudaSharedmemCarveoutDefault || value > cudaSharedmemCarveoutMaxShared)
            return fail(cudaErrorInvalidValue);
    } else
        return fail(cudaErrorInvalidValue);
    func_attrs *f = func_find(func);
    if (!f) {
        if (nfuncs == funcs_cap) {
            size_t cap = funcs_cap ? 2 * funcs_cap : 16;
            func_attrs *grown = realloc(funcs, cap * sizeof *grown);
            if (!grown)
                return fail(cudaErrorMemoryAllocation);
            funcs = grown, funcs_cap = cap;
        }
        f = &funcs[nfuncs++];
        *f = (func_attrs){func, device->smem_default, cudaSharedmemCarveoutDefault};
    }
    /* The carveout only steers the GPU's cache split: the emulation keeps
     * it and gives every block the shared memory it may ask for anyway. */
    if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize)
        f->max_dynamic_smem = (size_t)value;
    else
        f->carveout = value;
    return cudaSuccess;
}

/* Blocks of block_size threads and dynamic_smem bytes of shared memory one
 * multiprocessor holds at once: the fewest of the block limit, the warps
 * (threads rounded up to whole warps) and the shared memory, each block
 * also taking the reserve a GPU of compute capability 9.0 sets aside. The
 * scheduler keeps this many a multiprocessor resident, so that blocks a
 * kernel sized its grid by this may wait on each other. A kernel's static
 * shared memory is declared as it runs, so it does not count here. */
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *func,
                                                          int block_size, size_t dynamic_smem)
{
    const mw_sim_device *device = mw_sim_device_get();
    if (!blocks || block_size <= 0)
        return fail(cudaErrorInvalidValue);
    if (!func)
        return fail(cudaErrorInvalidDeviceFunction);
    *blocks = 0;
    if (block_size > device->max_threads_per_block ||
        dynamic_smem > mw_sim_func_max_dynamic_smem(func))
        return cudaSuccess;
    int warps = (block_size + 31) / 32;
    int by_warps = device->max_threads_per_sm / 32 / warps;
    int n = device->max_blocks_per_sm < by_warps ? device->max_blocks_per_sm : by_warps;
    if (dynamic_smem > 0) {
        size_t by_smem = device->smem_per_sm / (dynamic_smem + smem_reserved_per_block);
        if (by_smem < (size_t)n)
            n = (int)by_smem;
    }
    *blocks = n;
    return cudaSuccess;
}

static cudaError_t launch_check(const mw_sim_launch *l)
{
    const mw_sim_device *device = mw_sim_device_get();
    const unsigned g[3] = {l->grid.x, l->grid.y, l->grid.z};
    const unsigned b[3] = {l->block.x, l->block.y, l->block.z};
    for (int i = 0; i < 3; i++)
        if (g[i] == 0 || g[i] > device->max_grid[i] || b[i] == 0 || b[i] > device->max_block[i])
            return cudaErrorInvalidConfiguration;
    if ((unsigned long long)b[0] * b[1] * b[2] > (unsigned long long)device->max_threads_per_block)
        return cudaErrorInvalidConfiguration;
    if (l->dynamic_smem > mw_sim_func_max_dynamic_smem(l->func))
        return cudaErrorInvalidValue;
    return cudaSuccess;
}

static void launch_release(const mw_sim_launch *l)
{
    if (l->release)
        l->release(l->closure);
}

cudaError_t mw_sim_launch_kernel(const mw_sim_launch *l)
{
    struct CUstream_st *s = stream_of(l->stream);
    cudaError_t err = sticky_error;
    if (err == cudaSuccess && !s)
        err = cudaErrorInvalidResourceHandle;
    if (err == cudaSuccess)
        err = launch_check(l);
    if (err != cudaSuccess) {
        launch_release(l);
        return s && s->cap ? capture_spoil(s->cap, err) : fail(err);
    }
    if (s->cap) {
        /* The graph holds the closure from now on, and releases it. */
        op o = {.kind = OP_LAUNCH, .launch = *l};
        err = capture_record(s, &o);
        if (err != cudaSuccess)
            launch_release(l);
        return err;
    }
    err = run_grid_opened(l);
    launch_release(l);
    return fail(err);
}
