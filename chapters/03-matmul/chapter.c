/* chapter.c: chapter 03, C = A * B in FP32, as the grader sees it.
 *
 * A is M x K, B is K x N, C is M x N, row-major. FLOPs: 2 M N K (a multiply
 * and an add per term). Minimum DRAM traffic: A and B read once and C
 * written once, 4 (M K + K N + M N) bytes: the compulsory traffic, what a
 * kernel with an infinite cache would move. Real kernels move more: a naive
 * kernel asks for 2 K floats per element of C and only the caches keep that
 * from reaching DRAM. At n = 4096 (square) the model's intensity is
 * 2 n^3 / (12 n^2) = n / 6 = 683 FLOP per byte, far right of the H100's
 * ridge (about 17): a GEMM is bound by arithmetic, and the roof is the
 * FFMA roof, the FP32 units' rate that a microkernel of independent FFMA
 * measures (grader/roofs_kernels.cu): every kernel here is made of FFMA.
 *
 * Baselines in the same run: cublasSgemm in pedantic FP32 (validated like a
 * kernel), and cublasSgemm with TF32 tensor cores, a lower precision, timed
 * but not validated. */
#ifndef MW_SIM
#define MW_WITH_CUBLAS
#endif
#include "mw.h"

#include "cuda_check.h"
#include "harness.h"
#include "matmul.h"
#include "reference.h"
#include "tolerance.h"
#include "verdict_results.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const mw_version versions[] = {
    {.file = "01_naive",
     .symbol = "matmul_naive",
     .budget = "one thread per element of C: 2K floats read per element of C (8K bytes), mostly "
               "served by the caches"},
    {.file = "02_tiled",
     .symbol = "matmul_tiled",
     .budget = "32 x 32 shared-memory tiles: 2K/32 floats read from global memory per element "
               "of C"},
    {.file = "03_regblock",
     .symbol = "matmul_regblock",
     .budget = "128 x 128 block tiles, 8 x 8 outputs per thread: 2K/128 floats per element of "
               "C, float4 when aligned"},
    {.file = "04_tuned",
     .symbol = "matmul_tuned",
     .budget = "open: as fast as you can in plain FP32; the reference autotunes its tile shape "
               "and aims at 80% of cublasSgemm",
     .optional = 1},
};

#define MNK(m, n, k) {(m), (n), (k)}
#define OFF(a, b, c) {(a), (b), (c), 0}
#define INT MW_GEN_SMALLINT
#define UNI MW_GEN_UNIFORM

/* Full checks cost M N K multiply-adds on the CPU per version (the
 * reference's answers are kept for the second run of a case): about 130
 * million over these cases; with the sampled ones, about 3 s of CPU for
 * the four versions of `make check CH=03 SRC=solutions`. Sampled cases
 * check 4 x 1024 + 8192 entries (mw_chapter_def below), K multiply-adds
 * each. The shapes are chosen so that a 32-tile kernel with no bounds
 * checks writes at most a few thousand floats past the end of C, into the
 * 8192-float guard band the grader inspects (1000 x 513, at 12,343 past
 * the end, is the one that reaches beyond it, by 16 KB), and is reported
 * rather than crashing; the wide case is 32 rows for that reason. */
static const mw_case cases[] = {
    /* Integers in [-4, 4]: sums exact in float in any order, checked to the
     * bit: an index bug gives a wrong integer, never a rounding. */
    {.group = "exact", .dim = MNK(1, 1, 1), .gen = INT, .scale = 1},
    {.group = "exact", .dim = MNK(2, 3, 5), .gen = INT, .scale = 1},
    {.group = "exact", .dim = MNK(31, 33, 7), .gen = INT, .scale = 1},
    {.group = "exact", .dim = MNK(64, 64, 64), .gen = INT, .scale = 1},
    {.group = "exact", .dim = MNK(33, 65, 129), .gen = INT, .scale = 1},
    {.group = "exact", .dim = MNK(127, 129, 255), .gen = INT, .scale = 1},
    {.group = "exact", .dim = MNK(130, 70, 513), .gen = INT, .scale = 1},
    {.group = "exact", .dim = MNK(64, 64, 4096), .gen = INT, .scale = 1},
    /* Uniform in [-1, 1): the tolerance grows with K (tolerance.h). */
    {.group = "shape", .dim = MNK(1, 1, 1), .gen = UNI, .scale = 1},
    {.group = "shape", .dim = MNK(1, 200, 300), .gen = UNI, .scale = 1},
    {.group = "shape", .dim = MNK(300, 1, 200), .gen = UNI, .scale = 1},
    {.group = "shape", .dim = MNK(200, 300, 1), .gen = UNI, .scale = 1},
    {.group = "shape", .dim = MNK(1, 1, 4096), .gen = UNI, .scale = 1},
    {.group = "shape", .dim = MNK(100, 100, 100), .gen = UNI, .scale = 1},
    {.group = "shape", .dim = MNK(1000, 513, 77), .gen = UNI, .scale = 1},
    {.group = "shape", .dim = MNK(8192, 16, 64), .gen = UNI, .scale = 1},
    {.group = "shape", .dim = MNK(32, 8192, 64), .gen = UNI, .scale = 1},
    /* 125,001 blocks of 8 rows: past grid.y's 65535. Sampled (both ends
     * and 8192 entries): cheap to check whole, but a 32 x 32 tile kernel
     * runs 31,251 blocks of mostly padding here, minutes under
     * compute-sanitizer's racecheck; sampled cases stay out of `make
     * sanitize`. */
    {.group = "shape", .dim = MNK(1000003, 2, 3), .gen = UNI, .scale = 1, .sampled = 1},
    /* The same past grid.y for a kernel that maps columns to y. */
    {.group = "shape", .dim = MNK(2, 1000003, 3), .gen = UNI, .scale = 1, .sampled = 1},
    {.group = "prime", .dim = MNK(127, 127, 127), .gen = UNI, .scale = 1},
    {.group = "prime", .dim = MNK(257, 257, 257), .gen = UNI, .scale = 1},
    {.group = "prime", .dim = MNK(1021, 1021, 1021), .gen = UNI, .scale = 1, .sampled = 1},
    /* Views 1 to 3 floats past 16-byte alignment, one buffer at a time and
     * all at once: float4 accesses must check and fall back. */
    {.group = "offset", .dim = MNK(96, 96, 96), .offset = OFF(1, 2, 3), .gen = INT, .scale = 1},
    {.group = "offset", .dim = MNK(64, 64, 64), .offset = OFF(1, 1, 1), .gen = UNI, .scale = 1},
    {.group = "offset", .dim = MNK(33, 65, 17), .offset = OFF(3, 0, 1), .gen = UNI, .scale = 1},
    {.group = "offset", .dim = MNK(160, 160, 160), .offset = OFF(1, 0, 0), .gen = UNI, .scale = 1},
    {.group = "offset", .dim = MNK(160, 160, 160), .offset = OFF(0, 2, 0), .gen = UNI, .scale = 1},
    {.group = "offset", .dim = MNK(160, 160, 160), .offset = OFF(0, 0, 3), .gen = UNI, .scale = 1},
    {.group = "offset", .dim = MNK(333, 257, 76), .offset = OFF(2, 1, 3), .gen = UNI, .scale = 1},
    /* Sampled: odd sizes at scale (34 MB in all), and 4096^3 (3 x 64 MB,
     * past the 50 MB L2). */
    {.group = "large", .dim = MNK(2049, 2047, 1025), .gen = UNI, .scale = 1, .sampled = 1},
    {.group = "large", .dim = MNK(4096, 4096, 4096), .gen = UNI, .scale = 1, .sampled = 1},
    /* Each 32-bit product of two legal sizes past 2^31, one at a time
     * (8.6 GB in the matrix that crosses it; skipped, saying so, on a GPU
     * that cannot hold it): m * N + n into C, m * K + k into A, k * N + n
     * into B. */
    {.group = "limit", .dim = MNK(46341, 46341, 1), .gen = UNI, .scale = 1, .sampled = 1},
    {.group = "limit", .dim = MNK(((size_t)1 << 21) + 1, 1, 1024),
     .gen = UNI, .scale = 1, .sampled = 1},
    {.group = "limit", .dim = MNK(1, 1024, ((size_t)1 << 21) + 1), .gen = UNI, .scale = 1},
    /* m * K + k and m * N + n past 2^31 on the float4 path (K and N
     * multiples of 4, aligned views): the cases above reach it with N = 1
     * or an odd size, where a kernel takes its scalar path. 17 GB; 4.4
     * TFLOP, a second for the naive kernel. */
    {.group = "limit", .dim = MNK(((size_t)1 << 21) + 1, 1024, 1024),
     .gen = UNI, .scale = 1, .sampled = 1},
    /* C past 2^32 elements: 65537^2 = 2^32 + 2^17 + 1 (17.2 GB; A and B
     * 256 KB), where m * N + n in unsigned 32 bits wraps onto C's first
     * rows. K = 1: the GPU writes 17 GB once, the sampled check costs the
     * CPU one product per entry. */
    {.group = "limit", .dim = MNK(65537, 65537, 1), .gen = UNI, .scale = 1, .sampled = 1},
    /* A past 2^32 elements (17.2 GB), where m * K + k in unsigned 32 bits
     * wraps: its last row reads row 0. N = 4 keeps C and the products
     * small (34 GFLOP); K and N multiples of 4 let a kernel take its
     * float4 path. */
    {.group = "limit", .dim = MNK(((size_t)1 << 22) + 1, 4, 1024),
     .gen = UNI, .scale = 1, .sampled = 1},
    /* B past 2^32 elements (K N = 1.25 x 2^32, 21.5 GB), where k * N + n
     * in unsigned 32 bits wraps for the last fifth of k: a fifth of every
     * dot product wrong, which no tolerance hides (a wrap at the last row
     * alone changes one product in K). N = 65536, K = 81920 keep each
     * sampled entry at 82 k multiply-adds on the CPU. */
    {.group = "limit", .dim = MNK(4, 65536, 81920), .gen = UNI, .scale = 1, .sampled = 1},
};

/* Squares from 128 to 8192, and one shape that is a multiple of nothing:
 * 4000 x 4001 x 3999, between 2048 and 4096 on the plots. The naive
 * reference at 8192^3 (1.1 TFLOP) takes a few tenths of a second per call:
 * with its warm-up and at least three timed calls it adds seconds, not
 * minutes, to the bench, so every version runs at every size. */
#define SQ(n) {.group = "bench", .dim = MNK((n), (n), (n)), .gen = UNI, .scale = 1}
static const mw_case bench_cases[] = {
    SQ(128), SQ(256), SQ(512), SQ(1024), SQ(2048),
    {.group = "bench", .dim = MNK(4000, 4001, 3999), .gen = UNI, .scale = 1},
    SQ(4096), SQ(6144), SQ(8192),
};
/* 2048^3 (3 x 16 MB) fits in the 50 MB L2; 4096^3 (3 x 64 MB) does not;
 * 8192^3 is the verdict's size, where the roofline places its points. */
static const size_t traffic_sizes[] = {2048, 4096, 8192};

static void buffers(const mw_case *c, mw_buffer_spec *s)
{
    size_t M = c->dim[0], N = c->dim[1], K = c->dim[2];
    s[A] = (mw_buffer_spec){"A", M * K, 0};
    s[B] = (mw_buffer_spec){"B", K * N, 0};
    s[C] = (mw_buffer_spec){"C", M * N, 1};
}

/* C is M rows by N columns, both tiled by a tiled kernel; square, it has
 * a diagonal. */
static void output_shape(const mw_case *c, int b, mw_shape *s)
{
    (void)b;
    int m = mw_shape_axis(s, "m", c->dim[0]), n = mw_shape_axis(s, "n", c->dim[1]);
    s->tiled = 1u << m | 1u << n;
    if (c->dim[0] == c->dim[1])
        s->diag_row = m, s->diag_col = n;
}

/* Which limit a case crosses, if any, for its label. */
static const char *limit_label(size_t M, size_t N, size_t K)
{
    const size_t two31 = (size_t)1 << 31, rows_y = (size_t)65535 * 8;
    if (M * N > 2 * two31)
        return " [limit: M N past 2^32, where an unsigned m * N + n wraps]";
    if (M * K > 2 * two31)
        return " [limit: M K past 2^32, where an unsigned m * K + k wraps]";
    if (K * N > 2 * two31)
        return " [limit: K N past 2^32, where an unsigned k * N + n wraps]";
    if (M * N > two31 && M * K > two31)
        return " [limit: M N and M K past 2^31, where m * N + n and m * K + k overflow an int]";
    if (M * N > two31)
        return " [limit: M N past 2^31, where m * N + n overflows an int]";
    if (M * K > two31)
        return " [limit: M K past 2^31, where m * K + k overflows an int]";
    if (K * N > two31)
        return " [limit: K N past 2^31, where k * N + n overflows an int]";
    if (M > rows_y)
        return " [limit: grid.y, 65535 blocks of 8 rows]";
    if (N > rows_y)
        return " [limit: grid.y, 65535 blocks of 8 columns, where columns map to y]";
    return "";
}

static void describe(const mw_case *c, char *text, size_t len)
{
    char off[64] = "";
    if (c->offset[A] || c->offset[B] || c->offset[C])
        snprintf(off, sizeof off, " (views offset by %zu,%zu,%zu floats)", c->offset[A],
                 c->offset[B], c->offset[C]);
    char gen[48] = "";
    if (c->gen == MW_GEN_SMALLINT)
        snprintf(gen, sizeof gen, " (small integers, exact)");
    else if (c->gen != MW_GEN_UNIFORM)
        snprintf(gen, sizeof gen, " (special values)");
    else if (c->scale != 0.f && c->scale != 1.f)
        snprintf(gen, sizeof gen, " (inputs of scale %g)", (double)c->scale);
    snprintf(text, len, "M=%zu N=%zu K=%zu%s%s%s", c->dim[0], c->dim[1], c->dim[2], off, gen,
             limit_label(c->dim[0], c->dim[1], c->dim[2]));
}

/* The side of the cube with the same work: cbrt(M N K), rounded. N for a
 * square; 4000 for 4000 x 4001 x 3999. The plots put it on a log axis. */
static double bench_x(const mw_case *c)
{
    return round(cbrt((double)c->dim[0] * (double)c->dim[1] * (double)c->dim[2]));
}

typedef cudaError_t (*matmul_fn)(const float *, const float *, float *, int, int, int,
                                 cudaStream_t);

static cudaError_t launch(void *fn, const mw_case *c, float *const *b, cudaStream_t s)
{
    return ((matmul_fn)fn)(b[A], b[B], b[C], (int)c->dim[0], (int)c->dim[1], (int)c->dim[2],
                           s);
}

static mw_tol tolerance(const mw_case *c)
{
    return mw03_tolerance(c->dim[2], c->gen, c->scale);
}

static void model(const mw_case *c, double *read, double *write, double *flops)
{
    double M = (double)c->dim[0], N = (double)c->dim[1], K = (double)c->dim[2];
    *read = 4 * (M * K + K * N);
    *write = 4 * M * N;
    *flops = 2 * M * N * K;
}

/* ---- the mistakes the grader names --------------------------------------- */

/* Products of inputs rounded (or truncated) to TF32, summed exactly: what
 * tensor-core TF32 computes, to within its FP32 accumulation, which the
 * tolerance absorbs. */
static double tf32_rounded(const mw_case *c, const mw_inputs *in, size_t i)
{
    mm_cache *mc = mw03_cache_for(c, in);
    size_t N = c->dim[1];
    return mw03_dot(mw03_row_of_a(mc, in, i / N), mw03_column_of_b(mc, in, i % N), c->dim[2],
                    mw03_tf32_round);
}

static double tf32_truncated(const mw_case *c, const mw_inputs *in, size_t i)
{
    mm_cache *mc = mw03_cache_for(c, in);
    size_t N = c->dim[1];
    return mw03_dot(mw03_row_of_a(mc, in, i / N), mw03_column_of_b(mc, in, i % N), c->dim[2],
                    mw03_tf32_trunc);
}

/* A value no float output matches (a finite reference needs a finite
 * answer within the tolerance): for a mistake that does not apply. NaN
 * would not do: a NaN output matches a NaN. */
#define NO_MATCH DBL_MAX

/* The sum over the K tiles but the last, for tiles of `tile`: a loop over
 * K / tile tiles (rounded down: the partial tile is lost), or over one tile
 * fewer than (K + tile - 1) / tile. No match when a smaller tile in the
 * list gives the same cut, so that one hint is printed, not several. */
static const size_t k_tiles[] = {8, 16, 32, 64};

static double k_short(const mw_case *c, const mw_inputs *in, size_t i, int t)
{
    size_t K = c->dim[2], cut = ((K + k_tiles[t] - 1) / k_tiles[t] - 1) * k_tiles[t];
    for (int s = 0; s < t; s++)
        if (((K + k_tiles[s] - 1) / k_tiles[s] - 1) * k_tiles[s] == cut)
            return NO_MATCH;
    mm_cache *mc = mw03_cache_for(c, in);
    size_t N = c->dim[1];
    return mw03_dot(mw03_row_of_a(mc, in, i / N), mw03_column_of_b(mc, in, i % N), cut, NULL);
}

static double k_short8(const mw_case *c, const mw_inputs *in, size_t i)
{
    return k_short(c, in, i, 0);
}
static double k_short16(const mw_case *c, const mw_inputs *in, size_t i)
{
    return k_short(c, in, i, 1);
}
static double k_short32(const mw_case *c, const mw_inputs *in, size_t i)
{
    return k_short(c, in, i, 2);
}
static double k_short64(const mw_case *c, const mw_inputs *in, size_t i)
{
    return k_short(c, in, i, 3);
}

/* A and/or B read as if column-major: A[k * M + m] for A[m][k], B[n * K + k]
 * for B[k][n]. Both stay inside their matrices, so the answer is wrong, not
 * a crash. Only the few elements a report shows are computed. */
static double col_major(const mw_case *c, const mw_inputs *in, size_t i, int swap_a, int swap_b)
{
    size_t M = c->dim[0], N = c->dim[1], K = c->dim[2], m = i / N, n = i % N;
    double sum = 0;
    for (size_t k = 0; k < K; k++)
        sum += (double)mw_input(in, A, swap_a ? k * M + m : m * K + k) *
               (double)mw_input(in, B, swap_b ? n * K + k : k * N + n);
    return sum;
}

static double both_col_major(const mw_case *c, const mw_inputs *in, size_t i)
{
    return col_major(c, in, i, 1, 1);
}
static double a_col_major(const mw_case *c, const mw_inputs *in, size_t i)
{
    return col_major(c, in, i, 1, 0);
}
static double b_col_major(const mw_case *c, const mw_inputs *in, size_t i)
{
    return col_major(c, in, i, 0, 1);
}

/* One operand read one place along k too far inside a tile: A[m][k + 1]
 * (or B[k + 1][n]) paired with the other's k. Recognisable while K fits
 * one 32-wide tile: the last read lands on the tile's zero fill past K, so
 * the sum is exactly this; past one tile it picks up a neighbouring row's
 * first element, which depends on the kernel's layout. */
static double shifted(const mw_case *c, const mw_inputs *in, size_t i, int shift_a)
{
    size_t N = c->dim[1], K = c->dim[2], m = i / N, n = i % N;
    if (K > 31)
        return NO_MATCH;
    double sum = 0;
    for (size_t k = 0; k + 1 < K; k++)
        sum += (double)mw_input(in, A, m * K + k + shift_a) *
               (double)mw_input(in, B, (k + !shift_a) * N + n);
    return sum;
}

static double a_shifted(const mw_case *c, const mw_inputs *in, size_t i)
{
    return shifted(c, in, i, 1);
}
static double b_shifted(const mw_case *c, const mw_inputs *in, size_t i)
{
    return shifted(c, in, i, 0);
}

/* C written transposed, C[n * M + m] = c_mn: flat element i holds the
 * answer for m = i % M, n = i / M. */
static double c_transposed(const mw_case *c, const mw_inputs *in, size_t i)
{
    size_t M = c->dim[0];
    mm_cache *mc = mw03_cache_for(c, in);
    return mw03_dot(mw03_row_of_a(mc, in, i % M), mw03_column_of_b(mc, in, i / M), c->dim[2],
                    NULL);
}

/* x rounded to the nearest half-precision value (11 significant bits,
 * subnormals below 2^-14, Inf past 65504), ties to even. */
static double round_half(double x)
{
    if (isnan(x) || x == 0)
        return x;
    double ax = fabs(x);
    if (ax >= 65520.0)
        return copysign(INFINITY, x);
    int e;
    frexp(ax, &e); /* ax = f 2^e, f in [0.5, 1): 2^(e - 11) is half's step there */
    double step = ldexp(1.0, e - 11 < -24 ? -24 : e - 11);
    return copysign(nearbyint(ax / step) * step, x);
}

/* The sum kept in half precision: each float product rounded to half and
 * added to a half accumulator (__hadd), in order of k. */
static double half_accumulated(const mw_case *c, const mw_inputs *in, size_t i)
{
    size_t N = c->dim[1], K = c->dim[2];
    mm_cache *mc = mw03_cache_for(c, in);
    const float *a = mw03_row_of_a(mc, in, i / N), *b = mw03_column_of_b(mc, in, i % N);
    double acc = 0;
    for (size_t k = 0; k < K; k++)
        acc = round_half(acc + round_half((float)((double)a[k] * (double)b[k])));
    return acc;
}

#define K_SHORT                                                                               \
    "the sums stop before the last tile of K: loop over all (K + TILE - 1) / TILE tiles, "    \
    "and zero-fill the part of the last tile past K"

static const mw_mistake mistakes[] = {
    {"the products are those of inputs rounded to TF32 (10 mantissa bits, tensor-core "
     "precision): lower precision than FP32; multiply the floats as they are",
     tf32_rounded},
    {"the products are those of inputs truncated to TF32 (10 mantissa bits, tensor-core "
     "precision): lower precision than FP32; multiply the floats as they are",
     tf32_truncated},
    {K_SHORT, k_short8},
    {K_SHORT, k_short16},
    {K_SHORT, k_short32},
    {K_SHORT, k_short64},
    {"A and B read as column-major (A[k*M + m], B[n*K + k]): their indices are swapped; "
     "row-major A[m][k] is A[m*K + k] and B[k][n] is B[k*N + n]",
     both_col_major},
    {"A read as column-major (A[k*M + m]): row-major A[m][k] is A[m*K + k]", a_col_major},
    {"C written transposed (C[n*M + m]): row-major C[m][n] is C[m*N + n]", c_transposed},
    {"the sums are those of a half-precision accumulator (11 significant bits): accumulate "
     "in float",
     half_accumulated},
    {"A's value at k + 1 multiplies B's at k: a shared tile indexed one past its place "
     "(As[ty][k + 1] for As[ty][k]), which at the tile's edge reads outside its row",
     a_shifted},
    {"B's value at k + 1 multiplies A's at k: a shared tile indexed one past its place "
     "(Bs[k + 1][tx] for Bs[k][tx]), which at the tile's edge reads outside the tile",
     b_shifted},
    {"B read as column-major (B[n*K + k]): row-major B[k][n] is B[k*N + n]", b_col_major},
};

/* ---- library baselines --------------------------------------------------- */

/* The CPU emulation (MW_SIM) has no cuBLAS or cuDNN: no library rows there. */
#ifndef MW_SIM
static int cublas_with(void **state, cublasMath_t mode)
{
    cublasHandle_t h;
    MW_CUBLAS_TRY(cublasCreate(&h), return -1);
    MW_CUBLAS_TRY(cublasSetMathMode(h, mode), cublasDestroy(h); return -1);
    *state = h;
    return 0;
}

/* CUBLAS_PEDANTIC_MATH: plain FP32 throughout, no TF32 and no reduced
 * precision anywhere: the same arithmetic the exercises must use. */
static int fp32_setup(void **state)
{
    return cublas_with(state, CUBLAS_PEDANTIC_MATH);
}

/* TF32 tensor cores: inputs rounded to 10 mantissa bits, FP32 sums. */
static int tf32_setup(void **state)
{
    return cublas_with(state, CUBLAS_TF32_TENSOR_OP_MATH);
}

static void cublas_teardown(void *state)
{
    cublasDestroy((cublasHandle_t)state);
}

/* cuBLAS is column-major. A row-major M x N matrix is its column-major
 * transpose, so C = A B is computed as C^T = B^T A^T: an N x M result from
 * B (N x K column-major, leading dimension N) times A (K x M, leading
 * dimension K). No transposition happens in memory. */
static cudaError_t sgemm(void *state, const mw_case *c, float *const *b, cudaStream_t s)
{
    cublasHandle_t h = state;
    const float one = 1.f, zero = 0.f;
    int M = (int)c->dim[0], N = (int)c->dim[1], K = (int)c->dim[2];
    cublasSetStream(h, s);
    cublasStatus_t st = cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, N, M, K, &one, b[B], N, b[A],
                                    K, &zero, b[C], N);
    return st == CUBLAS_STATUS_SUCCESS ? cudaSuccess : cudaErrorUnknown;
}

/* The TF32 call computes a different, less precise answer (errors of 1e-2
 * at K = 4096 where FP32's tolerance is 3.9e-3): it is timed as the next
 * step up, not validated (computes_output 0). Its roof names its precision:
 * a library is measured against that precision's peak (TF32 wgmma on
 * sm_90a, where cuBLAS issues wgmma; mma.sync before). */
static const mw_library libraries[] = {
    {.name = "cublasSgemm",
     .kind = "library",
     .setup = fp32_setup,
     .run = sgemm,
     .teardown = cublas_teardown,
     .computes_output = 1},
    {.name = "cublasSgemm_TF32",
     .kind = "library",
     .setup = tf32_setup,
     .run = sgemm,
     .teardown = cublas_teardown,
     .roof = "tf32_mma"},
};
#endif

/* ---- verdict ------------------------------------------------------------- */

static double tflops(const mw_result *r)
{
    return r ? r->gflops / 1e3 : NAN;
}

static void verdict(const mw_result *r, int count, double copy_gbps)
{
    (void)copy_gbps;
    printf("\nverdict (TFLOP/s: 2 M N K over the median time; size: cbrt(M N K)):\n");
    printf("  %6s %7s %7s %9s %7s %11s %9s %10s\n", "size", "naive", "tiled", "regblock",
           "tuned", "cublasSgemm", "best/lib", "TF32 lib");
    for (int i = 0; i < count; i++) {
        if (strcmp(r[i].impl, "library/cublasSgemm") != 0)
            continue;
        double x = r[i].size;
        const mw_result *nv = mw_result_at(r, count, "reference/01_naive", x);
        const mw_result *tl = mw_result_at(r, count, "reference/02_tiled", x);
        const mw_result *rb = mw_result_at(r, count, "reference/03_regblock", x);
        const mw_result *tu = mw_result_at(r, count, "reference/04_tuned", x);
        const mw_result *tf = mw_result_at(r, count, "library/cublasSgemm_TF32", x);
        double best = fmax(rb ? rb->gflops : 0, tu ? tu->gflops : 0);
        char label[32];
        mw_size_label(x, label, sizeof label);
        printf("  %6s %7.1f %7.1f %9.1f %7.1f %11.1f %8.0f%% %10.1f\n", label, tflops(nv),
               tflops(tl), tflops(rb), tflops(tu), tflops(&r[i]),
               isnan(r[i].median_ms) || best <= 0 ? NAN : 100 * best / r[i].gflops, tflops(tf));
    }
    printf("  A GEMM does 2n^3 FLOPs on 12n^2 bytes: tiles turn that reuse into arithmetic\n"
           "  intensity, and a good kernel is bound by the FP32 units, not by memory. cuBLAS\n"
           "  is already there; its TF32 column is a lower precision (10-bit mantissas), not\n"
           "  checked against this chapter's tolerance. For a plain GEMM, call cuBLAS.\n");
}

/* Blocks of 2^j rows (or columns), j = 0..7, of which grid.y holds 65535:
 * the first row (column) a launch that stops at grid.y's limit leaves out
 * is one of 65535 * 2^j. Returns the one whose first element, at flat
 * index edge * unit, lies in [lo, hi], or 0. A sampled check knows only
 * that the first wrong element is after the last right one it saw (lo - 1)
 * and at or before the first wrong one it saw (hi). */
static size_t grid_y_edge(size_t lo, size_t hi, size_t unit)
{
    for (size_t per = 1; per <= 128; per *= 2) {
        size_t edge = 65535 * per;
        if (edge * unit >= lo && edge * unit <= hi)
            return edge;
    }
    return 0;
}

/* C wrong from a row (or, in row 0, a column) that is exactly where a 2D
 * launch over M (or N) runs out of grid.y, and on from there. */
static int explain(const mw_case *c, const mw_inputs *in, const mw_mismatch *per,
                   char hints[][256], int max)
{
    (void)in;
    const mw_mismatch *m = &per[C];
    size_t N = c->dim[1];
    if (max <= 0 || m->wrong == 0)
        return 0;
    size_t lo = m->has_right_before ? m->last_right_before + 1 : 0;
    size_t edge = 0;
    int by_row = m->first_wrong >= N;
    if (by_row) {
        /* Rows from the edge on are all wrong: every element checked from
         * the first wrong one on is wrong. */
        edge = grid_y_edge(lo, m->first_wrong, N);
        if (m->wrong != m->checked - m->checked_before_first_wrong)
            edge = 0;
    } else {
        /* Columns from the edge on, in every row: each shown wrong element
         * is at or past that column. */
        edge = grid_y_edge(lo, m->first_wrong, 1);
        for (int j = 0; j < m->nshow; j++)
            if (m->show_index[j] % N < edge)
                edge = 0;
    }
    if (!edge)
        return 0;
    snprintf(hints[0], 256,
             "C is wrong from %s %zu on, where a grid of 65535 blocks in y runs out "
             "(grid.y's limit): map that dimension to grid.x, or loop over it",
             by_row ? "row" : "column", edge);
    return 1;
}

/* ---- the CPU emulation's sample ----------------------------------------- */

/* A tile of tm x tn outputs of C for a block of block[] threads, as the
 * references launch them: each thread computes 1 (01_naive, 02_tiled) or
 * 4, 16 or 64 of them (03_regblock and 04_tuned: 8 x 8), and a 2-D block
 * covers its tile with whole rows and columns of threads. */
static int tile_fits(size_t tm, size_t tn, const unsigned block[3])
{
    const size_t threads = (size_t)block[0] * block[1] * block[2], outputs = tm * tn;
    if (outputs % threads != 0)
        return 0;
    const size_t per = outputs / threads;
    if (per != 1 && per != 4 && per != 16 && per != 64)
        return 0;
    return block[1] == 1 || (tn % block[0] == 0 && tm % block[1] == 0);
}

/* How a grid lays out C's tiles: a 1-D grid of exactly the tiles, n fastest
 * (the references); a 2-D grid with x along n and y along m; or x along m
 * and y along n. */
enum { ORDER_FLAT, ORDER_X_N, ORDER_X_M, ORDERS };

/* The most layouts a sample follows at once: each is a candidate block for
 * every sampled output, so a grid that many shapes fit costs a sample that
 * many blocks an output, and a few shapes is what a real grid fits. */
#define MM_LAYOUTS_FOLLOWED 16

/* The block of a grid in `order` that computes the tile (tile_m, tile_n) of
 * a C cut into tiles_m x tiles_n tiles, or -1 when the grid does not fit
 * that order. A 2-D grid with fewer blocks in y than tiles (a launch that
 * keeps grid.y within 65535) gives the tile to the block a loop over y in
 * steps of gridDim.y gives it: the grid-stride form of a 2-D launch. */
static int64_t tile_block(int order, size_t tile_m, size_t tile_n, size_t tiles_m,
                          size_t tiles_n, const unsigned grid[3])
{
    if (grid[2] != 1)
        return -1;
    if (order == ORDER_FLAT)
        return grid[1] == 1 && tiles_m * tiles_n == grid[0] ? (int64_t)(tile_m * tiles_n + tile_n)
                                                             : -1;
    if (grid[1] == 1)
        return -1;
    if (order == ORDER_X_N)
        return tiles_n == grid[0] && tiles_m >= grid[1]
                   ? (int64_t)((tile_m % grid[1]) * grid[0] + tile_n)
                   : -1;
    return tiles_m == grid[0] && tiles_n >= grid[1]
               ? (int64_t)((tile_n % grid[1]) * grid[0] + tile_m)
               : -1;
}

/* Each tile shape of powers of two up to 256 a side that fits the block
 * (tile_fits), in each order that fits the grid (tile_block), calls
 * visit(tm, tn, order, arg); returns how many did. */
static int each_layout(const mw_case *c, const unsigned grid[3], const unsigned block[3],
                       void (*visit)(size_t tm, size_t tn, int order, void *arg), void *arg)
{
    const size_t M = c->dim[0], N = c->dim[1];
    int count = 0;
    for (size_t tm = 1; tm <= 256; tm *= 2)
        for (size_t tn = 1; tn <= 256; tn *= 2)
            for (int order = 0; order < ORDERS && tile_fits(tm, tn, block); order++)
                if (tile_block(order, 0, 0, (M + tm - 1) / tm, (N + tn - 1) / tn, grid) >= 0) {
                    if (visit)
                        visit(tm, tn, order, arg);
                    count++;
                }
    return count;
}

typedef struct element_blocks {
    const mw_case *c;
    size_t m, n;
    const unsigned *grid;
    uint64_t *blocks;
    int count;
} element_blocks;

static void add_block(size_t tm, size_t tn, int order, void *arg)
{
    element_blocks *e = arg;
    const size_t M = e->c->dim[0], N = e->c->dim[1];
    uint64_t b = (uint64_t)tile_block(order, e->m / tm, e->n / tn, (M + tm - 1) / tm,
                                      (N + tn - 1) / tn, e->grid);
    for (int k = 0; k < e->count; k++)
        if (e->blocks[k] == b)
            return;
    if (e->count < MM_LAYOUTS_FOLLOWED) /* emulation_layout refuses more layouts */
        e->blocks[e->count++] = b;
}

/* The blocks that compute C[m][n] in each layout the block and the grid
 * fit (each_layout): the shape and order the student chose are not known,
 * the grid and the output's shape tell them, up to a few candidates. 0: no
 * layout fits (a 1-D grid too small: a grid-stride loop). */
static int emulation_blocks(const mw_case *c, size_t i, const unsigned grid[3],
                            const unsigned block[3], uint64_t blocks[MW_EMULATION_BLOCKS])
{
    element_blocks e = {c, i / c->dim[1], i % c->dim[1], grid, blocks, 0};
    each_layout(c, grid, block, add_block, &e);
    return e.count;
}

/* Launches a sample cannot follow: more layouts fit the grid than an
 * output may name blocks (each is a candidate block); and, whatever the
 * tiles, a case whose every output reads a whole column of B, K rows N
 * floats apart, one page of 4 KiB a row once N is 1024 or more, past the
 * pages a sample may touch (K = 81920 where B passes 2^32 elements). */
static const char *emulation_layout(const mw_case *c, const unsigned grid[3],
                                    const unsigned block[3])
{
    static char why[160];
    const size_t N = c->dim[1], K = c->dim[2], per_page = 4096 / sizeof(float);
    const size_t column_pages = N >= per_page ? K : (K * N + per_page - 1) / per_page;
    const int layouts = each_layout(c, grid, block, NULL, NULL);
    if (column_pages > MW_GPU_SAMPLE_PAGES)
        snprintf(why, sizeof why,
                 "a column of B spans %zu pages of 4 KiB, more than a sample may touch (%d)",
                 column_pages, MW_GPU_SAMPLE_PAGES);
    else if (layouts > MM_LAYOUTS_FOLLOWED)
        snprintf(why, sizeof why,
                 "%d tile shapes and orders fit its grid, more than a sample follows (%d)",
                 layouts, MM_LAYOUTS_FOLLOWED);
    else
        return NULL;
    return why;
}

const mw_chapter mw_chapter_def = {
    .prepare_reference = mw03_prepare_reference,
    .reference_threads = 1, /* once prepared, the inputs are only read */
    .id = "03-matmul",
    .title = "Chapter 03: tiled matmul",
    .size_label = "matrix size: cbrt(M N K), n for n x n x n",
    .roof = "fp32",
    .versions = versions,
    .nversions = sizeof versions / sizeof versions[0],
    .cases = cases,
    .ncases = sizeof cases / sizeof cases[0],
    .bench_cases = bench_cases,
    .nbench = sizeof bench_cases / sizeof bench_cases[0],
    .traffic_sizes = traffic_sizes,
    .ntraffic = sizeof traffic_sizes / sizeof traffic_sizes[0],
    .nbufs = 3,
    .buffers = buffers,
    .describe = describe,
    .output_shape = output_shape,
    .bench_x = bench_x,
    .launch = launch,
    .reference = mw03_reference,
    .tolerance = tolerance,
    .model = model,
    .mistakes = mistakes,
    .nmistakes = sizeof mistakes / sizeof mistakes[0],
    .explain = explain,
#ifndef MW_SIM
    .libraries = libraries,
    .nlibraries = sizeof libraries / sizeof libraries[0],
#endif
    .verdict = verdict,
    /* Each checked entry costs K multiply-adds on the CPU: at K = 4096 the
     * default sample (4 x 65536 + 2^18 entries) would be 1.6e9 of them per
     * check. 4 x 1024 + 8192 entries are 5e7 (0.1 s); the bench checks every
     * output past 512 x 512 this way (a full 2048^3 check is 8.6e9). */
    .sample_edge = 1024,
    .sample_random = 8192,
    .sample_above = (size_t)1 << 18,
    .emulation_blocks = emulation_blocks,
    .emulation_layout = emulation_layout,
    /* A sampled output costs the emulation its block: up to 1024 threads,
     * K multiply-adds each and a barrier pair every tile of K (02_tiled at
     * M = 2^21 + 1, N = 1, K = 1024: tens of milliseconds a block). 128
     * outputs at each edge, and 16 at random. */
    .emulation_sample_edge = 128,
    .emulation_sample_random = 16,
};
