__global__ void child(int *x) {}
__device__ void spawn(int *x)
{
    child<<<1, 32>>>(x);
}
__host__ __device__ void either(int *x) {}
__device__ int counter;
void host(int *x) { child<<<1, 1>>>(x); }
