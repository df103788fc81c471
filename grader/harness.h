/* harness.h: the pieces the check, bench and traffic commands share.
 * Implemented in harness.c (CUDA) and harness_buffers.c (the buffers'
 * layout, pure C, which the unit tests link). */
#ifndef MW_HARNESS_H
#define MW_HARNESS_H

#include "mw.h"

#include <stdio.h>

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

/* What one check found: a mismatch per output buffer (per[b], indices local
 * to buffer b) and the totals. */
typedef struct mw_checked {
    mw_mismatch per[MW_MAX_BUFS];
    size_t wrong, checked;
} mw_checked;

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
cudaError_t mw_views_alloc(const mw_chapter *ch, const mw_case *c, mw_views *v);
/* Views for case c where *have says whether v holds views already: kept
 * when their buffers are the ones c asks for (count and type), else freed
 * and allocated for c. The bench and traffic run implementations of
 * several ops at one case: chapter 05's bf16 rows need bf16 buffers where
 * the FP32 rows before them had FP32 ones. */
cudaError_t mw_views_refit(const mw_chapter *ch, const mw_case *c, mw_views *v, int *have);
/* On (1): views allocated from here on end exactly where the buffer ends,
 * with no guard band after it (at least one element is allocated), so that
 * compute-sanitizer's memcheck reports any access past the end; off (the
 * default): MW_GUARD elements of guard on both sides, which catch stray
 * writes by value but hide a read past the end inside the allocation. */
void mw_views_exact(int on);
/* Guards to MW_GUARD_BITS, inputs from the generator (rounded to bf16 in a
 * bf16 buffer), output to poison (in each buffer's width). */
cudaError_t mw_views_fill(mw_views *v, const mw_inputs *in, cudaStream_t s);
cudaError_t mw_views_poison_output(mw_views *v, cudaStream_t s);
/* The workspace slot, `floats` long, with guards and poisoned (0: none). */
cudaError_t mw_views_alloc_workspace(mw_views *v, size_t floats, cudaStream_t s);
void mw_views_free_workspace(mw_views *v);
/* The same, in `pool` (at least mw_workspace_bytes(floats) long), which
 * stays the caller's: traffic keeps one pool for every implementation. */
cudaError_t mw_views_lend_workspace(mw_views *v, float *pool, size_t floats, cudaStream_t s);
/* Bytes a workspace of `floats` takes with its guards (0 for none). */
size_t mw_workspace_bytes(size_t floats);
/* The tolerance of output buffer b: the chapter's per-output one if it has
 * one, else its per-case one. */
mw_tol mw_tolerance_of(const mw_chapter *ch, const mw_case *c, int b);
/* Which output buffer holds flat output index i, and i within it. */
int mw_views_locate(const mw_views *v, size_t i, size_t *local);
/* Inputs only, from the generator (fresh inputs between timed runs). */
cudaError_t mw_views_fill_inputs(mw_views *v, const mw_inputs *in, cudaStream_t s);
void mw_views_free(mw_views *v);

/* The version launchers, loaded from build/<src>/<chapter>/<file>.so. */
typedef struct mw_loaded {
    const mw_version *version;
    void *handle;
    void *fn;           /* NULL when loading failed */
    int missing;        /* the library file does not exist (never built) */
    char error[512];    /* why */
} mw_loaded;

int mw_load_version(const char *lib_dir, const mw_version *v, mw_loaded *out);

/* Output checking against the reference: every output element, or a
 * sample for huge cases, over the flat index space of all outputs (the
 * chapter's reference takes that flat index). Outputs in `skip` (a mask of
 * buffer indices) are not checked. Fills r; returns a CUDA error code.
 * `host_copy`, if not NULL, receives the checked values (for comparing two
 * runs). Values are floats whatever the buffer's type: a bf16 output is
 * widened exactly, its poison to MW_POISON_BITS. */
cudaError_t mw_check_output(const mw_chapter *ch, const mw_case *c, const mw_inputs *in,
                            const mw_views *v, unsigned skip, mw_checked *r, float **host_copy,
                            size_t *host_count);

/* The shape of output buffer b for the localisation (locate.h): the
 * chapter's output_shape, with what the harness knows of the case (full
 * check or sample, inputs with NaN or Inf). Empty for an input, where the
 * chapter has no hook, or where the hook's element count is not the
 * buffer's. */
void mw_output_shape(const mw_chapter *ch, const mw_case *c, const mw_views *v, int b,
                     mw_shape *s);

/* Guards and inputs after a run, into the diagnosis's findings. */
cudaError_t mw_check_surroundings(const mw_views *v, const mw_inputs *in, mw_run_findings *f);

/* Prints a CUDA error with its name and, where known, what usually causes it. */
void mw_format_cuda_error(char *text, size_t len, const char *what, cudaError_t err);

/* ceil(log2) label: 1048576 -> "2^20", others as the number. */
void mw_size_label(double x, char *text, size_t len);

#endif
