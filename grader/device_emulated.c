/* device_emulated.c: the harness's own GPU helpers (grader/device.h) for
 * the emulation, as plain loops on the CPU.
 *
 * On a GPU they are grader/device.cu's kernels. On the emulation, running
 * those as kernels would make every element a fiber and every access a
 * checked call, for code that is the harness's, not the student's: the
 * fills, the input checks and the guard counts of a case cost as much as
 * the student's kernel there, and most of a small case's time. The values
 * are the same: the generator (rng.h) and the bf16 rounding (bf16.h) are
 * the functions the kernels call. The emulation runs stream work when it
 * is queued (grader/sim/host.c) and the harness never captures its own
 * helpers, so running them at the call keeps their order. Device memory
 * is closed to the host while no kernel runs (host.c): each helper opens
 * the allocations it reaches, as a launch would, and closes them after.
 *
 * A huge case's buffers are mapped lazily (grader/sim/lazy.c): a fill is
 * recorded as a content, not written, and the scans read the pages a kernel
 * touched, skip untouched ones whose one content settles the answer (an
 * input still holding its own fill, an output still holding the poison),
 * and produce the others a page at a time, touching nothing. */
#include "device.h"

#include <string.h>

#include "rng.h"
#include "sim.h"

static uint32_t bits_at(const void *p, int type, size_t i)
{
    if (type == MW_BF16)
        return ((const uint16_t *)p)[i];
    uint32_t u;
    memcpy(&u, (const float *)p + i, sizeof u);
    return u;
}

static uint32_t stored_bits(int type, float x)
{
    if (type == MW_BF16)
        return mw_bf16_round(x);
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

/* A fill as a lazily mapped region's content: element i of the view at
 * base is the generator's value i. */
typedef struct fill_ctx {
    const char *base;
    uint64_t seed;
    uint32_t stream;
    int kind, type;
    float scale;
} fill_ctx;

static void produce_fill(const void *ctx, char *dst, const char *at, size_t bytes)
{
    fill_ctx f;
    memcpy(&f, ctx, sizeof f);
    size_t es = mw_type_size(f.type), first = (size_t)(at - f.base) / es;
    for (size_t k = 0; k < bytes / es; k++) {
        float x = mw_gen(f.seed, f.stream, first + k, f.kind, f.scale);
        if (f.type == MW_BF16) {
            uint16_t h = mw_bf16_round(x);
            memcpy(dst + k * es, &h, es);
        } else {
            memcpy(dst + k * es, &x, es);
        }
    }
}

static mw_sim_content fill_content(const void *p, int type, uint64_t seed, uint32_t stream,
                                   int kind, float scale)
{
    mw_sim_content c;
    fill_ctx f;
    _Static_assert(sizeof f <= sizeof c.ctx, "a fill's context fits a content's");
    memset(&c, 0, sizeof c);
    memset(&f, 0, sizeof f); /* padding too: contents compare as bytes */
    f.base = p;
    f.seed = seed;
    f.stream = stream;
    f.kind = kind;
    f.type = type;
    f.scale = scale;
    c.produce = produce_fill;
    memcpy(c.ctx, &f, sizeof f);
    return c;
}

/* What a scan asks of each element; `settled` says whether an untouched
 * piece holding content c alone needs no look (its answer is nothing). */
typedef struct scan_job {
    int (*settled)(const struct scan_job *job, const mw_sim_content *c);
    void (*visit)(struct scan_job *job, size_t first, const void *elems, size_t count);
    int type;
    mw_sim_content want; /* verify_fill: its fill */
    uint32_t bits;       /* count_not: the pattern */
    unsigned long long *result;
} scan_job;

/* Elements [0, n) of p through job->visit, a piece at a time: the memory
 * where it holds the bytes (an ordinary allocation, touched pages), a
 * page's content produced into scratch where it does not, nothing where
 * job->settled says so. */
static void scan(const void *p, size_t n, scan_job *job)
{
    size_t es = mw_type_size(job->type), done = 0;
    char page[4096];
    mw_sim_host_access(p, 1);
    while (done < n) {
        const char *at = (const char *)p + done * es;
        const mw_sim_content *c = NULL;
        size_t bytes = mw_sim_lazy_piece(at, (n - done) * es, &c);
        if (bytes == 0) { /* not lazily mapped: all of it is memory */
            job->visit(job, done, at, n - done);
            break;
        }
        size_t count = bytes / es;
        if (!c)
            job->visit(job, done, at, count);
        else if (!job->settled(job, c))
            for (size_t k = 0; k < count; k += sizeof page / es) {
                size_t m = count - k < sizeof page / es ? count - k : sizeof page / es;
                c->produce(c->ctx, page, at + k * es, m * es);
                job->visit(job, done + k, page, m);
            }
        done += count;
    }
    mw_sim_host_access(p, 0);
}

cudaError_t mw_dev_fill(void *p, int type, size_t n, uint64_t seed, uint32_t stream, int kind,
                        float scale, cudaStream_t s)
{
    (void)s;
    mw_sim_content c = fill_content(p, type, seed, stream, kind, scale);
    int lazily = n ? mw_sim_lazy_set(p, n * mw_type_size(type), &c) : 0;
    if (lazily)
        return lazily < 0 ? cudaErrorMemoryAllocation : cudaSuccess;
    mw_sim_host_access(p, 1);
    for (size_t i = 0; i < n; i++) {
        float x = mw_gen(seed, stream, i, kind, scale);
        if (type == MW_BF16)
            ((uint16_t *)p)[i] = mw_bf16_round(x);
        else
            ((float *)p)[i] = x;
    }
    mw_sim_host_access(p, 0);
    return cudaSuccess;
}

static int same_content(const scan_job *job, const mw_sim_content *c)
{
    return memcmp(c, &job->want, sizeof *c) == 0;
}

static void visit_fill(scan_job *job, size_t first, const void *elems, size_t count)
{
    fill_ctx f;
    memcpy(&f, job->want.ctx, sizeof f);
    for (size_t k = 0; k < count; k++) {
        size_t i = first + k;
        if (bits_at(elems, job->type, k) !=
                stored_bits(job->type, mw_gen(f.seed, f.stream, i, f.kind, f.scale)) &&
            job->result[0]++ == 0)
            job->result[1] = i;
    }
}

cudaError_t mw_dev_verify_fill(const void *p, int type, size_t n, uint64_t seed,
                               uint32_t stream, int kind, float scale,
                               unsigned long long result[2])
{
    /* As device.cu leaves them: the first index starts at ~0 (none), and
     * both stay 0 for an empty range. */
    result[0] = 0;
    result[1] = n ? ~0ULL : 0;
    scan_job job = {same_content, visit_fill, type, fill_content(p, type, seed, stream, kind, scale),
                    0, result};
    scan(p, n, &job);
    return cudaSuccess;
}

/* A memset content whose byte, repeated, is the pattern counted. */
static int is_pattern(const scan_job *job, const mw_sim_content *c)
{
    int byte;
    if (!mw_sim_content_is_bytes(c, &byte))
        return 0;
    uint32_t repeated = (uint32_t)byte * 0x01010101u;
    return (job->type == MW_BF16 ? repeated & 0xffffu : repeated) == job->bits;
}

static void visit_count_not(scan_job *job, size_t first, const void *elems, size_t count)
{
    for (size_t k = 0; k < count; k++)
        if (bits_at(elems, job->type, k) != job->bits) {
            if (job->result[0]++ == 0)
                job->result[1] = first + k;
            job->result[2] = first + k;
        }
}

cudaError_t mw_dev_count_not(const void *p, int type, size_t n, uint32_t bits,
                             unsigned long long result[3])
{
    result[0] = result[2] = 0;
    result[1] = n ? ~0ULL : 0;
    scan_job job = {is_pattern, visit_count_not, type, {0}, type == MW_BF16 ? bits & 0xffffu : bits,
                    result};
    scan(p, n, &job);
    return cudaSuccess;
}

cudaError_t mw_dev_gather(const void *p, int type, const size_t *idx, size_t m, float *out,
                          cudaStream_t s)
{
    (void)s;
    const void *reached[3] = {p, idx, out};
    for (int r = 0; r < 3; r++)
        mw_sim_host_access(reached[r], 1);
    size_t es = mw_type_size(type);
    for (size_t j = 0; j < m; j++) {
        /* Read, in a lazily mapped output, without touching the page. */
        const char *at = (const char *)p + idx[j] * es;
        char raw[4];
        if (!mw_sim_lazy_read(at, raw, es))
            memcpy(raw, at, es);
        if (type == MW_BF16) {
            uint16_t h;
            memcpy(&h, raw, sizeof h);
            out[j] = mw_bf16_widen(h);
        } else {
            memcpy(&out[j], raw, sizeof out[j]);
        }
    }
    for (int r = 0; r < 3; r++)
        mw_sim_host_access(reached[r], 0);
    return cudaSuccess;
}

/* ncu's markers and the harness's launch overhead: nothing to emulate. */
cudaError_t mw_dev_marker(unsigned k, cudaStream_t s)
{
    (void)k, (void)s;
    return cudaSuccess;
}

cudaError_t mw_dev_empty(cudaStream_t s)
{
    (void)s;
    return cudaSuccess;
}
