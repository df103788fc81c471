// time.cu: exercise 05.4's reference (solutions/05-attention/04_flash_wgmma.cu)
// timed through its launcher, attention_flash_wgmma, with whichever kernel the
// environment variable MW_FLASH_WGMMA picks (the reference's header lists
// them; unset: auto): B = 4, H = 16, N from argv (default 4096), d = 64 and 128, full
// and causal. Before each run a 256 MB memset flushes the L2; one warm-up,
// then the median of 9. FLOPs are 4 B H N^2 d, halved when causal, as in
// make bench. Each line gives an FNV hash of O's bits and its count of
// non-finite elements: kernels that do the same arithmetic in the same order
// must have the same hash (ablation.sh checks it). MW_FLASH_WGMMA=cudnn
// times cuDNN's fused attention (chapter 05's cudnn_sdpa.c, O and L written,
// as make bench's row) in the same way, so that the reference and the
// library share rounds; built without cuDNN it exits 77. The launch is
// queued behind the flush, so its host time (printed, the median of the
// host clock around the call) hides under the flush; MW_TIME_IDLE=1 waits
// for the flush first, as make bench does, and the time then includes it.
// Build and run: bash instructor/dev/05-wgmma/ablation.sh (on an sm_90 GPU).
#include "attention.h"
#include "cudnn_sdpa.h"
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
    const char *v = getenv("MW_FLASH_WGMMA"), *idle = getenv("MW_TIME_IDLE");
    const bool start_idle = idle && strcmp(idle, "1") == 0;
    mw05_sdpa *sdpa = NULL; /* the library, for MW_FLASH_WGMMA=cudnn */
    if (v && strcmp(v, "cudnn") == 0) {
        char why[512];
        if (mw05_sdpa_create(&sdpa, why, sizeof why) != 0) {
            printf("time.cu: cuDNN's fused attention is unavailable: %s\n", why);
            return 77;
        }
    }
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
            std::vector<float> ms, host_us;
            for (int r = 0; r < REPS + 1; r++) {
                CK(cudaMemsetAsync(flush, r, 256 << 20));
                if (start_idle)
                    CK(cudaDeviceSynchronize());
                CK(cudaEventRecord(a));
                const float scale = 1.f / sqrtf((float)d);
                const auto h0 = std::chrono::steady_clock::now();
                /* r = 0, the warm-up, also builds cuDNN's plan for the shape */
                CK(sdpa ? mw05_sdpa_run(sdpa, Q, K, V, O, L, B, H, N, d, scale, causal, 0)
                        : attention_flash_wgmma(Q, K, V, O, L, B, H, N, d, scale, causal, 0));
                const std::chrono::duration<float, std::micro> h =
                    std::chrono::steady_clock::now() - h0;
                CK(cudaEventRecord(b));
                CK(cudaEventSynchronize(b));
                float t; CK(cudaEventElapsedTime(&t, a, b));
                if (r) {
                    ms.push_back(t);
                    host_us.push_back(h.count());
                }
            }
            std::sort(ms.begin(), ms.end());
            std::sort(host_us.begin(), host_us.end());
            const double t = ms[ms.size() / 2];
            const double flop = 4.0 * B * H * (double)N * N * d / (causal ? 2 : 1);
            CK(cudaMemcpy(out.data(), O, el * 2, cudaMemcpyDeviceToHost));
            unsigned long long hash = 1469598103934665603ull; size_t bad = 0;
            for (size_t i = 0; i < el; i++) {
                hash = (hash ^ out[i]) * 1099511628211ull;
                bad += (out[i] & 0x7f80) == 0x7f80;
            }
            printf("time %-8s N=%-5d d=%-3d %-6s %8.3f ms %6.1f TFLOP/s hash %016llx nonfinite %zu "
                   "host %.1f us\n",
                   v && *v ? v : "auto", N, d, causal ? "causal" : "full", t, flop / t / 1e9, hash, bad,
                   host_us[host_us.size() / 2]);
            fflush(stdout);
        }
    }
    mw05_sdpa_destroy(sdpa);
    return 0;
}
