/* Exercise 04.1: row softmax in three passes: the row's max, the sum of
 * exp(x - max), then y = exp(x - max) / sum.
 *
 * Budget: each pass reads the row from memory: 3 reads and 1 write, 16
 * bytes per element where 8 would do (the L2 cache saves some of it when a
 * row is small). Correct and simple; chapter 04.2 removes two of the reads.
 *
 * Why subtract the max: exp(89) is already past FLT_MAX (3.4e38), so
 * exp(x) of an input of 100 overflows to Inf and Inf / Inf is NaN. With
 * x - max <= 0 every exp is in (0, 1], and the result is the same, since
 * the factor exp(-max) cancels between numerator and denominator.
 *
 * Launch settings: one block of 256 threads per row; each thread walks the
 * row with a stride of 256, so a warp reads 32 consecutive floats at a time.
 * Each pass takes four elements a step, loaded before any is used, so that
 * a thread has four loads in flight, not one. A block alone on its SM (one
 * row of 2^31 columns, say) is otherwise bound by the latency of one load
 * per thread, 8 warps x 128 bytes per round trip to memory: `make check`
 * spent 24 s on that row (two runs). `#pragma unroll 4` does not do it:
 * each unrolled load stays behind its own bounds check, and the times moved
 * by 1 to 2%.
 *
 * Check it:  make check CH=04 EX=01      Time it:  make bench CH=04 */
#include "softmax.h"

#include <math.h>

// TODO: a block-wide reduction (max, then sum) and one kernel, one block per row, that walks the
// TODO: row three times: the max, the sum of expf(x - max), then writes expf(x - max) / sum.

cudaError_t softmax_three_pass(const float *x, float *y, size_t rows, size_t cols,
                               cudaStream_t stream)
{
    // TODO: launch one block of 256 threads per row on `stream` (rows can exceed 65535: use
    // TODO: grid.x) and return cudaGetLastError().
    return MW_NOT_IMPLEMENTED;
}
