/* reference.h: chapter 04's buffers and its CPU reference in double
 * (reference.c): the entry points of mw_chapter, and the rows' statistics
 * that the named mistakes build on. */
#ifndef MW04_REFERENCE_H
#define MW04_REFERENCE_H

#include "mw.h"

enum { X, Y };

/* Row `row`'s max and sum of exp(x - max), in double. */
void mw04_row_stats(const mw_case *c, const mw_inputs *in, size_t row, double *max,
                    double *sum);

/* mw_chapter.reference and mw_chapter.prepare_reference. */
double mw04_reference(const mw_case *c, const mw_inputs *in, size_t i);
void mw04_prepare_reference(const mw_case *c, const mw_inputs *in, const size_t *idx,
                            size_t count);

#endif
