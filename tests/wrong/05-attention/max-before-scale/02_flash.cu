/* Known wrong: the row max of a tile is taken over the unscaled dot products
 * Q_i.K_j and scaled once (one multiply a tile, not one a key). For a scale
 * >= 0 that is the max of the scaled scores, bit for bit (rounding is
 * monotone); for a negative one it is the smallest score, and
 * exp(S_ij - m_i) overflows once a tile's scores span more than 88.
 *
 * A simple flash attention: one block of BR threads per query tile of one
 * (b, h), one thread per query row; K_j, V_j tiles of BC rows in shared
 * memory; online softmax with m_i, l_i, O_i in registers. */
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
            float s[BC], amax = -INFINITY; /* the largest Q_i.K_j, unscaled */
            for (int c = 0; c < kend; c++) {
                float acc = 0.f;
#pragma unroll
                for (int k = 0; k < D; k++)
                    acc += q[k] * Ks[c][k];
                s[c] = scale * acc;
                amax = fmaxf(amax, acc);
            }
            /* a tile with no key of this row (causal) leaves m as it is */
            const float m_new = kend > 0 ? fmaxf(m, scale * amax) : m;
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
