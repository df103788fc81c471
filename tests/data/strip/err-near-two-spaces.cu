// strip fixture: error at line 4: malformed marker
__global__ void scale(float *x, int n)
{
    // BEGIN  SOLUTION
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] *= 2.0f;
    // END SOLUTION
}
