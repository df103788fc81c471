/* reference.c: chapter 05's CPU reference in double: each row of O and its
 * L from the definition (or under one of the classic mistakes' rules), the
 * K and V of one head and the exact rows of the last few input sets kept
 * between calls, and the rows a check is about to ask for computed at once
 * on every core. */
#include "reference.h"

#include "harness.h"
#include "parallel.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const row_rule exact_rule = {0, 0, 0, 0, 0};

/* K and V of one (b, h), in float, recomputed from the seed: the rows of
 * a check come in increasing order, so one head at a time suffices. */
typedef struct head_cache {
    uint64_t seed;
    uint32_t kstream, vstream;
    int gen, type; /* type: K's and V's element type (bf16 rounds them) */
    float g;
    size_t N, d, bh;
    float *K, *V;
} head_cache;

static const float *head_rows(const mw_case *c, const mw_inputs *in, size_t bh, int which)
{
    static head_cache hc;
    size_t N = DN(c), d = DD(c);
    if (!(hc.K && hc.seed == in->seed && hc.kstream == in->stream[Kb] &&
          hc.vstream == in->stream[Vb] && hc.gen == in->gen && hc.type == in->type[Kb] &&
          hc.g == in->scale && hc.N == N &&
          hc.d == d && hc.bh == bh)) {
        free(hc.K);
        free(hc.V);
        hc = (head_cache){in->seed, in->stream[Kb], in->stream[Vb], in->gen, in->type[Kb], in->scale,
                          N, d, bh,
                          mw_alloc_or_exit(N * d, sizeof(float), 0, "attention"),
                          mw_alloc_or_exit(N * d, sizeof(float), 0, "attention")};
        for (size_t e = 0; e < N * d; e++) {
            hc.K[e] = mw_input(in, Kb, bh * N * d + e);
            hc.V[e] = mw_input(in, Vb, bh * N * d + e);
        }
    }
    return which == Kb ? hc.K : hc.V;
}

/* Row `row` (over all heads) of O, and its L, under `rule`. out has d + 1
 * entries: O's d, then L. */
void mw05_attend_row(const mw_case *c, const mw_inputs *in, size_t row, row_rule rule,
                     double *out)
{
    size_t N = DN(c), d = DD(c), bh = row / N, i = row % N;
    const float *K = head_rows(c, in, bh, Kb), *V = head_rows(c, in, bh, Vb);
    double scale = rule.no_scale || rule.scale_after ? 1.0
                   : rule.sqrt_scale                 ? (float)(1.0 / sqrt((double)d))
                                                     : scale_of(c);
    long last = is_causal(c) ? (long)i + rule.mask_shift : (long)N - 1;
    if (last > (long)N - 1)
        last = (long)N - 1;
    double q[128], *s = mw_alloc_or_exit(N, sizeof *s, 0, "attention");
    for (size_t k = 0; k < d; k++)
        q[k] = mw_input(in, Qb, row * d + k);
    double m = -INFINITY, amax = -INFINITY;
    int nan = 0;
    for (long j = 0; j <= last; j++) {
        double acc = 0;
        for (size_t k = 0; k < d; k++)
            acc += q[k] * K[j * d + k];
        s[j] = scale * acc;
        nan |= isnan(s[j]);
        m = s[j] > m ? s[j] : m;
        amax = acc > amax ? acc : amax;
    }
    if (rule.no_max)
        m = 0;
    if (rule.raw_max)
        m = scale * amax;
    double l = 0;
    for (size_t k = 0; k < d; k++)
        out[k] = 0;
    for (long j = 0; j <= last; j++) {
        double p = exp(s[j] - m);
        if ((rule.no_max || rule.raw_max) && p > FLT_MAX)
            p = INFINITY; /* expf overflows: Inf / Inf below is NaN */
        l += p;
        for (size_t k = 0; k < d; k++)
            out[k] += p * V[j * d + k];
    }
    double post = rule.scale_after ? scale_of(c) : 1.0;
    for (size_t k = 0; k < d; k++)
        out[k] = nan || last < 0 ? NAN : out[k] / l * post;
    out[d] = nan || last < 0 ? NAN : m + log(l);
    free(s);
}

/* The exact rows of the last few input sets (the bench checks every
 * implementation on the same inputs, then on two alternating fresh sets),
 * computed when first asked for. */
typedef struct row_cache {
    uint64_t seed;
    uint32_t stream[3];
    int gen, op;
    float g, scale;
    size_t dim[4];
    double **row; /* B H N entries, each NULL or d + 1 values */
} row_cache;

#define CACHES 3

static int same_inputs(const row_cache *rc, const mw_case *c, const mw_inputs *in)
{
    return rc->row && rc->seed == in->seed && rc->stream[0] == in->stream[Qb] &&
           rc->stream[1] == in->stream[Kb] && rc->stream[2] == in->stream[Vb] &&
           rc->gen == in->gen && rc->g == in->scale && rc->op == c->op &&
           rc->scale == scale_of(c) && memcmp(rc->dim, c->dim, sizeof rc->dim) == 0;
}

/* The cache of these inputs' rows, made (and an old one dropped) when
 * there is none. */
static row_cache *cache_for(const mw_case *c, const mw_inputs *in)
{
    static row_cache caches[CACHES];
    static int next;
    for (int k = 0; k < CACHES; k++)
        if (same_inputs(&caches[k], c, in))
            return &caches[k];
    row_cache *rc = &caches[next];
    next = (next + 1) % CACHES;
    size_t rows = rc->row ? rc->dim[0] * rc->dim[1] * rc->dim[2] : 0;
    for (size_t r = 0; r < rows; r++)
        free(rc->row[r]);
    free(rc->row);
    *rc = (row_cache){in->seed, {in->stream[Qb], in->stream[Kb], in->stream[Vb]}, in->gen,
                      c->op, in->scale, scale_of(c), {DB(c), DH(c), DN(c), DD(c)},
                      mw_alloc_or_exit(DB(c) * DH(c) * DN(c), sizeof(double *), 1, "attention")};
    return rc;
}

/* Room for one row's d + 1 values. */
static double *new_row(const mw_case *c)
{
    return mw_alloc_or_exit(DD(c) + 1, sizeof(double), 0, "attention");
}

static const double *exact_row(const mw_case *c, const mw_inputs *in, size_t row)
{
    row_cache *rc = cache_for(c, in);
    if (!rc->row[row]) {
        rc->row[row] = new_row(c);
        mw05_attend_row(c, in, row, exact_rule, rc->row[row]);
    }
    return rc->row[row];
}

/* ---- the same, on every core, for the rows a check is about to ask for ---- */

typedef struct prep_work {
    const mw_case *c;
    const mw_inputs *in;
    const size_t *rows; /* rows of one head */
    double **slots;     /* the cache's, by row */
} prep_work;

static void prep_rows(void *arg, size_t first, size_t end)
{
    const prep_work *w = arg;
    for (size_t k = first; k < end; k++)
        mw05_attend_row(w->c, w->in, w->rows[k], exact_rule, w->slots[w->rows[k]]);
}

static int by_row(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* Every row the outputs idx[0..count) need (idx NULL: all of them) into
 * the cache, a head at a time: head_rows() fills its one-head cache of K
 * and V on this thread, then the head's rows go over the cores, each
 * thread only reading K and V. A row costs N d multiply-adds twice, so a
 * sampled check at N = 16384, d = 128 spends seconds on one core. Each
 * row is mw05_attend_row's, as exact_row() computes it: the same bits on any
 * number of threads. */
void mw05_prepare_reference(const mw_case *c, const mw_inputs *in, const size_t *idx,
                            size_t count)
{
    row_cache *rc = cache_for(c, in);
    const size_t d = DD(c), N = DN(c), o_count = DB(c) * DH(c) * N * d;
    size_t *rows = mw_alloc_or_exit(count, sizeof *rows, 0, "attention"), nrows = 0;
    for (size_t j = 0; j < count; j++) {
        size_t i = idx ? idx[j] : j, row = i < o_count ? i / d : i - o_count;
        if (!rc->row[row]) { /* claimed here, so that a row is listed once */
            rc->row[row] = new_row(c);
            rows[nrows++] = row;
        }
    }
    qsort(rows, nrows, sizeof *rows, by_row);
    for (size_t first = 0; first < nrows;) {
        const size_t bh = rows[first] / N;
        size_t end = first;
        while (end < nrows && rows[end] / N == bh)
            end++;
        head_rows(c, in, bh, Kb); /* K and V of this head, before any thread reads them */
        prep_work w = {c, in, rows + first, rc->row};
        const size_t macs = (end - first) * N * d;
        mw_parallel_ranges(end - first, macs >= ((size_t)1 << 22) ? 0 : 1, 1, prep_rows, &w);
        first = end;
    }
    free(rows);
}

/* Flat index i over the outputs: O's B H N d elements, then L's B H N. */
double mw05_reference(const mw_case *c, const mw_inputs *in, size_t i)
{
    size_t o_count = DB(c) * DH(c) * DN(c) * DD(c);
    if (i < o_count)
        return exact_row(c, in, i / DD(c))[i % DD(c)];
    return exact_row(c, in, i - o_count)[DD(c)];
}
