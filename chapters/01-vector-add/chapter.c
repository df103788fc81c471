/* chapter.c: chapter 01, vector add, as the grader sees it.
 *
 * c[i] = a[i] + b[i]. Minimum DRAM traffic: read a and b, write c, 12 bytes
 * per element; 1 FLOP per element. The library line is cublasSgeam
 * (C = 1*A + 1*B, the n floats seen as a matrix as square as n's factors
 * of two allow: mw_geam in grader/vector_libs.h), the speed of light a
 * device-to-device cudaMemcpy of n floats (8 bytes per element: read +
 * write). */
#include "mw.h"

#include "vector_add.h"
#include "vector_libs.h"
#include "verdict_results.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { A, B, C };

static const mw_version versions[] = {
    {.file = "01_naive",
     .symbol = "add_naive",
     .budget = "one thread per element; 2 reads + 1 write (12 bytes) each"},
    {.file = "02_fast",
     .symbol = "add_fast",
     .budget = "float4 accesses, any n, any alignment; the same 12 bytes, at the memory roof"},
};

#define N(n) {(n), 0, 0}
#define OFFSETS(x, y, z) {(x), (y), (z), 0}
#define TWO31 ((size_t)1 << 31)
#define TWO32 ((size_t)1 << 32)
#define TWO33 ((size_t)1 << 33)
#define U MW_GEN_UNIFORM
/* A view offset by o floats from a 256-byte boundary has a head of
 * (4 - o % 4) % 4 elements before its first 16-byte boundary. The offset
 * group's rows below take every (head, remainder) pair of a float4 kernel:
 * head 3, 2, 1 (offsets 1, 2, 3) times (n - head) % 4 = 0, 1, 2, 3; head 0
 * is the tail group's. */
#define SHIFTED(group_, n, o) \
    {.group = (group_), .dim = N(n), .offset = OFFSETS(o, o, o), .gen = U, .scale = 1}
#define HEAD_REM(o, head) \
    SHIFTED("offset", 4096 + (head) + 0, o), SHIFTED("offset", 4096 + (head) + 1, o), \
    SHIFTED("offset", 4096 + (head) + 2, o), SHIFTED("offset", 4096 + (head) + 3, o)
/* Shorter than the head: n = 1, 2, 3 at each misalignment. */
#define SHORT(o) SHIFTED("edge", 1, o), SHIFTED("edge", 2, o), SHIFTED("edge", 3, o)

static const mw_case cases[] = {
    /* n = 0 must launch nothing; 1-3 are shorter than one float4. */
    {.group = "edge", .dim = N(0), .gen = U, .scale = 1},
    {.group = "edge", .dim = N(1), .gen = U, .scale = 1},
    {.group = "edge", .dim = N(2), .gen = U, .scale = 1},
    {.group = "edge", .dim = N(3), .gen = U, .scale = 1},
    SHORT(1), SHORT(2), SHORT(3),
    /* Not multiples of 32, of the block, or of 4: remainders 3, 1, 3, 1,
     * 2 and 3 (prime); 4096 has none. */
    {.group = "tail", .dim = N(31), .gen = U, .scale = 1},
    {.group = "tail", .dim = N(33), .gen = U, .scale = 1},
    {.group = "tail", .dim = N(255), .gen = U, .scale = 1},
    {.group = "tail", .dim = N(257), .gen = U, .scale = 1},
    {.group = "tail", .dim = N(4098), .gen = U, .scale = 1},
    {.group = "tail", .dim = N(1000003), .gen = U, .scale = 1},
    {.group = "tail", .dim = N(4096), .gen = U, .scale = 1},
    /* Views that start off a 16-byte boundary: every (head, remainder)
     * with one shift; then larger, and each view alone misaligned, or all
     * three differently (no float4 path at all). */
    HEAD_REM(1, 3), HEAD_REM(2, 2), HEAD_REM(3, 1),
    {.group = "offset", .dim = N(1000003), .offset = OFFSETS(1, 1, 1), .gen = U, .scale = 1},
    {.group = "offset", .dim = N(1000003), .offset = OFFSETS(1, 2, 3), .gen = U, .scale = 1},
    {.group = "offset", .dim = N(65536), .offset = OFFSETS(1, 0, 0), .gen = U, .scale = 1},
    {.group = "offset", .dim = N(65536), .offset = OFFSETS(0, 1, 0), .gen = U, .scale = 1},
    {.group = "offset", .dim = N(65536), .offset = OFFSETS(0, 0, 1), .gen = U, .scale = 1},
    /* NaN, +-Inf, -0.0: IEEE addition must come through unchanged. */
    {.group = "special", .dim = N(100003), .gen = MW_GEN_SPECIAL, .scale = 1},
    /* Past the 50 MB L2. */
    {.group = "large", .dim = N((size_t)1 << 26), .gen = U, .scale = 1},
    /* Each index limit crossed in each path (describe() names which),
     * checked on both ends, around 2^31 and 2^32, and on a sample: an int
     * index past 2^31 (25.8 GB) in the scalar tail, in the float4 body and
     * where only scalar accesses run; an unsigned 32-bit product such as
     * blockIdx.x * blockDim.x past 2^32 (51.5 GB), in the float4 and the
     * scalar path; an int count of float4s past 2^33 elements, with a and
     * b one buffer (a + a, which the interface allows: 69 GB where two
     * inputs would need 103 GB, more than an 80 GB GPU holds). A case the
     * GPU cannot hold is skipped, saying so. */
    {.group = "huge", .dim = N(TWO31 + 3), .gen = U, .scale = 1, .sampled = 1},
    {.group = "huge", .dim = N(TWO31 + 8), .gen = U, .scale = 1, .sampled = 1},
    {.group = "huge", .dim = N(TWO31 + 3), .offset = OFFSETS(1, 2, 3), .gen = U, .scale = 1,
     .sampled = 1},
    {.group = "huge", .dim = N(TWO32 + 3), .gen = U, .scale = 1, .sampled = 1},
    {.group = "huge", .dim = N(TWO32 + 3), .offset = OFFSETS(1, 2, 3), .gen = U, .scale = 1,
     .sampled = 1},
    {.group = "huge", .dim = N(TWO33 + 8), .gen = U, .scale = 1, .sampled = 1, .shared_inputs = 1},
};

#define BENCH(k) {.group = "bench", .dim = N((size_t)1 << (k)), .gen = MW_GEN_UNIFORM, .scale = 1}
static const mw_case bench_cases[] = {
    BENCH(10), BENCH(11), BENCH(12), BENCH(13), BENCH(14), BENCH(15), BENCH(16),
    BENCH(17), BENCH(18), BENCH(19), BENCH(20), BENCH(21), BENCH(22), BENCH(23),
    BENCH(24), BENCH(25), BENCH(26), BENCH(27), BENCH(28),
};
static const size_t traffic_sizes[] = {1 << 16, 1 << 20, 1 << 24, 1 << 28};

static void buffers(const mw_case *c, mw_buffer_spec *s)
{
    s[A] = (mw_buffer_spec){"a", c->dim[0], 0};
    s[B] = (mw_buffer_spec){"b", c->dim[0], 0};
    s[C] = (mw_buffer_spec){"c", c->dim[0], 1};
}

/* c is one axis of n elements. */
static void output_shape(const mw_case *c, int b, mw_shape *s)
{
    (void)b;
    mw_shape_axis(s, "i", c->dim[0]);
}

static void describe(const mw_case *c, char *text, size_t len)
{
    const char *limit = mw_index_limit_label(c->dim[0], c->offset, 3);
    if (c->offset[A] || c->offset[B] || c->offset[C])
        snprintf(text, len, "n=%zu (views offset by %zu,%zu,%zu floats)%s", c->dim[0],
                 c->offset[A], c->offset[B], c->offset[C], limit);
    else
        snprintf(text, len, "n=%zu%s%s%s", c->dim[0],
                 c->gen == MW_GEN_SPECIAL ? " (with NaN, Inf, -0)" : "",
                 c->shared_inputs ? " (a and b one buffer)" : "", limit);
}

static double bench_x(const mw_case *c)
{
    return (double)c->dim[0];
}

typedef cudaError_t (*add_fn)(const float *, const float *, float *, size_t, cudaStream_t);

static cudaError_t launch(void *fn, const mw_case *c, float *const *bufs, cudaStream_t s)
{
    return ((add_fn)fn)(bufs[A], bufs[B], bufs[C], c->dim[0], s);
}

/* The sum in double: exact for the uniform inputs (24-bit values), within
 * 2^-53 relative where a special value (1e-30) meets a uniform one. */
static double reference(const mw_case *c, const mw_inputs *in, size_t i)
{
    (void)c;
    return (double)mw_input(in, A, i) + (double)mw_input(in, B, i);
}

/* One float add rounds once: the result is within half an ulp (2^-24
 * relative) of the exact sum. One ulp (2^-23) leaves room for nothing else:
 * an answer computed any other way than a[i] + b[i] in float fails. */
static mw_tol tolerance(const mw_case *c)
{
    (void)c;
    return (mw_tol){0.0, ldexp(1.0, -23)};
}

static void model(const mw_case *c, double *read, double *write, double *flops)
{
    double n = (double)c->dim[0];
    *read = 8 * n;
    *write = 4 * n;
    *flops = n;
}

/* The canonical mappings of a huge case's outputs to the blocks of a 1-D
 * grid, from the references' launch shapes: one element a thread
 * (01_naive; 02_fast's scalar path), c[i] in block i / blockDim; one
 * float4 a thread after a head of 0 to 3 elements (02_fast's body), c[i]
 * in block (i - head) / 4 / blockDim, the head unknown here, so both ends
 * of that range. The head and the last 0 to 3 elements are the first
 * threads', in block 0, which every sample runs. The CPU emulation runs
 * these blocks and no others (grader/emulation.h). */
static int emulation_blocks(const mw_case *c, size_t i, const unsigned grid[3],
                            const unsigned block[3], uint64_t blocks[MW_EMULATION_BLOCKS])
{
    (void)c;
    const uint64_t nblocks = (uint64_t)grid[0] * grid[1] * grid[2];
    const uint64_t threads = (uint64_t)block[0] * block[1] * block[2];
    const uint64_t candidate[3] = {i / threads, i / (4 * threads),
                                   (i >= 3 ? i - 3 : 0) / (4 * threads)};
    int n = 0;
    for (int k = 0; k < 3; k++) {
        int seen = 0;
        for (int m = 0; m < n; m++)
            seen |= blocks[m] == candidate[k];
        if (candidate[k] < nblocks && !seen)
            blocks[n++] = candidate[k];
    }
    return n;
}

/* ---- library baselines ------------------------------------------------- */

/* The CPU emulation (MW_SIM) has no cuBLAS or cuDNN: no library rows there. */
#ifndef MW_SIM
static cudaError_t geam_run(void *state, const mw_case *c, float *const *bufs, cudaStream_t s)
{
    return mw_geam(state, 1.f, bufs[A], 1.f, bufs[B], bufs[C], c->dim[0], s);
}
#endif

static cudaError_t copy_run(void *state, const mw_case *c, float *const *bufs, cudaStream_t s)
{
    (void)state;
    return mw_copy_into(bufs, C, c, s);
}

static const mw_library libraries[] = {
#ifndef MW_SIM
    {.name = "cublasSgeam",
     .kind = "library",
     .setup = mw_cublas_setup,
     .run = geam_run,
     .teardown = mw_cublas_teardown,
     .computes_output = 1},
#endif
    {.name = "cudaMemcpy",
     .kind = "roof",
     .setup = mw_copy_setup,
     .run = copy_run,
     .model = mw_copy_model},
};

/* ---- verdict ------------------------------------------------------------ */

static void verdict(const mw_result *r, int count, double copy_gbps)
{
    const mw_result *lib = mw_result_find(r, count, "library/cublasSgeam");
    const mw_result *ref = mw_result_find(r, count, "reference/02_fast");
    const mw_result *mine = mw_result_find(r, count, "student/02_fast");
    printf("\nverdict:\n");
    if (lib)
        printf("  cublasSgeam moves %.0f GB/s, %.0f%% of the measured copy roof (%.0f GB/s).\n",
               lib->gbps, 100 * lib->gbps / copy_gbps, copy_gbps);
    if (lib && ref)
        printf("  The fast reference runs at %.2fx the library's speed (%.0f GB/s).\n",
               lib->median_ms / ref->median_ms, ref->gbps);
    if (lib && mine)
        printf("  Your 02_fast runs at %.2fx the library's speed (%.0f GB/s).\n",
               lib->median_ms / mine->median_ms, mine->gbps);
    printf("  A plain add is bound by memory: 12 bytes for 1 FLOP. The library is already at\n"
           "  the roof, and a custom add can only match it. Nothing is gained by writing one\n"
           "  except the skill of measuring; chapter 02 shows where a kernel of your own pays.\n");
}

const mw_chapter mw_chapter_def = {
    .id = "01-vector-add",
    .title = "Chapter 01: vector add",
    .size_label = "elements (n)",
    .roof = "copy",
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
    .reference = reference,
    .reference_threads = 1, /* a sum of two inputs, recomputed from the seed: nothing shared */
    .tolerance = tolerance,
    .model = model,
    .libraries = libraries,
    .nlibraries = sizeof libraries / sizeof libraries[0],
    .verdict = verdict,
    .emulation_blocks = emulation_blocks,
};
