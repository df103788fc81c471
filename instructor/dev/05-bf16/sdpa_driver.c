/* sdpa_driver.c: checks and times cuDNN's fused bf16 attention forward
 * (cudnn_sdpa.c, the cuDNN backend API wrapper).
 *
 *   make -f instructor/dev/05-bf16/sdpa.mk && instructor/dev/05-bf16/build/sdpa_driver [--check-only]
 *
 * 1. Correctness, B=1 H=2 N=129 d=64 (N odd on purpose: not a multiple of
 *    any tile size), random bf16 inputs made on the host: O and L against a
 *    CPU reference in double computed from the same bf16-rounded inputs,
 *    non-causal and causal, with L and with L = NULL (the inference graph),
 *    and once more with another scale on an already-built plan (scale is a
 *    by-value input, not baked into the plan). Tolerances: 2e-2 absolute on
 *    O (bf16 output and bf16 P inside the kernel), 1e-2 on L (FP32).
 * 2. Timing, B=4 H=16 N=4096, d = 64 and 128, causal 0 and 1: 20 runs
 *    timed with CUDA events after a warm-up, printed as ms per call and
 *    TFLOP/s = 4 B H N^2 d / t (two matmuls of 2 N^2 d flops per head),
 *    halved for causal (half the score matrix is skipped).
 *
 * Exit status: 0 all checks pass, 1 a check fails or a CUDA call fails,
 * 77 cuDNN's fused attention is not available here (the reason is printed).
 */
#include "cudnn_sdpa.h"

#include <cuda_runtime.h>

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CUDA(call)                                                                                   \
    do {                                                                                             \
        cudaError_t e_ = (call);                                                                     \
        if (e_ != cudaSuccess) {                                                                     \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_));  \
            exit(1);                                                                                 \
        }                                                                                            \
    } while (0)

/* ---- bf16 on the host: the top 16 bits of an IEEE float ---------------------- */

static uint16_t float_to_bf16(float f) {
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    if ((u & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((u >> 16) | 0x40u); /* keep NaN a NaN */
    u += 0x7fffu + ((u >> 16) & 1u); /* round to nearest, ties to even */
    return (uint16_t)(u >> 16);
}

static float bf16_to_float(uint16_t h) {
    uint32_t u = (uint32_t)h << 16;
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static float uniform(float lo, float hi) { /* xorshift64*, top 24 bits */
    rng_state ^= rng_state >> 12, rng_state ^= rng_state << 25, rng_state ^= rng_state >> 27;
    uint32_t r = (uint32_t)((rng_state * 0x2545f4914f6cdd1dull) >> 40);
    return lo + (hi - lo) * (float)r / 16777216.0f;
}

static void fill_bf16(uint16_t *h, size_t n, float lo, float hi) {
    for (size_t i = 0; i < n; ++i) h[i] = float_to_bf16(uniform(lo, hi));
}

/* ---- CPU reference, double, from the bf16 values ------------------------------- */

static void reference(const uint16_t *q, const uint16_t *k, const uint16_t *v, int BH, int N, int d, double scale,
                      int causal, double *o, double *l) {
    double *p = malloc((size_t)N * sizeof *p);
    if (!p) exit(1);
    for (int bh = 0; bh < BH; ++bh)
        for (int i = 0; i < N; ++i) {
            const uint16_t *qi = q + ((size_t)bh * N + i) * d;
            int keys = causal ? i + 1 : N; /* causal: key j <= query i */
            double m = -INFINITY;
            for (int j = 0; j < keys; ++j) {
                const uint16_t *kj = k + ((size_t)bh * N + j) * d;
                double dot = 0;
                for (int c = 0; c < d; ++c) dot += (double)bf16_to_float(qi[c]) * bf16_to_float(kj[c]);
                p[j] = scale * dot;
                if (p[j] > m) m = p[j];
            }
            double sum = 0;
            for (int j = 0; j < keys; ++j) sum += p[j] = exp(p[j] - m);
            for (int c = 0; c < d; ++c) {
                double acc = 0;
                for (int j = 0; j < keys; ++j) acc += p[j] * bf16_to_float(v[((size_t)bh * N + j) * d + c]);
                o[((size_t)bh * N + i) * d + c] = acc / sum;
            }
            l[(size_t)bh * N + i] = m + log(sum);
        }
    free(p);
}

/* One correctness case; 1 when it passes. */
static int check(mw05_sdpa *s, int causal, int with_l, float scale) {
    const int B = 1, H = 2, N = 129, d = 64;
    const size_t n = (size_t)B * H * N * d, nl = (size_t)B * H * N;
    uint16_t *hq = malloc(n * 2), *hk = malloc(n * 2), *hv = malloc(n * 2), *ho = malloc(n * 2);
    float *hl = malloc(nl * sizeof *hl);
    double *ro = malloc(n * sizeof *ro), *rl = malloc(nl * sizeof *rl);
    if (!hq || !hk || !hv || !ho || !hl || !ro || !rl) exit(1);
    /* Q, K in [-2, 2]: scores of a few units, a softmax that is neither flat nor one-hot. */
    fill_bf16(hq, n, -2.f, 2.f);
    fill_bf16(hk, n, -2.f, 2.f);
    fill_bf16(hv, n, -1.f, 1.f);

    void *q, *k, *v, *o;
    float *l = NULL;
    CUDA(cudaMalloc(&q, n * 2));
    CUDA(cudaMalloc(&k, n * 2));
    CUDA(cudaMalloc(&v, n * 2));
    CUDA(cudaMalloc(&o, n * 2));
    CUDA(cudaMalloc((void **)&l, nl * sizeof *l));
    CUDA(cudaMemcpy(q, hq, n * 2, cudaMemcpyHostToDevice));
    CUDA(cudaMemcpy(k, hk, n * 2, cudaMemcpyHostToDevice));
    CUDA(cudaMemcpy(v, hv, n * 2, cudaMemcpyHostToDevice));
    CUDA(cudaMemset(o, 0xff, n * 2)); /* NaNs: an untouched output cannot pass */
    CUDA(cudaMemset(l, 0xff, nl * sizeof *l));

    int pass = 0;
    cudaError_t err = mw05_sdpa_run(s, q, k, v, o, with_l ? l : NULL, B, H, N, d, scale, causal, 0);
    if (err == cudaSuccess) err = cudaDeviceSynchronize();
    if (err != cudaSuccess) {
        printf("check N=%d d=%d causal=%d L=%s scale=%.4f: run failed: %s [%s]  FAIL\n", N, d, causal,
               with_l ? "yes" : "NULL", scale, cudaGetErrorString(err), mw05_sdpa_engine_name(s));
    } else {
        CUDA(cudaMemcpy(ho, o, n * 2, cudaMemcpyDeviceToHost));
        CUDA(cudaMemcpy(hl, l, nl * sizeof *hl, cudaMemcpyDeviceToHost));
        reference(hq, hk, hv, B * H, N, d, scale, causal, ro, rl);
        double eo = 0, el = 0, omax = 0;
        for (size_t i = 0; i < n; ++i) {
            double e = fabs((double)bf16_to_float(ho[i]) - ro[i]);
            if (!(e <= eo)) eo = e; /* catches NaN too */
            if (fabs(ro[i]) > omax) omax = fabs(ro[i]);
        }
        if (with_l)
            for (size_t i = 0; i < nl; ++i) {
                double e = fabs((double)hl[i] - rl[i]);
                if (!(e <= el)) el = e;
            }
        pass = eo <= 2e-2 && (!with_l || el <= 1e-2);
        printf("check N=%d d=%d causal=%d L=%s scale=%.4f: max|dO| %.2e (max|O| %.2f), max|dL| %s%.2e  %s\n", N, d,
               causal, with_l ? "yes" : "NULL", scale, eo, omax, with_l ? "" : "(not asked) ", el,
               pass ? "PASS" : "FAIL");
    }
    CUDA(cudaFree(q));
    CUDA(cudaFree(k));
    CUDA(cudaFree(v));
    CUDA(cudaFree(o));
    CUDA(cudaFree(l));
    free(hq), free(hk), free(hv), free(ho), free(hl), free(ro), free(rl);
    return pass;
}

/* ---- timing ------------------------------------------------------------------------ */

static int bench(mw05_sdpa *s, void *q, void *k, void *v, void *o, float *l, int d, int causal, cudaStream_t st) {
    const int B = 4, H = 16, N = 4096, iters = 20;
    const float scale = 1.0f / sqrtf((float)d);
    /* the first call builds and compiles the plan; then a short warm-up */
    for (int i = 0; i < 4; ++i) {
        cudaError_t e = mw05_sdpa_run(s, q, k, v, o, l, B, H, N, d, scale, causal, st);
        if (e != cudaSuccess) {
            printf("bench B=%d H=%d N=%d d=%d causal=%d: %s [%s]\n", B, H, N, d, causal, cudaGetErrorString(e),
                   mw05_sdpa_engine_name(s));
            return 0;
        }
        if (i == 0) CUDA(cudaStreamSynchronize(st));
    }
    cudaEvent_t t0, t1;
    CUDA(cudaEventCreate(&t0));
    CUDA(cudaEventCreate(&t1));
    CUDA(cudaEventRecord(t0, st));
    for (int i = 0; i < iters; ++i) CUDA(mw05_sdpa_run(s, q, k, v, o, l, B, H, N, d, scale, causal, st));
    CUDA(cudaEventRecord(t1, st));
    CUDA(cudaEventSynchronize(t1));
    float ms = 0;
    CUDA(cudaEventElapsedTime(&ms, t0, t1));
    CUDA(cudaEventDestroy(t0));
    CUDA(cudaEventDestroy(t1));
    double t = ms / 1e3 / iters;
    double flops = 4.0 * B * H * (double)N * N * d * (causal ? 0.5 : 1.0);
    printf("bench B=%d H=%d N=%d d=%3d causal=%d: %8.3f ms  %7.1f TFLOP/s  [%s]\n", B, H, N, d, causal, t * 1e3,
           flops / t / 1e12, mw05_sdpa_engine_name(s));
    return 1;
}

int main(int argc, char **argv) {
    int check_only = argc > 1 && strcmp(argv[1], "--check-only") == 0;
    char why[512];
    mw05_sdpa *s = NULL;
    if (mw05_sdpa_create(&s, why, sizeof why) != 0) {
        printf("cuDNN fused attention not available: %s\n", why);
        return 77;
    }
    printf("created: %s\n", mw05_sdpa_engine_name(s));

    int ok = 1;
    const float scale = 1.0f / sqrtf(64.0f);
    ok &= check(s, 0, 1, scale);
    ok &= check(s, 1, 1, scale);
    ok &= check(s, 0, 0, scale);
    ok &= check(s, 1, 0, scale);
    ok &= check(s, 0, 1, 0.3f); /* same plan as the first check, another scale */

    if (!check_only) {
        const size_t n = (size_t)4 * 16 * 4096 * 128, nl = (size_t)4 * 16 * 4096;
        uint16_t *h = malloc(n * 2);
        if (!h) return 1;
        void *q, *k, *v, *o;
        float *l;
        CUDA(cudaMalloc(&q, n * 2));
        CUDA(cudaMalloc(&k, n * 2));
        CUDA(cudaMalloc(&v, n * 2));
        CUDA(cudaMalloc(&o, n * 2));
        CUDA(cudaMalloc((void **)&l, nl * sizeof *l));
        fill_bf16(h, n, -2.f, 2.f);
        CUDA(cudaMemcpy(q, h, n * 2, cudaMemcpyHostToDevice));
        fill_bf16(h, n, -2.f, 2.f);
        CUDA(cudaMemcpy(k, h, n * 2, cudaMemcpyHostToDevice));
        fill_bf16(h, n, -1.f, 1.f);
        CUDA(cudaMemcpy(v, h, n * 2, cudaMemcpyHostToDevice));
        free(h);
        cudaStream_t st;
        CUDA(cudaStreamCreate(&st));
        static const int ds[2] = {64, 128};
        for (int i = 0; i < 2; ++i)
            for (int causal = 0; causal <= 1; ++causal) ok &= bench(s, q, k, v, o, l, ds[i], causal, st);
        CUDA(cudaStreamSynchronize(st));
        CUDA(cudaStreamDestroy(st));
        CUDA(cudaFree(q));
        CUDA(cudaFree(k));
        CUDA(cudaFree(v));
        CUDA(cudaFree(o));
        CUDA(cudaFree(l));
    }
    mw05_sdpa_destroy(s);
    printf("%s\n", ok ? "all checks passed" : "SOME CHECKS FAILED");
    return ok ? 0 : 1;
}
