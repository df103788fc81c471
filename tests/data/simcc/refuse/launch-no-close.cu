__global__ void k(int *x) {}
void host(int *x)
{
    k<<<1, 32(x);
}
