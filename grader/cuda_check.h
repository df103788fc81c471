/* cuda_check.h: the one error-checking macro family (CUDA, cuBLAS, cuDNN).
 *
 * Each macro evaluates the call once; on failure it prints the expression,
 * file:line and the error's name, then runs the given action (usually
 * `return ...` or `exit(2)`): a harness failure is never silent. */
#ifndef MW_CUDA_CHECK_H
#define MW_CUDA_CHECK_H

#include <stdio.h>
#include <stdlib.h>

#include "gpu.h"

#define MW_TRY(expr, action)                                                  \
    do {                                                                      \
        cudaError_t mw_err_ = (expr);                                         \
        if (mw_err_ != cudaSuccess) {                                         \
            fprintf(stderr, "%s:%d: %s failed: %s (%s)\n", __FILE__,          \
                    __LINE__, #expr, mw_gpu_error_name(mw_err_),              \
                    mw_gpu_error_string(mw_err_));                            \
            action;                                                           \
        }                                                                     \
    } while (0)

/* For harness calls where a failure means the run cannot go on: exit 2,
 * the code for "CUDA error" in the grader's exit-code contract. */
#define MW_CUDA(expr) MW_TRY(expr, exit(2))

#ifdef MW_WITH_CUBLAS
#include <cublas_v2.h>
#define MW_CUBLAS_TRY(expr, action)                                           \
    do {                                                                      \
        cublasStatus_t mw_st_ = (expr);                                       \
        if (mw_st_ != CUBLAS_STATUS_SUCCESS) {                                \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,     \
                    #expr, cublasGetStatusName(mw_st_));                      \
            action;                                                           \
        }                                                                     \
    } while (0)
#define MW_CUBLAS(expr) MW_CUBLAS_TRY(expr, exit(2))
#endif

#ifdef MW_WITH_CUDNN
#include <cudnn.h>
#define MW_CUDNN_TRY(expr, action)                                            \
    do {                                                                      \
        cudnnStatus_t mw_st_ = (expr);                                        \
        if (mw_st_ != CUDNN_STATUS_SUCCESS) {                                 \
            fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__,     \
                    #expr, cudnnGetErrorString(mw_st_));                      \
            action;                                                           \
        }                                                                     \
    } while (0)
#define MW_CUDNN(expr) MW_CUDNN_TRY(expr, exit(2))
#endif

#endif
