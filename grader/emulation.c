#include "emulation.h"

#include "harness_buffers.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double mw_emulation_work(const mw_chapter *ch, const mw_case *c, size_t workspace_floats)
{
    double read = 0, write = 0, flops = 0;
    ch->model(c, &read, &write, &flops);
    double extra = ch->emulation_work ? ch->emulation_work(c) : 0;
    return flops + (double)mw_case_bytes(ch, c) / 4 + (double)workspace_floats + extra;
}

double mw_emulation_budget(const mw_chapter *ch)
{
    return ch->emulation_budget > 0 ? ch->emulation_budget : MW_EMULATION_BUDGET;
}

int mw_emulation_on_sample(const mw_chapter *ch, const mw_case *c, size_t workspace_floats)
{
    const int named = ch->emulation_samples ? ch->emulation_samples(c) : c->sampled;
    return ch->emulation_blocks && named &&
           mw_emulation_work(ch, c, workspace_floats) > mw_emulation_budget(ch);
}

double mw_emulation_sample_budget(const mw_chapter *ch)
{
    return ch->emulation_sample_budget > 0 ? ch->emulation_sample_budget : mw_emulation_budget(ch);
}

double mw_emulation_seconds(const mw_chapter *ch, const mw_case *c, size_t workspace_floats)
{
    const double work = mw_emulation_on_sample(ch, c, workspace_floats)
                            ? mw_emulation_sample_budget(ch)
                            : fmin(mw_emulation_work(ch, c, workspace_floats),
                                   mw_emulation_budget(ch));
    return work / MW_EMULATION_UNITS_PER_S;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return (x > y) - (x < y);
}

/* What running `picked` of a grid's blocks costs the emulation: the case's
 * work in their share (the chapter's own extra, a cost per block it
 * assumes, left out: their threads are counted instead). */
static double sample_work(const mw_emulation_sample *s, uint64_t picked, uint64_t nblocks,
                          const unsigned block[3])
{
    double extra = s->ch->emulation_work ? s->ch->emulation_work(s->c) : 0;
    double threads = (double)block[0] * block[1] * block[2];
    return (mw_emulation_work(s->ch, s->c, 0) - extra) * (double)picked / (double)nblocks +
           (double)picked * threads * MW_EMULATION_THREAD_WORK;
}

/* Sorts b[0..n) and leaves each block once at its start; returns how many. */
static size_t sort_unique(uint64_t *b, size_t n)
{
    qsort(b, n, sizeof *b, compare_u64);
    size_t unique = 0;
    for (size_t j = 0; j < n; j++)
        if (unique == 0 || b[j] != b[unique - 1])
            b[unique++] = b[j];
    return unique;
}

size_t mw_emulation_pick(void *arg, const unsigned grid[3], const unsigned block[3],
                         uint64_t **blocks)
{
    mw_emulation_sample *s = arg;
    uint64_t nblocks = (uint64_t)grid[0] * grid[1] * grid[2];
    const char *layout = s->ch->emulation_layout ? s->ch->emulation_layout(s->c, grid, block)
                                                 : NULL;
    if (layout) {
        snprintf(s->why, sizeof s->why, "and %s", layout);
        return MW_GPU_GRID_TOO_SMALL;
    }
    /* Grown as outputs name blocks: most name one or a few, a row of
     * chapter 05's scores thousands, and neighbouring outputs the same. */
    const uint64_t ends = s->ch->emulation_sample_ends ? s->ch->emulation_sample_ends
                                                       : MW_EMULATION_SAMPLE_ENDS;
    size_t cap = 4 * s->count + 2 * ends + MW_EMULATION_BLOCKS, n = 0;
    uint64_t *b = malloc(cap * sizeof *b);
    if (!b)
        return MW_GPU_GRID_TOO_SMALL;
    for (uint64_t k = 0; k < ends && k < nblocks; k++) {
        b[n++] = k;
        b[n++] = nblocks - 1 - k;
    }
    for (size_t j = 0; j < s->count; j++) {
        if (cap - n < MW_EMULATION_BLOCKS)
            n = sort_unique(b, n);
        if (cap - n < 2 * MW_EMULATION_BLOCKS) {
            uint64_t *grown = realloc(b, 2 * cap * sizeof *b);
            if (!grown) {
                free(b);
                return MW_GPU_GRID_TOO_SMALL;
            }
            b = grown;
            cap *= 2;
        }
        int got = s->ch->emulation_blocks(s->c, s->idx[j], grid, block, b + n);
        if (got == 0) {
            free(b);
            return MW_GPU_GRID_TOO_SMALL;
        }
        n += (size_t)got;
    }
    size_t unique = sort_unique(b, n);
    double work = sample_work(s, unique, nblocks, block);
    if (work > mw_emulation_sample_budget(s->ch)) {
        snprintf(s->why, sizeof s->why,
                 "and its sample alone (%zu of %llu blocks, %.3g units of work) is past it", unique,
                 (unsigned long long)nblocks, work);
        free(b);
        return MW_GPU_GRID_TOO_SMALL;
    }
    *blocks = b;
    /* Kept for mw_emulation_strays: the scheduler frees *blocks. */
    free(s->picked);
    s->picked = malloc(unique * sizeof *s->picked);
    s->npicked = s->picked ? unique : 0;
    if (s->picked)
        memcpy(s->picked, b, unique * sizeof *b);
    memcpy(s->grid, grid, sizeof s->grid);
    memcpy(s->block, block, sizeof s->block);
    return unique;
}

void mw_emulation_sample_free(mw_emulation_sample *s)
{
    free(s->picked);
    s->picked = NULL;
    s->npicked = 0;
    s->why[0] = '\0';
}

static int was_picked(const mw_emulation_sample *s, uint64_t block)
{
    return bsearch(&block, s->picked, s->npicked, sizeof *s->picked, compare_u64) != NULL;
}

/* Whether element i (flat) belongs to a picked block under a mapping. */
static int picked_element(const mw_emulation_sample *s, size_t i, uint64_t *cand)
{
    int n = s->ch->emulation_blocks(s->c, i, s->grid, s->block, cand);
    for (int k = 0; k < n; k++)
        if (was_picked(s, cand[k]))
            return 1;
    return 0;
}

int mw_emulation_strays(const mw_emulation_sample *s, const size_t *firsts, size_t n,
                        size_t count, size_t elem, size_t flat_first)
{
    enum { PAGE = 4096 };
    uint64_t *cand = malloc(MW_EMULATION_BLOCKS * sizeof *cand);
    if (!cand)
        return -1;
    /* Every element of a touched page is asked: a picked block's elements
     * may straddle into a page whose other elements are another block's. */
    int strays = 0;
    for (size_t p = 0; p < n && !strays; p++) {
        size_t last = firsts[p] + PAGE / elem;
        int legit = 0;
        for (size_t e = firsts[p]; e < last && e < count && !legit; e++)
            legit = picked_element(s, flat_first + e, cand);
        strays = !legit;
    }
    free(cand);
    return strays;
}
