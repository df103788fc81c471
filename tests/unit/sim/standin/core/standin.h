/* standin.h: what host_standin.c gives the core's unit tests. */
#ifndef MW_SIM_STANDIN_H
#define MW_SIM_STANDIN_H
#include <stddef.h>
#include <cuda_runtime_api.h>
#ifdef __cplusplus
extern "C" {
#endif
void *standin_malloc(size_t bytes); /* a device region filled with 0xFF */
void standin_free(void *p);
cudaError_t standin_take_error(void); /* the last error, cleared */
void standin_reset(void);             /* forgets every error, sticky ones too */
void standin_set_max_dynamic_smem(const void *func, size_t bytes);
#ifdef __cplusplus
}
#endif
#endif
