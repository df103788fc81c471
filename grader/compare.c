/* compare.c: tolerance, NaN policy, mismatch accounting and diagnosis. */
#include "compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

uint32_t mw_float_bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

int mw_matches(float got, double ref, mw_tol tol)
{
    /* The poison is a NaN, but "never written" is wrong even where the
     * answer is NaN. No arithmetic produces these bits. */
    if (mw_float_bits(got) == MW_POISON_BITS)
        return 0;
    if (isnan(ref))
        return isnan(got);
    if (isinf(ref))
        return isinf(got) && (got > 0) == (ref > 0);
    if (!isfinite(got))
        return 0;
    return fabs((double)got - ref) <= tol.atol + tol.rtol * fabs(ref);
}

void mw_mismatch_init(mw_mismatch *m)
{
    memset(m, 0, sizeof *m);
}

void mw_mismatch_shape(mw_mismatch *m, const mw_shape *shape)
{
    m->shape = *shape;
}

static void note_wrong(mw_mismatch *m, size_t index, float got, double ref)
{
    if (m->wrong == 0) {
        m->first_wrong = index;
        m->checked_before_first_wrong = m->checked - 1;
    }
    m->last_wrong = index;
    m->wrong++;
    if (index >= ((size_t)1 << 31))
        m->wrong_past_2_31++;
    if (index >= ((size_t)1 << 32))
        m->wrong_past_2_32++;
    if (m->nshow < MW_SHOW) {
        m->show_index[m->nshow] = index;
        m->show_got[m->nshow] = got;
        m->show_ref[m->nshow] = ref;
        m->nshow++;
    }
}

int mw_mismatch_add(mw_mismatch *m, size_t index, float got, double ref, mw_tol tol)
{
    m->checked++;
    if (isfinite(ref) && isfinite(got)) {
        double err = fabs((double)got - ref);
        if (err > m->max_abs_err)
            m->max_abs_err = err;
    }
    if (mw_matches(got, ref, tol)) {
        if (m->wrong == 0) {
            m->last_right_before = index;
            m->has_right_before = 1;
        }
        return 1;
    }
    if (mw_float_bits(got) == MW_POISON_BITS) {
        if (m->unwritten == 0)
            m->first_unwritten = index;
        m->last_unwritten = index;
        m->unwritten++;
    } else if (isfinite(ref) && !isfinite(got)) {
        m->wrong_nonfinite++;
    }
    note_wrong(m, index, got, ref);
    mw_locate_add(&m->loc, &m->shape, index, got, ref,
                  mw_float_bits(got) == MW_POISON_BITS);
    return 0;
}

void mw_mismatch_merge(mw_mismatch *m, const mw_mismatch *next)
{
    if (next->checked == 0)
        return;
    if (m->shape.naxes == 0)
        m->shape = next->shape;
    mw_locate_merge(&m->loc, &next->loc);
    if (m->wrong == 0) { /* next holds the first wrong element, if any */
        if (next->wrong > 0) {
            m->first_wrong = next->first_wrong;
            m->checked_before_first_wrong = m->checked + next->checked_before_first_wrong;
        }
        if (next->has_right_before) {
            m->last_right_before = next->last_right_before;
            m->has_right_before = 1;
        }
    }
    if (next->wrong > 0)
        m->last_wrong = next->last_wrong;
    if (next->unwritten > 0) {
        if (m->unwritten == 0)
            m->first_unwritten = next->first_unwritten;
        m->last_unwritten = next->last_unwritten;
    }
    m->checked += next->checked;
    m->wrong += next->wrong;
    m->unwritten += next->unwritten;
    m->wrong_past_2_31 += next->wrong_past_2_31;
    m->wrong_past_2_32 += next->wrong_past_2_32;
    m->wrong_nonfinite += next->wrong_nonfinite;
    if (next->max_abs_err > m->max_abs_err)
        m->max_abs_err = next->max_abs_err;
    for (int k = 0; k < next->nshow && m->nshow < MW_SHOW; k++) {
        m->show_index[m->nshow] = next->show_index[k];
        m->show_got[m->nshow] = next->show_got[k];
        m->show_ref[m->nshow] = next->show_ref[k];
        m->nshow++;
    }
}

/* Past 2^32 an index computed as blockIdx.x * blockDim.x (two unsigned
 * ints) wraps even when it is stored in a size_t. */
static const char *wrap_2_32_hint =
    "nothing right from index 2^32 on: an unsigned 32-bit product such as "
    "blockIdx.x * blockDim.x wraps there; widen a factor first: "
    "(size_t)blockIdx.x * blockDim.x";

/* Appends one hint; returns the new count. */
static int add_hint(char hints[][256], int count, int max, const char *text)
{
    if (count < max)
        snprintf(hints[count++], 256, "%s", text);
    return count;
}

int mw_diagnose_run(const mw_run_findings *f, char hints[][256], int max)
{
    char text[256];
    int count = 0;

    if (f->written_off_stream > 0) {
        snprintf(text, sizeof text,
                 "%zu output element(s) written by work launched off `stream`, before "
                 "anything queued on it ran: launch on the stream you are given, "
                 "kernel<<<grid, block, 0, stream>>> (without it a kernel goes to the "
                 "default stream, unordered with the caller's work)",
                 f->written_off_stream);
        count = add_hint(hints, count, max, text);
    }
    if (f->forked_unjoined)
        count = add_hint(hints, count, max,
                         "work forked onto another stream was never joined back: before "
                         "returning, record an event on that stream and make `stream` wait "
                         "for it (cudaStreamWaitEvent), or the caller's next step on `stream` "
                         "may read the output before it is written");
    if (f->guard_after > 0) {
        snprintf(text, sizeof text,
                 "wrote %zu element(s) past the end of the output (up to index n+%zu): "
                 "missing bounds check (if (i < n)) for threads beyond n",
                 f->guard_after, f->guard_after_last);
        count = add_hint(hints, count, max, text);
    }
    if (f->guard_before > 0) {
        snprintf(text, sizeof text,
                 "wrote %zu element(s) before the start of the output: a negative or "
                 "wrapped index",
                 f->guard_before);
        count = add_hint(hints, count, max, text);
    }
    if (f->input_guard > 0 && f->input_guard_name &&
        strcmp(f->input_guard_name, "workspace") == 0) {
        snprintf(text, sizeof text,
                 "wrote %zu element(s) outside the workspace (past its end or before its "
                 "start): index the scratch buffer within its size, and check your bounds",
                 f->input_guard);
        count = add_hint(hints, count, max, text);
    } else if (f->input_guard > 0) {
        snprintf(text, sizeof text,
                 "wrote %zu element(s) outside input %s (past its end or before its start): "
                 "a kernel must not write its inputs, and must check its bounds",
                 f->input_guard, f->input_guard_name ? f->input_guard_name : "?");
        count = add_hint(hints, count, max, text);
    }
    if (f->input_changed) {
        snprintf(text, sizeof text,
                 "input %s was modified (first at index %zu): a kernel must not write "
                 "its inputs",
                 f->input_name ? f->input_name : "?", f->input_index);
        count = add_hint(hints, count, max, text);
    }
    if (f->runs_differ)
        count = add_hint(hints, count, max,
                         "two runs on the same inputs gave different results: a race "
                         "(missing barrier, or threads writing the same element)");
    return count;
}

/* Every checked element from the first wrong one on is unwritten, and the
 * last one is the output's last: a tail never written, full check or
 * sampled. */
static int unwritten_tail(const mw_mismatch *m, const mw_run_findings *f)
{
    return m->unwritten == m->wrong && m->first_wrong > 0 && m->last_wrong == f->n - 1 &&
           m->wrong == m->checked - m->checked_before_first_wrong;
}

int mw_diagnose_pattern(const mw_mismatch *m, const mw_run_findings *f, char hints[][256], int max)
{
    char text[256];
    int count = 0;
    if (m->wrong == 0)
        return count;

    int all_unwritten = m->unwritten == m->wrong;
    int tail = unwritten_tail(m, f);
    /* Below 4 elements the first half is element 0 alone: the pattern of a
     * thread 0 that writes while the others write elsewhere (below). */
    if (tail && !f->sampled && f->n >= 4 &&
        (m->first_wrong * 2 == f->n || m->first_wrong * 2 + 1 == f->n)) {
        snprintf(text, sizeof text,
                 "only the first half was written (elements %zu..%zu never written): "
                 "the grid covers n/2 threads",
                 m->first_wrong, f->n - 1);
        count = add_hint(hints, count, max, text);
    } else if (tail && m->first_wrong == ((size_t)1 << 31)) {
        count = add_hint(hints, count, max,
                         "nothing from index 2^31 on was written: a 32-bit int index "
                         "overflows there; compute indices in size_t");
    } else if (tail && m->first_wrong == ((size_t)1 << 32)) {
        count = add_hint(hints, count, max, wrap_2_32_hint);
    } else if (tail && m->first_wrong == 1) {
        /* Only thread 0's store lands where it belongs when the output
         * index is scaled: c[i * stride] is c[0] at i = 0 and far away
         * (another buffer, or past every allocation) for the rest. */
        snprintf(text, sizeof text,
                 "only element 0 was written (1..%zu never): the other threads wrote "
                 "elsewhere or not at all: an output index scaled or offset (c[i * stride] "
                 "for c[i]), or a grid of one thread",
                 f->n - 1);
        count = add_hint(hints, count, max, text);
    } else if (tail) {
        snprintf(text, sizeof text,
                 "elements %zu..%zu (the tail) were never written: the grid is too "
                 "small; round the block count up: (n + block - 1) / block",
                 m->first_wrong, f->n - 1);
        count = add_hint(hints, count, max, text);
    } else if (all_unwritten && m->unwritten == m->checked) {
        count = add_hint(hints, count, max,
                         "no output element was written: was the kernel launched, on "
                         "the stream given, with a non-empty grid?");
    }
    if (!tail && m->wrong_past_2_32 > 0 && m->wrong_past_2_32 == m->wrong)
        count = add_hint(hints, count, max, wrap_2_32_hint);
    else if (!tail && m->wrong_past_2_31 > 0 && m->wrong_past_2_31 == m->wrong)
        count = add_hint(hints, count, max,
                         "wrong only at indices >= 2^31: a 32-bit int index overflows "
                         "there; compute indices in size_t");
    return count;
}

/* The tail, the whole output: what mw_diagnose_pattern names as never
 * written; the weak hints leave those to it. */
static int all_or_tail_unwritten(const mw_mismatch *m, const mw_run_findings *f)
{
    return (m->unwritten == m->wrong && m->unwritten == m->checked) || unwritten_tail(m, f);
}

int mw_diagnose_weak(const mw_mismatch *m, const mw_run_findings *f, char hints[][256], int max)
{
    char text[256];
    int count = 0;
    if (m->wrong == 0)
        return count;
    if (m->unwritten > 0 && !all_or_tail_unwritten(m, f)) {
        snprintf(text, sizeof text,
                 "%zu element(s) were never written (first at %zu): some indices are "
                 "skipped",
                 m->unwritten, m->first_unwritten);
        count = add_hint(hints, count, max, text);
    }
    if (m->wrong_nonfinite > 0 && m->wrong_nonfinite == m->wrong - m->unwritten)
        count = add_hint(hints, count, max,
                         "NaN or Inf where the reference is finite: overflow, or reading "
                         "memory that was never written");
    return count;
}

int mw_diagnose(const mw_mismatch *m, const mw_run_findings *f, char hints[][256], int max)
{
    int count = mw_diagnose_run(f, hints, max);
    count += mw_diagnose_pattern(m, f, hints + count, max - count);
    return count + mw_diagnose_weak(m, f, hints + count, max - count);
}

/* The shared memory a block may have, as the two launch hints below say it. */
#define SMEM_LIMIT                                                                             \
    "; shared memory: static __shared__ arrays plus the dynamic bytes past 48 KiB need "       \
    "cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) "        \
    "first, and no block gets more than cudaDevAttrMaxSharedMemoryPerBlockOptin (227 KiB "     \
    "on an H100)"

const char *mw_cuda_error_hint(const char *name)
{
    static const struct {
        const char *name;
        const char *hint;
    } table[] = {
        {"cudaErrorMisalignedAddress",
         "a vector access on an address not aligned to its width (a float4 needs "
         "16 bytes): handle the unaligned head and tail with scalar accesses"},
        {"cudaErrorIllegalAddress",
         "read or wrote outside any allocation: check the bounds test and the index "
         "type (an int overflows past 2^31)"},
        /* A launch past a limit of the GPU: the runtime may name either
         * error for it, so both hints list every limit. */
        {"cudaErrorInvalidConfiguration",
         "invalid launch configuration: at most 1024 threads per block, grid.y and "
         "grid.z at most 65535, and no zero-sized grid (return early when n == 0)" SMEM_LIMIT},
        {"cudaErrorInvalidValue",
         "a launch or call got an invalid argument: more than 1024 threads per block, "
         "grid.y and grid.z at most 65535, a zero-sized grid (return early when n == 0), "
         "or a bad pointer" SMEM_LIMIT},
        {"cudaErrorLaunchOutOfResources",
         "too many registers or too much shared memory per block for this launch"},
        {"cudaErrorInvalidDeviceFunction",
         "no kernel image for this GPU: rebuild with ARCH= matching the GPU"},
        {"cudaErrorNoKernelImageForDevice",
         "no kernel image for this GPU: rebuild with ARCH= matching the GPU"},
    };
    for (size_t i = 0; name && i < sizeof table / sizeof table[0]; i++)
        if (strcmp(name, table[i].name) == 0)
            return table[i].hint;
    return NULL;
}

void *mw_alloc_or_exit(size_t count, size_t size, int zero, const char *who)
{
    if (count == 0)
        count = 1;
    void *p = zero ? calloc(count, size) : malloc(count * size);
    if (!p) {
        fprintf(stderr, "%s reference: out of host memory\n", who);
        exit(2);
    }
    return p;
}
