// good.cu: two regions, TODO and STUB lines, spaces and tabs.
#include <cuda_runtime.h>

// Not a marker: the word boundary rule keeps identifiers such as this one.
static int append_solution_count = 0;

__global__ void add_kernel(const float *x, const float *y, float *z, int n)
{
    // BEGIN SOLUTION
    // TODO: compute this thread's global index i; guard i < n;
    // TODO: write z[i] = x[i] + y[i].
    int i = blockIdx.x * blockDim.x + threadIdx.x;

    if (i < n)
        z[i] = x[i] + y[i];
    // END SOLUTION
}

extern "C" cudaError_t launch_add(const float *x, const float *y, float *z, int n)
{
	  // BEGIN SOLUTION   
	// TODO: launch add_kernel with enough 256-thread blocks to cover n.
	// STUB: (void)x; (void)y; (void)z; (void)n;
	// STUB: return MW_NOT_IMPLEMENTED;
	int block = 256;
	add_kernel<<<(n + block - 1) / block, block>>>(x, y, z, n);
	    // STUB:     /* deeper indentation is kept */
	return cudaGetLastError();
	// END SOLUTION
}
