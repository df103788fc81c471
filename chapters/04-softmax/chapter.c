/* chapter.c: chapter 04, row softmax, as the grader sees it.
 *
 * y = softmax(x) along each row of a rows x cols matrix. Minimum DRAM
 * traffic: one read of x and one write of y, 8 bytes per element, exactly a
 * copy's: the copy roof is softmax's roof. About 5 FLOPs per element (max,
 * subtract, exp, add, multiply): far left of the ridge, memory-bound.
 * Baselines in the same run: cudnnSoftmaxForward (accurate, instance mode
 * over a rows x cols x 1 x 1 tensor) where cuDNN is present; the workbook's
 * own three-pass kernel (baselines.cu), except in the student edition, where
 * it would give exercise 04.1 away (the INSTRUCTOR ONLY regions are cut
 * there); a device-to-device copy as the roof. */
#define _POSIX_C_SOURCE 200809L
#include "mw.h"

#include "harness.h"
#include "reference.h"
#include "softmax.h"
#include "verdict_results.h"

#ifdef MW_HAVE_CUDNN
#define MW_WITH_CUDNN
#endif
#include "cuda_check.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// BEGIN INSTRUCTOR ONLY
cudaError_t mw04_three_pass(const float *x, float *y, size_t rows, size_t cols, cudaStream_t s);
// END INSTRUCTOR ONLY

static const mw_version versions[] = {
    {.file = "01_three_pass",
     .symbol = "softmax_three_pass",
     .budget = "max, sum of exp, normalize: reads each row 3 times, 16 bytes per element"},
    {.file = "02_fused",
     .symbol = "softmax_fused",
     .budget = "the row held on chip: one read and one write, 8 bytes per element, at the copy "
               "roof"},
    {.file = "03_online",
     .symbol = "softmax_online",
     .budget = "running max and sum in one sweep, then a normalizing sweep: 12 bytes per element"},
};

#define RC(r, c) {(r), (c), 0}

static const mw_case cases[] = {
    {.group = "shape", .dim = RC(7, 1), .gen = MW_GEN_UNIFORM, .scale = 1},
    {.group = "shape", .dim = RC(5, 2), .gen = MW_GEN_UNIFORM, .scale = 1},
    {.group = "shape", .dim = RC(9, 31), .gen = MW_GEN_UNIFORM, .scale = 1},
    {.group = "shape", .dim = RC(64, 32), .gen = MW_GEN_UNIFORM, .scale = 1},
    {.group = "shape", .dim = RC(17, 33), .gen = MW_GEN_UNIFORM, .scale = 1},
    {.group = "shape", .dim = RC(100, 1000), .gen = MW_GEN_UNIFORM, .scale = 1},
    {.group = "shape", .dim = RC(1024, 1024), .gen = MW_GEN_UNIFORM, .scale = 1},
    {.group = "shape", .dim = RC(257, 4096), .gen = MW_GEN_UNIFORM, .scale = 1},
    {.group = "shape", .dim = RC(33, 16384), .gen = MW_GEN_UNIFORM, .scale = 1},
    {.group = "shape", .dim = RC(9, 65536), .gen = MW_GEN_UNIFORM, .scale = 1},
    {.group = "shape", .dim = RC(3, 1 << 20), .gen = MW_GEN_UNIFORM, .scale = 1},
    /* Rows that are not a multiple of 4 (no float4), and the lengths
     * between 16384 and 65536 where the reference changes strategy. */
    {.group = "shape", .dim = RC(9, 4099), .gen = MW_GEN_UNIFORM, .scale = 1},
    {.group = "shape", .dim = RC(5, 20000), .gen = MW_GEN_UNIFORM, .scale = 1},
    {.group = "shape", .dim = RC(7, 30001), .gen = MW_GEN_UNIFORM, .scale = 1},
    /* Past what all of a GPU's resident blocks hold at once, with no
     * float4 (a row split over blocks that wait for each other must fall
     * back to another form there). */
    {.group = "shape", .dim = RC(1, (1 << 24) + 3), .gen = MW_GEN_UNIFORM, .scale = 1},
    /* Every input class at every length class, since a kernel may switch
     * strategy with the row length and a mistake may live in one path
     * only: 1 column; under a warp; past a warp; under a block's pass;
     * not a multiple of 4, under and past 8192; 16384; between 16384 and
     * 65536, where the reference changes strategy; 65536; 2^20 and 2^22,
     * longer than any block holds; 2^24, longer than all the blocks an
     * H100 holds at once (132 SMs x 2 blocks x 16384 columns is 2^22.04). */
#define LEN(group_, rows, cols, gen_, scale_) \
    {.group = (group_), .dim = RC(rows, cols), .gen = (gen_), .scale = (scale_)}
#define LENGTHS(group, gen, scale) \
    LEN(group, 100, 1, gen, scale), LEN(group, 40, 31, gen, scale), \
    LEN(group, 50, 33, gen, scale), LEN(group, 64, 1000, gen, scale), \
    LEN(group, 9, 4099, gen, scale), LEN(group, 4, 12289, gen, scale), \
    LEN(group, 8, 16384, gen, scale), \
    LEN(group, 7, 30001, gen, scale), LEN(group, 4, 65536, gen, scale), \
    LEN(group, 3, 1 << 20, gen, scale), LEN(group, 2, 1 << 22, gen, scale), \
    LEN(group, 1, 1 << 24, gen, scale)
    /* Inputs of scale 1e4: exp overflows (exp(89) > FLT_MAX) without the max. */
    LENGTHS("scale", MW_GEN_UNIFORM, 1e4f),
    /* 1 in 8 entries -inf (masked logits): 0 out; with cols = 1 some rows
     * are all -inf: NaN out, as in PyTorch. */
    LENGTHS("-inf", MW_GEN_NEGINF, 1),
    /* A NaN entry makes its whole row NaN. */
    LENGTHS("nan", MW_GEN_RARE_NAN, 1),
    /* Every value in [-101, -99), as log-probabilities: without the max,
     * exp underflows to denormals and 0, and the sum with it. */
    LENGTHS("logprob", MW_GEN_LOGPROB, 1),
    /* 1 in 1024 entries +100: exp(100) overflows unless the max subtracted
     * is the whole row's (a max over part of the row is not enough). */
    LENGTHS("dominant", MW_GEN_DOMINANT, 1),
    /* Every other run of 32768 entries -inf, as a padding mask: whole short
     * rows masked (NaN out), and in long rows whole stretches, so that a
     * kernel splitting a row meets pieces with nothing but -inf. */
    LENGTHS("masked", MW_GEN_MASKED, 1),
    /* One entry alone +100 in a row (the lone class, every 1031st entry;
     * graded with the dominant group), at a column that moves from row to
     * row: over 1031 rows every column of a row shorter than 1031 holds it
     * once. A max pass that misses any
     * one column (a loop ending one early, an index shifted by one in one
     * of a thread's loads) subtracts a max near 1 from 100: exp(99)
     * overflows. The dominant class cannot show this: its +100 entries are
     * equal, and a missed one leaves another with the same value. Small on
     * a GPU, but 1031 blocks of up to 1024 threads on the CPU emulation,
     * past its budget: it runs them there on a sample of rows, the first
     * and last among them (emulation_samples). */
#define LONE(cols) {.group = "dominant", .dim = RC(1031, cols), .gen = MW_GEN_LONE, .scale = 1}
    LONE(1), LONE(31), LONE(33), LONE(257), LONE(1000), LONE(1024),
    /* The same for rows too long for one block or for a split over the
     * resident blocks (2^24 + 43 columns: 16.8 M, 201 MB each way for the
     * three rows): every row's +100 alone at its head. A pass that reads
     * one past its row's end takes the next row's +100 and doubles its
     * row's sum; one that starts a column late loses its own, and the last
     * row (with nothing after it but the guard) is left with a max near 1:
     * exp(99) overflows. 1 in 1024 dominant entries cannot show either: a
     * term more or less in a sum over 16384 of them is a 6e-5 change, under
     * the tolerance at 2^24 columns (2e-3). */
    {.group = "dominant", .dim = RC(3, 16777259), .gen = MW_GEN_LONE_WIDE, .scale = 1},
    /* 2^26 elements (256 MB each way): past the L2. */
    {.group = "large", .dim = RC(65536, 1024), .gen = MW_GEN_UNIFORM, .scale = 1},
    {.group = "large", .dim = RC(16, 1 << 22), .gen = MW_GEN_UNIFORM, .scale = 1},
    /* 2^31 + 1024 elements (8.6 GB each way): row * cols overflows an int
     * (sampled: both ends, around 2^31, and at random). */
    {.group = "large", .dim = RC(((size_t)1 << 21) + 1, 1024),
     .gen = MW_GEN_UNIFORM, .scale = 1, .sampled = 1},
    /* Past 2^32 elements (17 GB each way), where blockIdx.x * cols in 32
     * bits wraps: rows a block each, and rows of 33 columns at a warp a
     * row, 2^32 threads. */
    {.group = "large", .dim = RC(((size_t)1 << 18) + 1, 16384),
     .gen = MW_GEN_UNIFORM, .scale = 1, .sampled = 1},
    {.group = "large", .dim = RC(((size_t)1 << 27) + 1, 33),
     .gen = MW_GEN_UNIFORM, .scale = 1, .sampled = 1},
    /* One row of 2^31 + 4 columns (8.6 GB each way), where an int column
     * index overflows, past what any split of a row over resident blocks
     * holds. Its last 4 entries, past 2^31, are +100 and the rest uniform
     * (the tail class): they hold the row's max and all of its sum, so a
     * pass whose int index stops at 2^31 is far off (a max of 1, exp(99)
     * overflows; a sum of e^-100 terms, 10^34 times too small), and every
     * partial sum is exact in FP32. A block of 256 threads takes 12 s for
     * the three passes over it, twice: 2^32 columns would double that. */
    {.group = "large", .dim = RC(1, ((size_t)1 << 31) + 4),
     .gen = MW_GEN_TAIL, .scale = 1, .sampled = 1},
    /* Rows around the shared memory a block may have, on the GPU at hand
     * (mw_case.at, resolved when the check starts; the H100's values until
     * then): a row of 12288 floats fills the default 48 KiB, 58112 the
     * 227 KiB opt-in maximum. A kernel that keeps its row in dynamic shared
     * memory must opt in past the default (cudaFuncSetAttribute) and fall
     * back past the maximum; its static __shared__ arrays count against the
     * same limit, so a 32-float reduction array (128 B) moves the edge 32
     * floats down. Each edge: one under, at, one past; and the same 32
     * floats lower. 7 rows of at most 227 KiB: small. */
#define SMEM(lim, dlt)                                                                        \
    {.group = "smem",                                                                         \
     .dim = {7, (size_t)((long)((lim) == MW_LIMIT_SMEM_OPTIN ? MW_H100_SMEM_OPTIN             \
                                                              : MW_H100_SMEM_DEFAULT) / 4 +   \
                         (dlt))},                                                             \
     .gen = MW_GEN_UNIFORM, .scale = 1, .at = {.limit = (lim), .dim = 1, .delta = (dlt)}}
#define SMEM_EDGE(lim) SMEM(lim, -33), SMEM(lim, -32), SMEM(lim, -31), \
                       SMEM(lim, -1), SMEM(lim, 0), SMEM(lim, 1)
    SMEM_EDGE(MW_LIMIT_SMEM_DEFAULT),
    SMEM_EDGE(MW_LIMIT_SMEM_OPTIN),
    /* Grid limits. 65537 rows of 32769 columns (8.6 GB each way, sampled):
     * rows past gridDim.y's 65535 that are too long for one block, where a
     * kernel that splits a row over blocks may put the rows on y (the
     * shorter rows past 65535 are in the large group). Then 2^31 - 1 rows,
     * the most the header allows, of 2 columns (17 GB each way): one block
     * a row is gridDim.x's largest, 2^31 - 1 blocks, and a launcher that
     * rounds the row count up in an int or adds a block overflows. */
    {.group = "grid", .dim = {65537, 32769}, .gen = MW_GEN_UNIFORM, .scale = 1, .sampled = 1},
    {.group = "grid", .dim = {((size_t)1 << 31) - 1, 2}, .gen = MW_GEN_UNIFORM, .scale = 1,
     .sampled = 1},
};

/* 2^28 elements whatever the row length. */
#define B(k)                                                                                  \
    {.group = "bench", .dim = RC((size_t)1 << (28 - (k)), (size_t)1 << (k)),                  \
     .gen = MW_GEN_UNIFORM, .scale = 1}
static const mw_case bench_cases[] = {B(5),  B(7),  B(9),  B(10), B(11), B(12),
                                      B(13), B(14), B(15), B(16), B(18), B(20)};
static const size_t traffic_sizes[] = {1 << 10, 1 << 14, 1 << 16, 1 << 20};

static void buffers(const mw_case *c, mw_buffer_spec *s)
{
    s[X] = (mw_buffer_spec){"x", c->dim[0] * c->dim[1], 0};
    s[Y] = (mw_buffer_spec){"y", c->dim[0] * c->dim[1], 1};
}

/* y is rows by columns; a kernel splits a row, it does not tile it. */
static void output_shape(const mw_case *c, int b, mw_shape *s)
{
    (void)b;
    mw_shape_axis(s, "row", c->dim[0]);
    mw_shape_axis(s, "col", c->dim[1]);
}

static void describe(const mw_case *c, char *text, size_t len)
{
    const char *what = c->gen == MW_GEN_NEGINF     ? " (1 in 8 entries -inf)"
                       : c->gen == MW_GEN_RARE_NAN ? " (rare NaN entries)"
                       : c->gen == MW_GEN_LOGPROB  ? " (every entry in [-101, -99))"
                       : c->gen == MW_GEN_DOMINANT ? " (1 in 1024 entries +100)"
                       : c->gen == MW_GEN_MASKED   ? " (every other run of 32768 entries -inf)"
                       : c->gen == MW_GEN_TAIL     ? " (entries from index 2^31 on +100)"
                       : c->gen == MW_GEN_LONE     ? " (one entry in 1031 +100, alone in its row)"
                       : c->gen == MW_GEN_LONE_WIDE ? " (each row's first entry +100, alone in its row)"
                       : c->scale > 100            ? " (inputs of scale 1e4)"
                                                   : "";
    size_t n = c->dim[0] * c->dim[1];
    const char *limit =
        c->dim[1] > ((size_t)1 << 31) ? " [limit: 2^31 columns, where an int column index overflows]"
        : n > ((size_t)1 << 32)
            ? " [limit: 2^32 elements, where a row offset or a thread index in 32 bits wraps]"
        : n > ((size_t)1 << 31) ? " [limit: 2^31 elements, where row * cols overflows an int]"
                                : "";
    const char *grid = c->dim[0] >= ((size_t)1 << 31) - 1 ? " [grid: 2^31 - 1 rows, gridDim.x's most]"
                       : c->dim[0] > 65535 && c->dim[1] > 16384
                           ? " [grid: rows past gridDim.y's 65535, longer than one block holds]"
                           : "";
    char smem[96];
    mw_dim_at_limit_label(c, smem, sizeof smem);
    snprintf(text, len, "rows=%zu cols=%zu%s%s%s%s", c->dim[0], c->dim[1], what, limit, grid, smem);
}

static double bench_x(const mw_case *c)
{
    return (double)c->dim[1];
}

typedef cudaError_t (*softmax_fn)(const float *, float *, size_t, size_t, cudaStream_t);

static cudaError_t launch(void *fn, const mw_case *c, float *const *b, cudaStream_t s)
{
    return ((softmax_fn)fn)(b[X], b[Y], c->dim[0], c->dim[1], s);
}

/* Each output is exp(x - max) / sum. With __expf, exp's relative error is a
 * few ulps plus about 2^-23 per unit of |x - max| (under 90 where the result
 * is not 0); the sum of cols positive terms adds rounding that grows with
 * the row (about sqrt(cols) ulps for tree or strided sums). So
 * rtol = 1e-5 + 8 sqrt(cols) 2^-24: 2.5e-5 at 1024 columns, 5e-4 at 2^20.
 * A bf16 computation (relative error about 4e-3) fails at every length; an
 * fp16 one (about 5e-4) fails below about a million columns. 1e-30
 * absolute covers results flushed to 0. */
static mw_tol tolerance(const mw_case *c)
{
    return (mw_tol){1e-30, 1e-5 + 8 * sqrt((double)c->dim[1]) * ldexp(1.0, -24)};
}

static void model(const mw_case *c, double *read, double *write, double *flops)
{
    double n = (double)c->dim[0] * (double)c->dim[1];
    *read = 4 * n;
    *write = 4 * n;
    *flops = 5 * n;
}

/* ---- the mistakes the grader names -------------------------------------- */

/* exp(x) / sum exp(x): overflows to Inf / Inf = NaN for inputs past 88. */
static double no_max(const mw_case *c, const mw_inputs *in, size_t i)
{
    size_t cols = c->dim[1], row = i / cols;
    double sum = 0;
    for (size_t j = 0; j < cols; j++) {
        float e = expf(mw_input(in, X, row * cols + j)); /* in float, as a kernel would */
        sum += e;
    }
    return (double)expf(mw_input(in, X, i)) / (float)sum;
}

/* exp(x - max) / sum exp(x): the numerator shifted, the sum not. */
static double unshifted_sum(const mw_case *c, const mw_inputs *in, size_t i)
{
    size_t cols = c->dim[1], row = i / cols;
    double max, shifted;
    mw04_row_stats(c, in, row, &max, &shifted);
    double sum = 0;
    for (size_t j = 0; j < cols; j++)
        sum += exp((double)mw_input(in, X, row * cols + j));
    return exp((double)mw_input(in, X, i) - max) / sum;
}

/* A row whose every entry is -inf given 0s (a guard that returns 0 when the
 * max is -inf) instead of 0/0 = NaN; every other row right. */
static double masked_row_zero(const mw_case *c, const mw_inputs *in, size_t i)
{
    double max, sum;
    mw04_row_stats(c, in, i / c->dim[1], &max, &sum);
    return max == -INFINITY ? 0.0 : mw04_reference(c, in, i);
}

/* A warp per short row whose lanes past the row's end hold 0, not -inf:
 * the max is at least 0, and each of the 32 ceil(cols / 32) - cols
 * padding lanes adds exp(0 - max) to the sum. Rows of a multiple of 32
 * have no padding (short_row leaves them out). */
static double padded_lanes(const mw_case *c, const mw_inputs *in, size_t i)
{
    size_t cols = c->dim[1], row = i / cols, pad = (32 - cols % 32) % 32;
    if (pad == 0)
        return NAN;
    double m = 0, sum = 0;
    for (size_t j = 0; j < cols; j++)
        m = fmax(m, (double)mw_input(in, X, row * cols + j));
    for (size_t j = 0; j < cols; j++)
        sum += exp((double)mw_input(in, X, row * cols + j) - m);
    sum += (double)pad * exp(-m);
    return exp((double)mw_input(in, X, i) - m) / sum;
}

/* A warp per row is for rows of up to a few warps' worth, and only a row
 * that is not a multiple of 32 has lanes past its end: elsewhere the
 * value is NaN, which a NaN output would match. */
static int short_row(const mw_case *c)
{
    return c->dim[1] <= 1024 && c->dim[1] % 32 != 0;
}

/* no_max and unshifted_sum sum the whole row, on one core, for each element
 * a failure shows: a tenth of a second at 2^24 columns, a minute at 2^31,
 * past that case's time limit. Every input class meets them at 2^24 and
 * below. */
static int row_sum_affordable(const mw_case *c)
{
    return c->dim[1] <= ((size_t)1 << 24);
}

static const mw_mistake mistakes[] = {
    {"no max subtraction: exp(x) overflows past x = 88 (exp(89) > FLT_MAX) and Inf / Inf is "
     "NaN; compute exp(x - max) instead",
     no_max, row_sum_affordable},
    {"normalized by the sum of the unshifted exp(x): the sum needs the same shift, "
     "sum exp(x - max)",
     unshifted_sum, row_sum_affordable},
    {"a row whose every entry is -inf came out 0: its softmax is 0/0, NaN (as PyTorch "
     "gives); let the NaN through rather than writing 0",
     masked_row_zero},
    {"lanes past the row's end counted: lanes that hold 0 for a short row add exp(0 - max) "
     "to the sum and raise the max to 0; give them -inf for the max and 0 in the sum",
     padded_lanes, short_row},
};

/* Wrong elements of one row whose ratios to the right values agree (to
 * 1e-4) and are not 1: the row is right up to one factor, its normalizer.
 * Judged on the elements a report shows, when two or more share a row. */
static int explain(const mw_case *c, const mw_inputs *in, const mw_mismatch *per,
                   char hints[][256], int max)
{
    (void)in;
    const mw_mismatch *m = &per[Y];
    size_t cols = c->dim[1];
    int same_row = 0, proportional = 1;
    double ratio0 = NAN;
    for (int j = 0; j < m->nshow; j++) {
        if (m->show_index[j] / cols != m->show_index[0] / cols)
            continue;
        double ratio = (double)m->show_got[j] / m->show_ref[j];
        if (!isfinite(ratio) || m->show_ref[j] == 0) {
            proportional = 0;
            break;
        }
        if (same_row++ == 0)
            ratio0 = ratio;
        else
            proportional &= fabs(ratio - ratio0) <= 1e-4 * fabs(ratio0);
    }
    if (max <= 0 || same_row < 2 || !proportional || fabs(ratio0 - 1) <= 1e-3)
        return 0;
    snprintf(hints[0], 256,
             "a row is right up to one factor (x%.4g): its normalizer, the sum, is wrong; in "
             "an online softmax rescale the running sum by exp(m_old - m_new) whenever the "
             "max grows (not by its inverse, nor not at all)",
             ratio0);
    return 1;
}

/* ---- library baselines -------------------------------------------------- */

// BEGIN INSTRUCTOR ONLY
static cudaError_t three_pass_run(void *state, const mw_case *c, float *const *b, cudaStream_t s)
{
    (void)state;
    return mw04_three_pass(b[X], b[Y], c->dim[0], c->dim[1], s);
}
// END INSTRUCTOR ONLY

static int no_state(void **state)
{
    *state = NULL;
    return 0;
}

static cudaError_t copy_run(void *state, const mw_case *c, float *const *b, cudaStream_t s)
{
    (void)state;
    return mw_gpu_copy_async(b[Y], b[X], c->dim[0] * c->dim[1] * sizeof(float), s);
}

static void copy_model(const mw_case *c, double *read, double *write, double *flops)
{
    model(c, read, write, flops);
    *flops = 0;
}

#ifdef MW_HAVE_CUDNN
typedef struct cudnn_state {
    cudnnHandle_t handle;
    cudnnTensorDescriptor_t desc;
} cudnn_state;

static int cudnn_setup(void **state)
{
    cudnn_state *st = calloc(1, sizeof *st);
    if (!st)
        return -1;
    MW_CUDNN_TRY(cudnnCreate(&st->handle), return -1);
    MW_CUDNN_TRY(cudnnCreateTensorDescriptor(&st->desc), return -1);
    *state = st;
    return 0;
}

/* Accurate (max-subtracting) softmax over C*H*W for each N: N = rows,
 * C = cols. */
static cudaError_t cudnn_run(void *state, const mw_case *c, float *const *b, cudaStream_t s)
{
    cudnn_state *st = state;
    const float one = 1.f, zero = 0.f;
    cudnnSetStream(st->handle, s);
    if (cudnnSetTensor4dDescriptor(st->desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT,
                                   (int)c->dim[0], (int)c->dim[1], 1, 1) != CUDNN_STATUS_SUCCESS ||
        cudnnSoftmaxForward(st->handle, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE, &one,
                            st->desc, b[X], &zero, st->desc, b[Y]) != CUDNN_STATUS_SUCCESS)
        return cudaErrorUnknown;
    return cudaSuccess;
}

static void cudnn_teardown(void *state)
{
    cudnn_state *st = state;
    cudnnDestroyTensorDescriptor(st->desc);
    cudnnDestroy(st->handle);
    free(st);
}
#endif

static const mw_library libraries[] = {
#ifdef MW_HAVE_CUDNN
    {.name = "cudnnSoftmaxForward",
     .kind = "library",
     .setup = cudnn_setup,
     .run = cudnn_run,
     .teardown = cudnn_teardown,
     .computes_output = 1},
#endif
    // BEGIN INSTRUCTOR ONLY
    {.name = "unfused_three_pass",
     .kind = "reference",
     .setup = no_state,
     .run = three_pass_run,
     .computes_output = 1},
    // END INSTRUCTOR ONLY
    {.name = "cudaMemcpy", .kind = "roof", .setup = no_state, .run = copy_run, .model = copy_model},
};

/* ---- verdict ------------------------------------------------------------ */

static void verdict(const mw_result *r, int count, double copy_gbps)
{
    printf("\nverdict (GB/s by the 8-byte model; the copy roof is %.0f GB/s):\n", copy_gbps);
    printf("  %8s %14s %14s %14s %10s\n", "cols", "fused ref", "cudnn", "three-pass", "fused/cudnn");
    for (int i = 0; i < count; i++) {
        if (strcmp(r[i].impl, "reference/02_fused") != 0 || isnan(r[i].median_ms))
            continue;
        const mw_result *lib = mw_result_at(r, count, "library/cudnnSoftmaxForward", r[i].size);
        const mw_result *three = mw_result_at(r, count, "reference/unfused_three_pass", r[i].size);
        char label[32];
        mw_size_label(r[i].size, label, sizeof label);
        printf("  %8s %9.0f GB/s %9.0f GB/s %9.0f GB/s %9.2fx\n", label, r[i].gbps,
               lib ? lib->gbps : NAN, three ? three->gbps : NAN,
               lib ? lib->median_ms / r[i].median_ms : NAN);
    }
#ifndef MW_HAVE_CUDNN
    printf("  cuDNN was not found at build time: no library column.\n");
#endif
    printf("  Softmax reads and writes each element once at best: 8 bytes, a copy's. A fused\n"
           "  kernel that holds the row on chip runs near the copy roof; three passes read the\n"
           "  row three times. Rows too long for the chip need a second read (the online form).\n");
}

/* On the CPU emulation a row costs what its block costs: up to 1024 threads
 * and their barriers, whatever the row's length. A row of the online
 * version took about as long there as 2^14 elements of chapter 01. */
static double emulation_work(const mw_case *c)
{
    return (double)c->dim[0] * 16384;
}

/* The references' layouts of the rows over a 1-D grid, from their launch
 * shapes: a block a row (01_three_pass, 03_online; 02_fused from 1025
 * columns to what one block holds), or R rows a block (02_fused's short
 * rows: a warp, or a group of G lanes, a row: R = blockDim / G), R a power
 * of two up to the block's threads; y[row][col] in block row / R, R told by
 * the grid: ceil(rows / R) blocks. A grid of fewer blocks than any R gives
 * is too small (a grid-stride loop over the rows). The CPU emulation runs
 * these blocks and no others (grader/emulation.h). */
static int emulation_blocks(const mw_case *c, size_t i, const unsigned grid[3],
                            const unsigned block[3], uint64_t blocks[MW_EMULATION_BLOCKS])
{
    const size_t rows = c->dim[0], row = i / c->dim[1];
    const size_t threads = (size_t)block[0] * block[1] * block[2];
    int n = 0;
    for (size_t per = 1; per <= threads && n < MW_EMULATION_BLOCKS; per *= 2)
        if ((rows + per - 1) / per == grid[0])
            blocks[n++] = row / per;
    return n;
}

/* Grids whose blocks emulation_blocks cannot name: more blocks than rows
 * (a row split over several blocks, as 02_fused does past what one block
 * holds: its blocks take their parts of a row by ticket and wait for each
 * other, so that a sample of them would wait for blocks that never run),
 * and rows on y or z. */
static const char *emulation_layout(const mw_case *c, const unsigned grid[3],
                                    const unsigned block[3])
{
    (void)block;
    if (grid[1] > 1 || grid[2] > 1)
        return "a grid over y or z (the references put the rows on x: which block writes "
               "which row, a sample cannot tell)";
    if (grid[0] > c->dim[0])
        return "a row split over several blocks (more blocks than rows: which block writes "
               "which part of a row, and which blocks wait for which, a sample cannot tell)";
    return NULL;
}

/* The sampled cases, and the lone class: small on a GPU, which checks it
 * whole, but 1031 blocks of up to 1024 threads on the emulation, past its
 * budget. */
static int emulation_samples(const mw_case *c)
{
    return c->sampled || c->gen == MW_GEN_LONE;
}

const mw_chapter mw_chapter_def = {
    .prepare_reference = mw04_prepare_reference,
    .reference_threads = 1, /* once prepared, each row's statistics are only read */
    .emulation_work = emulation_work,
    .emulation_blocks = emulation_blocks,
    .emulation_layout = emulation_layout,
    .emulation_samples = emulation_samples,
    /* A row costs the emulation a block of up to 1024 threads: the rows of
     * 16 elements at each edge and 8 rows at random, where chapter 01 takes
     * 512 blocks of 256 cheap threads. */
    .emulation_sample_edge = 16,
    .emulation_sample_random = 8,
    .id = "04-softmax",
    .title = "Chapter 04: row softmax",
    .size_label = "row length (cols), 2^28 elements in all",
    .roof = "copy",
    .versions = versions,
    .nversions = sizeof versions / sizeof versions[0],
    .cases = cases,
    .ncases = sizeof cases / sizeof cases[0],
    .bench_cases = bench_cases,
    .nbench = sizeof bench_cases / sizeof bench_cases[0],
    .traffic_sizes = traffic_sizes,
    .ntraffic = sizeof traffic_sizes / sizeof traffic_sizes[0],
    .nbufs = 2,
    .buffers = buffers,
    .describe = describe,
    .output_shape = output_shape,
    .bench_x = bench_x,
    .launch = launch,
    .reference = mw04_reference,
    .tolerance = tolerance,
    .model = model,
    .mistakes = mistakes,
    .nmistakes = sizeof mistakes / sizeof mistakes[0],
    .explain = explain,
    .libraries = libraries,
    .nlibraries = sizeof libraries / sizeof libraries[0],
    .verdict = verdict,
};
