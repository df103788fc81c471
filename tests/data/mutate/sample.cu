/* mutate fixture (tests/t0220-mutants.t): every operator of mw-mutate at
 * least once, and what must never be a site. Outside the solution regions
 * nothing is mutated; inside them comments, strings, preprocessor lines,
 * template and launch brackets, declarations, register arrays, loops of a
 * fixed trip, error paths and host code that launches nothing are left
 * alone. The expected list is sample.expected.csv. */
#include <math.h>
#include <stddef.h>

#define WIDTH 4

/* Outside any region: if (i < n) y[i] = 0.f; is no site here. */
__global__ void outside_kernel(float *y, size_t n)
{
    size_t i = threadIdx.x;
    if (i < n)
        y[i] = 0.f;
}

// BEGIN SOLUTION
// TODO: the largest element of each row, at least lo, times w.
template <int K> __device__ float pick(const float (&v)[K], int j)
{
    return v[j % K];
}

__global__ void rowmax_kernel(const float *x, float *y, size_t cols, float lo, int w)
{
    __shared__ float part[32];
    float v[WIDTH], u[2];
    float best = -INFINITY; // a comment: if (i < n) x[i] = -INFINITY;
    const size_t row = (size_t)blockIdx.x * cols;
    for (int k = 0; k < WIDTH; ++k)
        v[k] = u[k % 2] = 0.f;
    for (size_t c = threadIdx.x; c < cols; c += blockDim.x)
        best = fmaxf(best, x[row + c]);
    /* if (a < b && c > d) __syncthreads(); */
    if (threadIdx.x % 32 == 0 && best != -INFINITY)
        part[threadIdx.x / 32] = best;
    __syncthreads();
#pragma unroll
    for (int k = 0; k < 2; ++k)
        u[k] = pick<WIDTH>(v, k);
    if (threadIdx.x >= blockDim.x / 32 || threadIdx.x > 0)
        return;
    y[blockIdx.x] = fmaxf(part[0] + u[1], lo) * w;
}
// END SOLUTION

/* Host code in a region that launches no kernel: no site. */
// BEGIN SOLUTION
// TODO: nothing.
static int smaller(int a, int b)
{
    return a < b ? a : b;
}
// END SOLUTION

extern "C" cudaError_t rowmax(const float *x, float *y, size_t rows, size_t cols, float lo,
                              int w)
{
    // BEGIN SOLUTION
    // TODO: one block of 64 threads per row; nothing to do when rows == 0.
    // STUB: return cudaErrorNotSupported;
    if (rows == 0 || cols < 1)
        return cudaSuccess;
    cudaError_t err = cudaGetLastError();
    if (err != cudaSuccess)
        return err;
    const char *note = "rows < 1 && x[0]";
    (void)note;
    rowmax_kernel<<<(unsigned)rows, 64>>>(x, y, cols, lo, smaller(w, 1 << 20));
    return cudaGetLastError();
    // END SOLUTION
}
