/* cuda_fp16.h: the toolkit's half precision for the CPU emulation, as far
 * as the exercises use it. Conversions from float round to nearest even
 * (subnormals and overflow to infinity included) and keep a NaN a NaN;
 * arithmetic is done in float and rounded back, as one rounding of an
 * exact result that float holds. */
#ifndef MW_SIM_CUDA_FP16_H
#define MW_SIM_CUDA_FP16_H

#include <math.h>
#include <stdint.h>

#ifndef __cplusplus
typedef struct __half {
    unsigned short __x;
} __half;
#else

namespace mw_sim
{
inline unsigned short half_round(float f)
{
    uint32_t x = __builtin_bit_cast(uint32_t, f);
    uint32_t sign = (x >> 16) & 0x8000u, ax = x & 0x7fffffffu;
    if (ax > 0x7f800000u)
        return (unsigned short)(sign | 0x7e00u | ((ax >> 13) & 0x3ffu));
    if (ax >= 0x477ff000u) /* 65520 and up: past the largest half's halfway point */
        return (unsigned short)(sign | 0x7c00u);
    if (ax < 0x38800000u) /* below 2^-14: a multiple of 2^-24, rounded to even */
        return (unsigned short)(sign | (uint32_t)nearbyintf(fabsf(f) * 16777216.0f));
    return (unsigned short)(sign | ((ax + 0xfffu + ((ax >> 13) & 1u) - 0x38000000u) >> 13));
}
inline float half_widen(unsigned short h)
{
    uint32_t sign = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu;
    if (e == 0) {
        float v = (float)m * 5.9604645e-8f; /* 2^-24 */
        return sign ? -v : v;
    }
    if (e == 31)
        return __builtin_bit_cast(float, sign | 0x7f800000u | (m << 13));
    return __builtin_bit_cast(float, sign | ((e + 112u) << 23) | (m << 13));
}
} // namespace mw_sim

struct __half {
    unsigned short __x;
    __half() = default;
    __half(float f) : __x(::mw_sim::half_round(f)) {}
    __half(double f) : __x(::mw_sim::half_round((float)f)) {}
    __half(int i) : __x(::mw_sim::half_round((float)i)) {}
    operator float() const { return ::mw_sim::half_widen(__x); }
};

struct __attribute__((aligned(4))) __half2 {
    __half x, y;
};

inline __half __float2half(float f)
{
    return __half(f);
}
inline __half __float2half_rn(float f)
{
    return __half(f);
}
inline float __half2float(__half h)
{
    return ::mw_sim::half_widen(h.__x);
}
inline unsigned short __half_as_ushort(__half h)
{
    return h.__x;
}
inline __half __ushort_as_half(unsigned short x)
{
    __half h;
    h.__x = x;
    return h;
}

#define MW_SIM_HALF_OP(OP, NAME)                                                                   \
    inline __half operator OP(__half a, __half b)                                                  \
    {                                                                                              \
        return __half(__half2float(a) OP __half2float(b));                                         \
    }                                                                                              \
    inline __half &operator OP##=(__half &a, __half b)                                             \
    {                                                                                              \
        return a = a OP b;                                                                         \
    }                                                                                              \
    inline __half NAME(__half a, __half b)                                                         \
    {                                                                                              \
        return a OP b;                                                                             \
    }
MW_SIM_HALF_OP(+, __hadd)
MW_SIM_HALF_OP(-, __hsub)
MW_SIM_HALF_OP(*, __hmul)
MW_SIM_HALF_OP(/, __hdiv)
#undef MW_SIM_HALF_OP
inline __half __hfma(__half a, __half b, __half c)
{
    return __half((float)((double)__half2float(a) * __half2float(b) + __half2float(c)));
}

#endif
#endif
