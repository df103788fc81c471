/* Exercise 02.2: a longer chain, out[i] = relu(a * x[i] + y[i]) * s.
 *
 * Budget: 12 bytes per element, as always for two inputs and one output.
 * Written with library calls it is three passes: cublasSgeam (out = a*x + y:
 * 12 bytes), cudnnActivationForward in place (8), cublasSscal (8): 28 bytes
 * per element. Fused, it is 28/12 = 2.33x fewer bytes: the longer the chain,
 * the more a single pass saves, since each extra library call reads and
 * writes the whole array again while the fused kernel only does one more
 * instruction per element in registers.
 *
 * Rounding: a * x + y may compile to one fused multiply-add (one rounding)
 * or a multiply and an add (two); both are within the grader's tolerance.
 *
 * Check it:  make check CH=02 EX=02      Time it:  make bench CH=02 */
#include "add_relu.h"

#include <stdint.h>

// BEGIN SOLUTION
// TODO: the kernel: load x and y once, compute relu(a * x + y) * s in registers (a NaN must
// TODO: propagate through the ReLU), store once; float4 body, scalar head and tail.
static const unsigned kThreads = 256;

__device__ __forceinline__ float chain(float x, float y, float a, float s)
{
    float v = a * x + y;
    return (v < 0.f ? 0.f : v) * s;
}

__global__ void chain_kernel(const float *x, const float *y, float a, float s, float *out,
                             size_t n, size_t head)
{
    const size_t tid = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    if (tid < head)
        out[tid] = chain(x[tid], y[tid], a, s);

    const size_t n4 = (n - head) / 4;
    const float4 *x4 = reinterpret_cast<const float4 *>(x + head);
    const float4 *y4 = reinterpret_cast<const float4 *>(y + head);
    float4 *out4 = reinterpret_cast<float4 *>(out + head);
    for (size_t i = tid; i < n4; i += stride) {
        float4 p = x4[i], q = y4[i];
        out4[i] = make_float4(chain(p.x, q.x, a, s), chain(p.y, q.y, a, s),
                              chain(p.z, q.z, a, s), chain(p.w, q.w, a, s));
    }

    const size_t tail = head + 4 * n4;
    if (tid < n - tail)
        out[tail + tid] = chain(x[tail + tid], y[tail + tid], a, s);
}

__global__ void chain_scalar_kernel(const float *x, const float *y, float a, float s, float *out,
                                    size_t n)
{
    const size_t stride = (size_t)gridDim.x * blockDim.x;
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += stride)
        out[i] = chain(x[i], y[i], a, s);
}

static unsigned grid_for(size_t work)
{
    size_t blocks = (work + kThreads - 1) / kThreads;
    return (unsigned)(blocks ? blocks : 1);
}
// END SOLUTION

cudaError_t axpy_relu_scale(const float *x, const float *y, float a, float s, float *out,
                            size_t n, cudaStream_t stream)
{
    // BEGIN SOLUTION
    // TODO: as in 02.1: nothing to do for n == 0; float4 path when x, y and out share their
    // TODO: alignment, scalar otherwise; launch on `stream`; return cudaGetLastError().
    // STUB: return MW_NOT_IMPLEMENTED;
    if (n == 0)
        return cudaSuccess;
    uintptr_t px = (uintptr_t)x, py = (uintptr_t)y, po = (uintptr_t)out;
    if (((px ^ py) | (px ^ po)) & 15) {
        chain_scalar_kernel<<<grid_for(n), kThreads, 0, stream>>>(x, y, a, s, out, n);
        return cudaGetLastError();
    }
    size_t head = ((16 - (px & 15)) & 15) / sizeof(float);
    if (head > n)
        head = n;
    chain_kernel<<<grid_for((n - head) / 4 + 4), kThreads, 0, stream>>>(x, y, a, s, out, n, head);
    return cudaGetLastError();
    // END SOLUTION
}
