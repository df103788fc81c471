/* Known wrong: float4 accesses straight on the given pointers. Right when
 * they are 16-byte aligned; a misaligned-address error on offset views. */
#include "vector_add.h"

__global__ void add_vec4_kernel(const float *a, const float *b, float *c, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    size_t n4 = n / 4;
    if (i < n4) {
        float4 x = reinterpret_cast<const float4 *>(a)[i];
        float4 y = reinterpret_cast<const float4 *>(b)[i];
        reinterpret_cast<float4 *>(c)[i] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
    }
    if (i < n - 4 * n4)
        c[4 * n4 + i] = a[4 * n4 + i] + b[4 * n4 + i];
}

cudaError_t add_fast(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    size_t threads = n / 4 + 4;
    add_vec4_kernel<<<(unsigned)((threads + 255) / 256), 256, 0, stream>>>(a, b, c, n);
    return cudaGetLastError();
}
