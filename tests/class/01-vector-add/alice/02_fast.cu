/* Class fixture (chapter 01), student "alice", version 02_fast: correct and
 * fast.
 *
 * Why it exists: the good student, who must pass every case and time at
 * the roof, as fast as the reference. The design the lesson asks for, in
 * alice's own words:
 *   - when a, b and c sit at the same address modulo 16, the first 0 to 3
 *     elements (the head) are done one by one, the body as float4 (one per
 *     thread, 16-byte loads and stores), and the last 0 to 3 elements (the
 *     tail) one by one: threads 0..3 of the grid take the head and the tail
 *     besides their float4;
 *   - when the misalignments differ, no shift aligns all three pointers and
 *     a plain coalesced scalar kernel does the work. */
#include "vector_add.h"

#include <stdint.h>

#define ALICE_THREADS 256u

__global__ void alice_body4(const float *__restrict__ a, const float *__restrict__ b,
                            float *__restrict__ c, size_t n, size_t head, size_t n4)
{
    const size_t t = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < n4) {
        const float4 x = reinterpret_cast<const float4 *>(a + head)[t];
        const float4 y = reinterpret_cast<const float4 *>(b + head)[t];
        float4 z;
        z.x = x.x + y.x;
        z.y = x.y + y.y;
        z.z = x.z + y.z;
        z.w = x.w + y.w;
        reinterpret_cast<float4 *>(c + head)[t] = z;
    }
    if (t < 4) {
        if (t < head) /* up to the first 16-byte boundary */
            c[t] = a[t] + b[t];
        const size_t j = head + 4 * n4 + t; /* after the last whole float4 */
        if (j < n)
            c[j] = a[j] + b[j];
    }
}

__global__ void alice_scalar(const float *__restrict__ a, const float *__restrict__ b,
                             float *__restrict__ c, size_t n)
{
    const size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

static unsigned alice_blocks(size_t threads_needed)
{
    size_t blocks = (threads_needed + ALICE_THREADS - 1) / ALICE_THREADS;
    return (unsigned)(blocks == 0 ? 1 : blocks);
}

cudaError_t add_fast(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    const uintptr_t ma = (uintptr_t)a & 15, mb = (uintptr_t)b & 15, mc = (uintptr_t)c & 15;
    if (ma != mb || ma != mc) {
        alice_scalar<<<alice_blocks(n), ALICE_THREADS, 0, stream>>>(a, b, c, n);
        return cudaGetLastError();
    }
    size_t head = ma == 0 ? 0 : (16 - ma) / sizeof(float); /* 0 to 3 */
    if (head > n)
        head = n;
    const size_t n4 = (n - head) / 4;
    /* One float4 per thread; at least 4 threads for the head and the tail.
     * n = 2^31 + 3 gives 2^21 blocks, far under grid.x's 2^31 - 1. */
    alice_body4<<<alice_blocks(n4 > 4 ? n4 : 4), ALICE_THREADS, 0, stream>>>(a, b, c, n, head,
                                                                                n4);
    return cudaGetLastError();
}
