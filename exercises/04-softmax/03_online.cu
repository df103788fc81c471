/* Exercise 04.3: the online softmax, for rows too long to hold on chip.
 *
 * One sweep over the row keeps a running max m and a running sum
 * l = sum exp(x - m). When a new element x exceeds m, every term summed so
 * far was scaled by exp(-m_old) and must now be scaled by exp(-x): so l is
 * rescaled, l = l * exp(m_old - x) + 1, and m = x. Otherwise l += exp(x - m).
 * Two partial results (m1, l1), (m2, l2) combine the same way:
 *   m = max(m1, m2),  l = l1 * exp(m1 - m) + l2 * exp(m2 - m).
 * A second sweep writes y = exp(x - m) / l. This recurrence is what flash
 * attention (chapter 05) runs over blocks of keys.
 *
 * Budget: 2 reads and 1 write, 12 bytes per element, whatever the row
 * length: one read fewer than 04.1. When all the rows in flight fit in the
 * L2 (50 MB on an H100; about 264 rows at once with 1024-thread blocks),
 * the second read hits there and DRAM sees nearly 8.
 *
 * Launch settings: one block of 1024 threads per row.
 *
 * Check it:  make check CH=04 EX=03      Time it:  make bench CH=04 */
#include "softmax.h"

#include <math.h>

// TODO: per thread, a running (m, l) over its strided elements; combine the pairs across the
// TODO: block (warp shuffles, then shared memory); then write expf(x - m) / l in a second sweep.
// TODO: Take care with -inf: exp(-inf - (-inf)) is NaN, so skip -inf terms and guard m = -inf.

cudaError_t softmax_online(const float *x, float *y, size_t rows, size_t cols,
                           cudaStream_t stream)
{
    // TODO: one block per row on `stream`; return cudaGetLastError().
    return MW_NOT_IMPLEMENTED;
}
