/* Class fixture (chapter 01), student "mallory": a single-file submission,
 * correct.
 *
 * Why it exists: some students hand in one file rather than a folder. This
 * file sits at the top of the class folder and holds both launchers,
 * add_naive and add_fast; the batch grader must take it as mallory's
 * submission for both versions (01_naive and 02_fast), and both pass. The
 * fast one reads and writes two floats per thread where the pointers allow
 * (float2 needs 8-byte alignment; the head of at most one element is done
 * alone), and falls back to scalars when the misalignments differ. */
#include "vector_add.h"

#include <stdint.h>

__global__ void mallory_add1(const float *a, const float *b, float *c, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

/* Pairs from a + head; thread 0 also does the head (0 or 1 element) and the
 * odd last element, if any. */
__global__ void mallory_add2(const float *a, const float *b, float *c, size_t n, size_t head,
                             size_t n2)
{
    size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (t < n2) {
        float2 x = reinterpret_cast<const float2 *>(a + head)[t];
        float2 y = reinterpret_cast<const float2 *>(b + head)[t];
        reinterpret_cast<float2 *>(c + head)[t] = make_float2(x.x + y.x, x.y + y.y);
    }
    if (t == 0) {
        if (head)
            c[0] = a[0] + b[0];
        size_t last = head + 2 * n2;
        if (last < n)
            c[last] = a[last] + b[last];
    }
}

cudaError_t add_naive(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    mallory_add1<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(a, b, c, n);
    return cudaGetLastError();
}

cudaError_t add_fast(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    uintptr_t ma = (uintptr_t)a & 7, mb = (uintptr_t)b & 7, mc = (uintptr_t)c & 7;
    if (ma != mb || ma != mc) {
        mallory_add1<<<(unsigned)((n + 255) / 256), 256, 0, stream>>>(a, b, c, n);
        return cudaGetLastError();
    }
    size_t head = ma ? 1 : 0;
    size_t n2 = (n - head) / 2;
    size_t blocks = (n2 + 255) / 256;
    mallory_add2<<<(unsigned)(blocks ? blocks : 1), 256, 0, stream>>>(a, b, c, n, head, n2);
    return cudaGetLastError();
}
