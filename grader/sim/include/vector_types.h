/* vector_types.h: the toolkit's vector types for the CPU emulation, C and
 * C++: char1 ... double4 with the toolkit's alignments (float4 and int4 16
 * bytes, float2 8, 3-vectors their element's), dim3, and the make_*
 * functions of vector_functions.h. */
#ifndef MW_SIM_VECTOR_TYPES_H
#define MW_SIM_VECTOR_TYPES_H

#ifdef __cplusplus
#define MW_SIM_VT_FN static inline constexpr
#else
#define MW_SIM_VT_FN static inline
#endif

/* One vector type and its make_ function: 2- and 4-vectors carry the
 * toolkit's alignment, 1- and 3-vectors their element's. */
#define MW_SIM_VEC1(T, name)                                                                       \
    typedef struct name {                                                                          \
        T x;                                                                                       \
    } name;                                                                                        \
    MW_SIM_VT_FN name make_##name(T x)                                                             \
    {                                                                                              \
        name v = {x};                                                                              \
        return v;                                                                                  \
    }
#define MW_SIM_VEC2(T, name, align)                                                                \
    typedef struct __attribute__((aligned(align))) name {                                          \
        T x, y;                                                                                    \
    } name;                                                                                        \
    MW_SIM_VT_FN name make_##name(T x, T y)                                                        \
    {                                                                                              \
        name v = {x, y};                                                                           \
        return v;                                                                                  \
    }
#define MW_SIM_VEC3(T, name)                                                                       \
    typedef struct name {                                                                          \
        T x, y, z;                                                                                 \
    } name;                                                                                        \
    MW_SIM_VT_FN name make_##name(T x, T y, T z)                                                   \
    {                                                                                              \
        name v = {x, y, z};                                                                        \
        return v;                                                                                  \
    }
#define MW_SIM_VEC4(T, name, align)                                                                \
    typedef struct __attribute__((aligned(align))) name {                                          \
        T x, y, z, w;                                                                              \
    } name;                                                                                        \
    MW_SIM_VT_FN name make_##name(T x, T y, T z, T w)                                              \
    {                                                                                              \
        name v = {x, y, z, w};                                                                     \
        return v;                                                                                  \
    }

MW_SIM_VEC1(signed char, char1)
MW_SIM_VEC2(signed char, char2, 2)
MW_SIM_VEC3(signed char, char3)
MW_SIM_VEC4(signed char, char4, 4)
MW_SIM_VEC1(unsigned char, uchar1)
MW_SIM_VEC2(unsigned char, uchar2, 2)
MW_SIM_VEC3(unsigned char, uchar3)
MW_SIM_VEC4(unsigned char, uchar4, 4)
MW_SIM_VEC1(short, short1)
MW_SIM_VEC2(short, short2, 4)
MW_SIM_VEC3(short, short3)
MW_SIM_VEC4(short, short4, 8)
MW_SIM_VEC1(unsigned short, ushort1)
MW_SIM_VEC2(unsigned short, ushort2, 4)
MW_SIM_VEC3(unsigned short, ushort3)
MW_SIM_VEC4(unsigned short, ushort4, 8)
MW_SIM_VEC1(int, int1)
MW_SIM_VEC2(int, int2, 8)
MW_SIM_VEC3(int, int3)
MW_SIM_VEC4(int, int4, 16)
MW_SIM_VEC1(unsigned int, uint1)
MW_SIM_VEC2(unsigned int, uint2, 8)
MW_SIM_VEC3(unsigned int, uint3)
MW_SIM_VEC4(unsigned int, uint4, 16)
MW_SIM_VEC1(long, long1)
MW_SIM_VEC2(long, long2, 16)
MW_SIM_VEC3(long, long3)
MW_SIM_VEC4(long, long4, 16)
MW_SIM_VEC1(unsigned long, ulong1)
MW_SIM_VEC2(unsigned long, ulong2, 16)
MW_SIM_VEC3(unsigned long, ulong3)
MW_SIM_VEC4(unsigned long, ulong4, 16)
MW_SIM_VEC1(long long, longlong1)
MW_SIM_VEC2(long long, longlong2, 16)
MW_SIM_VEC3(long long, longlong3)
MW_SIM_VEC4(long long, longlong4, 16)
MW_SIM_VEC1(unsigned long long, ulonglong1)
MW_SIM_VEC2(unsigned long long, ulonglong2, 16)
MW_SIM_VEC3(unsigned long long, ulonglong3)
MW_SIM_VEC4(unsigned long long, ulonglong4, 16)
MW_SIM_VEC1(float, float1)
MW_SIM_VEC2(float, float2, 8)
MW_SIM_VEC3(float, float3)
MW_SIM_VEC4(float, float4, 16)
MW_SIM_VEC1(double, double1)
MW_SIM_VEC2(double, double2, 16)
MW_SIM_VEC3(double, double3)
MW_SIM_VEC4(double, double4, 16)

#undef MW_SIM_VEC1
#undef MW_SIM_VEC2
#undef MW_SIM_VEC3
#undef MW_SIM_VEC4

#ifdef __cplusplus
struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1)
        : x(vx), y(vy), z(vz)
    {
    }
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};
#else
typedef struct dim3 {
    unsigned int x, y, z;
} dim3;
#endif
typedef struct dim3 dim3;

#undef MW_SIM_VT_FN
#endif
