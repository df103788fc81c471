__global__ void k(int *x) {}
void host(int *x)
{
    k<<<1, 2, 3, 4, 5>>>(x);
}
