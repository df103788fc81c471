/* harness_buffers.c: a case's buffers as the harness lays them out
 * (harness_buffers.h). Pure C, no CUDA calls: unit-tested on the CPU
 * (tests/unit/test_grader.c). */
#include "harness_buffers.h"

#include <string.h>

void mw_views_specs(const mw_chapter *ch, const mw_case *c, mw_views *v)
{
    memset(v, 0, sizeof *v);
    v->nbufs = ch->nbufs;
    ch->buffers(c, v->spec);
    for (int b = 0; b < v->nbufs; b++) {
        int first = mw_shares_storage(c, v, b);
        if (first >= 0) /* one storage, one type */
            v->spec[b].type = v->spec[first].type;
        if (v->spec[b].is_output) {
            v->out[v->nout++] = b;
            v->out_total += v->spec[b].count;
        }
    }
    v->spec[v->nbufs] = (mw_buffer_spec){"workspace", 0, 0, MW_F32};
}

mw_inputs mw_case_inputs_for(const mw_chapter *ch, const mw_case *c, int case_index,
                             uint64_t seed)
{
    mw_inputs in;
    memset(&in, 0, sizeof in);
    in.seed = seed;
    /* Streams 4k+1..4k+4 for buffers 0-3 of case k; buffers past the
     * fourth draw from a range of their own, so that a chapter that adds a
     * buffer leaves the first four's inputs, and what SEED= replays, as
     * they are. */
    for (int b = 0; b < MW_MAX_BUFS; b++)
        in.stream[b] = b < 4 ? (uint32_t)(case_index * 4 + b + 1)
                             : (uint32_t)(((uint32_t)1 << 24) + case_index * 4 + (b - 4) + 1);
    if (c->shared_inputs) /* one storage: one stream (outputs draw none) */
        for (int b = 1; b < MW_MAX_BUFS; b++)
            in.stream[b] = in.stream[0];
    /* The types, so that mw_input() rounds as the GPU's copy was rounded. */
    if (ch) {
        mw_views v;
        mw_views_specs(ch, c, &v);
        for (int b = 0; b < v.nbufs && b < MW_MAX_BUFS; b++)
            in.type[b] = v.spec[b].type;
    }
    in.gen = c->gen;
    in.scale = c->scale != 0.f ? c->scale : 1.f;
    return in;
}

size_t mw_case_bytes(const mw_chapter *ch, const mw_case *c)
{
    mw_views v;
    mw_views_specs(ch, c, &v);
    size_t bytes = 0;
    for (int b = 0; b < v.nbufs; b++)
        if (mw_shares_storage(c, &v, b) < 0)
            bytes += (v.spec[b].count + 2 * MW_GUARD + c->offset[b]) * mw_type_size(v.spec[b].type);
    return bytes;
}

int mw_shares_storage(const mw_case *c, const mw_views *v, int b)
{
    if (!c->shared_inputs || v->spec[b].is_output)
        return -1;
    for (int first = 0; first < b; first++)
        if (!v->spec[first].is_output)
            return first;
    return -1;
}

/* The workspace is FP32. */
size_t mw_workspace_bytes(size_t floats)
{
    return floats ? (floats + 2 * MW_GUARD) * sizeof(float) : 0;
}
