/* Exercise 02.1: fused add + ReLU, out[i] = relu(x[i] + y[i]).
 *
 * Budget: one read of x[i] and y[i], one write of out[i]: 12 bytes per
 * element, the same as chapter 01's add. The library chain (cublasSgeam, then
 * cudnnActivationForward on its output) moves 20: the add writes out (12
 * bytes), the ReLU reads it back and writes it again (8 more). Fusing does
 * the ReLU in registers, between the load and the store: 5/3 = 1.67x fewer
 * bytes, so up to 1.67x faster on a memory-bound GPU.
 *
 * Everything else is chapter 01's fast add: float4 body, scalar head and
 * tail for views off a 16-byte boundary, scalar fallback when the three
 * pointers are misaligned differently, one float4 per thread (256 threads
 * per block).
 *
 * Check it:  make check CH=02 EX=01      Time it:  make bench CH=02 */
#include "add_relu.h"

#include <stdint.h>

// TODO: a NaN-propagating ReLU (v < 0.f ? 0.f : v keeps a NaN; fmaxf(v, 0.f) does not), and a
// TODO: kernel that loads x and y once, adds, applies the ReLU in registers and stores once:
// TODO: float4 for the aligned body, scalar head and tail (see chapter 01's 02_fast.cu).

cudaError_t add_relu(const float *x, const float *y, float *out, size_t n, cudaStream_t stream)
{
    // TODO: return cudaSuccess when n == 0; peel the head when x, y and out share their
    // TODO: alignment, else fall back to scalar accesses; launch on `stream`; return
    // TODO: cudaGetLastError().
    return MW_NOT_IMPLEMENTED;
}
