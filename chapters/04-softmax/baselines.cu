/* baselines.cu: the workbook's own three-pass softmax, chapter 04's
 * unfused baseline: one block of 256 threads per row walks the row three
 * times (max, sum of exp, normalize), 16 bytes per element where a fused
 * kernel moves 8.
 *
 * It is also the answer to exercise 04.1 (solutions/04-softmax/
 * 01_three_pass.cu), so it is instructor-only: the student edition
 * (`make dist`) ships this file without the code between the INSTRUCTOR
 * ONLY markers, here and in chapter.c, and its bench times the library
 * and the copy roof alone, as it already leaves out the reference rows. */
#include <cuda_runtime.h>
#include <math.h>

// BEGIN INSTRUCTOR ONLY
__device__ float baseline_reduce(float v, bool sum, float *shared)
{
    for (int o = 16; o > 0; o /= 2) {
        float w = __shfl_xor_sync(0xffffffffu, v, o);
        v = sum ? v + w : fmaxf(v, w);
    }
    if (threadIdx.x % 32 == 0)
        shared[threadIdx.x / 32] = v;
    __syncthreads();
    /* Every warp combines the partials, so every thread gets the total. */
    const unsigned lane = threadIdx.x % 32;
    v = lane < blockDim.x / 32 ? shared[lane] : (sum ? 0.f : -INFINITY);
    for (int o = 16; o > 0; o /= 2) {
        float w = __shfl_xor_sync(0xffffffffu, v, o);
        v = sum ? v + w : fmaxf(v, w);
    }
    __syncthreads();
    return v;
}

__global__ void baseline_three_pass(const float *x, float *y, size_t cols)
{
    __shared__ float shared[32];
    const float *in = x + blockIdx.x * cols;
    float *out = y + blockIdx.x * cols;
    float m = -INFINITY, s = 0.f;
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
        m = fmaxf(m, in[c]);
    m = baseline_reduce(m, false, shared);
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
        s += __expf(in[c] - m);
    s = baseline_reduce(s, true, shared);
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
        out[c] = __expf(in[c] - m) / s;
}

extern "C" cudaError_t mw04_three_pass(const float *x, float *y, size_t rows, size_t cols,
                                       cudaStream_t s)
{
    baseline_three_pass<<<(unsigned)rows, 256, 0, s>>>(x, y, cols);
    return cudaGetLastError();
}
// END INSTRUCTOR ONLY
