/* harness_buffers.h: a case's buffers as the harness lays them out on the
 * device: their specs and element types, the bytes they take, the input
 * streams. Pure C, implemented in harness_buffers.c, which the unit tests
 * link without CUDA. */
#ifndef MW_HARNESS_BUFFERS_H
#define MW_HARNESS_BUFFERS_H

#include "mw.h"

/* Elements of guard pattern on each side of every buffer: larger than any
 * block (1024 threads x 4 floats) so that a kernel without a bounds check
 * writes into the guard, where the grader sees it, rather than into another
 * allocation, where nothing would. Elements of the buffer's type: 32 KiB
 * each side of an FP32 buffer, 16 KiB of a bf16 one (still 8 per thread of
 * a 1024-thread block). */
#define MW_GUARD 8192

/* A case's buffers on the device: [guard][offset][view: count][guard],
 * counted in elements of the buffer's type (spec[b].type: 4 bytes for
 * FP32, 2 for bf16). Slot nbufs holds the workspace of the version or
 * library being run, when it asks for one (FP32; count 0 and view NULL
 * otherwise). view[b] of a bf16 buffer holds a __nv_bfloat16 * (mw.h). */
typedef struct mw_views {
    int nbufs;
    int nout, out[MW_MAX_BUFS]; /* the output buffers, in order */
    size_t out_total;           /* their elements together: the flat index space */
    mw_buffer_spec spec[MW_MAX_BUFS + 1];
    void *alloc[MW_MAX_BUFS + 1];
    size_t alloc_count[MW_MAX_BUFS + 1]; /* elements */
    size_t lead[MW_MAX_BUFS + 1]; /* elements from alloc to view */
    float *view[MW_MAX_BUFS + 1];
    int workspace_lent; /* the workspace slot is someone else's memory: never freed here */
} mw_views;

/* Input streams differ per case, so every case gets fresh inputs; each
 * buffer's type comes from ch->buffers(), so that mw_input() rounds a bf16
 * input as the GPU's copy is rounded. */
mw_inputs mw_case_inputs_for(const mw_chapter *ch, const mw_case *c, int case_index,
                             uint64_t seed);

/* Device bytes the case's buffers take with their guards and offsets, each
 * counted in its own element size. */
size_t mw_case_bytes(const mw_chapter *ch, const mw_case *c);
/* v zeroed, then the case's specs, outputs and element types filled in
 * (no memory allocated). */
void mw_views_specs(const mw_chapter *ch, const mw_case *c, mw_views *v);
/* The input whose storage buffer b shares (a case with shared_inputs), or
 * -1 when b has its own. */
int mw_shares_storage(const mw_case *c, const mw_views *v, int b);
/* Bytes a workspace of `floats` takes with its guards (0 for none). */
size_t mw_workspace_bytes(size_t floats);

#endif
