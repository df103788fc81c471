/* reference.h: chapter 03's buffers and its CPU reference in double
 * (reference.c): the entry points of mw_chapter, and the cached rows of A
 * and columns of B that the named mistakes recompute their sums from. */
#ifndef MW03_REFERENCE_H
#define MW03_REFERENCE_H

#include "mw.h"

enum { A, B, C };

/* The inputs of one input set, generated once: rows of A and columns of B
 * (stored transposed, so that a dot product walks both contiguously), each
 * on first use, and the answers of a full check, kept for the second run
 * of the case. Recomputing the inputs per multiply-add would cost two
 * hashes each, 2 M N K in all. Kept for the last few input sets: the bench
 * checks every implementation on the same inputs, then on two alternating
 * fresh sets. At 8192^3 one set is 512 MB (float rows, touched only where
 * sampled entries need them). */
typedef struct mm_cache {
    uint64_t seed;
    uint32_t sa, sb;
    int gen;
    float scale;
    size_t M, N, K;
    float *a, *bt;                  /* A, M x K; B transposed, N x K */
    unsigned char *a_done, *b_done; /* per row of A, per column of B */
    double *c;                      /* answers; NULL past 2^22 elements */
    unsigned char *c_done;
} mm_cache;

/* The cache of these inputs (one is made, and the oldest dropped, when
 * none holds them). */
mm_cache *mw03_cache_for(const mw_case *c, const mw_inputs *in);
/* Row m of A and column n of B (K floats each), generated on first use. */
const float *mw03_row_of_a(mm_cache *mc, const mw_inputs *in, size_t m);
const float *mw03_column_of_b(mm_cache *mc, const mw_inputs *in, size_t n);
/* sum over k < kend of a[k] * b[k] in double, each input rounded by
 * `round` first (NULL: as it is). */
double mw03_dot(const float *a, const float *b, size_t kend, float (*round)(float));

/* mw_chapter.reference and mw_chapter.prepare_reference. */
double mw03_reference(const mw_case *c, const mw_inputs *in, size_t i);
void mw03_prepare_reference(const mw_case *c, const mw_inputs *in, const size_t *idx,
                            size_t count);

#endif
