// strip fixture: error at line 10: without an open region
__global__ void scale(float *x, int n)
{
    // BEGIN SOLUTION
    // TODO: scale x[i] by 2 for every i < n.
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
    // END SOLUTION
    // END SOLUTION
}
