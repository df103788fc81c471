/* mutate fixture (tests/t0220-mutants.t): a template's angles and a
 * static_assert. A call of a template the file declares may hold any
 * expression in its angles, && and == too: its < and > are no comparisons,
 * and a && there splits at the angles (fold<...>(w) && w > 1 has the
 * operands fold<...>(w) and w > 1, the angles' && its own). The same
 * tokens after a name that declares no template are comparisons. A
 * static_assert is no site: the compiler checks it. The expected list is
 * templates.expected.csv. */
#define WIDTH 4

// BEGIN SOLUTION
// TODO: w halved when HALF.
template <bool HALF> __device__ int fold(int w)
{
    return HALF ? w / 2 : w;
}

__global__ void scale_kernel(float *y, int n, int w, int a, int b, int c, int d)
{
    static_assert(WIDTH <= 8 && WIDTH % 2 == 0, "two lanes a pair");
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && fold<WIDTH == 4 && sizeof(float) == 4>(w) > 1)
        y[i] *= 2.f;
    if (a < b && c > (d))
        y[0] = 0.f;
}
// END SOLUTION
