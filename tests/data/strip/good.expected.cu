// good.cu: two regions, TODO and STUB lines, spaces and tabs.
#include <cuda_runtime.h>

// Not a marker: the word boundary rule keeps identifiers such as this one.
static int append_solution_count = 0;

__global__ void add_kernel(const float *x, const float *y, float *z, int n)
{
    // TODO: compute this thread's global index i; guard i < n;
    // TODO: write z[i] = x[i] + y[i].
}

extern "C" cudaError_t launch_add(const float *x, const float *y, float *z, int n)
{
	// TODO: launch add_kernel with enough 256-thread blocks to cover n.
	(void)x; (void)y; (void)z; (void)n;
	return MW_NOT_IMPLEMENTED;
	        /* deeper indentation is kept */
}
