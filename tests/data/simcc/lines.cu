// Line numbers survive constructs over several lines: the compiler's error
// below must name line 19 of this file.
__global__ void k(float *x, int n) {}

__device__ void d(float *c, unsigned a)
{
    __shared__ float
        tile[4][
            4];
    asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a), "r"(a), "r"(a), "r"(a), "r"(a), "r"(a));
}

void host(float *x, int n)
{
    k<<<1,
        32>>>(x, n); int error_here = not_declared_anywhere;
}
