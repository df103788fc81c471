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

typedef struct char1 {
    signed char x;
} char1;
MW_SIM_VT_FN char1 make_char1(signed char x)
{
    char1 v = {x};
    return v;
}
typedef struct __attribute__((aligned(2))) char2 {
    signed char x;
    signed char y;
} char2;
MW_SIM_VT_FN char2 make_char2(signed char x, signed char y)
{
    char2 v = {x, y};
    return v;
}
typedef struct char3 {
    signed char x;
    signed char y;
    signed char z;
} char3;
MW_SIM_VT_FN char3 make_char3(signed char x, signed char y, signed char z)
{
    char3 v = {x, y, z};
    return v;
}
typedef struct __attribute__((aligned(4))) char4 {
    signed char x;
    signed char y;
    signed char z;
    signed char w;
} char4;
MW_SIM_VT_FN char4 make_char4(signed char x, signed char y, signed char z, signed char w)
{
    char4 v = {x, y, z, w};
    return v;
}
typedef struct uchar1 {
    unsigned char x;
} uchar1;
MW_SIM_VT_FN uchar1 make_uchar1(unsigned char x)
{
    uchar1 v = {x};
    return v;
}
typedef struct __attribute__((aligned(2))) uchar2 {
    unsigned char x;
    unsigned char y;
} uchar2;
MW_SIM_VT_FN uchar2 make_uchar2(unsigned char x, unsigned char y)
{
    uchar2 v = {x, y};
    return v;
}
typedef struct uchar3 {
    unsigned char x;
    unsigned char y;
    unsigned char z;
} uchar3;
MW_SIM_VT_FN uchar3 make_uchar3(unsigned char x, unsigned char y, unsigned char z)
{
    uchar3 v = {x, y, z};
    return v;
}
typedef struct __attribute__((aligned(4))) uchar4 {
    unsigned char x;
    unsigned char y;
    unsigned char z;
    unsigned char w;
} uchar4;
MW_SIM_VT_FN uchar4 make_uchar4(unsigned char x, unsigned char y, unsigned char z, unsigned char w)
{
    uchar4 v = {x, y, z, w};
    return v;
}
typedef struct short1 {
    short x;
} short1;
MW_SIM_VT_FN short1 make_short1(short x)
{
    short1 v = {x};
    return v;
}
typedef struct __attribute__((aligned(4))) short2 {
    short x;
    short y;
} short2;
MW_SIM_VT_FN short2 make_short2(short x, short y)
{
    short2 v = {x, y};
    return v;
}
typedef struct short3 {
    short x;
    short y;
    short z;
} short3;
MW_SIM_VT_FN short3 make_short3(short x, short y, short z)
{
    short3 v = {x, y, z};
    return v;
}
typedef struct __attribute__((aligned(8))) short4 {
    short x;
    short y;
    short z;
    short w;
} short4;
MW_SIM_VT_FN short4 make_short4(short x, short y, short z, short w)
{
    short4 v = {x, y, z, w};
    return v;
}
typedef struct ushort1 {
    unsigned short x;
} ushort1;
MW_SIM_VT_FN ushort1 make_ushort1(unsigned short x)
{
    ushort1 v = {x};
    return v;
}
typedef struct __attribute__((aligned(4))) ushort2 {
    unsigned short x;
    unsigned short y;
} ushort2;
MW_SIM_VT_FN ushort2 make_ushort2(unsigned short x, unsigned short y)
{
    ushort2 v = {x, y};
    return v;
}
typedef struct ushort3 {
    unsigned short x;
    unsigned short y;
    unsigned short z;
} ushort3;
MW_SIM_VT_FN ushort3 make_ushort3(unsigned short x, unsigned short y, unsigned short z)
{
    ushort3 v = {x, y, z};
    return v;
}
typedef struct __attribute__((aligned(8))) ushort4 {
    unsigned short x;
    unsigned short y;
    unsigned short z;
    unsigned short w;
} ushort4;
MW_SIM_VT_FN ushort4 make_ushort4(unsigned short x, unsigned short y, unsigned short z,
                                  unsigned short w)
{
    ushort4 v = {x, y, z, w};
    return v;
}
typedef struct int1 {
    int x;
} int1;
MW_SIM_VT_FN int1 make_int1(int x)
{
    int1 v = {x};
    return v;
}
typedef struct __attribute__((aligned(8))) int2 {
    int x;
    int y;
} int2;
MW_SIM_VT_FN int2 make_int2(int x, int y)
{
    int2 v = {x, y};
    return v;
}
typedef struct int3 {
    int x;
    int y;
    int z;
} int3;
MW_SIM_VT_FN int3 make_int3(int x, int y, int z)
{
    int3 v = {x, y, z};
    return v;
}
typedef struct __attribute__((aligned(16))) int4 {
    int x;
    int y;
    int z;
    int w;
} int4;
MW_SIM_VT_FN int4 make_int4(int x, int y, int z, int w)
{
    int4 v = {x, y, z, w};
    return v;
}
typedef struct uint1 {
    unsigned int x;
} uint1;
MW_SIM_VT_FN uint1 make_uint1(unsigned int x)
{
    uint1 v = {x};
    return v;
}
typedef struct __attribute__((aligned(8))) uint2 {
    unsigned int x;
    unsigned int y;
} uint2;
MW_SIM_VT_FN uint2 make_uint2(unsigned int x, unsigned int y)
{
    uint2 v = {x, y};
    return v;
}
typedef struct uint3 {
    unsigned int x;
    unsigned int y;
    unsigned int z;
} uint3;
MW_SIM_VT_FN uint3 make_uint3(unsigned int x, unsigned int y, unsigned int z)
{
    uint3 v = {x, y, z};
    return v;
}
typedef struct __attribute__((aligned(16))) uint4 {
    unsigned int x;
    unsigned int y;
    unsigned int z;
    unsigned int w;
} uint4;
MW_SIM_VT_FN uint4 make_uint4(unsigned int x, unsigned int y, unsigned int z, unsigned int w)
{
    uint4 v = {x, y, z, w};
    return v;
}
typedef struct long1 {
    long x;
} long1;
MW_SIM_VT_FN long1 make_long1(long x)
{
    long1 v = {x};
    return v;
}
typedef struct __attribute__((aligned(16))) long2 {
    long x;
    long y;
} long2;
MW_SIM_VT_FN long2 make_long2(long x, long y)
{
    long2 v = {x, y};
    return v;
}
typedef struct long3 {
    long x;
    long y;
    long z;
} long3;
MW_SIM_VT_FN long3 make_long3(long x, long y, long z)
{
    long3 v = {x, y, z};
    return v;
}
typedef struct __attribute__((aligned(16))) long4 {
    long x;
    long y;
    long z;
    long w;
} long4;
MW_SIM_VT_FN long4 make_long4(long x, long y, long z, long w)
{
    long4 v = {x, y, z, w};
    return v;
}
typedef struct ulong1 {
    unsigned long x;
} ulong1;
MW_SIM_VT_FN ulong1 make_ulong1(unsigned long x)
{
    ulong1 v = {x};
    return v;
}
typedef struct __attribute__((aligned(16))) ulong2 {
    unsigned long x;
    unsigned long y;
} ulong2;
MW_SIM_VT_FN ulong2 make_ulong2(unsigned long x, unsigned long y)
{
    ulong2 v = {x, y};
    return v;
}
typedef struct ulong3 {
    unsigned long x;
    unsigned long y;
    unsigned long z;
} ulong3;
MW_SIM_VT_FN ulong3 make_ulong3(unsigned long x, unsigned long y, unsigned long z)
{
    ulong3 v = {x, y, z};
    return v;
}
typedef struct __attribute__((aligned(16))) ulong4 {
    unsigned long x;
    unsigned long y;
    unsigned long z;
    unsigned long w;
} ulong4;
MW_SIM_VT_FN ulong4 make_ulong4(unsigned long x, unsigned long y, unsigned long z, unsigned long w)
{
    ulong4 v = {x, y, z, w};
    return v;
}
typedef struct longlong1 {
    long long x;
} longlong1;
MW_SIM_VT_FN longlong1 make_longlong1(long long x)
{
    longlong1 v = {x};
    return v;
}
typedef struct __attribute__((aligned(16))) longlong2 {
    long long x;
    long long y;
} longlong2;
MW_SIM_VT_FN longlong2 make_longlong2(long long x, long long y)
{
    longlong2 v = {x, y};
    return v;
}
typedef struct longlong3 {
    long long x;
    long long y;
    long long z;
} longlong3;
MW_SIM_VT_FN longlong3 make_longlong3(long long x, long long y, long long z)
{
    longlong3 v = {x, y, z};
    return v;
}
typedef struct __attribute__((aligned(16))) longlong4 {
    long long x;
    long long y;
    long long z;
    long long w;
} longlong4;
MW_SIM_VT_FN longlong4 make_longlong4(long long x, long long y, long long z, long long w)
{
    longlong4 v = {x, y, z, w};
    return v;
}
typedef struct ulonglong1 {
    unsigned long long x;
} ulonglong1;
MW_SIM_VT_FN ulonglong1 make_ulonglong1(unsigned long long x)
{
    ulonglong1 v = {x};
    return v;
}
typedef struct __attribute__((aligned(16))) ulonglong2 {
    unsigned long long x;
    unsigned long long y;
} ulonglong2;
MW_SIM_VT_FN ulonglong2 make_ulonglong2(unsigned long long x, unsigned long long y)
{
    ulonglong2 v = {x, y};
    return v;
}
typedef struct ulonglong3 {
    unsigned long long x;
    unsigned long long y;
    unsigned long long z;
} ulonglong3;
MW_SIM_VT_FN ulonglong3 make_ulonglong3(unsigned long long x, unsigned long long y,
                                        unsigned long long z)
{
    ulonglong3 v = {x, y, z};
    return v;
}
typedef struct __attribute__((aligned(16))) ulonglong4 {
    unsigned long long x;
    unsigned long long y;
    unsigned long long z;
    unsigned long long w;
} ulonglong4;
MW_SIM_VT_FN ulonglong4 make_ulonglong4(unsigned long long x, unsigned long long y,
                                        unsigned long long z, unsigned long long w)
{
    ulonglong4 v = {x, y, z, w};
    return v;
}
typedef struct float1 {
    float x;
} float1;
MW_SIM_VT_FN float1 make_float1(float x)
{
    float1 v = {x};
    return v;
}
typedef struct __attribute__((aligned(8))) float2 {
    float x;
    float y;
} float2;
MW_SIM_VT_FN float2 make_float2(float x, float y)
{
    float2 v = {x, y};
    return v;
}
typedef struct float3 {
    float x;
    float y;
    float z;
} float3;
MW_SIM_VT_FN float3 make_float3(float x, float y, float z)
{
    float3 v = {x, y, z};
    return v;
}
typedef struct __attribute__((aligned(16))) float4 {
    float x;
    float y;
    float z;
    float w;
} float4;
MW_SIM_VT_FN float4 make_float4(float x, float y, float z, float w)
{
    float4 v = {x, y, z, w};
    return v;
}
typedef struct double1 {
    double x;
} double1;
MW_SIM_VT_FN double1 make_double1(double x)
{
    double1 v = {x};
    return v;
}
typedef struct __attribute__((aligned(16))) double2 {
    double x;
    double y;
} double2;
MW_SIM_VT_FN double2 make_double2(double x, double y)
{
    double2 v = {x, y};
    return v;
}
typedef struct double3 {
    double x;
    double y;
    double z;
} double3;
MW_SIM_VT_FN double3 make_double3(double x, double y, double z)
{
    double3 v = {x, y, z};
    return v;
}
typedef struct __attribute__((aligned(16))) double4 {
    double x;
    double y;
    double z;
    double w;
} double4;
MW_SIM_VT_FN double4 make_double4(double x, double y, double z, double w)
{
    double4 v = {x, y, z, w};
    return v;
}

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
