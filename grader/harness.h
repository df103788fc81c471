/* harness.h: the pieces the check, bench and traffic commands share, on
 * the device (harness.c); the buffers' layout they build on is in
 * harness_buffers.h. */
#ifndef MW_HARNESS_H
#define MW_HARNESS_H

#include "harness_buffers.h"
#include "mw.h"

#include <stdio.h>

/* What one check found: a mismatch per output buffer (per[b], indices local
 * to buffer b) and the totals. */
typedef struct mw_checked {
    mw_mismatch per[MW_MAX_BUFS];
    size_t wrong, checked;
} mw_checked;

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
 * writes by value but hide a read past the end inside the allocation. On
 * the CPU emulation (mw_gpu_emulated) views are exact whatever this says:
 * its bounds check stands for memcheck on every case. */
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
    int skipped;        /* built for an older GPU than it needs: error says why */
    char error[512];    /* why */
} mw_loaded;

int mw_load_version(const char *lib_dir, const mw_version *v, mw_loaded *out);

/* The flat output indices a sampled case checks, of n, sorted and unique
 * (malloc'd; NULL when out of memory): both ends, the 2^31, 2^32 and 2^33
 * boundaries and a random sample drawn from seed; a part of those while
 * mw_sample_on_blocks is on. */
size_t *mw_sample_indices(const mw_chapter *ch, size_t n, uint64_t seed, size_t *count);
/* On (1): the cases checked from here on run on a sample of their blocks
 * (the emulation, emulation.h), and check the emulation's part of the
 * sample; off (the default): the whole of it, as on a GPU. */
void mw_sample_on_blocks(int on);

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
