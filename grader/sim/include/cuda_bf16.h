/* cuda_bf16.h: the toolkit's bfloat16 for the CPU emulation. Conversions
 * from float round to nearest even and keep a NaN a NaN, as the GPU's
 * cvt.rn.bf16.f32 does; arithmetic is done in float and rounded back. */
#ifndef MW_SIM_CUDA_BF16_H
#define MW_SIM_CUDA_BF16_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include <vector_types.h>

#ifndef __cplusplus
typedef struct __nv_bfloat16 {
    unsigned short __x;
} __nv_bfloat16;
typedef struct __attribute__((aligned(4))) __nv_bfloat162 {
    __nv_bfloat16 x, y;
} __nv_bfloat162;
#else

namespace mw_sim
{
inline unsigned short bf16_round(float f)
{
    uint32_t u = __builtin_bit_cast(uint32_t, f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (unsigned short)((u >> 16) | 0x0040u); /* quiet, sign and payload kept */
    return (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
inline float bf16_widen(unsigned short b)
{
    return __builtin_bit_cast(float, (uint32_t)b << 16);
}
} // namespace mw_sim

struct __nv_bfloat16_raw {
    unsigned short x;
};

struct __nv_bfloat16 {
    unsigned short __x;
    __nv_bfloat16() = default;
    constexpr __nv_bfloat16(const __nv_bfloat16_raw &r) : __x(r.x) {}
    __nv_bfloat16(float f) : __x(::mw_sim::bf16_round(f)) {}
    __nv_bfloat16(double f) : __x(::mw_sim::bf16_round((float)f)) {}
    __nv_bfloat16(int i) : __x(::mw_sim::bf16_round((float)i)) {}
    __nv_bfloat16(unsigned i) : __x(::mw_sim::bf16_round((float)i)) {}
    operator float() const { return ::mw_sim::bf16_widen(__x); }
    operator __nv_bfloat16_raw() const { return __nv_bfloat16_raw{__x}; }
    __nv_bfloat16 &operator=(float f)
    {
        __x = ::mw_sim::bf16_round(f);
        return *this;
    }
};

struct __attribute__((aligned(4))) __nv_bfloat162 {
    __nv_bfloat16 x, y;
    __nv_bfloat162() = default;
    __nv_bfloat162(__nv_bfloat16 a, __nv_bfloat16 b) : x(a), y(b) {}
};

inline __nv_bfloat16 __float2bfloat16(float f)
{
    return __nv_bfloat16(f);
}
inline __nv_bfloat16 __float2bfloat16_rn(float f)
{
    return __nv_bfloat16(f);
}
inline __nv_bfloat16 __float2bfloat16_rz(float f)
{
    uint32_t u = __builtin_bit_cast(uint32_t, f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return __nv_bfloat16_raw{(unsigned short)((u >> 16) | 0x0040u)};
    return __nv_bfloat16_raw{(unsigned short)(u >> 16)};
}
inline float __bfloat162float(__nv_bfloat16 h)
{
    return ::mw_sim::bf16_widen(h.__x);
}
inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b)
{
    return __nv_bfloat162(__nv_bfloat16(a), __nv_bfloat16(b));
}
inline __nv_bfloat162 __float22bfloat162_rn(float2 f)
{
    return __floats2bfloat162_rn(f.x, f.y);
}
inline __nv_bfloat162 __halves2bfloat162(__nv_bfloat16 a, __nv_bfloat16 b)
{
    return __nv_bfloat162(a, b);
}
inline __nv_bfloat162 __bfloat162bfloat162(__nv_bfloat16 a)
{
    return __nv_bfloat162(a, a);
}
inline float __low2float(__nv_bfloat162 h)
{
    return __bfloat162float(h.x);
}
inline float __high2float(__nv_bfloat162 h)
{
    return __bfloat162float(h.y);
}
inline __nv_bfloat16 __low2bfloat16(__nv_bfloat162 h)
{
    return h.x;
}
inline __nv_bfloat16 __high2bfloat16(__nv_bfloat162 h)
{
    return h.y;
}
inline float2 __bfloat1622float2(__nv_bfloat162 h)
{
    return make_float2(__bfloat162float(h.x), __bfloat162float(h.y));
}
inline unsigned short __bfloat16_as_ushort(__nv_bfloat16 h)
{
    return h.__x;
}
inline __nv_bfloat16 __ushort_as_bfloat16(unsigned short x)
{
    return __nv_bfloat16_raw{x};
}
inline int __hisnan(__nv_bfloat16 h)
{
    return (h.__x & 0x7fffu) > 0x7f80u;
}

#define MW_SIM_BF16_OP(OP, NAME)                                                                   \
    inline __nv_bfloat16 operator OP(__nv_bfloat16 a, __nv_bfloat16 b)                             \
    {                                                                                              \
        return __nv_bfloat16(__bfloat162float(a) OP __bfloat162float(b));                          \
    }                                                                                              \
    inline __nv_bfloat16 &operator OP##=(__nv_bfloat16 &a, __nv_bfloat16 b)                        \
    {                                                                                              \
        return a = a OP b;                                                                         \
    }                                                                                              \
    inline __nv_bfloat16 NAME(__nv_bfloat16 a, __nv_bfloat16 b)                                    \
    {                                                                                              \
        return a OP b;                                                                             \
    }                                                                                              \
    inline __nv_bfloat162 operator OP(__nv_bfloat162 a, __nv_bfloat162 b)                          \
    {                                                                                              \
        return __nv_bfloat162(a.x OP b.x, a.y OP b.y);                                             \
    }                                                                                              \
    inline __nv_bfloat162 NAME##2(__nv_bfloat162 a, __nv_bfloat162 b)                              \
    {                                                                                              \
        return a OP b;                                                                             \
    }
MW_SIM_BF16_OP(+, __hadd)
MW_SIM_BF16_OP(-, __hsub)
MW_SIM_BF16_OP(*, __hmul)
MW_SIM_BF16_OP(/, __hdiv)
#undef MW_SIM_BF16_OP
inline __nv_bfloat16 operator-(__nv_bfloat16 a)
{
    return __nv_bfloat16_raw{(unsigned short)(a.__x ^ 0x8000u)};
}
inline __nv_bfloat16 __hneg(__nv_bfloat16 a)
{
    return -a;
}
/* fma.rn.bf16: one rounding of the exact a*b+c. */
inline __nv_bfloat16 __hfma(__nv_bfloat16 a, __nv_bfloat16 b, __nv_bfloat16 c)
{
    return __nv_bfloat16(
        (float)((double)__bfloat162float(a) * __bfloat162float(b) + __bfloat162float(c)));
}
inline __nv_bfloat162 __hfma2(__nv_bfloat162 a, __nv_bfloat162 b, __nv_bfloat162 c)
{
    return __nv_bfloat162(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
inline __nv_bfloat16 __hmax(__nv_bfloat16 a, __nv_bfloat16 b)
{
    return __nv_bfloat16(fmaxf(__bfloat162float(a), __bfloat162float(b)));
}
inline __nv_bfloat16 __hmin(__nv_bfloat16 a, __nv_bfloat16 b)
{
    return __nv_bfloat16(fminf(__bfloat162float(a), __bfloat162float(b)));
}
#define MW_SIM_BF16_CMP(OP)                                                                        \
    inline bool operator OP(__nv_bfloat16 a, __nv_bfloat16 b)                                      \
    {                                                                                              \
        return __bfloat162float(a) OP __bfloat162float(b);                                         \
    }
MW_SIM_BF16_CMP(==)
MW_SIM_BF16_CMP(!=)
MW_SIM_BF16_CMP(<)
MW_SIM_BF16_CMP(<=)
MW_SIM_BF16_CMP(>)
MW_SIM_BF16_CMP(>=)
#undef MW_SIM_BF16_CMP

#endif
#endif
