#line 1 "tests/data/simcc/asm.cu"
// Inline PTX: no operands, "::" and ":::" for empty lists, outputs "=r",
// "=f" and "+f", inputs "r", "l", "n", "f", concatenated template strings,
// __asm__ __volatile__, a statement over lines with a comment; mma in bf16 and tf32.
__device__ void copies(float *dst, const float *src, bool ok)
{
    const unsigned d = (unsigned)__cvta_generic_to_shared(dst);
    ::mw_sim_asm("cp.async.cg.shared.global [%0], [%1], 16, %2;\n", __FILE__, __LINE__, {}, {::mw_sim_asm_in("r", d), ::mw_sim_asm_in("l", src), ::mw_sim_asm_in("r", ok ? 16 : 0)})

;
    ::mw_sim_asm("cp.async.commit_group;\n", __FILE__, __LINE__, {}, {});
    ::mw_sim_asm("cp.async.commit_group;\n", __FILE__, __LINE__, {}, {});
    ::mw_sim_asm("cp.async.wait_all;", __FILE__, __LINE__, {}, {});
}

template <int n> __device__ void wait() { ::mw_sim_asm("cp.async.wait_group %0;\n", __FILE__, __LINE__, {}, {::mw_sim_asm_in("n", n)}); }

__device__ void tile(float (&c)[4], const unsigned (&a)[4], unsigned b0, unsigned b1, unsigned addr)
{
    unsigned r[4];
    ::mw_sim_asm("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n", __FILE__, __LINE__, {::mw_sim_asm_out("=r", r[0]), ::mw_sim_asm_out("=r", r[1]), ::mw_sim_asm_out("=r", r[2]), ::mw_sim_asm_out("=r", r[3])}, {::mw_sim_asm_in("r", addr)})

;
    ::mw_sim_asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, " "{%8,%9}, {%0,%1,%2,%3};\n", __FILE__, __LINE__, {::mw_sim_asm_out("+f", c[0]), ::mw_sim_asm_out("+f", c[1]), ::mw_sim_asm_out("+f", c[2]), ::mw_sim_asm_out("+f", c[3])}, {::mw_sim_asm_in("r", a[0]), ::mw_sim_asm_in("r", a[1]), ::mw_sim_asm_in("r", a[2]), ::mw_sim_asm_in("r", a[3]), ::mw_sim_asm_in("r", b0), ::mw_sim_asm_in("r", b1)})


;
}

__device__ float scalars(float x)
{
    float y;
    unsigned lane, t;
    ::mw_sim_asm("ex2.approx.ftz.f32 %0, %1;\n", __FILE__, __LINE__, {::mw_sim_asm_out("=f", y)}, {::mw_sim_asm_in("f", x)});
    ::mw_sim_asm("mov.u32 %0, %laneid;", __FILE__, __LINE__, {::mw_sim_asm_out("=r", lane)}, {});
    ::mw_sim_asm("cvt.rna.tf32.f32 %0, %1;", __FILE__, __LINE__, {::mw_sim_asm_out("=r", t)}, {::mw_sim_asm_in("f", x)});
    return y + lane + t;
}

__device__ void tile_tf32(float (&c)[4], const unsigned (&a)[4], unsigned b0, unsigned b1)
{
    ::mw_sim_asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, " "{%8,%9}, {%0,%1,%2,%3};\n", __FILE__, __LINE__, {::mw_sim_asm_out("+f", c[0]), ::mw_sim_asm_out("+f", c[1]), ::mw_sim_asm_out("+f", c[2]), ::mw_sim_asm_out("+f", c[3])}, {::mw_sim_asm_in("r", a[0]), ::mw_sim_asm_in("r", a[1]), ::mw_sim_asm_in("r", a[2]), ::mw_sim_asm_in("r", a[3]), ::mw_sim_asm_in("r", b0), ::mw_sim_asm_in("r", b1)})


;
}
