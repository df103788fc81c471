/* device.cu: the harness's GPU helpers. Grid-stride loops over size_t so
 * that every helper handles the 2^31+ element cases. */
#include "device.h"
#include "rng.h"

static const int kThreads = 256;

static unsigned blocks_for(size_t n)
{
    size_t b = (n + kThreads - 1) / kThreads;
    return (unsigned)(b < 65536 ? (b ? b : 1) : 65536);
}

static __device__ uint32_t bits_of(float f)
{
    return __float_as_uint(f);
}

__global__ void mw_fill_kernel(float *p, size_t n, uint64_t seed, uint32_t stream, int kind,
                               float scale)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        p[i] = mw_gen(seed, stream, i, kind, scale);
}

__global__ void mw_verify_kernel(const float *p, size_t n, uint64_t seed, uint32_t stream,
                                 int kind, float scale, unsigned long long *result)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        if (bits_of(p[i]) != bits_of(mw_gen(seed, stream, i, kind, scale))) {
            atomicAdd(&result[0], 1ULL);
            atomicMin(&result[1], (unsigned long long)i);
        }
    }
}

__global__ void mw_count_not_kernel(const float *p, size_t n, uint32_t bits,
                                    unsigned long long *result)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        if (bits_of(p[i]) != bits) {
            atomicAdd(&result[0], 1ULL);
            atomicMin(&result[1], (unsigned long long)i);
            atomicMax(&result[2], (unsigned long long)i);
        }
    }
}

__global__ void mw_gather_kernel(const float *p, const size_t *idx, size_t m, float *out)
{
    for (size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x; j < m;
         j += (size_t)gridDim.x * blockDim.x)
        out[j] = p[idx[j]];
}

__global__ void mw_marker(void) {}
__global__ void mw_empty(void) {}

extern "C" cudaError_t mw_dev_fill(float *p, size_t n, uint64_t seed, uint32_t stream,
                                   int kind, float scale, cudaStream_t s)
{
    if (n == 0)
        return cudaSuccess;
    mw_fill_kernel<<<blocks_for(n), kThreads, 0, s>>>(p, n, seed, stream, kind, scale);
    return cudaGetLastError();
}

/* Runs a counting kernel into a small device array and copies it back. */
static cudaError_t counted(unsigned long long *host, int words,
                           cudaError_t (*launch)(unsigned long long *, void *), void *arg)
{
    unsigned long long *dev = NULL, init[3] = {0, ~0ULL, 0};
    cudaError_t err = cudaMalloc(&dev, sizeof init);
    if (err == cudaSuccess)
        err = cudaMemcpy(dev, init, sizeof init, cudaMemcpyHostToDevice);
    if (err == cudaSuccess)
        err = launch(dev, arg);
    if (err == cudaSuccess)
        err = cudaMemcpy(host, dev, (size_t)words * sizeof *host, cudaMemcpyDeviceToHost);
    cudaFree(dev);
    return err;
}

struct verify_args {
    const float *p;
    size_t n;
    uint64_t seed;
    uint32_t stream;
    int kind;
    float scale;
    uint32_t bits;
};

static cudaError_t launch_verify(unsigned long long *dev, void *arg)
{
    struct verify_args *a = (struct verify_args *)arg;
    mw_verify_kernel<<<blocks_for(a->n), kThreads>>>(a->p, a->n, a->seed, a->stream, a->kind,
                                                     a->scale, dev);
    return cudaGetLastError();
}

static cudaError_t launch_count_not(unsigned long long *dev, void *arg)
{
    struct verify_args *a = (struct verify_args *)arg;
    mw_count_not_kernel<<<blocks_for(a->n), kThreads>>>(a->p, a->n, a->bits, dev);
    return cudaGetLastError();
}

extern "C" cudaError_t mw_dev_verify_fill(const float *p, size_t n, uint64_t seed,
                                          uint32_t stream, int kind, float scale,
                                          unsigned long long result[2])
{
    result[0] = 0;
    result[1] = 0;
    if (n == 0)
        return cudaSuccess;
    struct verify_args a = {p, n, seed, stream, kind, scale, 0};
    return counted(result, 2, launch_verify, &a);
}

extern "C" cudaError_t mw_dev_count_not(const float *p, size_t n, uint32_t bits,
                                        unsigned long long result[3])
{
    result[0] = result[1] = result[2] = 0;
    if (n == 0)
        return cudaSuccess;
    struct verify_args a = {p, n, 0, 0, 0, 0.f, bits};
    return counted(result, 3, launch_count_not, &a);
}

extern "C" cudaError_t mw_dev_gather(const float *p, const size_t *idx, size_t m, float *out,
                                     cudaStream_t s)
{
    if (m == 0)
        return cudaSuccess;
    mw_gather_kernel<<<blocks_for(m), kThreads, 0, s>>>(p, idx, m, out);
    return cudaGetLastError();
}

extern "C" cudaError_t mw_dev_marker(unsigned k, cudaStream_t s)
{
    mw_marker<<<k, 1, 0, s>>>();
    return cudaGetLastError();
}

extern "C" cudaError_t mw_dev_empty(cudaStream_t s)
{
    mw_empty<<<1, 1, 0, s>>>();
    return cudaGetLastError();
}
