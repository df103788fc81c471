/* A simple flash attention as a student might write it: one block
 * of BR threads per query tile of one (b, h), one thread per query row;
 * K_j, V_j tiles of BC rows in shared memory; online softmax with m_i, l_i,
 * O_i in registers. The known-wrongs of 02_flash plant their mistakes in
 * it: each folder's `one-change` names this file as its base and replaces
 * one hunk (tests/lib.sh, wrong_source), so a student-style kernel is kept
 * once and each mistake reads as the few lines it changes. */
#include "attention.h"

#include <math.h>

#define BR 64 /* query rows per block, one per thread */
#define BC 32 /* keys per K/V tile */

template <int D>
__global__ void flash(const float *Q, const float *K, const float *V, float *O, float *L, int N,
                      int tiles, float scale, int causal)
{
    __shared__ float Ks[BC][D], Vs[BC][D];
    const size_t bh = blockIdx.x / tiles;
    const int q0 = (int)(blockIdx.x % tiles) * BR, row = q0 + threadIdx.x;
    const size_t base = bh * N * D;

    float q[D], o[D], m = -INFINITY, l = 0.f;
#pragma unroll
    for (int k = 0; k < D; k++) {
        q[k] = row < N ? Q[base + (size_t)row * D + k] : 0.f;
        o[k] = 0.f;
    }
    const int kv_end = causal ? min(N, q0 + BR) : N; /* keys any row here attends */
    for (int j0 = 0; j0 < kv_end; j0 += BC) {
        for (int e = threadIdx.x; e < BC * D; e += BR) {
            const int c = e / D, k = e % D;
            if (j0 + c < N) {
                Ks[c][k] = K[base + (size_t)(j0 + c) * D + k];
                Vs[c][k] = V[base + (size_t)(j0 + c) * D + k];
            }
        }
        __syncthreads();
        if (row < N) {
            /* keys j0 .. j0 + kend - 1 are the ones this row attends here */
            int kend = min(BC, N - j0);
            if (causal)
                kend = min(kend, row - j0 + 1);
            float s[BC], mt = -INFINITY;
            for (int c = 0; c < kend; c++) {
                float acc = 0.f;
#pragma unroll
                for (int k = 0; k < D; k++)
                    acc += q[k] * Ks[c][k];
                s[c] = scale * acc;
                mt = fmaxf(mt, s[c]);
            }
            const float m_new = fmaxf(m, mt);
            const float alpha = expf(m - m_new);
            l *= alpha;
#pragma unroll
            for (int k = 0; k < D; k++)
                o[k] *= alpha;
            for (int c = 0; c < kend; c++) {
                const float p = expf(s[c] - m_new);
                l += p;
#pragma unroll
                for (int k = 0; k < D; k++)
                    o[k] += p * Vs[c][k];
            }
            m = m_new;
        }
        __syncthreads();
    }
    if (row < N) {
#pragma unroll
        for (int k = 0; k < D; k++)
            O[base + (size_t)row * D + k] = o[k] / l;
        L[bh * N + row] = m + logf(l);
    }
}

cudaError_t attention_flash(const float *Q, const float *K, const float *V, float *O, float *L,
                            int B, int H, int N, int d, float scale, int causal,
                            cudaStream_t stream)
{
    if (B < 1 || H < 1 || N < 1)
        return cudaErrorInvalidValue;
    const int tiles = (N + BR - 1) / BR;
    const size_t blocks = (size_t)B * H * tiles;
    if (blocks > 0x7fffffffu)
        return cudaErrorInvalidValue;
    if (d == 32)
        flash<32><<<(unsigned)blocks, BR, 0, stream>>>(Q, K, V, O, L, N, tiles, scale, causal);
    else if (d == 64)
        flash<64><<<(unsigned)blocks, BR, 0, stream>>>(Q, K, V, O, L, N, tiles, scale, causal);
    else if (d == 128)
        flash<128><<<(unsigned)blocks, BR, 0, stream>>>(Q, K, V, O, L, N, tiles, scale, causal);
    else
        return cudaErrorInvalidValue;
    return cudaGetLastError();
}
