/* reference.c: chapter 03's CPU reference in double: each element of C as
 * a dot product of a row of A and a column of B, from inputs generated once
 * per input set (on every core, for the entries a check is about to ask
 * for) and kept, with the answers of a full check, for the last few sets. */
#include "reference.h"

#include "harness.h"
#include "parallel.h"

#include <stdlib.h>

#define CACHES 3
#define ANSWERS_MAX ((size_t)1 << 22)

mm_cache *mw03_cache_for(const mw_case *c, const mw_inputs *in)
{
    static mm_cache caches[CACHES];
    static int next;
    size_t M = c->dim[0], N = c->dim[1], K = c->dim[2];
    for (int k = 0; k < CACHES; k++) {
        mm_cache *mc = &caches[k];
        if (mc->a && mc->seed == in->seed && mc->sa == in->stream[A] &&
            mc->sb == in->stream[B] && mc->gen == in->gen && mc->scale == in->scale &&
            mc->M == M && mc->N == N && mc->K == K)
            return mc;
    }
    mm_cache *mc = &caches[next];
    next = (next + 1) % CACHES;
    free(mc->a);
    free(mc->bt);
    free(mc->a_done);
    free(mc->b_done);
    free(mc->c);
    free(mc->c_done);
    int answers = M * N <= ANSWERS_MAX;
    *mc = (mm_cache){in->seed, in->stream[A], in->stream[B], in->gen, in->scale, M, N, K,
                     mw_alloc_or_exit(M * K, sizeof(float), 0, "matmul"),
                     mw_alloc_or_exit(N * K, sizeof(float), 0, "matmul"),
                     mw_alloc_or_exit(M, 1, 1, "matmul"), mw_alloc_or_exit(N, 1, 1, "matmul"),
                     answers ? mw_alloc_or_exit(M * N, sizeof(double), 0, "matmul") : NULL,
                     answers ? mw_alloc_or_exit(M * N, 1, 1, "matmul") : NULL};
    return mc;
}

const float *mw03_row_of_a(mm_cache *mc, const mw_inputs *in, size_t m)
{
    float *row = mc->a + m * mc->K;
    if (!mc->a_done[m]) {
        for (size_t k = 0; k < mc->K; k++)
            row[k] = mw_input(in, A, m * mc->K + k);
        mc->a_done[m] = 1;
    }
    return row;
}

const float *mw03_column_of_b(mm_cache *mc, const mw_inputs *in, size_t n)
{
    float *col = mc->bt + n * mc->K;
    if (!mc->b_done[n]) {
        for (size_t k = 0; k < mc->K; k++)
            col[k] = mw_input(in, B, k * mc->N + n);
        mc->b_done[n] = 1;
    }
    return col;
}

/* The rows of A and columns of B that a check's outputs need, generated
 * on every core before it asks for them: mw03_reference() then only reads the
 * inputs and writes its own answer, so the check may call it from many
 * threads. 2^31 hashes for the case of K = 2^21 take half a minute on one
 * core. */
typedef struct input_work {
    mm_cache *mc;
    const mw_inputs *in;
    const size_t *rows, *cols; /* items: the rows, then the columns */
    size_t nrows;
} input_work;

static void make_inputs(void *arg, size_t first, size_t end)
{
    const input_work *w = arg;
    for (size_t k = first; k < end; k++)
        if (k < w->nrows)
            mw03_row_of_a(w->mc, w->in, w->rows[k]);
        else
            mw03_column_of_b(w->mc, w->in, w->cols[k - w->nrows]);
}

/* The indices m (or n) with want[] set and not yet done, into list. */
static size_t pending(const unsigned char *want, const unsigned char *done, size_t count,
                      size_t *list)
{
    size_t n = 0;
    for (size_t k = 0; k < count; k++)
        if (want[k] && !done[k])
            list[n++] = k;
    return n;
}

void mw03_prepare_reference(const mw_case *c, const mw_inputs *in, const size_t *idx,
                            size_t count)
{
    mm_cache *mc = mw03_cache_for(c, in);
    size_t M = mc->M, N = mc->N;
    unsigned char *want_row = mw_alloc_or_exit(M, 1, 1, "matmul");
    unsigned char *want_col = mw_alloc_or_exit(N, 1, 1, "matmul");
    for (size_t j = 0; j < count; j++) {
        size_t i = idx ? idx[j] : j;
        want_row[i / N] = want_col[i % N] = 1;
    }
    size_t *list = mw_alloc_or_exit(M + N, sizeof(size_t), 0, "matmul");
    size_t nrows = pending(want_row, mc->a_done, M, list);
    size_t ncols = pending(want_col, mc->b_done, N, list + nrows);
    input_work w = {mc, in, list, list + nrows, nrows};
    /* 2^16 inputs a thread at least: fewer cost less than starting it */
    size_t per_item = mc->K, min_items = ((size_t)1 << 16) / (per_item ? per_item : 1) + 1;
    mw_parallel_ranges(nrows + ncols, 0, min_items, make_inputs, &w);
    free(list);
    free(want_row);
    free(want_col);
}

/* sum over k < kend of a[k] * b[k] in double, each input rounded by
 * `round` first (NULL: as it is). A product of two floats is exact in
 * double (24 + 24 bits); the sum's own rounding, at most K 2^-53 relative
 * to the sum of |products|, is a billion times below the tolerance. */
double mw03_dot(const float *a, const float *b, size_t kend, float (*round)(float))
{
    double sum = 0;
    for (size_t k = 0; k < kend; k++)
        sum += round ? (double)round(a[k]) * (double)round(b[k]) : (double)a[k] * (double)b[k];
    return sum;
}

double mw03_reference(const mw_case *c, const mw_inputs *in, size_t i)
{
    mm_cache *mc = mw03_cache_for(c, in);
    if (mc->c && mc->c_done[i])
        return mc->c[i];
    size_t N = c->dim[1], K = c->dim[2];
    double v = mw03_dot(mw03_row_of_a(mc, in, i / N), mw03_column_of_b(mc, in, i % N), K, NULL);
    if (mc->c) {
        mc->c[i] = v;
        mc->c_done[i] = 1;
    }
    return v;
}
