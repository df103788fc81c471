// overlap.cu: do the tensor cores and the other pipes of one SM work at the
// same time? At d = 64 a flash attention tile needs as many tensor-core
// cycles (4 d = 256 FLOPs an exponential, at 4096 bf16 FLOPs an SM a clock)
// as XU cycles (16 ex2 an SM a clock), so 05.4 can pass half the wgmma roof
// only where the two overlap.
//
// Each block is two warpgroups, two blocks an SM: warpgroup 0 issues wgmma
// m64n128k16 bf16 (8 to a commit group, on one accumulator tile, as the
// roof's microkernel does), A from shared memory (ss) or from registers
// (rs, as P V in 05.4); warpgroup 1 runs 8 independent chains a thread of
//   ex2:  y = ex2(-y)  (one FFMA and one ex2.approx.ftz, as the softmax's
//         P = 2^(c S - mu) an element), or
//   ffma: y = a y + b  (the FP32 pipe alone).
// Each pairing is timed three ways, the work fixed: the products alone, the
// other role alone (its iterations scaled from a shorter probe run, so that
// it takes about as long as the products alone), and both at once.
// overlap = (alone_a + alone_b - together) / min(alone_a, alone_b): 1 when
// the shorter hides entirely under the longer, 0 when they take turns. Medians of 5 launches after one
// warm-up; every SM busy (a grid of two blocks an SM).
//
// Build and run (sm_90a): sh instructor/dev/05-wgmma/overlap.sh, which writes
// results/<GPU>/05-attention/overlap-wgmma.csv.
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#define CK(x)                                                                            \
    do {                                                                                 \
        cudaError_t e_ = (x);                                                            \
        if (e_ != cudaSuccess) {                                                         \
            fprintf(stderr, "overlap: CUDA %s at line %d\n", cudaGetErrorString(e_), __LINE__); \
            exit(1);                                                                     \
        }                                                                                \
    } while (0)

enum Role { ROLE_NONE, ROLE_EX2, ROLE_FFMA };
constexpr int CHAINS = 8, BATCH = 8;
/* bytes: A is 64 rows x 16 bf16 of K, B 128 rows x 16; both K-major, no
 * swizzle (core matrices of 8 rows of 16 bytes, 128 bytes apart along K,
 * 256 along M or N) */
constexpr int A_BYTES = 64 * 32, B_BYTES = 128 * 32;

#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
__device__ __forceinline__ uint64_t smem_desc(const void *p)
{
    const uint64_t lbo = 128, sbo = 256;
    const uint64_t addr = (uint32_t)__cvta_generic_to_shared(p);
    return ((addr & 0x3ffff) >> 4) | ((lbo >> 4) << 16) | ((sbo >> 4) << 32);
}

#define OV_F4(d, b) "+f"(d[b]), "+f"(d[b + 1]), "+f"(d[b + 2]), "+f"(d[b + 3])
#define OV_F16(d, b) OV_F4(d, b), OV_F4(d, b + 4), OV_F4(d, b + 8), OV_F4(d, b + 12)
#define OV_F64(d) OV_F16(d, 0), OV_F16(d, 16), OV_F16(d, 32), OV_F16(d, 48)
#define OV_D64                                                                               \
    "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, "  \
    "%19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, "  \
    "%36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, "  \
    "%53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"

__device__ __forceinline__ void wgmma_ss(float (&d)[64], uint64_t da, uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {" OV_D64 "}, "
                 "%64, %65, p, 1, 1, 0, 0;\n}\n"
                 : OV_F64(d)
                 : "l"(da), "l"(db), "r"(1));
}

__device__ __forceinline__ void wgmma_rs(float (&d)[64], const uint32_t (&a)[4], uint64_t db)
{
    asm volatile("{\n.reg .pred p;\nsetp.ne.b32 p, %69, 0;\n"
                 "wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {" OV_D64 "}, "
                 "{%64, %65, %66, %67}, %68, p, 1, 1, 0;\n}\n"
                 : OV_F64(d)
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "l"(db), "r"(1));
}

/* Commit, wait, and keep every use of d below the wait. */
__device__ __forceinline__ void wgmma_wait_all(float (&d)[64])
{
    asm volatile("wgmma.commit_group.sync.aligned;\n"
                 "wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
#pragma unroll
    for (int i = 0; i < 64; i++)
        asm volatile("" : "+f"(d[i])::"memory");
}

__device__ __forceinline__ float ex2(float x)
{
    float y;
    asm volatile("ex2.approx.ftz.f32 %0, %1;\n" : "=f"(y) : "f"(x));
    return y;
}

template <int RS> __device__ float products(const uint32_t *tile, int iters)
{
    const uint64_t da = smem_desc(tile), db = smem_desc(tile + A_BYTES / 4);
    /* bf16 pairs near 1: the operand A of rs, as P's fragment would be */
    const uint32_t a[4] = {0x3f803f80u, 0x3f7f3f80u, 0x3f803f7fu, 0x3f7f3f7fu};
    float d[64];
#pragma unroll
    for (int i = 0; i < 64; i++)
        d[i] = 0.f;
    for (int it = 0; it < iters; it++) {
        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
        for (int k = 0; k < BATCH; k++) {
            if (RS)
                wgmma_rs(d, a, db);
            else
                wgmma_ss(d, da, db);
        }
        wgmma_wait_all(d);
    }
    float sum = 0.f;
#pragma unroll
    for (int i = 0; i < 64; i++)
        sum += d[i];
    return sum;
}

template <int ROLE> __device__ float chains(int iters)
{
    float y[CHAINS];
#pragma unroll
    for (int c = 0; c < CHAINS; c++)
        y[c] = 0.5f + 0.01f * (float)(threadIdx.x % 32 + c);
    for (int it = 0; it < iters; it++)
#pragma unroll
        for (int c = 0; c < CHAINS; c++)
            y[c] = ROLE == ROLE_EX2 ? ex2(fmaf(y[c], -1.f, 0.f)) : fmaf(y[c], 0.999f, 0.0005f);
    float sum = 0.f;
#pragma unroll
    for (int c = 0; c < CHAINS; c++)
        sum += y[c];
    return sum;
}
#endif

/* mma_iters = 0: warpgroup 0 idles; role = ROLE_NONE: warpgroup 1 does. */
template <int RS>
__global__ void __launch_bounds__(256, 2)
    overlap_kernel(int mma_iters, int role, int other_iters, float never, float *out)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    __shared__ __align__(128) uint32_t tile[(A_BYTES + B_BYTES) / 4];
    for (int i = threadIdx.x; i < (A_BYTES + B_BYTES) / 4; i += blockDim.x)
        tile[i] = 0x3f803f80u ^ (uint32_t)(i & 0x00010001);
    /* written by ordinary stores, read by the tensor cores (async proxy) */
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();
    float sum = 0.f;
    if (threadIdx.x < 128) {
        if (mma_iters > 0)
            sum = products<RS>(tile, mma_iters);
    } else if (role == ROLE_EX2) {
        sum = chains<ROLE_EX2>(other_iters);
    } else if (role == ROLE_FFMA) {
        sum = chains<ROLE_FFMA>(other_iters);
    }
    if (sum == never)
        out[blockIdx.x] = sum;
#else
    (void)mma_iters, (void)role, (void)other_iters, (void)never, (void)out;
#endif
}

struct Setup {
    int rs, blocks;
    float *out;
    cudaEvent_t a, b;
};

/* Median of 5 timed launches, in ms, after one warm-up. */
static double time_ms(const Setup &s, int mma_iters, int role, int other_iters)
{
    std::vector<float> ms;
    for (int r = 0; r < 6; r++) {
        CK(cudaEventRecord(s.a));
        if (s.rs)
            overlap_kernel<1><<<s.blocks, 256>>>(mma_iters, role, other_iters, -1.f, s.out);
        else
            overlap_kernel<0><<<s.blocks, 256>>>(mma_iters, role, other_iters, -1.f, s.out);
        CK(cudaGetLastError());
        CK(cudaEventRecord(s.b));
        CK(cudaEventSynchronize(s.b));
        float t;
        CK(cudaEventElapsedTime(&t, s.a, s.b));
        if (r)
            ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
}

int main()
{
    int dev, sms, major, minor;
    CK(cudaGetDevice(&dev));
    CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    CK(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev));
    CK(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev));
    if (major != 9 || minor != 0) {
        fprintf(stderr, "overlap: needs an sm_90 GPU (this one is sm_%d%d)\n", major, minor);
        return 77;
    }
    Setup s{0, 2 * sms, nullptr, nullptr, nullptr};
    CK(cudaMalloc(&s.out, s.blocks * sizeof(float)));
    CK(cudaEventCreate(&s.a));
    CK(cudaEventCreate(&s.b));
    const double target_ms = 20.0;
    printf("mma,other,mma_alone_ms,other_alone_ms,together_ms,overlap,mma_tflops_alone,"
           "other_gops_alone\n");
    const char *other_name[] = {"none", "ex2", "ffma"};
    for (int rs = 0; rs < 2; rs++) {
        s.rs = rs;
        /* the products' iterations for about target_ms alone */
        const int probe = 200;
        const int mma_iters =
            std::max(1, (int)(probe * target_ms / time_ms(s, probe, ROLE_NONE, 0)));
        const double t_mma = time_ms(s, mma_iters, ROLE_NONE, 0);
        const double flops = 2.0 * 64 * 128 * 16 * BATCH * (double)mma_iters * s.blocks;
        for (int role = ROLE_EX2; role <= ROLE_FFMA; role++) {
            const int other_probe = 2000;
            const int other_iters =
                std::max(1, (int)(other_probe * t_mma / time_ms(s, 0, role, other_probe)));
            const double t_other = time_ms(s, 0, role, other_iters);
            const double t_both = time_ms(s, mma_iters, role, other_iters);
            const double ops = (double)CHAINS * other_iters * 128 * s.blocks;
            printf("%s,%s,%.3f,%.3f,%.3f,%.2f,%.1f,%.1f\n", rs ? "wgmma rs" : "wgmma ss",
                   other_name[role], t_mma, t_other, t_both,
                   (t_mma + t_other - t_both) / std::min(t_mma, t_other), flops / t_mma / 1e9,
                   ops / t_other / 1e6);
            fflush(stdout);
        }
    }
    return 0;
}
