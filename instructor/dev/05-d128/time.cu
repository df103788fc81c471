/* time.cu: times 05.2's attention_flash at d = 128, outside the grader, on
 * either of its paths on an H100 or H200: the FFMA kernel or the tensor-core
 * (3xTF32) one. For profile.sh, which runs it under Nsight Compute.
 *
 *   time LIB tf32|ffma N causal [runs]
 *
 * LIB is build/solutions/05-attention/02_flash.so; tf32 leaves
 * MW_FLASH_TF32X3 unset (the path is on where the library was built for
 * sm_90a), ffma sets it to "never". B = 4, H = 16, inputs uniform in
 * [-1, 1); one untimed call, then `runs` (20) timed ones, each after a
 * 256 MB write that flushes the L2; prints the median in ms and TFLOP/s at
 * 4 B H N^2 d, halved when causal. */
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef cudaError_t (*attention_fn)(const float *, const float *, const float *, float *, float *,
                                    int, int, int, int, float, int, cudaStream_t);

#define CHECK(call)                                                                            \
    do {                                                                                       \
        cudaError_t err_ = (call);                                                             \
        if (err_ != cudaSuccess) {                                                             \
            fprintf(stderr, "time: %s: %s\n", #call, cudaGetErrorString(err_));                \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

/* Uniform in [-1, 1) from a hash of the index: the same inputs every run. */
__global__ void fill(float *p, size_t n, unsigned seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x) {
        unsigned x = (unsigned)i * 2654435761u ^ seed;
        x ^= x >> 15;
        x *= 2246822519u;
        x ^= x >> 13;
        p[i] = (x & 0xffffff) / 16777216.0f * 2.0f - 1.0f;
    }
}

static int by_value(const void *a, const void *b)
{
    const float x = *(const float *)a, y = *(const float *)b;
    return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
    if (argc < 5 || (strcmp(argv[2], "tf32") != 0 && strcmp(argv[2], "ffma") != 0)) {
        fprintf(stderr, "usage: time LIB tf32|ffma N causal [runs]\n");
        return 2;
    }
    if (strcmp(argv[2], "ffma") == 0)
        setenv("MW_FLASH_TF32X3", "never", 1);
    else
        unsetenv("MW_FLASH_TF32X3");
    const int N = atoi(argv[3]), causal = atoi(argv[4]), B = 4, H = 16, d = 128;
    int runs = argc > 5 ? atoi(argv[5]) : 20;
    if (runs < 1 || runs > 100 || N < 1) {
        fprintf(stderr, "time: N >= 1 and 1 <= runs <= 100\n");
        return 2;
    }
    void *lib = dlopen(argv[1], RTLD_NOW);
    if (!lib) {
        fprintf(stderr, "time: %s\n", dlerror());
        return 1;
    }
    attention_fn attention = (attention_fn)dlsym(lib, "attention_flash");
    if (!attention) {
        fprintf(stderr, "time: %s has no attention_flash\n", argv[1]);
        return 1;
    }
    const size_t n = (size_t)B * H * N * d, flush_bytes = (size_t)256 << 20;
    float *Q, *K, *V, *O, *L;
    char *flush;
    CHECK(cudaMalloc(&Q, n * sizeof(float)));
    CHECK(cudaMalloc(&K, n * sizeof(float)));
    CHECK(cudaMalloc(&V, n * sizeof(float)));
    CHECK(cudaMalloc(&O, n * sizeof(float)));
    CHECK(cudaMalloc(&L, (size_t)B * H * N * sizeof(float)));
    CHECK(cudaMalloc(&flush, flush_bytes));
    fill<<<1024, 256>>>(Q, n, 1);
    fill<<<1024, 256>>>(K, n, 2);
    fill<<<1024, 256>>>(V, n, 3);
    CHECK(cudaGetLastError());
    const float scale = 1.0f / sqrtf((float)d);
    CHECK(attention(Q, K, V, O, L, B, H, N, d, scale, causal, 0));
    CHECK(cudaDeviceSynchronize());
    cudaEvent_t start, stop;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    float ms[100];
    for (int r = 0; r < runs; r++) {
        CHECK(cudaMemsetAsync(flush, r, flush_bytes, 0));
        CHECK(cudaEventRecord(start, 0));
        CHECK(attention(Q, K, V, O, L, B, H, N, d, scale, causal, 0));
        CHECK(cudaEventRecord(stop, 0));
        CHECK(cudaEventSynchronize(stop));
        CHECK(cudaEventElapsedTime(&ms[r], start, stop));
    }
    qsort(ms, runs, sizeof ms[0], by_value);
    const double median = ms[runs / 2],
                 flop = 4.0 * B * H * (double)N * N * d * (causal ? 0.5 : 1.0);
    printf("%s N=%d causal=%d: %.3f ms %.1f TFLOP/s\n", argv[2], N, causal, median,
           flop / median / 1e9);
    return 0;
}
