/* A stand-in for the host part's cuda_runtime.h (see cuda_runtime_api.h
 * here). */
#ifndef MW_SIM_STANDIN_CUDA_RUNTIME_H
#define MW_SIM_STANDIN_CUDA_RUNTIME_H
#include <cuda_runtime_api.h>
#ifdef __cplusplus
#include <mw_sim_kernel.h>
#endif
#endif
