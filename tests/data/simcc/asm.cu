// Inline PTX: no operands, "::" and ":::" for empty lists, outputs "=r",
// "=f" and "+f", inputs "r", "l", "n", "f", concatenated template strings,
// __asm__ __volatile__, a statement over lines with a comment; mma in bf16 and tf32.
__device__ void copies(float *dst, const float *src, bool ok)
{
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(d), "l"(src),
                 "r"(ok ? 16 : 0)
                 : "memory");
    asm volatile("cp.async.commit_group;\n" ::);
    asm volatile("cp.async.commit_group;\n" ::: "memory");
    asm volatile("cp.async.wait_all;");
}

template <int n> __device__ void wait() { asm volatile("cp.async.wait_group %0;\n" ::"n"(n)); }

__device__ void tile(float (&c)[4], const unsigned (&a)[4], unsigned b0, unsigned b1, unsigned addr)
{
    unsigned r[4];
    __asm__ __volatile__("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                         : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3]) /* four registers */
                         : "r"(addr));
    asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}

__device__ float scalars(float x)
{
    float y;
    unsigned lane, t;
    asm("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
    asm volatile("mov.u32 %0, %laneid;" : "=r"(lane));
    asm("cvt.rna.tf32.f32 %0, %1;" : "=r"(t) : "f"(x));
    return y + lane + t;
}

__device__ void tile_tf32(float (&c)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
{
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
}
