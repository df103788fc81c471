/* Class fixture (chapter 01), student "erin", version 02_fast: an endless
 * loop on every launch.
 *
 * Why it exists: a hung kernel must cost the grader a few timeouts and
 * nothing else: each case is reported "timed out", the process is killed,
 * the next case starts in a fresh one, after three in a row the version's
 * other cases are recorded as timed out without running, and the other
 * students of the batch are unaffected. Every launch spins, n = 0 included
 * (the launcher always starts one block); grade it with a short TIMEOUT
 * (5 s: about 15 s in all).
 *
 * The bug as a student writes it: a grid-stride loop whose index is never
 * advanced (`i += stride` forgotten), guarded so that even an empty range
 * spins. clock64() keeps the compiler from proving the loop has no effect. */
#include "vector_add.h"

__global__ void erin_add_strided(const float *a, const float *b, float *c, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    while (clock64() >= 0) { /* always true: the loop never exits */
        if (i < n)
            c[i] = a[i] + b[i];
        /* BUG: no `i += stride` and no exit test on i */
    }
}

cudaError_t add_fast(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    size_t blocks = (n + 255) / 256;
    if (blocks == 0)
        blocks = 1;
    erin_add_strided<<<(unsigned)blocks, 256, 0, stream>>>(a, b, c, n);
    return cudaGetLastError();
}
