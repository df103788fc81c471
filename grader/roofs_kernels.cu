/* roofs_kernels.cu: the microkernels that measure this GPU's roofs
 * (roofs_measure.c times them; roofs.c's table names them). Each reaches one
 * instruction's rate and nothing else: enough independent work per thread
 * that the instruction's latency is hidden, enough warps that every SM's
 * units are busy, operands in registers or shared memory so that no DRAM
 * traffic sets the pace, and a result that is used (stored when it equals a
 * value it never takes) so that the compiler keeps the work. The FLOPs each
 * counts are in roofs_kernels.h, beside the launchers.
 *
 * The tensor-core kernels exist where their instruction does: mma.sync bf16
 * and tf32 from sm_80, wgmma on sm_90a alone. Elsewhere their bodies are
 * empty and mw_roofk_probe says so, so that the roof is "not on this GPU"
 * rather than a rate of nothing. */
#include "roofs_kernels.h"

#include <stdint.h>

/* ---- what this build holds for the GPU that runs it ---------------------- */

__global__ void roofk_probe(int *mask)
{
    int m = 0;
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    m |= MW_ROOFK_HAS_MMA;
#endif
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    m |= MW_ROOFK_HAS_WGMMA;
#endif
    *mask = m;
}

/* ---- FP32: FFMA ------------------------------------------------------------
 * MW_ROOFK_FFMA_CHAINS independent chains x = x * a + b per thread: one FFMA
 * takes about 4 cycles to complete, and an SM issues one per lane per cycle
 * on each of its 4 schedulers, so 8 or more chains per thread and 8 or more
 * warps per scheduler keep every FP32 lane busy. a and b are arguments, not
 * constants, so that nothing folds; a < 1 keeps x finite. */
__global__ void roofk_ffma(int iters, float a, float b, float never, float *out)
{
    float x[MW_ROOFK_FFMA_CHAINS];
#pragma unroll
    for (int j = 0; j < MW_ROOFK_FFMA_CHAINS; j++)
        x[j] = threadIdx.x * 1e-3f + j;
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int j = 0; j < MW_ROOFK_FFMA_CHAINS; j++)
            x[j] = fmaf(x[j], a, b);
    }
    float sum = 0;
#pragma unroll
    for (int j = 0; j < MW_ROOFK_FFMA_CHAINS; j++)
        sum += x[j];
    if (sum == never)
        out[blockIdx.x] = sum;
}

/* ---- tensor cores: mma.sync ------------------------------------------------
 * MW_ROOFK_MMA_ACCS independent accumulators per warp, one mma.sync on each
 * per iteration: the next instruction never waits for the previous one's
 * result. Operands are registers holding values near 1 (bf16 pairs, or
 * tf32), not zeros, so that the units draw the power real data does. */
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
static __device__ __forceinline__ void mma_bf16(float c[4], const uint32_t a[4],
                                                const uint32_t b[2])
{
    asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

static __device__ __forceinline__ void mma_tf32(float c[4], const uint32_t a[4],
                                                const uint32_t b[2])
{
    asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, "
                 "{%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\n"
                 : "+f"(c[0]), "+f"(c[1]), "+f"(c[2]), "+f"(c[3])
                 : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
}

/* Near 1 as a pair of bf16 (0x3f80) and as a tf32 (1.0039), varied by lane. */
static __device__ __forceinline__ uint32_t near_one(int k)
{
    return 0x3f803f80u ^ ((threadIdx.x + k) & 0x1fu);
}
#endif

template <int TF32>
__global__ void roofk_mma(int iters, float never, float *out)
{
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    uint32_t a[4], b[2];
#pragma unroll
    for (int k = 0; k < 4; k++)
        a[k] = near_one(k);
    b[0] = near_one(5), b[1] = near_one(7);
    float c[MW_ROOFK_MMA_ACCS][4] = {};
    for (int i = 0; i < iters; i++) {
#pragma unroll
        for (int j = 0; j < MW_ROOFK_MMA_ACCS; j++) {
            if (TF32)
                mma_tf32(c[j], a, b);
            else
                mma_bf16(c[j], a, b);
        }
    }
    float sum = 0;
#pragma unroll
    for (int j = 0; j < MW_ROOFK_MMA_ACCS; j++)
        sum += c[j][0] + c[j][1] + c[j][2] + c[j][3];
    if (sum == never)
        out[blockIdx.x] = sum;
#else
    (void)iters, (void)never, (void)out;
#endif
}

/* ---- tensor cores: wgmma (sm_90a) -------------------------------------------
 * One warpgroup (128 threads) per block issues MW_ROOFK_WGMMA_BATCH wgmma
 * m64n256k16 (bf16) or m64n256k8 (tf32) back to back on one accumulator
 * tile, commits them as a group and waits: the tensor core chains
 * accumulations into the same tile without a fence between them, and two
 * blocks per SM cover each other's wait. Both operands come from shared
 * memory through matrix descriptors, as a GEMM's tiles do: A is 64 x K, B
 * 256 x K, both K-major, no swizzle (core matrices of 8 rows of 16 bytes,
 * 128 bytes apart along K, 256 along M or N). The tile values only set the
 * power drawn: words near 1, written once. */
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
enum { kWgA = 64 * 32, kWgB = 256 * 32 }; /* bytes: 64 or 256 rows of 32 bytes of K */

static __device__ __forceinline__ uint64_t smem_desc(const void *p)
{
    const uint64_t lbo = 128, sbo = 256; /* bytes along K, along M or N */
    uint64_t addr = (uint32_t)__cvta_generic_to_shared(p);
    return ((addr & 0x3ffff) >> 4) | ((lbo >> 4) << 16) | ((sbo >> 4) << 32);
}

/* wgmma m64n256 leaves its 64 x 256 FP32 accumulator tile as 128 registers
 * a thread of the warpgroup: the %0..%127 of the instruction's braces, and
 * the 128 "+f" operands they name, written once for both wgmma below. */
#define MW_WGMMA_D128 \
        "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, " \
        "%14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, " \
        "%28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, " \
        "%42, %43, %44, %45, %46, %47, %48, %49, %50, %51, %52, %53, %54, %55, " \
        "%56, %57, %58, %59, %60, %61, %62, %63, %64, %65, %66, %67, %68, %69, " \
        "%70, %71, %72, %73, %74, %75, %76, %77, %78, %79, %80, %81, %82, %83, " \
        "%84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, %96, %97, " \
        "%98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, " \
        "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, " \
        "%126, %127"

#define MW_WGMMA_D128_OPERANDS(d) \
          "+f"((d)[0]), "+f"((d)[1]), "+f"((d)[2]), "+f"((d)[3]), "+f"((d)[4]), "+f"((d)[5]), \
          "+f"((d)[6]), "+f"((d)[7]), "+f"((d)[8]), "+f"((d)[9]), "+f"((d)[10]), "+f"((d)[11]), \
          "+f"((d)[12]), "+f"((d)[13]), "+f"((d)[14]), "+f"((d)[15]), "+f"((d)[16]), "+f"((d)[17]), \
          "+f"((d)[18]), "+f"((d)[19]), "+f"((d)[20]), "+f"((d)[21]), "+f"((d)[22]), "+f"((d)[23]), \
          "+f"((d)[24]), "+f"((d)[25]), "+f"((d)[26]), "+f"((d)[27]), "+f"((d)[28]), "+f"((d)[29]), \
          "+f"((d)[30]), "+f"((d)[31]), "+f"((d)[32]), "+f"((d)[33]), "+f"((d)[34]), "+f"((d)[35]), \
          "+f"((d)[36]), "+f"((d)[37]), "+f"((d)[38]), "+f"((d)[39]), "+f"((d)[40]), "+f"((d)[41]), \
          "+f"((d)[42]), "+f"((d)[43]), "+f"((d)[44]), "+f"((d)[45]), "+f"((d)[46]), "+f"((d)[47]), \
          "+f"((d)[48]), "+f"((d)[49]), "+f"((d)[50]), "+f"((d)[51]), "+f"((d)[52]), "+f"((d)[53]), \
          "+f"((d)[54]), "+f"((d)[55]), "+f"((d)[56]), "+f"((d)[57]), "+f"((d)[58]), "+f"((d)[59]), \
          "+f"((d)[60]), "+f"((d)[61]), "+f"((d)[62]), "+f"((d)[63]), "+f"((d)[64]), "+f"((d)[65]), \
          "+f"((d)[66]), "+f"((d)[67]), "+f"((d)[68]), "+f"((d)[69]), "+f"((d)[70]), "+f"((d)[71]), \
          "+f"((d)[72]), "+f"((d)[73]), "+f"((d)[74]), "+f"((d)[75]), "+f"((d)[76]), "+f"((d)[77]), \
          "+f"((d)[78]), "+f"((d)[79]), "+f"((d)[80]), "+f"((d)[81]), "+f"((d)[82]), "+f"((d)[83]), \
          "+f"((d)[84]), "+f"((d)[85]), "+f"((d)[86]), "+f"((d)[87]), "+f"((d)[88]), "+f"((d)[89]), \
          "+f"((d)[90]), "+f"((d)[91]), "+f"((d)[92]), "+f"((d)[93]), "+f"((d)[94]), "+f"((d)[95]), \
          "+f"((d)[96]), "+f"((d)[97]), "+f"((d)[98]), "+f"((d)[99]), "+f"((d)[100]), "+f"((d)[101]), \
          "+f"((d)[102]), "+f"((d)[103]), "+f"((d)[104]), "+f"((d)[105]), "+f"((d)[106]), "+f"((d)[107]), \
          "+f"((d)[108]), "+f"((d)[109]), "+f"((d)[110]), "+f"((d)[111]), "+f"((d)[112]), "+f"((d)[113]), \
          "+f"((d)[114]), "+f"((d)[115]), "+f"((d)[116]), "+f"((d)[117]), "+f"((d)[118]), "+f"((d)[119]), \
          "+f"((d)[120]), "+f"((d)[121]), "+f"((d)[122]), "+f"((d)[123]), "+f"((d)[124]), "+f"((d)[125]), \
          "+f"((d)[126]), "+f"((d)[127])

static __device__ __forceinline__ void wgmma_bf16(float d[128], uint64_t da, uint64_t db)
{
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {"
        MW_WGMMA_D128
        "}, %128, %129, p, 1, 1, 0, 0;\n}\n"
        : MW_WGMMA_D128_OPERANDS(d)
        : "l"(da), "l"(db), "r"(1));
}

static __device__ __forceinline__ void wgmma_tf32(float d[128], uint64_t da, uint64_t db)
{
    asm volatile(
        "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
        "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {"
        MW_WGMMA_D128
        "}, %128, %129, p, 1, 1;\n}\n"
        : MW_WGMMA_D128_OPERANDS(d)
        : "l"(da), "l"(db), "r"(1));
}

/* The accumulators as the compiler must see them after a wait: an empty asm
 * that reads and writes each, so that no use of d moves above the wait. */
static __device__ __forceinline__ void wgmma_wait_all(float d[128])
{
    asm volatile("wgmma.commit_group.sync.aligned;\n"
                 "wgmma.wait_group.sync.aligned 0;\n" ::: "memory");
#pragma unroll
    for (int i = 0; i < 128; i++)
        asm volatile("" : "+f"(d[i])::"memory");
}
#endif

template <int TF32>
__global__ void __launch_bounds__(128) roofk_wgmma(int iters, float never, float *out)
{
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
    __shared__ __align__(128) uint32_t tile[(kWgA + kWgB) / 4];
    for (int i = threadIdx.x; i < (kWgA + kWgB) / 4; i += blockDim.x)
        tile[i] = near_one(i);
    /* Written by ordinary stores, read by the tensor cores' async proxy. */
    asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
    __syncthreads();
    const uint64_t da = smem_desc(tile), db = smem_desc(tile + kWgA / 4);
    float d[128];
#pragma unroll
    for (int i = 0; i < 128; i++)
        d[i] = 0;
#pragma unroll
    for (int i = 0; i < 128; i++)
        asm volatile("" : "+f"(d[i])::"memory");
    for (int i = 0; i < iters; i++) {
        /* The accumulators were touched since the last wgmma (set, or waited
         * for): the fence orders that before the tensor cores read them. */
        asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#pragma unroll
        for (int k = 0; k < MW_ROOFK_WGMMA_BATCH; k++) {
            if (TF32)
                wgmma_tf32(d, da, db);
            else
                wgmma_bf16(d, da, db);
        }
        wgmma_wait_all(d);
    }
    float sum = 0;
#pragma unroll
    for (int i = 0; i < 128; i++)
        sum += d[i];
    if (sum == never)
        out[blockIdx.x] = sum;
#else
    (void)iters, (void)never, (void)out;
#endif
}

/* ---- DRAM: read-only and write-only streams --------------------------------
 * 16-byte accesses, coalesced across the warp, a grid-stride loop unrolled
 * so that several loads are in flight per thread. The read sums what it
 * reads and stores one word per block, so the loads stay and the writes are
 * negligible; the write stores a value and reads nothing. */
static __device__ __forceinline__ unsigned warp_sum(unsigned v)
{
    for (int o = 16; o > 0; o /= 2)
        v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

__global__ void roofk_read(const uint4 *p, size_t n, unsigned *out)
{
    unsigned acc = 0;
    size_t stride = (size_t)gridDim.x * blockDim.x;
#pragma unroll 4
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        uint4 v = p[i];
        acc += v.x + v.y + v.z + v.w;
    }
    __shared__ unsigned warps[32];
    acc = warp_sum(acc);
    if (threadIdx.x % 32 == 0)
        warps[threadIdx.x / 32] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned total = 0;
        for (unsigned w = 0; w < blockDim.x / 32; w++)
            total += warps[w];
        out[blockIdx.x] = total;
    }
}

__global__ void roofk_write(uint4 *p, size_t n, unsigned value)
{
    size_t stride = (size_t)gridDim.x * blockDim.x;
    uint4 v = make_uint4(value, value, value, value);
#pragma unroll 4
    for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        p[i] = v;
}

/* ---- launchers ------------------------------------------------------------ */

extern "C" {

cudaError_t mw_roofk_probe(int *mask, cudaStream_t s)
{
    roofk_probe<<<1, 1, 0, s>>>(mask);
    return mw_gpu_take_error();
}

cudaError_t mw_roofk_ffma(unsigned blocks, unsigned threads, int iters, float *out,
                          cudaStream_t s)
{
    roofk_ffma<<<blocks, threads, 0, s>>>(iters, 0.999f, 1e-3f, -1.f, out);
    return mw_gpu_take_error();
}

cudaError_t mw_roofk_mma(int tf32, unsigned blocks, unsigned threads, int iters, float *out,
                         cudaStream_t s)
{
    if (tf32)
        roofk_mma<1><<<blocks, threads, 0, s>>>(iters, -1.f, out);
    else
        roofk_mma<0><<<blocks, threads, 0, s>>>(iters, -1.f, out);
    return mw_gpu_take_error();
}

cudaError_t mw_roofk_wgmma(int tf32, unsigned blocks, int iters, float *out, cudaStream_t s)
{
    if (tf32)
        roofk_wgmma<1><<<blocks, 128, 0, s>>>(iters, -1.f, out);
    else
        roofk_wgmma<0><<<blocks, 128, 0, s>>>(iters, -1.f, out);
    return mw_gpu_take_error();
}

cudaError_t mw_roofk_read(const void *src, size_t bytes, unsigned blocks, unsigned threads,
                          unsigned *out, cudaStream_t s)
{
    roofk_read<<<blocks, threads, 0, s>>>((const uint4 *)src, bytes / 16, out);
    return mw_gpu_take_error();
}

cudaError_t mw_roofk_write(void *dst, size_t bytes, unsigned blocks, unsigned threads,
                           cudaStream_t s)
{
    roofk_write<<<blocks, threads, 0, s>>>((uint4 *)dst, bytes / 16, 0x3f800000u);
    return mw_gpu_take_error();
}

} /* extern "C" */
