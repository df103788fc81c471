/* merge_check.h: the property the mismatch counts (test_grader.c) and the
 * localisation (test_locate.c) share: a sequence of checked elements
 * counted in parts, the parts merged in order, gives what one pass gives.
 * The check counts in parallel pieces, so this is what makes its verdict
 * independent of how it cut the output. */
#ifndef MW_TEST_MERGE_CHECK_H
#define MW_TEST_MERGE_CHECK_H

#include "compare.h"

#include <stddef.h>
#include <string.h>

/* Elements [from, to) of the sequence counted into m, which takes shape s
 * first unless s is NULL. */
static void count_elements(mw_mismatch *m, const mw_shape *s, const size_t *index,
                           const float *got, const double *ref, int from, int to, mw_tol tol)
{
    mw_mismatch_init(m);
    if (s)
        mw_mismatch_shape(m, s);
    for (int j = from; j < to; j++)
        mw_mismatch_add(m, index[j], got[j], ref[j], tol);
}

/* 1 when, for every split of the n elements into three parts (empty ones
 * included), the parts counted apart and merged in order equal `whole` in
 * the len bytes at offset into mw_mismatch. */
static int every_split_merges(const mw_mismatch *whole, const mw_shape *s, const size_t *index,
                              const float *got, const double *ref, int n, mw_tol tol,
                              size_t offset, size_t len)
{
    int same = 1;
    for (int a = 0; a <= n; a++)
        for (int b = a; b <= n; b++) {
            const int cut[4] = {0, a, b, n};
            mw_mismatch part, merged;
            mw_mismatch_init(&merged);
            if (s)
                mw_mismatch_shape(&merged, s);
            for (int p = 0; p < 3; p++) {
                count_elements(&part, s, index, got, ref, cut[p], cut[p + 1], tol);
                mw_mismatch_merge(&merged, &part);
            }
            same &= memcmp((const char *)&merged + offset, (const char *)whole + offset, len) == 0;
        }
    return same;
}

#endif
