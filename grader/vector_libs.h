/* vector_libs.h: library calls the elementwise chapters share (cuBLAS on
 * vectors, the copy roof). For chapters whose case dim[0] is the element
 * count n. */
#ifndef MW_VECTOR_LIBS_H
#define MW_VECTOR_LIBS_H

#include "mw.h"

/* A cuBLAS handle as a library's state. */
int mw_cublas_setup(void **state);
void mw_cublas_teardown(void *state);

/* out = alpha * x + beta * y with cublasSgeam, the n floats seen as a
 * matrix as square as n's factors of two allow: on an H100 at n = 2^28,
 * 16384 x 16384 runs at 3027 GB/s, 2^28 x 1 at 269 GB/s. */
cudaError_t mw_geam(void *cublas, float alpha, const float *x, float beta, const float *y,
                    float *out, size_t n, cudaStream_t s);

/* The n floats as rows x cols, cols the largest power of two <= sqrt(n)
 * that divides n. */
void mw_matrix_shape(size_t n, int *rows, int *cols);

/* The speed of light: a device-to-device copy of n floats from buffer 0 into
 * buffer `out`; 8 bytes per element, no FLOPs. */
int mw_copy_setup(void **state);
cudaError_t mw_copy_into(float *const *bufs, int out, const mw_case *c, cudaStream_t s);
void mw_copy_model(const mw_case *c, double *read, double *write, double *flops);

#endif
