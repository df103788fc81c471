/* harness.c: buffers with guards, loading versions, checking outputs. */
#define _GNU_SOURCE
#include "harness.h"

#include "device.h"
#include "emulation.h"
#include "parallel.h"
#include "skip_marker.h"

#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Bytes per element of buffer b (the workspace slot: FP32). */
static size_t elem_size(const mw_views *v, int b)
{
    return mw_type_size(v->spec[b].type);
}

static int exact_views;

void mw_views_exact(int on)
{
    exact_views = on;
}

/* On the CPU emulation every view is exact as well: the emulation bounds
 * each allocation to the byte and reports an access past it with its block,
 * thread and source line, which a guard band inside the allocation would
 * hide (a read past the end) or reduce to a count of changed guard
 * elements (a write). The GPU keeps its guards: there nothing else sees a
 * stray write. */
static cudaError_t alloc_slot(mw_views *v, int b, size_t offset)
{
    size_t guard = exact_views || mw_gpu_emulated() ? 0 : MW_GUARD;
    v->lead[b] = guard + offset;
    v->alloc_count[b] = v->lead[b] + v->spec[b].count + guard;
    if (v->alloc_count[b] == 0)
        v->alloc_count[b] = 1; /* a real pointer even for an empty view */
    size_t es = elem_size(v, b);
    cudaError_t err = mw_gpu_alloc(&v->alloc[b], v->alloc_count[b] * es);
    if (err != cudaSuccess) {
        v->alloc[b] = NULL;
        return err;
    }
    /* 256-byte aligned (cudaMalloc; the guard, 8192 elements of 2 or 4
     * bytes, keeps it so) plus the case's offset, in elements. A bf16
     * view's slot holds a __nv_bfloat16 * (mw.h). */
    v->view[b] = (float *)((char *)v->alloc[b] + v->lead[b] * es);
    return cudaSuccess;
}

cudaError_t mw_views_alloc(const mw_chapter *ch, const mw_case *c, mw_views *v)
{
    mw_views_specs(ch, c, v);
    for (int b = 0; b < v->nbufs; b++) {
        int first = mw_shares_storage(c, v, b);
        if (first >= 0) { /* a second view of an input: nothing of its own to free */
            v->view[b] = v->view[first];
            continue;
        }
        cudaError_t err = alloc_slot(v, b, c->offset[b]);
        if (err != cudaSuccess) {
            mw_views_free(v);
            return err;
        }
    }
    return cudaSuccess;
}

static int same_buffers(const mw_views *a, const mw_views *b)
{
    if (a->nbufs != b->nbufs)
        return 0;
    for (int i = 0; i < a->nbufs; i++)
        if (a->spec[i].count != b->spec[i].count || a->spec[i].type != b->spec[i].type)
            return 0;
    return 1;
}

cudaError_t mw_views_refit(const mw_chapter *ch, const mw_case *c, mw_views *v, int *have)
{
    if (*have) {
        mw_views want;
        mw_views_specs(ch, c, &want);
        if (same_buffers(&want, v))
            return cudaSuccess;
        mw_views_free(v);
        *have = 0;
    }
    cudaError_t err = mw_views_alloc(ch, c, v);
    *have = err == cudaSuccess;
    return err;
}

static cudaError_t guard_and_poison_workspace(mw_views *v, cudaStream_t s)
{
    int w = v->nbufs;
    size_t es = elem_size(v, w); /* FP32 */
    cudaError_t err = mw_gpu_memset_async(v->alloc[w], 0xfe, v->alloc_count[w] * es, s);
    if (err == cudaSuccess)
        err = mw_gpu_memset_async(v->view[w], 0xff, v->spec[w].count * es, s);
    return err;
}

/* Guards around the workspace catch a write past it; NaN inside catches a
 * read of scratch that was never written. */
cudaError_t mw_views_alloc_workspace(mw_views *v, size_t floats, cudaStream_t s)
{
    mw_views_free_workspace(v);
    if (floats == 0)
        return cudaSuccess;
    int w = v->nbufs;
    v->spec[w].count = floats;
    v->spec[w].type = MW_F32;
    cudaError_t err = alloc_slot(v, w, 0);
    if (err == cudaSuccess)
        err = guard_and_poison_workspace(v, s);
    if (err != cudaSuccess)
        mw_views_free_workspace(v);
    return err;
}

cudaError_t mw_views_lend_workspace(mw_views *v, float *pool, size_t floats, cudaStream_t s)
{
    mw_views_free_workspace(v);
    if (floats == 0)
        return cudaSuccess;
    int w = v->nbufs;
    v->spec[w].count = floats;
    v->spec[w].type = MW_F32;
    v->lead[w] = MW_GUARD;
    v->alloc_count[w] = floats + 2 * MW_GUARD;
    v->alloc[w] = pool;
    v->view[w] = pool + MW_GUARD;
    v->workspace_lent = 1;
    return guard_and_poison_workspace(v, s);
}

void mw_views_free_workspace(mw_views *v)
{
    int w = v->nbufs;
    if (!v->workspace_lent)
        mw_gpu_free(v->alloc[w]);
    v->workspace_lent = 0;
    v->alloc[w] = v->view[w] = NULL;
    v->spec[w].count = 0;
}

mw_tol mw_tolerance_of(const mw_chapter *ch, const mw_case *c, int b)
{
    return ch->output_tolerance ? ch->output_tolerance(c, b) : ch->tolerance(c);
}

int mw_views_locate(const mw_views *v, size_t i, size_t *local)
{
    for (int o = 0; o < v->nout; o++) {
        size_t n = v->spec[v->out[o]].count;
        if (i < n || o == v->nout - 1) {
            *local = i;
            return v->out[o];
        }
        i -= n;
    }
    *local = i;
    return -1;
}

cudaError_t mw_views_poison_output(mw_views *v, cudaStream_t s)
{
    cudaError_t err = cudaSuccess;
    /* 0xff bytes: 0xffffffff in FP32, 0xffff in bf16, NaN both. */
    for (int o = 0; o < v->nout && err == cudaSuccess; o++) {
        int b = v->out[o];
        err = mw_gpu_memset_async(v->view[b], 0xff, v->spec[b].count * elem_size(v, b), s);
    }
    return err;
}

cudaError_t mw_views_fill(mw_views *v, const mw_inputs *in, cudaStream_t s)
{
    cudaError_t err = cudaSuccess;
    for (int b = 0; b < v->nbufs && err == cudaSuccess; b++) {
        if (!v->alloc[b]) /* a shared input, filled through its first view */
            continue;
        err = mw_gpu_memset_async(v->alloc[b], 0xfe, v->alloc_count[b] * elem_size(v, b), s);
        if (err == cudaSuccess && !v->spec[b].is_output)
            err = mw_dev_fill(v->view[b], v->spec[b].type, v->spec[b].count, in->seed,
                              in->stream[b], in->gen, in->scale, s);
    }
    if (err == cudaSuccess)
        err = mw_views_poison_output(v, s);
    if (err == cudaSuccess)
        err = mw_gpu_stream_sync(s);
    return err;
}

cudaError_t mw_views_fill_inputs(mw_views *v, const mw_inputs *in, cudaStream_t s)
{
    cudaError_t err = cudaSuccess;
    for (int b = 0; b < v->nbufs && err == cudaSuccess; b++)
        if (!v->spec[b].is_output && v->alloc[b])
            err = mw_dev_fill(v->view[b], v->spec[b].type, v->spec[b].count, in->seed,
                              in->stream[b], in->gen, in->scale, s);
    return err;
}

void mw_views_free(mw_views *v)
{
    mw_views_free_workspace(v);
    for (int b = 0; b < v->nbufs; b++) {
        mw_gpu_free(v->alloc[b]);
        v->alloc[b] = v->view[b] = NULL;
    }
}

int mw_load_version(const char *lib_dir, const mw_version *v, mw_loaded *out)
{
    char path[4096];
    memset(out, 0, sizeof *out);
    out->version = v;
    snprintf(path, sizeof path, "%s/%s.so", lib_dir, v->file);
    out->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!out->handle) {
        out->missing = access(path, F_OK) != 0;
        if (out->missing &&
            mw_skip_marker(lib_dir, v->file, out->error, sizeof out->error)) {
            out->skipped = 1;
            return -1;
        }
        if (out->missing)
            snprintf(out->error, sizeof out->error,
                     "%s.cu was not built (no %s.so in %s): it is missing, or it does not "
                     "compile",
                     v->file, v->file, lib_dir);
        else
            snprintf(out->error, sizeof out->error, "cannot load %s: %s", path, dlerror());
        return -1;
    }
    out->fn = dlsym(out->handle, v->symbol);
    if (!out->fn) {
        snprintf(out->error, sizeof out->error,
                 "%s defines no launcher named %s (is it declared extern \"C\" through "
                 "the chapter header?)",
                 path, v->symbol);
        return -1;
    }
    return 0;
}

static int compare_size(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return (x > y) - (x < y);
}

static int sample_on_blocks;

void mw_sample_on_blocks(int on)
{
    sample_on_blocks = on;
}

/* Indices checked on a huge output: both ends, the 2^31, 2^32 and 2^33
 * boundaries (where int and unsigned indices wrap, and an int count of
 * float4s), and a random sample; how many of each is the chapter's choice
 * (mw.h), 5 x 65536 + 2^18 by default. */
size_t *mw_sample_indices(const mw_chapter *ch, size_t n, uint64_t seed, size_t *count)
{
    size_t edge = ch->sample_edge ? ch->sample_edge : (size_t)1 << 16;
    size_t random = ch->sample_random ? ch->sample_random : (size_t)1 << 18;
    if (sample_on_blocks) { /* a part of the GPU's sample (emulation.h) */
        size_t most_edge = ch->emulation_sample_edge ? ch->emulation_sample_edge
                                                     : MW_EMULATION_SAMPLE_EDGE;
        size_t most_random = ch->emulation_sample_random ? ch->emulation_sample_random
                                                         : MW_EMULATION_SAMPLE_RANDOM;
        edge = edge < most_edge ? edge : most_edge;
        random = random < most_random ? random : most_random;
    }
    size_t cap = 5 * edge + random, m = 0;
    size_t *idx = malloc(cap * sizeof *idx);
    if (!idx)
        return NULL;
    size_t starts[5] = {0, n > edge ? n - edge : 0, ((size_t)1 << 31) - edge / 2,
                        ((size_t)1 << 32) - edge / 2, ((size_t)1 << 33) - edge / 2};
    for (int r = 0; r < 5; r++)
        for (size_t i = starts[r]; i < starts[r] + edge && i < n; i++)
            idx[m++] = i;
    for (size_t j = 0; j < random; j++)
        idx[m++] = mw_hash(seed, 0xabcdef, j) % n;
    /* Sorted and without repeats, so that a report lists each index once. */
    qsort(idx, m, sizeof *idx, compare_size);
    size_t unique = 0;
    for (size_t j = 0; j < m; j++)
        if (unique == 0 || idx[j] != idx[unique - 1])
            idx[unique++] = idx[j];
    *count = unique;
    return idx;
}

/* Copies `count` values of buffer b, at the (sorted, local) indices idx or
 * all of them when idx is NULL, to vals, as floats: a bf16 output is
 * widened on the way (exactly; its poison to the FP32 poison, bf16.h). */
static cudaError_t fetch_values(const mw_views *v, int b, const size_t *idx, size_t count,
                                float *vals)
{
    const void *out = v->view[b];
    int type = v->spec[b].type;
    if (!idx && type == MW_F32)
        return mw_gpu_copy_to_host(vals, out, count * sizeof *vals);
    if (!idx) {
        uint16_t *raw = malloc((count ? count : 1) * sizeof *raw);
        if (!raw)
            return cudaErrorMemoryAllocation;
        cudaError_t err = mw_gpu_copy_to_host(raw, out, count * sizeof *raw);
        for (size_t j = 0; err == cudaSuccess && j < count; j++)
            vals[j] = mw_bf16_widen(raw[j]);
        free(raw);
        return err;
    }
    if (count == 0)
        return cudaSuccess;
    size_t *d_idx = NULL;
    float *d_vals = NULL;
    cudaError_t err = mw_gpu_alloc((void **)&d_idx, count * sizeof *d_idx);
    if (err == cudaSuccess)
        err = mw_gpu_alloc((void **)&d_vals, count * sizeof *d_vals);
    if (err == cudaSuccess)
        err = mw_gpu_copy_to_device(d_idx, idx, count * sizeof *d_idx);
    if (err == cudaSuccess)
        err = mw_dev_gather(out, type, d_idx, count, d_vals, 0);
    if (err == cudaSuccess)
        err = mw_gpu_copy_to_host(vals, d_vals, count * sizeof *d_vals);
    mw_gpu_free(d_idx);
    mw_gpu_free(d_vals);
    return err;
}

/* Copies the outputs (or the sampled part of them), flat and in buffer
 * order, to the host; idx receives the flat indices when sampled. */
static cudaError_t fetch_output(const mw_chapter *ch, const mw_case *c, const mw_views *v,
                                uint64_t seed, float **vals, size_t **idx, size_t *count)
{
    size_t n = v->out_total;
    *idx = c->sampled ? mw_sample_indices(ch, n, seed, count) : NULL;
    if (!c->sampled)
        *count = n;
    *vals = malloc((*count ? *count : 1) * sizeof **vals);
    if (!*vals || (c->sampled && !*idx))
        return cudaErrorMemoryAllocation;
    cudaError_t err = cudaSuccess;
    size_t first = 0, done = 0; /* flat index of this buffer's element 0; values fetched */
    for (int o = 0; o < v->nout && err == cudaSuccess; o++) {
        int b = v->out[o];
        size_t nb = v->spec[b].count, take = nb;
        size_t *local = NULL;
        if (*idx) { /* the sampled indices inside this buffer, made local */
            take = 0;
            while (done + take < *count && (*idx)[done + take] < first + nb)
                take++;
            local = malloc((take ? take : 1) * sizeof *local);
            if (!local)
                return cudaErrorMemoryAllocation;
            for (size_t j = 0; j < take; j++)
                local[j] = (*idx)[done + j] - first;
        }
        err = fetch_values(v, b, local, take, *vals + done);
        free(local);
        done += take;
        first += nb;
    }
    return err;
}

/* Compares outputs 0..count of a check (flat indices idx[j], or j when idx
 * is NULL) with their references, in chunks of CHECK_CHUNK, each counted
 * on its own and the counts merged in order (mw_mismatch_merge): the same
 * result as one pass. A chapter that says its reference() may run on
 * several threads at once gets every core: chapter 03's largest exact case
 * (1024 dot products of 2^21 terms) and chapter 04's 2^26-element cases
 * take tens of seconds on one core, and a check has to be fast to be run
 * often. */
enum { CHECK_CHUNK = 1 << 14, CHECK_CHUNKS_AT_ONCE = 256 };

typedef struct check_part {
    const mw_chapter *ch;
    const mw_case *c;
    const mw_inputs *in;
    const mw_views *v;
    const size_t *idx;
    const float *vals;
    size_t count, first_chunk;
    unsigned skip;
    const mw_tol *tol;
    const mw_shape *shape; /* per buffer */
    mw_mismatch (*per)[MW_MAX_BUFS]; /* per chunk of this round */
} check_part;

static void check_chunks(void *arg, size_t first, size_t end)
{
    const check_part *p = arg;
    for (size_t k = first; k < end; k++) {
        mw_mismatch *per = p->per[k];
        for (int b = 0; b < MW_MAX_BUFS; b++) {
            mw_mismatch_init(&per[b]);
            mw_mismatch_shape(&per[b], &p->shape[b]);
        }
        size_t from = (p->first_chunk + k) * CHECK_CHUNK;
        size_t to = p->count - from < CHECK_CHUNK ? p->count : from + CHECK_CHUNK;
        for (size_t j = from; j < to; j++) {
            size_t i = p->idx ? p->idx[j] : j, local;
            int b = mw_views_locate(p->v, i, &local);
            if (!(p->skip & (1u << b)))
                mw_mismatch_add(&per[b], local, p->vals[j], p->ch->reference(p->c, p->in, i),
                                p->tol[b]);
        }
    }
}

static int compare_outputs(const mw_chapter *ch, const mw_case *c, const mw_inputs *in,
                           const mw_views *v, const size_t *idx, const float *vals,
                           size_t count, unsigned skip, const mw_tol *tol,
                           const mw_shape *shape, mw_checked *r)
{
    mw_mismatch (*per)[MW_MAX_BUFS] = malloc(CHECK_CHUNKS_AT_ONCE * sizeof *per);
    if (!per)
        return -1;
    size_t chunks = (count + CHECK_CHUNK - 1) / CHECK_CHUNK;
    check_part p = {ch, c, in, v, idx, vals, count, 0, skip, tol, shape, per};
    for (; p.first_chunk < chunks; p.first_chunk += CHECK_CHUNKS_AT_ONCE) {
        size_t round = chunks - p.first_chunk < CHECK_CHUNKS_AT_ONCE ? chunks - p.first_chunk
                                                                      : CHECK_CHUNKS_AT_ONCE;
        mw_parallel_ranges(round, ch->reference_threads ? 0 : 1, 1, check_chunks, &p);
        for (size_t k = 0; k < round; k++)
            for (int b = 0; b < MW_MAX_BUFS; b++)
                mw_mismatch_merge(&r->per[b], &per[k][b]);
    }
    free(per);
    return 0;
}

void mw_output_shape(const mw_chapter *ch, const mw_case *c, const mw_views *v, int b,
                     mw_shape *s)
{
    mw_shape_init(s);
    int is_output = 0;
    for (int o = 0; o < v->nout; o++)
        is_output |= v->out[o] == b;
    if (!ch->output_shape || !is_output)
        return;
    ch->output_shape(c, b, s);
    if (mw_shape_count(s) != v->spec[b].count) { /* a hook that disagrees locates nothing */
        mw_shape_init(s);
        return;
    }
    s->full = !c->sampled;
    s->inputs_nonfinite = mw_gen_has_nonfinite(c->gen);
}

cudaError_t mw_check_output(const mw_chapter *ch, const mw_case *c, const mw_inputs *in,
                            const mw_views *v, unsigned skip, mw_checked *r, float **host_copy,
                            size_t *host_count)
{
    float *vals = NULL;
    size_t *idx = NULL, count = 0;
    for (int b = 0; b < MW_MAX_BUFS; b++)
        mw_mismatch_init(&r->per[b]);
    r->wrong = r->checked = 0;
    mw_shape shape[MW_MAX_BUFS];
    for (int b = 0; b < MW_MAX_BUFS; b++) {
        mw_output_shape(ch, c, v, b, &shape[b]);
        mw_mismatch_shape(&r->per[b], &shape[b]);
    }
    cudaError_t err = fetch_output(ch, c, v, in->seed, &vals, &idx, &count);
    if (err == cudaSuccess) {
        mw_tol tol[MW_MAX_BUFS];
        for (int o = 0; o < v->nout; o++)
            tol[v->out[o]] = mw_tolerance_of(ch, c, v->out[o]);
        if (ch->prepare_reference)
            ch->prepare_reference(c, in, idx, count);
        if (compare_outputs(ch, c, in, v, idx, vals, count, skip, tol, shape, r) != 0)
            err = cudaErrorMemoryAllocation;
        for (int b = 0; b < MW_MAX_BUFS; b++) {
            r->wrong += r->per[b].wrong;
            r->checked += r->per[b].checked;
        }
    }
    free(idx);
    if (host_copy && err == cudaSuccess) {
        *host_copy = vals;
        *host_count = count;
    } else {
        free(vals);
    }
    return err;
}

cudaError_t mw_check_surroundings(const mw_views *v, const mw_inputs *in, mw_run_findings *f)
{
    unsigned long long r[3];
    cudaError_t err = cudaSuccess;
    for (int b = 0; b <= v->nbufs && err == cudaSuccess; b++) {
        if (!v->alloc[b]) /* no workspace */
            continue;
        size_t count = v->spec[b].count;
        size_t after = v->alloc_count[b] - v->lead[b] - count;
        int type = v->spec[b].type;
        const char *end = (const char *)v->view[b] + count * elem_size(v, b);
        unsigned long long before[3];
        /* Compared in the type's width: 0xfefe for bf16. */
        err = mw_dev_count_not(v->alloc[b], type, v->lead[b], MW_GUARD_BITS, before);
        if (err == cudaSuccess)
            err = mw_dev_count_not(end, type, after, MW_GUARD_BITS, r);
        if (err != cudaSuccess)
            break;
        if (v->spec[b].is_output) {
            f->guard_before += before[0];
            f->guard_after += r[0];
            if (r[0] > 0)
                f->guard_after_last = r[2];
        } else if (before[0] + r[0] > 0) {
            f->input_guard += before[0] + r[0];
            if (!f->input_guard_name)
                f->input_guard_name = v->spec[b].name;
        }
        if (err != cudaSuccess || v->spec[b].is_output || b == v->nbufs)
            continue;
        err = mw_dev_verify_fill(v->view[b], type, count, in->seed, in->stream[b], in->gen,
                                 in->scale, r);
        if (err == cudaSuccess && r[0] > 0 && !f->input_changed) {
            f->input_changed = 1;
            f->input_name = v->spec[b].name;
            f->input_index = r[1];
        }
    }
    return err;
}

void mw_format_cuda_error(char *text, size_t len, const char *what, cudaError_t err)
{
    const char *hint = mw_cuda_error_hint(mw_gpu_error_name(err));
    const char *where = mw_gpu_error_detail(err);
    snprintf(text, len, "%s: %s (%s)%s%s%s%s", what, mw_gpu_error_name(err),
             mw_gpu_error_string(err), where ? "\n" : "", where ? where : "",
             hint ? "\nhint: " : "", hint ? hint : "");
}

void mw_size_label(double x, char *text, size_t len)
{
    double l = log2(x);
    if (x >= 1024 && l == floor(l))
        snprintf(text, len, "2^%d", (int)l);
    else
        snprintf(text, len, "%.0f", x);
}
