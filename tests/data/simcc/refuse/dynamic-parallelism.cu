__global__ void child(int *x) {}
__global__ void parent(int *x)
{
    if (x[0])
        child<<<1, 32>>>(x);
}
