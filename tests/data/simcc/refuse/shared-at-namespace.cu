__shared__ float table[32];

__global__ void k(float *x) { x[0] = table[0]; }
