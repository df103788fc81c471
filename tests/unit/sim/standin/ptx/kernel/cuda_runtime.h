/* A stand-in for the kernel side (the core's mw_sim_kernel.h, through the
 * host's cuda_runtime.h), declarations only: what t0141 needs to check that
 * mw-simcc's output for tests/data/simcc/ is C++ the compiler takes, until
 * those parts are in this tree. Nothing here is run. */
#ifndef MW_STANDIN_KERNEL_CUDA_RUNTIME_H
#define MW_STANDIN_KERNEL_CUDA_RUNTIME_H

#include <stddef.h>

#include <mw_sim_ptx.h>

#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __align__(n) __attribute__((aligned(n)))
#define __launch_bounds__(...)

struct dim3 {
    unsigned x, y, z;
    dim3(unsigned x_ = 1, unsigned y_ = 1, unsigned z_ = 1) : x(x_), y(y_), z(z_) {}
};
struct float4 {
    float x, y, z, w;
};
typedef struct CUstream_st *cudaStream_t;

size_t __cvta_generic_to_shared(const void *p);
template <typename T> T max(T a, T b);
template <typename T> T min(T a, T b);

void *mw_sim_shared_static(const void *key, size_t bytes, size_t align, const char *name,
                           const char *file, int line);
void *mw_sim_shared_dynamic(const char *name, const char *file, int line);

namespace mw_sim {
template <class V>
void *shared_static(const void *key, size_t bytes, size_t align, const char *name,
                    const char *file, int line);
template <class T> T *shared_dynamic(const char *name, const char *file, int line);
} // namespace mw_sim

namespace mw_sim {
struct launcher {
    launcher(const char *file, int line, const char *name, dim3 grid, dim3 block,
             size_t smem = 0, cudaStream_t stream = nullptr);
    template <typename... P, typename... A> int go(void (*kernel)(P...), A &&...args);
};
} // namespace mw_sim

#include <vector>

#endif
