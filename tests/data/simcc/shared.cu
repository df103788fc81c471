// __shared__: several declarators, __align__, dimensions from template
// parameters, a declaration over lines, volatile, extern (dynamic).
struct ml {
    float m, l;
};

template <int BM, int BK> __global__ void tiles(float *out)
{
    __shared__ __align__(16) float As[BK][BM + 4], s_max;
    __shared__ ml red[32];
    volatile __shared__ int flag;
    __shared__ float
        split[2][
            8]; // over lines
    extern __shared__ __align__(128) unsigned char smem[];
    static __shared__ unsigned ticket;
    out[0] = As[0][0] + s_max + red[0].m + flag + split[1][7] + smem[0] + ticket;
}

__global__ void dynamic(float *out) { extern __shared__ float4 buf[]; out[0] = buf[0].x; }
