__device__ void f(float *p)
{
    __shared__ float s[4] = {0};
    p[0] = s[0];
}
