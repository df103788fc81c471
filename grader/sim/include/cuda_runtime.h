/* cuda_runtime.h: what a kernel file includes, for the CPU emulation.
 *
 * The host API (cuda_runtime_api.h, C) and, for C++, the kernel side
 * (mw_sim_kernel.h: __global__, threadIdx, __syncthreads, launches, ...)
 * and the typed overloads the toolkit's header gives C++ callers, which
 * take a kernel or a typed pointer where the C API takes void pointers. */
#ifndef MW_SIM_CUDA_RUNTIME_H
#define MW_SIM_CUDA_RUNTIME_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus

#if defined(__has_include)
#if __has_include(<mw_sim_kernel.h>)
#include <mw_sim_kernel.h>
#endif
#endif

template <class T> static inline cudaError_t cudaMalloc(T **p, size_t bytes)
{
    return ::cudaMalloc((void **)(void *)p, bytes);
}

template <class T>
static inline cudaError_t cudaFuncSetAttribute(T *func, enum cudaFuncAttribute attr, int value)
{
    return ::cudaFuncSetAttribute((const void *)func, attr, value);
}

template <class T>
static inline cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, T func,
                                                                        int block_size,
                                                                        size_t dynamic_smem)
{
    return ::cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks, (const void *)func, block_size,
                                                           dynamic_smem);
}

#endif

#endif
