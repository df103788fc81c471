// time.cu: exercise 05.4's reference (solutions/05-attention/04_flash_wgmma.cu)
// timed through its launcher, attention_flash_wgmma, with whichever kernel the
// environment variable MW_FLASH_WGMMA picks (the reference's header lists
// them; unset: auto): B = 4, H = 16, N from argv (default 4096), d = 64 and 128, full
// and causal. Before each run a 256 MB memset flushes the L2; one warm-up,
// then the median of 9. FLOPs are 4 B H N^2 d, halved when causal, as in
// make bench. Each line ends with an FNV hash of O's bits and its count of
// non-finite elements: kernels that do the same arithmetic in the same order
// must have the same hash (ablation.sh checks it).
// Build and run: bash instructor/dev/05-wgmma/ablation.sh (on an sm_90 GPU).
#include "attention.h"
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); return 1; } } while (0)
__global__ void fill(__nv_bfloat16 *p, size_t n, unsigned seed)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) {
        unsigned h = (unsigned)i * 2654435761u ^ seed; h ^= h >> 15; h *= 2246822519u; h ^= h >> 13;
        p[i] = __float2bfloat16((float)(h & 0xffffff) / 8388608.f - 1.f);
    }
}
int main(int argc, char **argv)
{
    const int B = 4, H = 16, N = argc > 1 ? atoi(argv[1]) : 4096, REPS = 9;
    const char *v = getenv("MW_FLASH_WGMMA");
    const size_t maxel = (size_t)B * H * N * 128;
    __nv_bfloat16 *Q, *K, *V, *O; float *L; char *flush;
    CK(cudaMalloc(&Q, maxel * 2)); CK(cudaMalloc(&K, maxel * 2)); CK(cudaMalloc(&V, maxel * 2));
    CK(cudaMalloc(&O, maxel * 2)); CK(cudaMalloc(&L, (size_t)B * H * N * 4));
    CK(cudaMalloc(&flush, 256 << 20));
    cudaEvent_t a, b; CK(cudaEventCreate(&a)); CK(cudaEventCreate(&b));
    std::vector<unsigned short> out(maxel);
    for (int d : {64, 128}) {
        const size_t el = (size_t)B * H * N * d;
        fill<<<1024, 256>>>(Q, el, 1u); fill<<<1024, 256>>>(K, el, 2u); fill<<<1024, 256>>>(V, el, 3u);
        CK(cudaDeviceSynchronize());
        for (int causal = 0; causal < 2; causal++) {
            std::vector<float> ms;
            for (int r = 0; r < REPS + 1; r++) {
                CK(cudaMemsetAsync(flush, r, 256 << 20));
                CK(cudaEventRecord(a));
                CK(attention_flash_wgmma(Q, K, V, O, L, B, H, N, d, 1.f / sqrtf((float)d), causal, 0));
                CK(cudaEventRecord(b));
                CK(cudaEventSynchronize(b));
                float t; CK(cudaEventElapsedTime(&t, a, b));
                if (r) ms.push_back(t);
            }
            std::sort(ms.begin(), ms.end());
            const double t = ms[ms.size() / 2];
            const double flop = 4.0 * B * H * (double)N * N * d / (causal ? 2 : 1);
            CK(cudaMemcpy(out.data(), O, el * 2, cudaMemcpyDeviceToHost));
            unsigned long long hash = 1469598103934665603ull; size_t bad = 0;
            for (size_t i = 0; i < el; i++) {
                hash = (hash ^ out[i]) * 1099511628211ull;
                bad += (out[i] & 0x7f80) == 0x7f80;
            }
            printf("time %-8s N=%-5d d=%-3d %-6s %8.3f ms %6.1f TFLOP/s hash %016llx nonfinite %zu\n",
                   v && *v ? v : "auto", N, d, causal ? "causal" : "full", t, flop / t / 1e9, hash, bad);
            fflush(stdout);
        }
    }
    return 0;
}
