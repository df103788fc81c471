// strip fixture: error at line 11: never closed
__global__ void scale(float *x, int n)
{
    // BEGIN SOLUTION
    // TODO: scale x[i] by 2 for every i < n.
    if (blockIdx.x * blockDim.x + threadIdx.x < n)
        x[blockIdx.x * blockDim.x + threadIdx.x] *= 2.0f;
    // END SOLUTION
}

// BEGIN SOLUTION
// TODO: a launcher for scale.
extern "C" cudaError_t launch_scale(float *x, int n)
{
    scale<<<(n + 255) / 256, 256>>>(x, n);
    return cudaGetLastError();
}
