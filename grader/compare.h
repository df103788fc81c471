/* compare.h: comparing a kernel's output with the double-precision reference.
 *
 * Pure C with no CUDA: unit-tested on the CPU (tests/unit/test_grader.c). */
#ifndef MW_COMPARE_H
#define MW_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "locate.h"

/* The bit pattern the harness writes into every output before a run: a NaN
 * that no arithmetic produces (computed NaNs are 0x7fc00000 or 0xffc00000),
 * so "never written" is told apart from "wrote NaN". */
#define MW_POISON_BITS 0xffffffffu
/* The pattern around every buffer: a write here went out of bounds. */
#define MW_GUARD_BITS 0xfefefefeu

/* |got - ref| <= atol + rtol * |ref|, per element. */
typedef struct mw_tol {
    double atol;
    double rtol;
} mw_tol;

/* 1 when got matches ref: NaN must meet NaN, an infinity the same infinity,
 * and a finite ref a finite got within tolerance. A NaN never passes by
 * accident, in either direction. */
int mw_matches(float got, double ref, mw_tol tol);

uint32_t mw_float_bits(float f);

/* count elements of size bytes (at least one), zeroed when `zero`, or
 * exit 2 with "<who> reference: out of host memory": a chapter's
 * reference has no way to report a failure, and a check without it means
 * nothing. */
void *mw_alloc_or_exit(size_t count, size_t size, int zero, const char *who);

#define MW_SHOW 5 /* how many wrong elements a report lists */

/* What a comparison found, accumulated element by element. */
typedef struct mw_mismatch {
    size_t checked;
    size_t wrong;            /* elements outside tolerance, unwritten included */
    size_t unwritten;        /* still the poison pattern */
    size_t first_wrong, last_wrong;
    size_t checked_before_first_wrong; /* elements checked (right) before it */
    /* The last element checked and right before the first wrong one (valid
     * when has_right_before): where a sampled check leaves a gap, the true
     * first wrong element lies after it and at or before first_wrong. */
    size_t last_right_before;
    int has_right_before;
    size_t first_unwritten, last_unwritten;
    size_t wrong_past_2_31;  /* wrong elements at index >= 2^31 */
    size_t wrong_past_2_32;  /* wrong elements at index >= 2^32 */
    size_t wrong_nonfinite;  /* got NaN/Inf (not poison) where ref is finite */
    double max_abs_err;      /* over finite pairs */
    int nshow;
    size_t show_index[MW_SHOW];
    float show_got[MW_SHOW];
    double show_ref[MW_SHOW];
    /* Where the wrong elements lie, in the output's own axes (locate.h):
     * kept when `shape` has axes (mw_mismatch_shape), else empty. */
    mw_shape shape;
    mw_locate loc;
} mw_mismatch;

void mw_mismatch_init(mw_mismatch *m);
/* Locates the wrong elements to come in these axes (after init). */
void mw_mismatch_shape(mw_mismatch *m, const mw_shape *shape);
/* Returns 1 when the element matches. */
int mw_mismatch_add(mw_mismatch *m, size_t index, float got, double ref, mw_tol tol);
/* Appends `next`, the accounting of the elements checked after m's (in
 * index order): the result is what adding them all to m one by one gives,
 * so that parts of one check can be counted on several threads. */
void mw_mismatch_merge(mw_mismatch *m, const mw_mismatch *next);

/* Findings gathered around one run, for the diagnosis. */
typedef struct mw_run_findings {
    size_t n;                  /* output elements */
    int sampled;               /* only some elements were checked */
    size_t guard_before;       /* guard elements overwritten before the output */
    size_t guard_after;        /* ... and after it */
    size_t guard_after_last;   /* furthest overwritten element past the end (0-based from n) */
    size_t input_guard;        /* guard elements overwritten around the inputs */
    const char *input_guard_name;
    int input_changed;         /* an input differs from what was generated */
    const char *input_name;    /* which input */
    size_t input_index;        /* first changed element of it */
    int runs_differ;           /* two runs on the same inputs gave different bits */
    size_t written_off_stream; /* output elements written before the launcher's
                                  stream ran: work launched elsewhere */
    int forked_unjoined;       /* work forked off the launcher's stream was
                                  never joined back to it */
} mw_run_findings;

/* Writes up to `max` hints a student can act on, given the mismatch and
 * the findings. Returns the number written. It is the three below in order;
 * the checker puts a chapter's named mistakes and the localisation
 * (locate.h) between them, so that the first hint is the most specific. */
int mw_diagnose(const mw_mismatch *m, const mw_run_findings *f, char hints[][256], int max);
/* What happened around the run, whatever the values: writes off the
 * stream, out of bounds or into an input, two runs that differ. */
int mw_diagnose_run(const mw_run_findings *f, char hints[][256], int max);
/* Patterns of the indices that name their cause: a tail or half never
 * written, nothing written, wrong only past 2^31 or 2^32. */
int mw_diagnose_pattern(const mw_mismatch *m, const mw_run_findings *f, char hints[][256], int max);
/* What is left, true but unspecific: some elements never written, NaN or
 * Inf where the reference is finite. */
int mw_diagnose_weak(const mw_mismatch *m, const mw_run_findings *f, char hints[][256], int max);

/* A hint for a CUDA error, by name ("cudaErrorMisalignedAddress" -> ...).
 * Returns NULL when there is nothing to add to the error's own text. */
const char *mw_cuda_error_hint(const char *error_name);

#endif
