/* Stand-in for the core part's vector_types.h (grader/sim/include/), for the
 * host part's tests until it lands: dim3, uint3 and the few vector types the
 * harness's C sources name. The merge replaces it. */
#ifndef MW_SIM_STANDIN_VECTOR_TYPES_H
#define MW_SIM_STANDIN_VECTOR_TYPES_H

typedef struct uint3 {
    unsigned int x, y, z;
} uint3;

typedef struct float2 {
    float x, y;
} float2;

typedef struct float4 {
    float x, y, z, w;
} float4;

#ifdef __cplusplus
struct dim3 {
    unsigned int x, y, z;
    dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
};
#else
typedef struct dim3 {
    unsigned int x, y, z;
} dim3;
#endif

#endif
