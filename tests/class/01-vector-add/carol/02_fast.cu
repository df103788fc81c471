/* Class fixture (chapter 01), student "carol", version 02_fast: wrong on
 * the tail.
 *
 * Why it exists: the same rounding bug as her 01_naive, in a float4 kernel
 * that is otherwise right (head, body, 0-3 element tail, scalar fallback
 * for mixed alignments). The grid is (work) / 256 blocks rounded down, kept
 * at least 1, so the float4s (or scalars) past the last whole block are
 * never written: n = 1000003 loses its last 144 float4s (576 floats), and
 * every n whose work is not a multiple of the block fails. */
#include "vector_add.h"

#include <stdint.h>

__global__ void carol_vec4(const float *a, const float *b, float *c, size_t n, size_t head,
                           size_t n4)
{
    size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (t < n4) {
        float4 x = reinterpret_cast<const float4 *>(a + head)[t];
        float4 y = reinterpret_cast<const float4 *>(b + head)[t];
        reinterpret_cast<float4 *>(c + head)[t] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
    if (t < head)
        c[t] = a[t] + b[t];
    size_t j = head + 4 * n4 + t;
    if (t < 4 && j < n)
        c[j] = a[j] + b[j];
}

__global__ void carol_scalar(const float *a, const float *b, float *c, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

static unsigned carol_blocks(size_t work)
{
    size_t blocks = work / 256; /* BUG: rounds down; the last partial block is lost */
    return (unsigned)(blocks ? blocks : 1);
}

cudaError_t add_fast(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    uintptr_t pa = (uintptr_t)a, pb = (uintptr_t)b, pc = (uintptr_t)c;
    if ((pa & 15) != (pb & 15) || (pa & 15) != (pc & 15)) {
        carol_scalar<<<carol_blocks(n), 256, 0, stream>>>(a, b, c, n);
        return cudaGetLastError();
    }
    size_t head = ((16 - (pa & 15)) & 15) / 4;
    if (head > n)
        head = n;
    size_t n4 = (n - head) / 4;
    carol_vec4<<<carol_blocks(n4), 256, 0, stream>>>(a, b, c, n, head, n4);
    return cudaGetLastError();
}
