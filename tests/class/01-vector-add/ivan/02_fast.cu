/* Class fixture (chapter 01), student "ivan", version 02_fast: caches its
 * answer. (ivan submits no 01_naive.cu: the fixture of a partial
 * submission.)
 *
 * Why it exists: a benchmark that calls the same launcher on the same
 * buffers again and again can be fooled by a launcher that remembers the
 * last call: if a, b, c and n are those of the previous call, ivan returns
 * at once without launching anything, assuming c still holds the answer.
 * The first call on new buffers computes correctly (a plain scalar kernel,
 * right for every n and alignment).
 *
 * What must catch it: the grader runs each case twice with c re-poisoned
 * between the runs, so the second run finds c unwritten (NaN); and the
 * bench refills a and b with fresh values before every timed repetition and
 * checks the output of the last one, which is stale here: "wrong when
 * timed", no time reported. */
#include "vector_add.h"

__global__ void ivan_add(const float *a, const float *b, float *c, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

cudaError_t add_fast(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    static const float *last_a, *last_b;
    static float *last_c;
    static size_t last_n;
    if (n == 0)
        return cudaSuccess;
    if (a == last_a && b == last_b && c == last_c && n == last_n)
        return cudaSuccess; /* the cheat: "c already holds a + b" */
    ivan_add<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(a, b, c, n);
    cudaError_t err = cudaGetLastError();
    if (err == cudaSuccess) {
        last_a = a;
        last_b = b;
        last_c = c;
        last_n = n;
    }
    return err;
}
