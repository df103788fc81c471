/* A stand-in for the host part's cuda_runtime_api.h, for the core's own
 * tests until that part lands: only what libmwsim's core and its tests use,
 * with the toolkit's numeric values. */
#ifndef MW_SIM_STANDIN_CUDA_RUNTIME_API_H
#define MW_SIM_STANDIN_CUDA_RUNTIME_API_H

#include <stddef.h>

#include <vector_types.h>

typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorIllegalAddress = 700,
    cudaErrorMisalignedAddress = 716,
    cudaErrorLaunchFailure = 719,
} cudaError_t;

typedef struct CUstream_st *cudaStream_t;

#endif
