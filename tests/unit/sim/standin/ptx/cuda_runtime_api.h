/* A stand-in for the emulation's cuda_runtime_api.h (the host part's),
 * just what sim.h and ptx.c need, for ptx.c's unit tests until that part
 * is in this tree. The toolkit's numeric values. */
#ifndef MW_STANDIN_CUDA_RUNTIME_API_H
#define MW_STANDIN_CUDA_RUNTIME_API_H

typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorIllegalAddress = 700,
    cudaErrorMisalignedAddress = 716,
    cudaErrorLaunchFailure = 719,
} cudaError_t;

typedef struct dim3 {
    unsigned x, y, z;
} dim3;

typedef struct CUstream_st *cudaStream_t;

#endif
