/* harness.h: the pieces the check, bench and traffic commands share. */
#ifndef MW_HARNESS_H
#define MW_HARNESS_H

#include "mw.h"

#include <stdio.h>

/* Elements of guard pattern on each side of every buffer: larger than any
 * block (1024 threads x 4 floats) so that a kernel without a bounds check
 * writes into the guard, where the grader sees it, rather than into another
 * allocation, where nothing would. */
#define MW_GUARD 8192

/* A case's buffers on the device: [guard][offset][view: count][guard]. */
typedef struct mw_views {
    int nbufs, out;
    mw_buffer_spec spec[MW_MAX_BUFS];
    float *alloc[MW_MAX_BUFS];
    size_t alloc_count[MW_MAX_BUFS];
    size_t lead[MW_MAX_BUFS]; /* elements from alloc to view */
    float *view[MW_MAX_BUFS];
} mw_views;

/* Input streams differ per case, so every case gets fresh inputs. */
mw_inputs mw_case_inputs(const mw_case *c, int case_index, uint64_t seed);

size_t mw_case_bytes(const mw_chapter *ch, const mw_case *c);
cudaError_t mw_views_alloc(const mw_chapter *ch, const mw_case *c, mw_views *v);
/* Guards to MW_GUARD_BITS, inputs from the generator, output to poison. */
cudaError_t mw_views_fill(mw_views *v, const mw_inputs *in, cudaStream_t s);
cudaError_t mw_views_poison_output(mw_views *v, cudaStream_t s);
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

/* Output checking against the reference: all elements, or a sample for
 * huge cases. Fills m; returns a CUDA error code. `host_copy`, if not NULL,
 * receives the checked values (for comparing two runs). */
cudaError_t mw_check_output(const mw_chapter *ch, const mw_case *c, const mw_inputs *in,
                            const mw_views *v, mw_mismatch *m, float **host_copy,
                            size_t *host_count);

/* Guards and inputs after a run, into the diagnosis facts. */
cudaError_t mw_check_surroundings(const mw_views *v, const mw_inputs *in, mw_run_facts *f);

/* Prints a CUDA error with its name and, where known, what usually causes it. */
void mw_format_cuda_error(char *text, size_t len, const char *what, cudaError_t err);

/* ceil(log2) label: 1048576 -> "2^20", others as the number. */
void mw_size_label(double x, char *text, size_t len);

#endif
