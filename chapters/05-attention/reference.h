/* reference.h: what a case of chapter 05 holds (its buffers, dims, op bits
 * and scale), read alike by the chapter's hooks and its CPU reference; and
 * the reference's entry points (reference.c). */
#ifndef MW05_REFERENCE_H
#define MW05_REFERENCE_H

#include "mw.h"

#include <math.h>

/* The buffers, inputs then outputs (mw_chapter.nbufs of them), then the
 * slot where the harness hands over a version's or a library's workspace,
 * bufs[nbufs] (mw.h): the N x N scores of the unfused forms. */
enum { Qb, Kb, Vb, Ob, Lb, NBUFS, Sb = NBUFS };
/* A case's op is OP_FULL or OP_CAUSAL; exercise 05.3 runs every case with
 * OP_BF16 set as well (MW_OP_FROM_CASE_WITH): bf16 Q, K, V and O. */
enum { OP_FULL = 0, OP_CAUSAL = 1, OP_BF16 = 2 };

/* dim[] = {B, H, N, d}; op as above; arg[1] is the scale (0: 1/sqrt(d)),
 * or with arg[0] = AS_GIVEN the scale as given, 0 included. */
#define DB(c) ((c)->dim[0])
#define DH(c) ((c)->dim[1])
#define DN(c) ((c)->dim[2])
#define DD(c) ((c)->dim[3])

static inline int is_causal(const mw_case *c)
{
    return (c->op & OP_CAUSAL) != 0;
}

static inline int is_bf16(const mw_case *c)
{
    return (c->op & OP_BF16) != 0;
}

#define AS_GIVEN 1.f

static inline float scale_of(const mw_case *c)
{
    if (c->arg[0] == AS_GIVEN || c->arg[1] != 0.f)
        return c->arg[1];
    return (float)(1.0 / sqrt((double)DD(c)));
}

/* How a row is computed: the definition, or one of the classic mistakes. */
typedef struct row_rule {
    int mask_shift;  /* causal keys j <= i + shift: 0 right, -1 strict, +1 leaky */
    int no_max;      /* exp(S) in float without the max: overflows past 88 */
    int scale_after; /* softmax of the unscaled scores, O multiplied by scale */
    int no_scale;    /* the scale never applied */
    int sqrt_scale;  /* 1/sqrt(d) in place of the scale given */
    int raw_max;     /* m = scale * max_j Q_i.K_j, the unscaled max scaled: with a
                        negative scale the smallest score; exp overflows past 88 */
} row_rule;

/* Row `row` (over all heads) of O, and its L, under `rule`. out has d + 1
 * entries: O's d, then L. */
void mw05_attend_row(const mw_case *c, const mw_inputs *in, size_t row, row_rule rule,
                     double *out);

/* mw_chapter.reference: flat index i over the outputs, O's B H N d
 * elements, then L's B H N. */
double mw05_reference(const mw_case *c, const mw_inputs *in, size_t i);
/* mw_chapter.prepare_reference: the rows the outputs idx[0..count) need,
 * on every core. */
void mw05_prepare_reference(const mw_case *c, const mw_inputs *in, const size_t *idx,
                            size_t count);

#endif
