/* A simple unfused attention as a student might write it: a scores kernel
 * (one thread per element of S), a row softmax (one block per row, P
 * written over S, and L), and a P V kernel (one thread per element of O).
 * The known-wrongs of 01_unfused plant their mistakes in it: each folder's
 * `one-change` names this file as its base and replaces one hunk
 * (tests/lib.sh, wrong_source). */
#include "attention.h"

#include <math.h>

#define THREADS 256

/* S[bh][i][j] = scale * Q_i . K_j; -inf where causal and j > i. */
__global__ void scores(const float *Q, const float *K, float *S, size_t total, int N, int d,
                       float scale, int causal)
{
    const size_t e = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= total)
        return;
    const size_t j = e % N, i = e / N % N;
    const size_t bh = e / N / N;
    float s = -INFINITY;
    if (!causal || j <= i) {
        const float *q = Q + (bh * N + i) * d, *k = K + (bh * N + j) * d;
        float acc = 0.f;
        for (int c = 0; c < d; c++)
            acc += q[c] * k[c];
        s = scale * acc;
    }
    S[(bh * N + i) * N + j] = s;
}

/* One block per row of S: P = exp(S - max) / sum over S, L = max + log(sum). */
__global__ void softmax_rows(float *S, float *L, int N)
{
    __shared__ float part[THREADS];
    float *s = S + (size_t)blockIdx.x * N;
    float m = -INFINITY;
    for (int j = threadIdx.x; j < N; j += THREADS)
        m = fmaxf(m, s[j]);
    part[threadIdx.x] = m;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            part[threadIdx.x] = fmaxf(part[threadIdx.x], part[threadIdx.x + half]);
        __syncthreads();
    }
    m = part[0];
    __syncthreads();
    float l = 0.f;
    for (int j = threadIdx.x; j < N; j += THREADS)
        l += expf(s[j] - m);
    part[threadIdx.x] = l;
    __syncthreads();
    for (int half = THREADS / 2; half > 0; half /= 2) {
        if (threadIdx.x < half)
            part[threadIdx.x] += part[threadIdx.x + half];
        __syncthreads();
    }
    l = part[0];
    for (int j = threadIdx.x; j < N; j += THREADS)
        s[j] = expf(s[j] - m) / l;
    if (threadIdx.x == 0)
        L[blockIdx.x] = m + logf(l);
}

/* O[bh][i][k] = sum over the keys row i attends of P[bh][i][j] V[bh][j][k]. */
__global__ void pv(const float *P, const float *V, float *O, size_t total, int N, int d,
                   int causal)
{
    const size_t e = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
    if (e >= total)
        return;
    const int k = (int)(e % d);
    const size_t row = e / d; /* bh * N + i */
    const int i = (int)(row % N), last = causal ? i : N - 1;
    const float *p = P + row * N, *v = V + (row - i) * d + k;
    float acc = 0.f;
    for (int j = 0; j <= last; j++)
        acc += p[j] * v[(size_t)j * d];
    O[e] = acc;
}

cudaError_t attention_unfused(const float *Q, const float *K, const float *V, float *O,
                              float *L, float *S, int B, int H, int N, int d, float scale,
                              int causal, cudaStream_t stream)
{
    if (B < 1 || H < 1 || N < 1 || d < 1 || d > 128)
        return cudaErrorInvalidValue;
    const size_t rows = (size_t)B * H * N, s_total = rows * N, o_total = rows * d;
    if (rows > 0x7fffffffu || (s_total + THREADS - 1) / THREADS > 0x7fffffffu)
        return cudaErrorInvalidValue;
    scores<<<(unsigned)((s_total + THREADS - 1) / THREADS), THREADS, 0, stream>>>(
        Q, K, S, s_total, N, d, scale, causal);
    softmax_rows<<<(unsigned)rows, THREADS, 0, stream>>>(S, L, N);
    pv<<<(unsigned)((o_total + THREADS - 1) / THREADS), THREADS, 0, stream>>>(S, V, O, o_total,
                                                                             N, d, causal);
    return cudaGetLastError();
}
