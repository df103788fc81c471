// strip fixture: error at line 12: has no
__global__ void scale(float *x, int n)
{
    // BEGIN SOLUTION
    // TODO: scale x[i] by 2 for every i < n.
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
    // END SOLUTION
}

// BEGIN SOLUTION
// STUB: extern "C" cudaError_t launch_scale(float *x, int n) { return MW_NOT_IMPLEMENTED; }
extern "C" cudaError_t launch_scale(float *x, int n)
{
    scale<<<(n + 255) / 256, 256>>>(x, n);
    return cudaGetLastError();
}
// END SOLUTION
