__global__ void k(int *x) {}
#define LAUNCH(n, x) k<<<(n), 32>>>(x)
void host(int *x) { LAUNCH(1, x); }
