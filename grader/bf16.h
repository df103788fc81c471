/* bf16.h: the element types of a case's buffers, and bf16 <-> float,
 * identical on host and device.
 *
 * A buffer holds FP32 (MW_F32, the default) or bf16 (MW_BF16: 1 sign bit,
 * 8 exponent bits as FP32's, 7 stored significand bits; the upper half of
 * an FP32 word). Inputs are generated in FP32 by mw_gen and rounded to
 * bf16 by mw_bf16_round, the same function on the GPU (which fills the
 * buffer) and on the CPU (where mw_input gives the reference the same
 * rounded value). Outputs come back to the host widened to float, which is
 * exact: every bf16 is a float. So everything downstream of the copy (the
 * comparison, tolerances, reports) sees floats, whatever the buffer held.
 *
 * Pure C (and CUDA): unit-tested on the CPU (tests/unit/test_grader.c). */
#ifndef MW_BF16_H
#define MW_BF16_H

#include <stddef.h>
#include <stdint.h>

#include "rng.h" /* MW_HD, mw_from_bits, mw_gen */

/* Element types of a buffer (mw_buffer_spec.type). 0 is FP32, so a spec
 * that does not name a type is FP32. */
enum {
    MW_F32 = 0,  /* float, 4 bytes */
    MW_BF16 = 1  /* __nv_bfloat16, 2 bytes */
};

/* The harness's patterns (compare.h) in bf16's width: memset 0xff writes
 * 0xffff, a NaN no conversion produces (a NaN rounds to 0x7fff on the GPU,
 * to its own upper half here); memset 0xfe writes the guard 0xfefe. */
#define MW_BF16_POISON_BITS 0xffffu
#define MW_BF16_GUARD_BITS 0xfefeu

/* Bytes per element of `type`. */
MW_HD size_t mw_type_size(int type)
{
    return type == MW_BF16 ? 2 : 4;
}

MW_HD uint32_t mw_f32_bits(float f)
{
    union { float f; uint32_t u; } v;
    v.f = f;
    return v.u;
}

/* f rounded to bf16, to nearest with ties to even, as the bits of the
 * bf16 (what __float2bfloat16_rn stores, but for NaN). Adding 0x7fff plus
 * the lowest kept bit to the FP32 bits and truncating rounds the magnitude
 * correctly in every binade, subnormals included, and carries into the
 * exponent where the significand overflows: past the largest bf16 (0x7f7f,
 * about 3.39e38) by half an ulp or more, FLT_MAX among them, the carry
 * reaches 0x7f80, infinity, as IEEE rounding wants. An infinity is kept
 * (its low half is 0). A NaN is kept as a NaN with its sign and the upper
 * bits of its payload, made quiet, so that a payload living in the low half
 * only does not truncate to an infinity: mw_gen's NaN 0x7fc00000 becomes
 * 0x7fc0, and widens back to the same FP32 NaN. */
MW_HD uint16_t mw_bf16_round(float f)
{
    uint32_t u = mw_f32_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u)
        return (uint16_t)((u >> 16) | 0x0040u);
    u += 0x7fffu + ((u >> 16) & 1u);
    return (uint16_t)(u >> 16);
}

/* The value of a bf16, exactly. */
MW_HD float mw_bf16_to_float(uint16_t h)
{
    return mw_from_bits((uint32_t)h << 16);
}

/* An output element on its way to the host: its value, except that the
 * bf16 poison becomes the FP32 poison (MW_POISON_BITS, 0xffffffff), so that
 * "never written" reads the same whatever the buffer's type. */
MW_HD float mw_bf16_widen(uint16_t h)
{
    return h == MW_BF16_POISON_BITS ? mw_from_bits(0xffffffffu) : mw_bf16_to_float(h);
}

/* x as a buffer of `type` stores it, read back as float. */
MW_HD float mw_round_to(int type, float x)
{
    return type == MW_BF16 ? mw_bf16_to_float(mw_bf16_round(x)) : x;
}

/* mw_gen's element as an input buffer of `type` holds it. */
MW_HD float mw_gen_as(uint64_t seed, uint32_t stream, uint64_t i, int kind, float scale,
                      int type)
{
    return mw_round_to(type, mw_gen(seed, stream, i, kind, scale));
}

#endif
