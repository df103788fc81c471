/* reference_agree.c: a chapter's reference answers, computed the two ways
 * a check can ask for them. Linked into each chapter's program objects as
 * build/NN-name/reference-agree (no GPU needed: the reference is the CPU's).
 *
 *   reference-agree --lazy       reference() alone, one output at a time
 *   reference-agree --prepared   prepare_reference() first, on every core
 *
 * For every case of at most 2^22 outputs and 2^30 FLOPs that the check
 * does not sample (a sampled case's reference is the dear one: long rows,
 * deep K; its inputs alone take the CPU seconds to generate) it prints
 * one line: the case's number, how many outputs it asked for and an FNV-1a
 * hash of their bits (the whole output when it has at most 2^12 elements,
 * else 256 indices drawn from a fixed seed, sorted as the harness gives
 * them). Each mode
 * runs in a process of its own, so no cache of one can answer for the
 * other; tests/t0107-reference-prepare.t compares the two outputs line by
 * line. A chapter without prepare_reference prints "none". Each case is
 * asked for once per operation its versions compute it as (chapter 05's
 * bf16 version: the case with bf16 inputs, rounded as the GPU's are). */
#include "harness.h"
#include "mw.h"
#include "rng.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern const mw_chapter mw_chapter_def;

static uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t k = 0; k < n; k++)
        h = (h ^ b[k]) * 0x100000001b3ULL;
    return h;
}

static int by_index(const void *a, const void *b)
{
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    return x < y ? -1 : x > y;
}

/* Outputs of the case: the elements of its output buffers, in the flat
 * order reference() takes. */
static size_t outputs_of(const mw_chapter *ch, const mw_case *c)
{
    mw_views v;
    mw_views_specs(ch, c, &v);
    size_t n = 0;
    for (int o = 0; o < v.nout; o++)
        n += v.spec[v.out[o]].count;
    return n;
}

/* One line for case ci as operation c.op: 0, or -1 out of memory. */
static int agree_case(const mw_chapter *ch, int ci, mw_case cv, int prepared)
{
    const mw_case *c = &cv;
    size_t total = outputs_of(ch, c);
    double read = 0, write = 0, flops = 0;
    if (ch->model)
        ch->model(c, &read, &write, &flops);
    if (c->sampled || total > ((size_t)1 << 22) || flops > 0x1p30)
        return 0;
    int whole = total <= ((size_t)1 << 12);
    size_t count = whole ? total : 256, *idx = NULL;
    if (!whole) {
        idx = malloc(count * sizeof *idx);
        if (!idx)
            return -1;
        for (size_t j = 0; j < count; j++)
            idx[j] = (size_t)(mw_hash(20261124, (uint32_t)ci, j) % total);
        qsort(idx, count, sizeof *idx, by_index);
    }
    mw_inputs in = mw_case_inputs_for(ch, c, ci, 20261124);
    if (prepared)
        ch->prepare_reference(c, &in, idx, count);
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t j = 0; j < count; j++) {
        double r = ch->reference(c, &in, idx ? idx[j] : j);
        h = fnv1a(h, &r, sizeof r);
    }
    printf("case %d op %d: %zu outputs, %016llx\n", ci, c->op, count, (unsigned long long)h);
    free(idx);
    return 0;
}

int main(int argc, char **argv)
{
    const mw_chapter *ch = &mw_chapter_def;
    int prepared = argc > 1 && strcmp(argv[1], "--prepared") == 0;
    if (argc != 2 || (!prepared && strcmp(argv[1], "--lazy") != 0)) {
        fprintf(stderr, "usage: reference-agree --lazy | --prepared\n");
        return 2;
    }
    if (!ch->prepare_reference) {
        printf("none\n");
        return 0;
    }
    for (int ci = 0; ci < ch->ncases; ci++)
        for (int v = 0; v < ch->nversions; v++) {
            int seen = 0; /* an earlier version computes the same op */
            for (int w = 0; w < v; w++)
                seen |= mw_case_for(&ch->cases[ci], ch->versions[w].op).op ==
                        mw_case_for(&ch->cases[ci], ch->versions[v].op).op;
            if (!seen && agree_case(ch, ci, mw_case_for(&ch->cases[ci], ch->versions[v].op),
                                    prepared) != 0)
                return 2;
        }
    return 0;
}
