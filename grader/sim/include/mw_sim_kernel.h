/* mw_sim_kernel.h: the kernel side of the CPU emulation of CUDA, C++17
 * (cuda_runtime.h includes it under __cplusplus).
 *
 * A kernel file is compiled by the host compiler with -fsanitize=thread for
 * its instrumentation only: every load and store of the kernel's code is
 * checked by libmwsim (checks.c). What this header does on the kernel's
 * behalf either touches no memory (the always-inline wrappers, so that the
 * library sees the kernel's own call site), is an access of the kernel's
 * own (__ldg and its kin: checked as the kernel's), or reads the
 * emulation's own state (marked MW_SIM_RUNTIME, never instrumented).
 * Atomics, warp collectives and barriers are libmwsim's, out of line. */
#ifndef MW_SIM_KERNEL_H
#define MW_SIM_KERNEL_H

#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include <ctime>
#include <new>
#include <tuple>
#include <type_traits>
#include <utility>

#include <vector_types.h>

#include "../sim.h"
#include <cuda_bf16.h>
#include <mw_sim_ptx.h>

/* ---- CUDA's keywords ---- */

#define __global__
#define __device__
#define __host__
#define __constant__
#define __managed__
#define __grid_constant__
#define __forceinline__ inline
#define __noinline__ __attribute__((noinline))
#define __launch_bounds__(...)
#define __align__(n) __attribute__((aligned(n)))
#ifndef __restrict__
#define __restrict__ __restrict
#endif

/* Helpers that read the emulation's own memory: never instrumented. */
#define MW_SIM_RUNTIME __attribute__((no_sanitize_thread, noinline))
/* Wrappers that touch no memory: inlined, so that libmwsim's return address
 * is the kernel's line. */
#define MW_SIM_INLINE inline __attribute__((always_inline))

extern "C" {
extern uint3 mw_sim_threadIdx, mw_sim_blockIdx;
extern dim3 mw_sim_blockDim, mw_sim_gridDim;

int mw_sim_syncthreads(int kind, int pred);
void mw_sim_yield(void);
uint32_t mw_sim_shfl32(unsigned mask, uint32_t v, int kind, int arg, int width);
uint64_t mw_sim_shfl64(unsigned mask, uint64_t v, int kind, int arg, int width);
unsigned mw_sim_ballot(unsigned mask, int pred);
int mw_sim_any(unsigned mask, int pred);
int mw_sim_all(unsigned mask, int pred);
void mw_sim_syncwarp(unsigned mask);
unsigned mw_sim_activemask(void);

void *mw_sim_shared_static(const void *key, size_t size, size_t align, const char *name,
                           const char *file, int line);
void *mw_sim_shared_dynamic(const char *name, const char *file, int line);
void *mw_sim_shared_static_shaped(const void *key, size_t size, size_t align, const char *name,
                                  const char *file, int line, const mw_sim_shape *shape);
void *mw_sim_shared_dynamic_shaped(const char *name, const char *file, int line,
                                   const mw_sim_shape *shape);
uint32_t mw_sim_shared_offset(const void *p);

#define MW_SIM_ATOMIC_DECL(SUF, T)                                                                 \
    T mw_sim_atomic_add_##SUF(T *, T);                                                             \
    T mw_sim_atomic_sub_##SUF(T *, T);                                                             \
    T mw_sim_atomic_exch_##SUF(T *, T);                                                            \
    T mw_sim_atomic_min_##SUF(T *, T);                                                             \
    T mw_sim_atomic_max_##SUF(T *, T);                                                             \
    T mw_sim_atomic_and_##SUF(T *, T);                                                             \
    T mw_sim_atomic_or_##SUF(T *, T);                                                              \
    T mw_sim_atomic_xor_##SUF(T *, T);                                                             \
    T mw_sim_atomic_cas_##SUF(T *, T, T);
MW_SIM_ATOMIC_DECL(i32, int)
MW_SIM_ATOMIC_DECL(u32, unsigned)
MW_SIM_ATOMIC_DECL(i64, long long)
MW_SIM_ATOMIC_DECL(u64, unsigned long long)
#undef MW_SIM_ATOMIC_DECL
unsigned mw_sim_atomic_inc_u32(unsigned *, unsigned);
unsigned mw_sim_atomic_dec_u32(unsigned *, unsigned);
float mw_sim_atomic_add_f32(float *, float);
double mw_sim_atomic_add_f64(double *, double);
float mw_sim_atomic_exch_f32(float *, float);
}

/* ---- indices ---- */

namespace mw_sim
{
MW_SIM_RUNTIME inline uint3 thread_idx()
{
    return mw_sim_threadIdx;
}
MW_SIM_RUNTIME inline uint3 block_idx()
{
    return mw_sim_blockIdx;
}
MW_SIM_RUNTIME inline dim3 block_dim()
{
    return mw_sim_blockDim;
}
MW_SIM_RUNTIME inline dim3 grid_dim()
{
    return mw_sim_gridDim;
}
} // namespace mw_sim

#define threadIdx (::mw_sim::thread_idx())
#define blockIdx (::mw_sim::block_idx())
#define blockDim (::mw_sim::block_dim())
#define gridDim (::mw_sim::grid_dim())
#define warpSize 32

/* ---- launches ---- */

namespace mw_sim
{

template <class... P> struct closure {
    void (*kernel)(P...);
    std::tuple<P...> args;
};

/* Runs the kernel as the current thread, from a copy of the arguments on
 * the thread's own stack, as the GPU gives each thread its parameters. */
template <class... P> MW_SIM_RUNTIME void run_body(void *c)
{
    using C = closure<P...>;
    if constexpr ((std::is_trivially_copyable<P>::value && ...)) {
        alignas(C) unsigned char copy[sizeof(C)];
        memcpy(copy, c, sizeof(C));
        C *local = reinterpret_cast<C *>(copy);
        std::apply(local->kernel, local->args);
    } else {
        C local = *static_cast<C *>(c);
        std::apply(local.kernel, local.args);
    }
}

template <class... P> MW_SIM_RUNTIME void release_closure(void *c)
{
    delete static_cast<closure<P...> *>(c);
}

/* An argument converted to its parameter's type as a call would. */
template <class T> inline T convert(T v)
{
    return v;
}

/* The kernel of a launch: a function, or the name of a kernel template
 * whose arguments the launch's arguments give (as in a call,
 * kernel<<<g, b>>>((uint16_t *)p, n) picks kernel<uint16_t>). For a
 * template name only the non-template constructor can take it, with the
 * arguments' types exactly; a function takes the template one, its
 * arguments converted to its parameters' types. */
template <class... A> struct kernel_ref {
    void (*func)();
    void (*body)(void *);
    void (*release)(void *);
    void *(*build)(void (*)(), A &&...);

    template <class... P> static void *build_as(void (*k)(), A &&...a)
    {
        return new closure<P...>{reinterpret_cast<void (*)(P...)>(k),
                                 std::tuple<P...>(convert<P>(std::forward<A>(a))...)};
    }
    template <class... P> void init(void (*k)(P...))
    {
        static_assert(sizeof...(P) == sizeof...(A),
                      "a kernel launch passes as many arguments as the kernel has parameters");
        func = reinterpret_cast<void (*)()>(k);
        body = &run_body<P...>;
        release = &release_closure<P...>;
        build = &build_as<P...>;
    }
    template <class... P> kernel_ref(void (*k)(P...)) { init(k); }
    kernel_ref(void (*k)(std::decay_t<A>...)) { init(k); }
};

template <class T> struct same {
    using type = T;
};

struct launcher {
    const char *file_;
    int line_;
    const char *name_;
    dim3 grid_, block_;
    size_t smem_;
    cudaStream_t stream_;

    launcher(const char *file, int line, const char *name, dim3 grid, dim3 block, size_t smem = 0,
             cudaStream_t s = 0)
        : file_(file), line_(line), name_(name), grid_(grid), block_(block), smem_(smem), stream_(s)
    {
    }

    /* The kernel's type comes from the arguments alone (same<> keeps it
     * out of deduction), so that a template name can be resolved. */
    template <class... A> void go(typename same<kernel_ref<A...>>::type k, A &&...a)
    {
        mw_sim_launch l{};
        l.grid = grid_;
        l.block = block_;
        l.dynamic_smem = smem_;
        l.stream = stream_;
        l.func = reinterpret_cast<const void *>(k.func);
        l.name = name_;
        l.file = file_;
        l.line = line_;
        l.body = k.body;
        l.closure = k.build(k.func, std::forward<A>(a)...);
        l.release = k.release;
        mw_sim_launch_kernel(&l);
    }
};

} // namespace mw_sim

/* ---- __shared__ declarations, as mw-simcc rewrites them ---- */

namespace mw_sim
{
/* The shape of a __shared__ variable of type V (sim.h). */
template <class V> constexpr mw_sim_shape shape_of()
{
    constexpr int rank = (int)std::rank<V>::value;
    if constexpr (rank > 4)
        return mw_sim_shape{sizeof(V), 0, {0, 0, 0, 0}};
    else
        return mw_sim_shape{sizeof(std::remove_all_extents_t<V>),
                            rank,
                            {std::extent<V, 0>::value, std::extent<V, 1>::value,
                             std::extent<V, 2>::value, std::extent<V, 3>::value}};
}

/* A static __shared__ variable of type V: its storage in the block's
 * window, which also learns its shape for the reports. */
template <class V>
MW_SIM_INLINE void *shared_static(const void *key, size_t size, size_t align, const char *name,
                                  const char *file, int line)
{
    static constexpr mw_sim_shape shape = shape_of<V>();
    return mw_sim_shared_static_shaped(key, size, align, name, file, line, &shape);
}

/* The extern __shared__ T name[] array. */
template <class T> MW_SIM_INLINE T *shared_dynamic(const char *name, const char *file, int line)
{
    static constexpr mw_sim_shape shape = {sizeof(T), 1, {0, 0, 0, 0}};
    return static_cast<T *>(mw_sim_shared_dynamic_shaped(name, file, line, &shape));
}
} // namespace mw_sim

/* ---- barriers, warps, sleep, fences ---- */

MW_SIM_INLINE void __syncthreads()
{
    mw_sim_syncthreads(0, 0);
}
MW_SIM_INLINE int __syncthreads_count(int p)
{
    return mw_sim_syncthreads(1, p);
}
MW_SIM_INLINE int __syncthreads_and(int p)
{
    return mw_sim_syncthreads(2, p);
}
MW_SIM_INLINE int __syncthreads_or(int p)
{
    return mw_sim_syncthreads(3, p);
}
MW_SIM_INLINE void __syncwarp(unsigned mask = 0xffffffffu)
{
    mw_sim_syncwarp(mask);
}
MW_SIM_INLINE unsigned __ballot_sync(unsigned mask, int p)
{
    return mw_sim_ballot(mask, p);
}
MW_SIM_INLINE int __any_sync(unsigned mask, int p)
{
    return mw_sim_any(mask, p);
}
MW_SIM_INLINE int __all_sync(unsigned mask, int p)
{
    return mw_sim_all(mask, p);
}
MW_SIM_INLINE unsigned __activemask()
{
    return mw_sim_activemask();
}
MW_SIM_INLINE void __nanosleep(unsigned)
{
    mw_sim_yield();
}
/* One OS thread runs every kernel thread: a fence only keeps the compiler
 * from moving memory accesses across it. */
MW_SIM_INLINE void __threadfence()
{
    __asm__ __volatile__("" ::: "memory");
}
MW_SIM_INLINE void __threadfence_block()
{
    __asm__ __volatile__("" ::: "memory");
}
MW_SIM_INLINE void __threadfence_system()
{
    __asm__ __volatile__("" ::: "memory");
}

/* ---- clocks ---- */

/* The host's clock in cycles at the device's nominal rate (sim.h): a loop
 * that waits for cycles ends after about as long as on a GPU, one that
 * waits for ever runs into the check's timeout as on a GPU. Out of line, so
 * that the compiler cannot prove such a loop ends or does nothing. */
MW_SIM_INLINE long long clock64()
{
    return mw_sim_clock64();
}
/* The C library declares clock() already (<time.h>, included above so that
 * no later include declares it again through the macro): in a kernel the
 * GPU's 32-bit %clock is wanted, in the host code of the same file the C
 * library's, and only at run time does mw_sim_clock tell which. */
#define clock() mw_sim_clock()
namespace std
{
using ::mw_sim_clock;
}

namespace mw_sim
{
enum { SHFL_IDX, SHFL_UP, SHFL_DOWN, SHFL_XOR };
template <class T> MW_SIM_INLINE T shfl(unsigned mask, T v, int kind, int arg, int width)
{
    static_assert(std::is_trivially_copyable<T>::value && sizeof(T) <= 8,
                  "a shuffle moves a value of at most 8 bytes");
    if constexpr (sizeof(T) == 8) {
        return __builtin_bit_cast(
            T, mw_sim_shfl64(mask, __builtin_bit_cast(uint64_t, v), kind, arg, width));
    } else if constexpr (sizeof(T) == 4) {
        return __builtin_bit_cast(
            T, mw_sim_shfl32(mask, __builtin_bit_cast(uint32_t, v), kind, arg, width));
    } else if constexpr (sizeof(T) == 2) {
        uint16_t b = __builtin_bit_cast(uint16_t, v);
        return __builtin_bit_cast(T, (uint16_t)mw_sim_shfl32(mask, b, kind, arg, width));
    } else {
        uint8_t b = __builtin_bit_cast(uint8_t, v);
        return __builtin_bit_cast(T, (uint8_t)mw_sim_shfl32(mask, b, kind, arg, width));
    }
}
} // namespace mw_sim

template <class T> MW_SIM_INLINE T __shfl_sync(unsigned mask, T v, int src, int width = 32)
{
    return ::mw_sim::shfl(mask, v, ::mw_sim::SHFL_IDX, src, width);
}
template <class T> MW_SIM_INLINE T __shfl_up_sync(unsigned mask, T v, unsigned d, int width = 32)
{
    return ::mw_sim::shfl(mask, v, ::mw_sim::SHFL_UP, (int)d, width);
}
template <class T> MW_SIM_INLINE T __shfl_down_sync(unsigned mask, T v, unsigned d, int width = 32)
{
    return ::mw_sim::shfl(mask, v, ::mw_sim::SHFL_DOWN, (int)d, width);
}
template <class T> MW_SIM_INLINE T __shfl_xor_sync(unsigned mask, T v, int lm, int width = 32)
{
    return ::mw_sim::shfl(mask, v, ::mw_sim::SHFL_XOR, lm, width);
}

/* ---- atomics ---- */

#define MW_SIM_ATOMIC2(NAME, OP, SUF, T)                                                           \
    MW_SIM_INLINE T NAME(T *p, T v)                                                                \
    {                                                                                              \
        return mw_sim_atomic_##OP##_##SUF(p, v);                                                   \
    }
#define MW_SIM_ATOMIC_INT(SUF, T)                                                                  \
    MW_SIM_ATOMIC2(atomicAdd, add, SUF, T)                                                         \
    MW_SIM_ATOMIC2(atomicSub, sub, SUF, T)                                                         \
    MW_SIM_ATOMIC2(atomicExch, exch, SUF, T)                                                       \
    MW_SIM_ATOMIC2(atomicMin, min, SUF, T)                                                         \
    MW_SIM_ATOMIC2(atomicMax, max, SUF, T)                                                         \
    MW_SIM_ATOMIC2(atomicAnd, and, SUF, T)                                                         \
    MW_SIM_ATOMIC2(atomicOr, or, SUF, T)                                                           \
    MW_SIM_ATOMIC2(atomicXor, xor, SUF, T)                                                         \
    MW_SIM_INLINE T atomicCAS(T *p, T compare, T v)                                                \
    {                                                                                              \
        return mw_sim_atomic_cas_##SUF(p, compare, v);                                             \
    }
MW_SIM_ATOMIC_INT(i32, int)
MW_SIM_ATOMIC_INT(u32, unsigned)
MW_SIM_ATOMIC_INT(u64, unsigned long long)
MW_SIM_ATOMIC2(atomicMin, min, i64, long long)
MW_SIM_ATOMIC2(atomicMax, max, i64, long long)
MW_SIM_ATOMIC2(atomicInc, inc, u32, unsigned)
MW_SIM_ATOMIC2(atomicDec, dec, u32, unsigned)
MW_SIM_ATOMIC2(atomicAdd, add, f32, float)
MW_SIM_ATOMIC2(atomicAdd, add, f64, double)
MW_SIM_ATOMIC2(atomicExch, exch, f32, float)
#undef MW_SIM_ATOMIC_INT
#undef MW_SIM_ATOMIC2

/* ---- loads and stores with cache hints: the kernel's own accesses ---- */

template <class T> MW_SIM_INLINE T __ldg(const T *p)
{
    return *p;
}
template <class T> MW_SIM_INLINE T __ldcg(const T *p)
{
    return *p;
}
template <class T> MW_SIM_INLINE T __ldca(const T *p)
{
    return *p;
}
template <class T> MW_SIM_INLINE T __ldcs(const T *p)
{
    return *p;
}
template <class T> MW_SIM_INLINE T __ldlu(const T *p)
{
    return *p;
}
template <class T> MW_SIM_INLINE T __ldcv(const T *p)
{
    return *p;
}
template <class T> MW_SIM_INLINE void __stcg(T *p, T v)
{
    *p = v;
}
template <class T> MW_SIM_INLINE void __stcs(T *p, T v)
{
    *p = v;
}
template <class T> MW_SIM_INLINE void __stwb(T *p, T v)
{
    *p = v;
}
template <class T> MW_SIM_INLINE void __stwt(T *p, T v)
{
    *p = v;
}

/* The window offset PTX's shared-memory instructions take. */
MW_SIM_INLINE size_t __cvta_generic_to_shared(const void *p)
{
    return mw_sim_shared_offset(p);
}

/* ---- bits ---- */

MW_SIM_INLINE unsigned __float_as_uint(float x)
{
    return __builtin_bit_cast(unsigned, x);
}
MW_SIM_INLINE float __uint_as_float(unsigned x)
{
    return __builtin_bit_cast(float, x);
}
MW_SIM_INLINE int __float_as_int(float x)
{
    return __builtin_bit_cast(int, x);
}
MW_SIM_INLINE float __int_as_float(int x)
{
    return __builtin_bit_cast(float, x);
}
MW_SIM_INLINE long long __double_as_longlong(double x)
{
    return __builtin_bit_cast(long long, x);
}
MW_SIM_INLINE double __longlong_as_double(long long x)
{
    return __builtin_bit_cast(double, x);
}
MW_SIM_INLINE int __popc(unsigned x)
{
    return __builtin_popcount(x);
}
MW_SIM_INLINE int __popcll(unsigned long long x)
{
    return __builtin_popcountll(x);
}
MW_SIM_INLINE int __clz(int x)
{
    return x ? __builtin_clz((unsigned)x) : 32;
}
MW_SIM_INLINE int __clzll(long long x)
{
    return x ? __builtin_clzll((unsigned long long)x) : 64;
}
MW_SIM_INLINE int __ffs(int x)
{
    return __builtin_ffs(x);
}
MW_SIM_INLINE int __ffsll(long long x)
{
    return __builtin_ffsll(x);
}
MW_SIM_INLINE unsigned __brev(unsigned x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    return __builtin_bswap32(x);
}
MW_SIM_INLINE unsigned long long __brevll(unsigned long long x)
{
    return ((unsigned long long)__brev((unsigned)x) << 32) | __brev((unsigned)(x >> 32));
}
/* Byte i of the result is byte (s >> 4i) & 7 of the pair {y, x}. */
MW_SIM_INLINE unsigned __byte_perm(unsigned x, unsigned y, unsigned s)
{
    unsigned long long pair = ((unsigned long long)y << 32) | x, r = 0;
    for (int i = 0; i < 4; ++i)
        r |= ((pair >> (8 * ((s >> (4 * i)) & 7))) & 0xffu) << (8 * i);
    return (unsigned)r;
}
MW_SIM_INLINE unsigned __umulhi(unsigned a, unsigned b)
{
    return (unsigned)(((unsigned long long)a * b) >> 32);
}
MW_SIM_INLINE int __mulhi(int a, int b)
{
    return (int)(((long long)a * b) >> 32);
}
MW_SIM_INLINE unsigned long long __umul64hi(unsigned long long a, unsigned long long b)
{
    return (unsigned long long)(((unsigned __int128)a * b) >> 64);
}
MW_SIM_INLINE int __mul24(int a, int b)
{
    return (int)((a << 8 >> 8) * (b << 8 >> 8));
}
MW_SIM_INLINE unsigned __umul24(unsigned a, unsigned b)
{
    return (a & 0xffffffu) * (b & 0xffffffu);
}

/* ---- math where the GPU differs ---- */

namespace mw_sim
{
/* The GPU's .ftz: a subnormal becomes a zero of its sign. */
MW_SIM_INLINE float ftz(float x)
{
    return fabsf(x) < 1.17549435e-38f ? copysignf(0.0f, x) : x;
}
/* ex2.approx.ftz.f32 and lg2.approx.ftz.f32 (the CPU's exact results stand
 * for the approximations, within their 2 ulp) */
MW_SIM_INLINE float ex2_approx(float x)
{
    return ftz(exp2f(ftz(x)));
}
MW_SIM_INLINE float lg2_approx(float x)
{
    return log2f(ftz(x));
}
} // namespace mw_sim

MW_SIM_INLINE float __expf(float x)
{
    return ::mw_sim::ex2_approx(x * 1.44269504f);
}
MW_SIM_INLINE float __exp10f(float x)
{
    return ::mw_sim::ex2_approx(x * 3.32192809f);
}
MW_SIM_INLINE float __logf(float x)
{
    return ::mw_sim::lg2_approx(x) * 0.693147181f;
}
MW_SIM_INLINE float __log2f(float x)
{
    return ::mw_sim::lg2_approx(x);
}
MW_SIM_INLINE float __log10f(float x)
{
    return ::mw_sim::lg2_approx(x) * 0.301029996f;
}
MW_SIM_INLINE float __sinf(float x)
{
    return sinf(::mw_sim::ftz(x));
}
MW_SIM_INLINE float __cosf(float x)
{
    return cosf(::mw_sim::ftz(x));
}
MW_SIM_INLINE float __tanf(float x)
{
    return __sinf(x) / __cosf(x);
}
MW_SIM_INLINE float __powf(float x, float y)
{
    return ::mw_sim::ex2_approx(y * ::mw_sim::lg2_approx(x));
}
/* div.approx: 0 for 2^126 < |y| < 2^128 (NaN when x is infinite). */
MW_SIM_INLINE float __fdividef(float x, float y)
{
    float ay = fabsf(y);
    if (ay > 0x1p126f && !isinf(ay))
        return isinf(x) ? NAN : 0.0f * x;
    return x / y;
}
MW_SIM_INLINE float __frcp_rn(float x)
{
    return 1.0f / x;
}
MW_SIM_INLINE float __fsqrt_rn(float x)
{
    return sqrtf(x);
}
MW_SIM_INLINE float __frsqrt_rn(float x)
{
    return 1.0f / sqrtf(x);
}
MW_SIM_INLINE float __fdiv_rn(float x, float y)
{
    return x / y;
}
MW_SIM_INLINE float __fmul_rn(float x, float y)
{
    return x * y;
}
MW_SIM_INLINE float __fadd_rn(float x, float y)
{
    return x + y;
}
MW_SIM_INLINE float __fsub_rn(float x, float y)
{
    return x - y;
}
MW_SIM_INLINE float __fmaf_rn(float x, float y, float z)
{
    return fmaf(x, y, z);
}
MW_SIM_INLINE double __dmul_rn(double x, double y)
{
    return x * y;
}
MW_SIM_INLINE double __dadd_rn(double x, double y)
{
    return x + y;
}
MW_SIM_INLINE double __fma_rn(double x, double y, double z)
{
    return fma(x, y, z);
}
/* NaN gives 0, as cvt.sat does. */
MW_SIM_INLINE float __saturatef(float x)
{
    return x > 0.0f ? (x < 1.0f ? x : 1.0f) : 0.0f;
}
MW_SIM_INLINE float rsqrtf(float x)
{
    return 1.0f / sqrtf(x);
}
MW_SIM_INLINE double rsqrt(double x)
{
    return 1.0 / sqrt(x);
}
MW_SIM_INLINE int __float2int_rn(float x)
{
    return (int)nearbyintf(x);
}
MW_SIM_INLINE int __float2int_rz(float x)
{
    return (int)x;
}
MW_SIM_INLINE unsigned __float2uint_rn(float x)
{
    return (unsigned)nearbyintf(x);
}
MW_SIM_INLINE float __int2float_rn(int x)
{
    return (float)x;
}
MW_SIM_INLINE float __uint2float_rn(unsigned x)
{
    return (float)x;
}
/* fmaxf and fminf are the C library's: with a NaN and a number they give
 * the number, as the GPU's max.f32 and min.f32 do. */

/* min and max as CUDA declares them for device code. */
#define MW_SIM_MINMAX(R, A, B)                                                                     \
    MW_SIM_INLINE R min(A a, B b)                                                                  \
    {                                                                                              \
        return (R)a < (R)b ? (R)a : (R)b;                                                          \
    }                                                                                              \
    MW_SIM_INLINE R max(A a, B b)                                                                  \
    {                                                                                              \
        return (R)a > (R)b ? (R)a : (R)b;                                                          \
    }
MW_SIM_MINMAX(int, int, int)
MW_SIM_MINMAX(unsigned, unsigned, unsigned)
MW_SIM_MINMAX(unsigned, int, unsigned)
MW_SIM_MINMAX(unsigned, unsigned, int)
MW_SIM_MINMAX(long, long, long)
MW_SIM_MINMAX(unsigned long, unsigned long, unsigned long)
MW_SIM_MINMAX(unsigned long, long, unsigned long)
MW_SIM_MINMAX(unsigned long, unsigned long, long)
MW_SIM_MINMAX(long long, long long, long long)
MW_SIM_MINMAX(unsigned long long, unsigned long long, unsigned long long)
MW_SIM_MINMAX(unsigned long long, long long, unsigned long long)
MW_SIM_MINMAX(unsigned long long, unsigned long long, long long)
#undef MW_SIM_MINMAX
MW_SIM_INLINE float min(float a, float b)
{
    return fminf(a, b);
}
MW_SIM_INLINE float max(float a, float b)
{
    return fmaxf(a, b);
}
MW_SIM_INLINE double min(double a, double b)
{
    return fmin(a, b);
}
MW_SIM_INLINE double max(double a, double b)
{
    return fmax(a, b);
}
MW_SIM_INLINE double min(float a, double b)
{
    return fmin(a, b);
}
MW_SIM_INLINE double max(float a, double b)
{
    return fmax(a, b);
}
MW_SIM_INLINE double min(double a, float b)
{
    return fmin(a, b);
}
MW_SIM_INLINE double max(double a, float b)
{
    return fmax(a, b);
}

#endif
