/* mask.cu: the library compositions' own kernels (library.c): the causal
 * mask of both, and the bf16 composition's in-place rounding of P to bf16.
 *
 * The causal mask is what a user writes as
 * scores.masked_fill(j > i, -inf): S[i][j] = -inf for every key
 * j > i, whatever S held there (NaN included), over B*H row-major N x N
 * score matrices laid end to end. Writes only the masked upper triangle
 * (about 2 N^2 bytes per head) and reads nothing: a masked_fill that reads
 * a boolean mask and rewrites every element moves more.
 *
 * One warp per row, grid-stride over the B*H*N rows: a warp's 32 lanes
 * store 32 consecutive floats, so short and long rows both coalesce. The
 * score matrix passes 2^31 elements at N = 16384 with a few heads: offsets
 * are size_t. */
#include "library.h"

#include <cuda_bf16.h>
#include <math.h>
#include <string.h>

static const unsigned kThreads = 256;              /* 8 warps, 8 rows per pass */
static const unsigned kWarps = kThreads / 32;
static const size_t kMaxBlocks = (size_t)1 << 16;  /* then grid-stride */

static __global__ void causal_mask_kernel(float *S, size_t rows, unsigned N)
{
    const unsigned lane = threadIdx.x % 32;
    const size_t warps = (size_t)gridDim.x * (blockDim.x / 32);
    for (size_t r = (size_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; r < rows;
         r += warps) {
        const size_t i = r % N; /* the query: row i of its head */
        float *row = S + r * N;
        for (size_t j = i + 1 + lane; j < N; j += 32)
            row[j] = -INFINITY;
    }
}

extern "C" cudaError_t mw05_causal_mask(float *S, size_t heads, int N, cudaStream_t stream)
{
    if (N < 1)
        return cudaErrorInvalidValue;
    const size_t rows = heads * (size_t)N;
    if (N == 1 || rows == 0) /* nothing above the diagonal */
        return cudaGetLastError();
    size_t blocks = (rows + kWarps - 1) / kWarps;
    if (blocks > kMaxBlocks)
        blocks = kMaxBlocks;
    causal_mask_kernel<<<(unsigned)blocks, kThreads, 0, stream>>>(S, rows, (unsigned)N);
    return cudaGetLastError();
}

/* ---- P to bf16, in place ------------------------------------------------------
 *
 * What a user writes as P.to(bfloat16) before P V, but without a second
 * N x N buffer: the workspace holds B*H*N*N floats, 69 GB at B*H = 64 and
 * N = 16384 (the bench's largest size that fits an 80 GB GPU), and a bf16
 * copy would add 34 GB more, past the GPU's memory. Row r's N floats are
 * bytes [4N r, 4N (r + 1)) of S; its N bf16 go to the first 2N of those
 * bytes, bf16 j over the bytes of float j/2 (rounded down). So writing
 * element j destroys a float that may not be read yet: float j/2 belongs to
 * element j/2 <= j, which another lane converts (j = 6 lands on float 3,
 * j = 7 on the other half of it). No row crosses into another's bytes, so
 * rows are independent; inside a row the order matters:
 *
 * One warp per row, the row in chunks of C elements from its start; each
 * lane reads its elements of the chunk into registers, __syncwarp, then
 * writes them. Chunk [a, a + C) writes floats [a/2, (a + C)/2): below
 * a + C, so never a float of a later chunk, which is still unread; and the
 * floats it overwrites were read in this chunk or an earlier one, before
 * this chunk's __syncwarp, which orders the warp's reads before its writes
 * (and an earlier chunk's reads before it too). In the first chunk the
 * writes land on floats [0, C/2) of the chunk itself; in a later one on
 * floats an earlier chunk read, maybe in another lane, which independent
 * thread scheduling lets run behind: both wait for the barrier. A row of
 * any length (N = 32768 is 128 KiB of floats, more than a block's default
 * 48 KiB of shared memory) streams through 32 lanes' registers, 1 KiB a
 * chunk, and the loads and stores stay coalesced as in the mask above.
 *
 * Vectors when N is a multiple of 4: every row then starts 16-byte aligned
 * (S is 256-byte aligned, a row is 4N bytes) and its bf16 8-byte aligned,
 * so a lane reads a float4 and writes 4 bf16 in one 8-byte store; chunks of
 * 32 lanes x 2 float4 = 256 elements. Otherwise one element at a time,
 * chunks of 64. Rounding is to nearest even (__float2bfloat16_rn, as the
 * bf16 flash kernel rounds P), and a NaN stays a NaN. */

template <int VEC> struct vector_of;
template <> struct vector_of<1> { typedef float type; };
template <> struct vector_of<4> { typedef float4 type; };

static const unsigned kLoads = 2; /* vectors a lane holds per chunk */

static __device__ void store_bf16(__nv_bfloat16 *out, float x)
{
    *out = __float2bfloat16_rn(x);
}

static __device__ void store_bf16(__nv_bfloat16 *out, float4 x)
{
    const __nv_bfloat162 lo = __floats2bfloat162_rn(x.x, x.y), hi = __floats2bfloat162_rn(x.z, x.w);
    uint2 bits; /* one 8-byte store: out is 8-byte aligned (N % 4 == 0) */
    memcpy(&bits.x, &lo, sizeof lo);
    memcpy(&bits.y, &hi, sizeof hi);
    *reinterpret_cast<uint2 *>(out) = bits;
}

template <int VEC>
static __global__ void rows_to_bf16_kernel(float *S, size_t rows, unsigned N)
{
    typedef typename vector_of<VEC>::type vec;
    const unsigned lane = threadIdx.x % 32, chunk = 32 * kLoads * VEC;
    const size_t warps = (size_t)gridDim.x * (blockDim.x / 32);
    for (size_t r = (size_t)blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32; r < rows;
         r += warps) {
        const vec *in = reinterpret_cast<const vec *>(S + r * N);
        __nv_bfloat16 *out = reinterpret_cast<__nv_bfloat16 *>(S + r * N);
        for (unsigned a = 0; a < N; a += chunk) { /* the same trip count on every lane */
            vec v[kLoads];
            for (unsigned u = 0; u < kLoads; u++) {
                const unsigned j = a + (u * 32 + lane) * VEC; /* first element */
                if (j < N)
                    v[u] = in[j / VEC];
            }
            __syncwarp(); /* every read of the chunk before any write */
            for (unsigned u = 0; u < kLoads; u++) {
                const unsigned j = a + (u * 32 + lane) * VEC;
                if (j < N)
                    store_bf16(out + j, v[u]);
            }
        }
    }
}

extern "C" cudaError_t mw05_rows_to_bf16(float *S, size_t rows, int N, cudaStream_t stream)
{
    if (N < 1)
        return cudaErrorInvalidValue;
    if (rows == 0)
        return cudaGetLastError();
    size_t blocks = (rows + kWarps - 1) / kWarps;
    if (blocks > kMaxBlocks)
        blocks = kMaxBlocks;
    if (N % 4 == 0)
        rows_to_bf16_kernel<4><<<(unsigned)blocks, kThreads, 0, stream>>>(S, rows, (unsigned)N);
    else
        rows_to_bf16_kernel<1><<<(unsigned)blocks, kThreads, 0, stream>>>(S, rows, (unsigned)N);
    return cudaGetLastError();
}
