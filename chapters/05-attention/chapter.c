/* chapter.c: chapter 05, self-attention forward in FP32 (exercise 05.3: in
 * bf16 on the tensor cores), as the grader sees it.
 *
 * Per (batch, head): S = scale Q K^T (causal: S_ij = -inf for j > i),
 * P = softmax(S) by rows, O = P V, L_i = log sum_j exp(S_ij). Q, K, V, O
 * are [B, H, N, d]; L is [B, H, N].
 *
 * FLOPs: 4 B H N^2 d (two products of 2 N^2 d each per head), halved when
 * causal: the convention of the FlashAttention benchmarks. Minimum DRAM
 * traffic: Q, K, V read and O written once, 16 B H N d bytes, plus L's
 * 4 B H N. The unfused form adds S written and read and P written and
 * read: about 16 B H N^2 bytes more. Flash attention's intensity is about
 * N/4 FLOP per byte: right of the H100's FP32 ridge (about 17) from N of
 * about 70; the roof is the FFMA roof (the FP32 units' rate, measured by a
 * microkernel of independent FFMA: grader/roofs_kernels.cu).
 *
 * Baselines in the same run: the composition a user would write from
 * library calls (cublasSgemmStridedBatched, a mask kernel when causal,
 * cudnnSoftmaxForward, cublasSgemmStridedBatched; library.c), which needs
 * the N x N scores in memory and returns O only (no L); for 05.3, in bf16,
 * cuDNN's fused attention (cudnn_sdpa.c, through the backend API) and the
 * same composition with bf16 GEMMs on the tensor cores. 05.3 is measured
 * against the roof of the instruction it uses, mma.sync m16n8k16 bf16; the
 * bf16 libraries against the bf16 peak (wgmma on sm_90a). */
#ifndef MW_SIM
#define MW_WITH_CUBLAS
#endif
#include "mw.h"

#include "attention.h"
#include "cuda_check.h"
#include "harness.h"
#include "library.h"
#include "reference.h"
#include "tolerance.h"
#include "verdict_results.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The unfused version's scores: B H N N floats (past 2^31 at N = 16384). */
static size_t scores_floats(const mw_case *c)
{
    return DB(c) * DH(c) * DN(c) * DN(c);
}

static const mw_version versions[] = {
    {.file = "01_unfused",
     .symbol = "attention_unfused",
     .budget = "three kernels through an N x N workspace: S and P written and read, 16 B H N^2 "
               "bytes on top of the minimum",
     .op = MW_OP_FROM_CASE,
     .workspace = scores_floats},
    {.file = "02_flash",
     .symbol = "attention_flash",
     .budget = "one kernel, S never leaves the chip: Q, K, V read and O, L written once, "
               "16 B H N d bytes; causal skips the tiles above the diagonal",
     .op = MW_OP_FROM_CASE},
    {.file = "03_flash_bf16",
     .symbol = "attention_flash_bf16",
     .budget = "02_flash on the tensor cores in bf16: Q, K, V read and O written once in bf16, "
               "8 B H N d bytes; both products by mma.sync with FP32 accumulation",
     .op = MW_OP_FROM_CASE_WITH(OP_BF16),
     .optional = 1,
     .roof = "bf16_mma"},
    {.file = "04_flash_wgmma",
     .symbol = "attention_flash_wgmma",
     .budget = "03_flash_bf16 on Hopper's own instructions: the same 8 B H N d bytes, loaded by "
               "TMA into swizzled shared memory, both products by wgmma with FP32 accumulation",
     .op = MW_OP_FROM_CASE_WITH(OP_BF16),
     .optional = 1,
     .roof = "bf16_wgmma"},
};

/* ---- the cases, by construction ------------------------------------------
 *
 * Every sequence length with every head size, causal and not: N in {1, 2,
 * 31, 33, 64, 127, 128, 1000, 4096} (1 and 2: a tile that is almost all
 * padding; 31, 33, 127, 1000: not a multiple of 16, 32 or 64; 64, 128 and
 * 4096: whole tiles, one, two and many; 128 at one head is also the
 * cheapest case of its class for racecheck, race_class below), d in {32,
 * 64, 128}. (B, H) cycles through (1, 1), (1, 3),
 * (3, 1) and (2, 8) so that B and H are told apart and B H = 16 appears at
 * every length class. Scale: 1/sqrt(d), except at d = 64 where it is 0.3, so
 * that a kernel that ignores the argument fails (and two negative ones, in
 * the "scale" group). Cases whose full check
 * would cost the CPU more than 2^26 multiply-adds per head-row product
 * (B H N^2 d) are checked on sampled entries (sample_* below). */
#define SAMPLE(B, H, N, d) ((size_t)(B) * (H) * (N) * (N) * (d) > ((size_t)1 << 26))
#define SC(d) ((d) == 64 ? 0.3f : 0.f)
#define CASE(group_, B, H, N, d, causal, gen_, g, sampled_)                                    \
    {.group = (group_), .dim = {(B), (H), (N), (d)}, .gen = (gen_), .scale = (g),             \
     .sampled = (sampled_), .arg = {0.f, SC(d)}, .op = (causal)},
#define ATT(group, B, H, N, d, causal, gen, g)                                                 \
    CASE(group, B, H, N, d, causal, gen, g, SAMPLE(B, H, N, d))
/* ATT with every entry checked, whatever the cost. */
#define WHOLE(group, B, H, N, d, causal, gen, g) CASE(group, B, H, N, d, causal, gen, g, 0)
#define EVERY_D(group, B, H, N, gen, g)                                                        \
    ATT(group, B, H, N, 32, 0, gen, g) ATT(group, B, H, N, 32, 1, gen, g)                     \
    ATT(group, B, H, N, 64, 0, gen, g) ATT(group, B, H, N, 64, 1, gen, g)                     \
    ATT(group, B, H, N, 128, 0, gen, g) ATT(group, B, H, N, 128, 1, gen, g)
#define BOTH(group, B, H, N, d, gen, g)                                                        \
    ATT(group, B, H, N, d, 0, gen, g) ATT(group, B, H, N, d, 1, gen, g)
/* The same with a scale of its own (not 0: 0 means 1/sqrt(d)). */
#define SCALED(group_, B, H, N, d, sc, causal)                                                 \
    {.group = (group_), .dim = {(B), (H), (N), (d)}, .gen = UNI, .scale = 1,                  \
     .sampled = SAMPLE(B, H, N, d), .arg = {0.f, (sc)}, .op = (causal)},
#define BOTH_SCALED(group, B, H, N, d, sc)                                                     \
    SCALED(group, B, H, N, d, sc, 0) SCALED(group, B, H, N, d, sc, 1)
#define UNI MW_GEN_UNIFORM
#define NAN_IN MW_GEN_RARE_NAN
#define OPP MW_GEN_OPPOSED
#define NAN_V MW_GEN_NAN_THIRD
#define OVF MW_GEN_OVERFLOW
#define LONE_NAN MW_GEN_LONE_NAN

/* ---- scalars: the scale at its special values, on every input class ----
 *
 * Every scale in SCALARS on each input class (SC_EVERY_CLASS), causal and
 * not: 56 cases of at most 8 heads of 130 rows. 0: S = 0, uniform weights, yet
 * 0 * NaN is NaN. -1, -0.3 and -2^15: a kernel that takes the row max of the
 * unscaled Q K^T and scales it has, with a negative scale, the smallest
 * score for its max, and exp(S - m) overflows once the scores span more
 * than 88 (inputs of magnitude 10, or -2^15 at any magnitude). 2^-100:
 * every exp(S - m) is 1 to within 2^-85. +-2^15, the huge one: a one-hot
 * softmax. Not 1e30: a kernel may fold the scale into one FMA,
 * 2^(fma(S, c, -c m)) with c = |scale| log2(e) (05.3 does, as
 * FlashAttention-2 does), whose exponent at the row max is then the
 * rounding error of c m, up to 2^-24 |c m|, not 0: a factor on P that the
 * tolerance allows (2^-24 |c m| ln 2 is at most e_s of tolerance.h) as long
 * as 2^x stays finite. |c m| is at most 2^15 x 128 x 10^2 x log2(e) =
 * 6.0e8 < 2^30 here: the exponent stays within +-64. With a scale of 1e30
 * it reaches about 2^90, and 2^(2^90) is Inf: a NaN row where the double reference is finite, a
 * limit of float and of that fold, not a mistake of the kernel. Powers of
 * two scale exactly, so the relative roundings are those of scale 1.
 * The classes and their shapes: uniform (B H = 3, N = 77, d = 64);
 * magnitude 10 (B H = 6, N = 31, d = 32: one key tile for a kernel with
 * tiles of 32 keys or more, so where exp overflows does not depend on how a
 * running max grows from tile to tile); Q, V > 0 > K
 * (B H = 2, N = 130, d = 128); rare NaN (B H = 8, N = 100, d = 64). */
#define SC_CASE(kind, g, B, H, N, d, causal, sc)                                               \
    {.group = "scalars", .dim = {(B), (H), (N), (d)}, .gen = (kind), .scale = (g),            \
     .sampled = SAMPLE(B, H, N, d), .arg = {AS_GIVEN, (sc)}, .op = (causal)},
#define SC_CLASS(kind, g, B, H, N, d, sc)                                                      \
    SC_CASE(kind, g, B, H, N, d, 0, sc) SC_CASE(kind, g, B, H, N, d, 1, sc)
#define SC_EVERY_CLASS(sc)                                                                     \
    SC_CLASS(UNI, 1, 1, 3, 77, 64, sc) SC_CLASS(UNI, 10, 2, 3, 31, 32, sc)                    \
    SC_CLASS(OPP, 10, 1, 2, 130, 128, sc) SC_CLASS(NAN_IN, 1, 2, 4, 100, 64, sc)
#define SCALARS                                                                                \
    SC_EVERY_CLASS(0.f) SC_EVERY_CLASS(1.f) SC_EVERY_CLASS(-1.f) SC_EVERY_CLASS(-0.3f)         \
    SC_EVERY_CLASS(0x1p-100f) SC_EVERY_CLASS(0x1p15f) SC_EVERY_CLASS(-0x1p15f)

static const mw_case cases[] = {
    EVERY_D("shape", 1, 1, 1, UNI, 1)
    EVERY_D("shape", 1, 3, 2, UNI, 1)
    EVERY_D("shape", 3, 1, 31, UNI, 1)
    EVERY_D("shape", 2, 8, 33, UNI, 1)
    EVERY_D("shape", 1, 1, 64, UNI, 1)
    EVERY_D("shape", 1, 3, 127, UNI, 1)
    EVERY_D("shape", 1, 1, 128, UNI, 1)
    EVERY_D("shape", 3, 1, 1000, UNI, 1)
    EVERY_D("shape", 2, 8, 4096, UNI, 1)
    /* Inputs of magnitude 10: scores up to several hundred, past 88 where
     * expf overflows without the max, and one key dominates most rows. At
     * a short, a middle and the longest length, every d. */
    BOTH("scale", 1, 3, 33, 32, UNI, 10)
    BOTH("scale", 2, 8, 33, 128, UNI, 10)
    BOTH("scale", 1, 3, 1000, 64, UNI, 10)
    BOTH("scale", 2, 8, 4096, 128, UNI, 10)
    BOTH("scale", 1, 1, 16384, 32, UNI, 10)
    /* A negative scale: the softmax of -|scale| Q K^T. A kernel that
     * folds |scale| into its exponent and flips the sign elsewhere (of
     * Q_i, say) must flip all of it: N = 129 puts a real row at the end of
     * a 128-row tile and one in the next. */
    BOTH_SCALED("scale", 2, 8, 33, 32, -0.25f)
    BOTH_SCALED("scale", 1, 3, 129, 128, -0.1f)
    /* Every score far below zero (Q and V in [5, 10), K in (-10, -5]: the
     * scores are -141 to -566 at d = 32, -480 to -1920 at d = 64 with scale
     * 0.3, -283 to -1131 at d = 128), as log-probabilities are: a softmax
     * whose running max starts at 0 instead of -inf subtracts 0, every
     * exp underflows and l is 0 (NaN or Inf out). At a single key, at
     * lengths off the tiles and at the longest, every d. */
    BOTH("below", 1, 1, 1, 32, OPP, 10)
    BOTH("below", 2, 8, 33, 128, OPP, 10)
    BOTH("below", 3, 1, 1000, 64, OPP, 10)
    BOTH("below", 1, 1, 16384, 32, OPP, 10)
    /* The below inputs with runs of 2^16 / d keys (512 at d = 128, 1024 at
     * 64, 2048 at 32; from key 512, 1024 or 2048 of the first head) whose K
     * rows are near -2^127: their every score overflows to -inf in FP32,
     * so a key tile that lies inside a run (of 32 to 176 keys, any
     * alignment) is all -inf for every row, among tiles far below zero.
     * A softmax that takes such a tile's max as 0 instead of -inf raises
     * m to 0: every later exp underflows and l is 0. In double those keys
     * weigh exactly 0. Key 0 is outside every run, so every row, causal
     * too, has finite scores. N = 3000 at d = 64 starts the second head's
     * run off the tiles (at its key 72). */
    BOTH("overflow", 1, 2, 2048, 128, OVF, 10)
    BOTH("overflow", 2, 1, 3000, 64, OVF, 10)
    BOTH("overflow", 1, 1, 4096, 32, OVF, 10)
    /* 1 input in 1024 NaN: rows that attend to a NaN key are NaN, rows
     * before the first NaN key (causal) must stay finite, and a NaN in V
     * spoils only its column. */
    BOTH("nan", 1, 3, 33, 64, NAN_IN, 1)
    BOTH("nan", 3, 1, 127, 128, NAN_IN, 1)
    BOTH("nan", 2, 8, 1000, 32, NAN_IN, 1)
    BOTH("nan", 1, 1, 16384, 64, NAN_IN, 1)
    /* Many heads, every entry checked (the longer NaN cases are sampled):
     * a NaN V row that only some rows of a causal tile attend is rare in
     * one head (a few per cent of its diagonal tiles) but, over 64 heads of
     * 128 rows, certain, and a row it spoils is always among those checked. */
    BOTH("nan", 8, 8, 128, 32, NAN_IN, 1)
    BOTH("nan", 8, 8, 128, 64, NAN_IN, 1)
    /* NaN in V alone (1 in 256; Q and K finite): a NaN V row spoils its
     * column in exactly the rows that attend its key. Causal, the rows of a
     * diagonal tile before that key must stay finite, though a tensor-core
     * product multiplies their P = 0 by the NaN; not causal, every row
     * attends it, in the last partial key tile as in the others. 64 heads
     * of lengths off the tiles put such a row at most positions of a
     * tile. Every entry is checked, at N = 130 too: a sample would miss
     * the few entries one NaN spoils. */
    BOTH("nan", 8, 8, 100, 64, NAN_V, 1)
    WHOLE("nan", 8, 8, 130, 128, 0, NAN_V, 1)
    BOTH("nan", 8, 8, 77, 32, NAN_V, 1)
    /* The same, causal, over 256 heads (N = 130: key tiles of 64 and 128
     * end at keys 63 and 127, and 128 starts a partial one). */
    WHOLE("nan", 16, 16, 130, 128, 1, NAN_V, 1)
    /* One NaN in V a head, at the head's last key, causal: every row but
     * the last leaves that key out. Heads of N d = 16384 elements put it
     * at each column in turn (head k at column d - 1 - k), at the end of
     * a key tile of 32, 64 or 128 keys (256 too at d <= 64). A kernel that
     * scans V_j for non-finite values to guard its diagonal tiles (05.3,
     * 05.4) and misses part of the tile (a loop one word short, an index
     * off by one) multiplies the NaN by the other rows' P = 0 and spoils
     * their column. nanthird cannot show that: its 1 in 256 puts dozens
     * of NaN in every tile, and the scan finds another. */
    WHOLE("nan", 8, 16, 128, 128, 1, LONE_NAN, 1)
    WHOLE("nan", 8, 8, 256, 64, 1, LONE_NAN, 1)
    WHOLE("nan", 4, 8, 512, 32, 1, LONE_NAN, 1)
    /* The longest rows, past the 50 MB L2 at d = 128 (B H N d floats:
     * 2 x 16384 x 128 x 4 B = 16 MB each for Q, K, V, O). */
    BOTH("long", 1, 1, 16384, 64, UNI, 1)
    BOTH("long", 1, 2, 16384, 128, UNI, 1)
    /* 9 x 16384^2 scores: the unfused workspace past 2^31 elements (an int
     * index into it wraps); 9.7 GB. */
    ATT("limit", 1, 9, 16384, 32, 0, UNI, 1)
    /* One head of N = 65537: N^2 = 2^32 + 2^17 + 1 scores, the unfused
     * workspace past 2^32 elements (16 GiB), where an unsigned 32-bit index
     * into it wraps (onto the first rows' scores, inside the workspace: no
     * illegal address, wrong values). d = 32 keeps Q, K, V and O at 8.4 MB
     * each; the two products are 0.55 TFLOP, and a sampled row costs the
     * CPU reference 4 M multiply-adds. Past 128 x the resident blocks of
     * 05.3 as well: fewer resident blocks than query tiles of one head. */
    ATT("limit", 1, 1, 65537, 32, 0, UNI, 1)
    /* One causal head of N = 65537 at d = 128: its K and V, 32 MiB
     * together in bf16, are past half of any sm_90 GPU's L2 (50 to 60
     * MiB), where a grid order that runs heads in groups sized to the L2
     * (05.4's) finds that not even one head fits. The unfused workspace as
     * above; the products are 2.2 TFLOP unmasked, and a sampled row costs
     * the CPU reference 17 M multiply-adds. */
    ATT("limit", 1, 1, 65537, 128, 1, UNI, 1)
    /* B H N d past 2^31 (2 x 65537 heads of 128 x 128: 8 GiB for each of
     * Q, K, V and O, 43 GB with the unfused workspace): the offset of a
     * head, b h N d, wraps in an int. Cheap to compute (1.1 TFLOP), dear
     * in memory: a GPU without room skips it and says so. */
    ATT("limit", 2, 65537, 128, 128, 0, UNI, 1)
    /* B H N d past 2^32 (8 x 65537 heads of 64 x 128: 17.2 GB for each
     * of Q, K, V and O, 8.6 GB of unfused workspace; 77 GB in all), where
     * a head's offset in unsigned 32 bits wraps. Short heads keep the
     * products at 1.1 TFLOP; a GPU without room skips it and says so. */
    ATT("limit", 8, 65537, 64, 128, 0, UNI, 1)
    /* Launch limits: gridDim.y and gridDim.z stop at 65535, so a grid
     * with the heads (or batches) on y or z fails here; B H N d is small. */
    ATT("limit", 1, 65537, 2, 32, 0, UNI, 1)
    ATT("limit", 65537, 1, 3, 64, 1, UNI, 1)
    SCALARS
};

/* The d = 128 sweep shares its sizes N with the d = 64 one: its rows are a
 * series of their own, "-d128" (mw_case.series), and the facts set each
 * row against the library row of its own shape. */
#define SERIES_OF(d) ((d) == 128 ? "-d128" : NULL)

/* Fixed B = 4, H = 16, d = 64 (the shape of the published FP32 anchors),
 * N from 256 to 16384, causal and not; then N = 32768 at B H = 32, where
 * the scores alone (137 GB) exceed the GPU's memory. Then d = 128 (the
 * head size of the published bf16 anchors, where the tensor cores have the
 * most work per byte) from N = 1024 to 16384: series "-d128". */
#define BENCH_CASE(B, N, d, causal)                                                            \
    {.group = "bench", .dim = {(B), 16, (N), (d)}, .gen = UNI, .scale = 1,                    \
     .series = SERIES_OF(d), .op = (causal)},
#define BENCH(N, causal, B) BENCH_CASE(B, N, 64, causal)
#define BENCH128(N, causal) BENCH_CASE(4, N, 128, causal)
static const mw_case bench_cases[] = {
    BENCH(256, 0, 4) BENCH(256, 1, 4) BENCH(512, 0, 4) BENCH(512, 1, 4)
    BENCH(1024, 0, 4) BENCH(1024, 1, 4) BENCH(2048, 0, 4) BENCH(2048, 1, 4)
    BENCH(4096, 0, 4) BENCH(4096, 1, 4) BENCH(8192, 0, 4) BENCH(8192, 1, 4)
    BENCH(16384, 0, 4) BENCH(16384, 1, 4) BENCH(32768, 0, 2) BENCH(32768, 1, 2)
    BENCH128(1024, 0) BENCH128(1024, 1) BENCH128(2048, 0) BENCH128(2048, 1)
    BENCH128(4096, 0) BENCH128(4096, 1) BENCH128(8192, 0) BENCH128(8192, 1)
    BENCH128(16384, 0) BENCH128(16384, 1)
};
static const size_t traffic_sizes[] = {1024, 4096, 16384};
/* By op: causal or not; OP_BF16 adds no suffix (the version's own name
 * says bf16). */
static const char *const op_suffix[] = {
    [OP_CAUSAL] = "-causal",
    [OP_CAUSAL | OP_BF16] = "-causal",
};

static void buffers(const mw_case *c, mw_buffer_spec *s)
{
    size_t rows = DB(c) * DH(c) * DN(c);
    int t = is_bf16(c) ? MW_BF16 : MW_F32; /* L stays FP32 */
    s[Qb] = (mw_buffer_spec){"Q", rows * DD(c), 0, t};
    s[Kb] = (mw_buffer_spec){"K", rows * DD(c), 0, t};
    s[Vb] = (mw_buffer_spec){"V", rows * DD(c), 0, t};
    s[Ob] = (mw_buffer_spec){"O", rows * DD(c), 1, t};
    s[Lb] = (mw_buffer_spec){"L", rows, 1, MW_F32};
}

/* O[b, h, i, k] and L[b, h, i]: the query rows i are what a kernel tiles
 * (tiled_dims); a causal case and the scale are named where they show. */
static void output_shape(const mw_case *c, int b, mw_shape *s)
{
    mw_shape_axis(s, "b", DB(c));
    mw_shape_axis(s, "h", DH(c));
    int i = mw_shape_axis(s, "i", DN(c));
    if (b == Ob)
        mw_shape_axis(s, "k", DD(c));
    s->tiled = 1u << i;
    s->causal = is_causal(c);
    s->scale = scale_of(c);
    s->reduce_name = "j";
    s->reduce_extent = DN(c);
}

static void describe(const mw_case *c, char *text, size_t len)
{
    const char *what = c->gen == MW_GEN_RARE_NAN    ? " (rare NaN inputs)"
                       : c->gen == MW_GEN_NAN_THIRD ? " (NaN in V alone)"
                       : c->gen == MW_GEN_LONE_NAN  ? " (one NaN in V a head, at its last key)"
                       : c->gen == MW_GEN_OPPOSED ? " (Q, V > 0 > K: every score far below zero)"
                       : c->gen == MW_GEN_OVERFLOW
                           ? " (Q, V > 0 > K, with runs of keys whose scores overflow to -inf)"
                       : c->scale > 1            ? " (inputs of magnitude 10)"
                                                 : "";
    char sc[32] = "";
    if (c->arg[0] == AS_GIVEN || c->arg[1] != 0.f)
        snprintf(sc, sizeof sc, " scale=%g", c->arg[1]);
    /* The limit a "limit" case crosses (ch04's labels do the same). */
    const size_t rows = DB(c) * DH(c) * DN(c), two31 = (size_t)1 << 31;
    const char *limit =
        strcmp(c->group, "limit") != 0 ? ""
        : rows * DD(c) > 2 * two31 ? " [limit: 2^32 elements in Q, K, V and O, where a head's "
                                     "offset in unsigned 32 bits wraps]"
        : rows * DD(c) > two31 ? " [limit: 2^31 elements in Q, K, V and O, where a head's offset "
                                 "in an int wraps]"
        : rows * DN(c) > 2 * two31 && is_causal(c) && 4 * DN(c) * DD(c) > ((size_t)32 << 20)
            ? " [limit: 2^32 unfused scores; one head's bf16 K and V past half the L2, where "
              "head groups sized to it run out]"
        : rows * DN(c) > 2 * two31 ? " [limit: 2^32 scores in the unfused workspace, where an "
                                     "unsigned 32-bit index into it wraps]"
        : rows * DN(c) > two31 ? " [limit: 2^31 scores in the unfused workspace, where an int "
                                 "index into it wraps]"
                               : " [limit: more than 65535 heads, where gridDim.y and gridDim.z "
                                 "stop]";
    snprintf(text, len, "B=%zu H=%zu N=%zu d=%zu%s%s%s%s", DB(c), DH(c), DN(c), DD(c),
             is_causal(c) ? " causal" : "", sc, what, limit);
}

static double bench_x(const mw_case *c)
{
    return (double)DN(c);
}

typedef cudaError_t (*unfused_fn)(const float *, const float *, const float *, float *, float *,
                                  float *, int, int, int, int, float, int, cudaStream_t);
typedef cudaError_t (*flash_fn)(const float *, const float *, const float *, float *, float *,
                                int, int, int, int, float, int, cudaStream_t);
typedef cudaError_t (*bf16_fn)(const mw05_bf16 *, const mw05_bf16 *, const mw05_bf16 *,
                               mw05_bf16 *, float *, int, int, int, int, float, int,
                               cudaStream_t);

/* The workspace, when the version has one, follows the five buffers. A
 * bf16 buffer's view is a float * that points at bf16 (harness.h). */
static cudaError_t launch(void *fn, const mw_case *c, float *const *b, cudaStream_t s)
{
    if (is_bf16(c))
        return ((bf16_fn)fn)((const mw05_bf16 *)b[Qb], (const mw05_bf16 *)b[Kb],
                             (const mw05_bf16 *)b[Vb], (mw05_bf16 *)b[Ob], b[Lb], (int)DB(c),
                             (int)DH(c), (int)DN(c), (int)DD(c), scale_of(c), is_causal(c), s);
    if (b[Sb]) /* 01_unfused: its scores workspace */
        return ((unfused_fn)fn)(b[Qb], b[Kb], b[Vb], b[Ob], b[Lb], b[Sb], (int)DB(c), (int)DH(c),
                                (int)DN(c), (int)DD(c), scale_of(c), is_causal(c), s);
    return ((flash_fn)fn)(b[Qb], b[Kb], b[Vb], b[Ob], b[Lb], (int)DB(c), (int)DH(c), (int)DN(c),
                          (int)DD(c), scale_of(c), is_causal(c), s);
}

/* O's and L's own tolerances (tolerance.h says why they differ). */
static mw_tol output_tolerance(const mw_case *c, int b)
{
    return (is_bf16(c) ? mw05_tolerance_bf16 : mw05_tolerance)(
        (double)DN(c), (double)DD(c), scale_of(c), c->scale != 0.f ? c->scale : 1.0, b == Lb);
}

/* The looser of the two, for whatever asks for one per case. */
static mw_tol tolerance(const mw_case *c)
{
    mw_tol o = output_tolerance(c, Ob), l = output_tolerance(c, Lb);
    return (mw_tol){fmax(o.atol, l.atol), fmax(o.rtol, l.rtol)};
}

static void model(const mw_case *c, double *read, double *write, double *flops)
{
    double rows = (double)DB(c) * DH(c) * DN(c), d = (double)DD(c);
    double e = is_bf16(c) ? 2 : 4; /* bytes of an element of Q, K, V, O */
    *read = 3 * e * rows * d;
    *write = e * rows * d + 4 * rows;
    *flops = 4 * rows * DN(c) * d / (is_causal(c) ? 2 : 1);
}

/* "O[b=0,h=2,i=17,k=5]" or "L[b=0,h=2,i=17]". */
/* racecheck's classes (mw.h): a block's path through shared memory follows
 * d, the mask and where N falls against the tile sizes a kernel may take
 * (16 to 128 rows or keys): within one tile or past it, the last tile
 * whole or partial. B and H only add blocks that take the same paths. So
 * the small cases of a version, 122 of 66 shapes, are 32 classes, and
 * racecheck, 0.3 to 14 s a case on the H100, runs the smallest of each. */
static void race_class(const mw_case *c, char *key, size_t len)
{
    const size_t n = DN(c);
    const int span = n <= 16 ? 16 : n <= 64 ? 64 : n <= 128 ? 128 : 0;
    int used = snprintf(key, len, "d=%zu causal=%d N%s%d %s shared=%d limit=%d offsets", DD(c),
                        is_causal(c), span ? "<=" : ">", span ? span : 128,
                        n % 16 ? "partial" : "whole", c->shared_inputs, (int)c->at.limit);
    for (int b = 0; b < MW_MAX_BUFS && used > 0 && (size_t)used < len; b++)
        used += snprintf(key + used, len - (size_t)used, " %zu", c->offset[b]);
}

static void name_element(const mw_case *c, size_t i, char *text, size_t len)
{
    size_t N = DN(c), d = DD(c), H = DH(c), o_count = DB(c) * H * N * d;
    size_t row = i < o_count ? i / d : i - o_count;
    size_t bh = row / N;
    if (i < o_count)
        snprintf(text, len, "O[b=%zu,h=%zu,i=%zu,k=%zu]", bh / H, bh % H, row % N, i % d);
    else
        snprintf(text, len, "L[b=%zu,h=%zu,i=%zu]", bh / H, bh % H, row % N);
}

/* ---- the mistakes the grader names -------------------------------------- */

static double under_rule(const mw_case *c, const mw_inputs *in, size_t i, row_rule rule)
{
    size_t d = DD(c), o_count = DB(c) * DH(c) * DN(c) * d;
    double out[129];
    size_t row = i < o_count ? i / d : i - o_count;
    mw05_attend_row(c, in, row, rule, out);
    return i < o_count ? out[i % d] : out[d];
}

static double mask_strict(const mw_case *c, const mw_inputs *in, size_t i)
{
    return is_causal(c) ? under_rule(c, in, i, (row_rule){-1, 0, 0, 0, 0}) : NAN;
}

static double mask_leaky(const mw_case *c, const mw_inputs *in, size_t i)
{
    return is_causal(c) ? under_rule(c, in, i, (row_rule){+1, 0, 0, 0, 0}) : NAN;
}

static double no_max(const mw_case *c, const mw_inputs *in, size_t i)
{
    return under_rule(c, in, i, (row_rule){0, 1, 0, 0, 0});
}

static double scale_after(const mw_case *c, const mw_inputs *in, size_t i)
{
    return under_rule(c, in, i, (row_rule){0, 0, 1, 0, 0});
}

static double no_scale(const mw_case *c, const mw_inputs *in, size_t i)
{
    return under_rule(c, in, i, (row_rule){0, 0, 0, 1, 0});
}

/* 1/sqrt(d) where the launcher was given another scale (only those cases
 * tell: elsewhere the two agree). */
static double sqrt_scale(const mw_case *c, const mw_inputs *in, size_t i)
{
    return c->arg[0] == AS_GIVEN || c->arg[1] != 0.f
               ? under_rule(c, in, i, (row_rule){0, 0, 0, 0, 1})
               : NAN;
}

/* The row max of the unscaled scores, then scaled: only a negative scale
 * tells (scale * max is the max of the scaled scores for scale >= 0). */
static double raw_max(const mw_case *c, const mw_inputs *in, size_t i)
{
    return under_rule(c, in, i, (row_rule){.raw_max = 1});
}

static int negative_scale(const mw_case *c)
{
    return scale_of(c) < 0.f;
}

/* L in base 2: a kernel that works with exp2 and forgets to convert back. */
static double log2_L(const mw_case *c, const mw_inputs *in, size_t i)
{
    size_t o_count = DB(c) * DH(c) * DN(c) * DD(c);
    double exact = mw05_reference(c, in, i);
    return i < o_count ? exact : exact / log(2.0);
}

/* Where a mistake cannot happen its value is NaN, and a NaN output (from
 * exp overflowing, say) would match it: it is not asked there. */
static int causal_only(const mw_case *c)
{
    return is_causal(c);
}

static int scale_given(const mw_case *c)
{
    return c->arg[1] != 0.f;
}

static const mw_mistake mistakes[] = {
    {"causal mask off by one: row i attends keys j <= i, the diagonal included (with j < i "
     "row 0 has no key at all)",
     mask_strict, causal_only},
    {"causal mask off by one: row i attends keys j <= i, not j <= i + 1 (a token must not "
     "see the next one)",
     mask_leaky, causal_only},
    /* Before "no max subtraction", whose values it gives wherever it applies
     * (a negative scale and large scores): a kernel with no max at all
     * fails the positive-scale cases of magnitude 10 first, which come
     * earlier, so a first failure at a negative scale is this one. */
    {.message = "the row max was taken over the unscaled Q K^T and then scaled: with a negative "
                "scale that is the smallest score, and exp(S_ij - m_i) overflows; take the max "
                "of S = scale * Q K^T itself (or negate Q_i and use |scale|)",
     .value = raw_max,
     .applies = negative_scale},
    {"no max subtraction: exp(S) overflows past S = 88 and Inf / Inf is NaN; keep the running "
     "max m_i and compute exp(S_ij - m_i)",
     no_max},
    {"the scale was applied after the softmax: it multiplies the scores, S = scale * Q K^T, "
     "before the exp",
     scale_after},
    {"the scale was never applied: S = scale * Q K^T, with the scale the launcher is given",
     no_scale},
    {"the scale argument was ignored: 1/sqrt(d) was used where the launcher was given "
     "another scale; use the `scale` parameter",
     sqrt_scale, scale_given},
    {"L is in base 2: with exp2, L_i = (m_i + log2(l_i)) * ln(2) gives the natural log",
     log2_L},
};

/* Which output is wrong tells the normalisation from the weighted sum. */
static int explain(const mw_case *c, const mw_inputs *in, const mw_mismatch *per,
                   char hints[][256], int max)
{
    (void)in;
    const mw_mismatch *o = &per[Ob], *l = &per[Lb];
    int count = 0;
    if (max <= 0)
        return 0;
    /* O's only wrong values NaN or Inf, from inputs that hold NaN: a NaN V
     * row reaching O (0 * NaN) leaves L right as well, and is not a
     * missing rescale; the localisation names it. */
    int nan_from_inputs = mw_gen_has_nan(c->gen) &&
                          o->wrong_nonfinite > 0 && o->wrong_nonfinite == o->wrong - o->unwritten;
    if (o->wrong > o->unwritten && l->wrong == 0 && l->checked > 0 && !nan_from_inputs)
        snprintf(hints[count++], 256,
                 "L is right but O is wrong: the softmax weights are right, their sum with "
                 "V is not: rescale O_i by exp(m_old - m_new) whenever the running max grows, "
                 "and divide by l_i once at the end");
    else if (l->wrong > l->unwritten && o->wrong == 0 && o->checked > 0)
        snprintf(hints[count++], 256,
                 "O is right but L is wrong: L_i = m_i + log(l_i), the natural log of the "
                 "sum of exp of the scaled scores of row i");
    return count;
}

/* ---- the library composition -------------------------------------------- */

/* The CPU emulation (MW_SIM) has no cuBLAS or cuDNN: no library rows there. */
#ifndef MW_SIM

static int lib_setup(void **state)
{
    return mw05_lib_setup(state);
}

static cudaError_t lib_run(void *state, const mw_case *c, float *const *b, cudaStream_t s)
{
    return mw05_lib_run(state, b[Qb], b[Kb], b[Vb], b[Ob], b[Sb], (int)DB(c), (int)DH(c),
                        (int)DN(c), (int)DD(c), scale_of(c), is_causal(c), s);
}

static size_t lib_workspace(const mw_case *c)
{
    return mw05_lib_workspace((int)DB(c), (int)DH(c), (int)DN(c));
}

/* The bf16 rows (05.3's cases, OP_BF16 set): cuDNN's fused attention,
 * which writes O and L, and the composition of bf16 library calls, which
 * writes O only and needs the same N x N workspace as the FP32 one. */
static int sdpa_setup(void **state)
{
    return mw05_sdpa_lib_setup(state);
}

static cudaError_t sdpa_run(void *state, const mw_case *c, float *const *b, cudaStream_t s)
{
    return mw05_sdpa_lib_run(state, b[Qb], b[Kb], b[Vb], b[Ob], b[Lb], (int)DB(c), (int)DH(c),
                             (int)DN(c), (int)DD(c), scale_of(c), is_causal(c), s);
}

static int lib_bf16_setup(void **state)
{
    return mw05_lib_bf16_setup(state);
}

static cudaError_t lib_bf16_run(void *state, const mw_case *c, float *const *b, cudaStream_t s)
{
    return mw05_lib_bf16_run(state, b[Qb], b[Kb], b[Vb], b[Ob], b[Sb], (int)DB(c), (int)DH(c),
                             (int)DN(c), (int)DD(c), scale_of(c), is_causal(c), s);
}

static size_t lib_bf16_workspace(const mw_case *c)
{
    return mw05_lib_bf16_workspace((int)DB(c), (int)DH(c), (int)DN(c));
}

/* The compositions compute O only: L is left out of their check (neither
 * cuBLAS nor cuDNN's softmax returns the logsumexp). A bench row is set
 * against the first library of its op (grader/facts.c): the FP32
 * composition for the FP32 versions, cuDNN's fused attention for 05.3. */
static const mw_library libraries[] = {
    {.name = "cublas_cudnn_unfused",
     .kind = "library",
     .setup = lib_setup,
     .run = lib_run,
     .teardown = mw05_lib_teardown,
     .computes_output = 1,
     .op = MW_OP_FROM_CASE,
     .workspace = lib_workspace,
     .skips_outputs = 1u << Lb},
    {.name = "cudnn_sdpa",
     .kind = "library",
     .setup = sdpa_setup,
     .run = sdpa_run,
     .teardown = mw05_sdpa_lib_teardown,
     .computes_output = 1,
     .op = MW_OP_FROM_CASE_WITH(OP_BF16),
     .roof = "bf16_mma"},
    {.name = "cublas_cudnn_unfused_bf16",
     .kind = "library",
     .setup = lib_bf16_setup,
     .run = lib_bf16_run,
     .teardown = mw05_lib_bf16_teardown,
     .computes_output = 1,
     .op = MW_OP_FROM_CASE_WITH(OP_BF16),
     .roof = "bf16_mma",
     .workspace = lib_bf16_workspace,
     .skips_outputs = 1u << Lb},
};
#endif

/* ---- verdict ------------------------------------------------------------ */

/* The time of `impl` (with the op's suffix) at N, NaN when not timed. */
static double time_at(const mw_result *r, int count, const char *impl, const char *suffix,
                      double N)
{
    char name[96];
    snprintf(name, sizeof name, "%s%s", impl, suffix);
    const mw_result *x = mw_result_at(r, count, name, N);
    return x ? x->median_ms : NAN;
}

static void verdict_row(const mw_result *r, int count, double N, const char *suffix)
{
    const mw_result *f = mw_result_at(r, count, *suffix ? "reference/02_flash-causal"
                                                        : "reference/02_flash", N);
    if (!f || isnan(f->median_ms))
        return;
    double lib = time_at(r, count, "library/cublas_cudnn_unfused", suffix, N);
    double unf = time_at(r, count, "reference/01_unfused", suffix, N);
    char lib_text[32] = "cannot run", unf_text[32] = "cannot run";
    if (!isnan(lib))
        snprintf(lib_text, sizeof lib_text, "%.2fx", lib / f->median_ms);
    if (!isnan(unf))
        snprintf(unf_text, sizeof unf_text, "%.2fx", unf / f->median_ms);
    printf("  %6.0f %-7s %10.3f ms %8.1f %14s %14s\n", N, *suffix ? "causal" : "full",
           f->median_ms, f->gflops / 1e3, lib_text, unf_text);
}

/* "1.23x" (a / b), or "-" when either was not timed. */
static void ratio_text(double a, double b, char *text, size_t len)
{
    if (isnan(a) || isnan(b))
        snprintf(text, len, "-");
    else
        snprintf(text, len, "%.2fx", a / b);
}

/* The fastest and slowest of a verdict's ratios, in percent. */
typedef struct pct_range {
    double lo, hi;
} pct_range;

static void range_add(pct_range *g, double pct)
{
    if (isnan(pct))
        return;
    g->lo = isnan(g->lo) || pct < g->lo ? pct : g->lo;
    g->hi = isnan(g->hi) || pct > g->hi ? pct : g->hi;
}

/* "62%", or "-" when either was not timed; adds it to g. */
static void pct_of(double lib_ms, double ms, pct_range *g, char *text, size_t len)
{
    if (isnan(lib_ms) || isnan(ms)) {
        snprintf(text, len, "-");
        return;
    }
    snprintf(text, len, "%.0f%%", 100 * lib_ms / ms);
    range_add(g, 100 * lib_ms / ms);
}

/* The ranges of 05.3 and 05.4 against cuDNN over the verdict's rows, and
 * of 05.4 at d = 128. */
typedef struct bf16_ranges {
    pct_range mma, wgmma, wgmma_d128;
} bf16_ranges;

/* 05.3 and 05.4 at one size of one series: their rates, and how they stand
 * against cuDNN's fused attention (the library a bf16 user calls); 05.3
 * against the bf16 composition from library calls and the FP32 flash
 * reference. */
static void verdict_bf16_row(const mw_result *r, int count, double N, const char *suffix,
                             const char *label, bf16_ranges *g)
{
    char name[96];
    snprintf(name, sizeof name, "reference/03_flash_bf16%s", suffix);
    const mw_result *f = mw_result_at(r, count, name, N);
    if (!f || isnan(f->median_ms))
        return;
    snprintf(name, sizeof name, "reference/04_flash_wgmma%s", suffix);
    const mw_result *w = mw_result_at(r, count, name, N);
    const double w_ms = w ? w->median_ms : NAN;
    double sdpa = time_at(r, count, "library/cudnn_sdpa", suffix, N);
    double unf = time_at(r, count, "library/cublas_cudnn_unfused_bf16", suffix, N);
    double fp32 = time_at(r, count, "reference/02_flash", suffix, N);
    char w_rate[16] = "-", sdpa_rate[16] = "-", f_of[16], w_of[16], vs_unf[16], vs_fp32[16];
    /* Every row of a series counts the same FLOPs: a rate is 05.3's scaled
     * by the time. */
    const double flop_ms = f->gflops / 1e3 * f->median_ms;
    if (!isnan(w_ms))
        snprintf(w_rate, sizeof w_rate, "%.0f", flop_ms / w_ms);
    if (!isnan(sdpa))
        snprintf(sdpa_rate, sizeof sdpa_rate, "%.0f", flop_ms / sdpa);
    pct_of(sdpa, f->median_ms, &g->mma, f_of, sizeof f_of);
    pct_of(sdpa, w_ms, &g->wgmma, w_of, sizeof w_of);
    if (strstr(suffix, "-d128"))
        range_add(&g->wgmma_d128, 100 * sdpa / w_ms);
    ratio_text(unf, f->median_ms, vs_unf, sizeof vs_unf);
    ratio_text(fp32, f->median_ms, vs_fp32, sizeof vs_fp32);
    printf("  %6.0f %-12s %6.0f %6s %6s %7s %7s %14s %8s\n", N, label, f->gflops / 1e3, w_rate,
           sdpa_rate, f_of, w_of, vs_unf, vs_fp32);
}

/* The closing words, from the ranges the rows measured. */
static void verdict_bf16_words(const bf16_ranges *g)
{
    printf("  On the tensor cores attention is compute-bound: the bytes are 02_flash's, halved,\n"
           "  and the speed is decided by data movement inside the SM and the instruction.\n");
    if (!isnan(g->mma.lo))
        printf("  05.3's mma.sync reaches %.0f to %.0f%% of cuDNN, whose Hopper kernels issue wgmma.\n",
               g->mma.lo, g->mma.hi);
    if (isnan(g->wgmma.lo)) {
        printf("  05.4 (wgmma, TMA, warp specialisation: sm_90a only) was not timed here.\n"
               "  Call cuDNN unless it cannot express your attention.\n");
        return;
    }
    printf("  05.4, on wgmma, TMA and FlashAttention-3's warp specialisation, reaches %.0f to\n"
           "  %.0f%% of cuDNN",
           g->wgmma.lo, g->wgmma.hi);
    if (!isnan(g->wgmma_d128.lo))
        printf(" (%.0f to %.0f%% at d = 128)", g->wgmma_d128.lo, g->wgmma_d128.hi);
    printf(", in code for Hopper alone.\n%s\n",
           g->wgmma.lo >= 100 ? "  Where cuDNN can express your attention either will do; write your own\n"
                                "  for what it cannot."
                              : "  Call cuDNN where it can express your attention; write your own, on\n"
                                "  these instructions, where it cannot.");
}

static void verdict_bf16(const mw_result *r, int count)
{
    if (!mw_result_at(r, count, "reference/03_flash_bf16", 4096))
        return;
    printf("\nverdict, bf16 (exercises 05.3 and 05.4): the tensor-core references and cuDNN's\n"
           "fused attention, TFLOP/s; each reference in %% of cuDNN's speed, and 05.3 against\n"
           "the bf16 library composition and the FP32 flash reference:\n");
    printf("  %6s %-12s %6s %6s %6s %7s %7s %14s %8s\n", "N", "series", "05.3", "05.4", "cuDNN",
           "05.3 %", "05.4 %", "vs composition", "vs FP32");
    static const char *const series[] = {"", "-causal", "-d128", "-d128-causal"};
    static const char *const label[] = {"d=64", "d=64 causal", "d=128", "d=128 causal"};
    static const double Ns[] = {4096, 16384};
    bf16_ranges g = {{NAN, NAN}, {NAN, NAN}, {NAN, NAN}};
    for (int k = 0; k < 2; k++)
        for (int s = 0; s < 4; s++)
            verdict_bf16_row(r, count, Ns[k], series[s], label[s], &g);
    verdict_bf16_words(&g);
}

static void verdict(const mw_result *r, int count, double copy_gbps)
{
    (void)copy_gbps;
    printf("\nverdict: the flash reference, TFLOP/s at 4 B H N^2 d (halved when causal), and "
           "how\nmany times faster it is than the library composition and the unfused "
           "reference:\n");
    printf("  %6s %-7s %13s %8s %14s %14s\n", "N", "mask", "flash", "TFLOP/s", "vs library",
           "vs unfused");
    static const double Ns[] = {1024, 4096, 16384, 32768};
    for (int k = 0; k < 4; k++) {
        verdict_row(r, count, Ns[k], "");
        verdict_row(r, count, Ns[k], "-causal");
    }
    double full = time_at(r, count, "reference/02_flash", "", 4096);
    double causal = time_at(r, count, "reference/02_flash", "-causal", 4096);
    if (!isnan(full) && !isnan(causal))
        printf("  causal at N = 4096 is %.2fx faster than full: the tiles above the diagonal "
               "are skipped.\n",
               full / causal);
    printf("  The unfused forms write and read the N x N scores, 16 B H N^2 bytes that flash\n"
           "  attention never moves (make traffic measures them). Past the GPU's memory\n"
           "  (N = 32768, B H = 32: 137 GB of scores) only the flash kernel runs at all.\n");
    verdict_bf16(r, count);
}

/* ---- the CPU emulation's sample ----------------------------------------- */

/* The launches of the unfused layouts, on 1-D grids, told apart by their
 * blocks and their grids' sizes: the reference's (01_unfused.cu: 32 x 32
 * tiles of S and of O, B H (N / 32)^2 and B H (N / 32) (d / 32) blocks; a
 * warp a row of the softmax, 8 rows a block of 256 threads), and the plain
 * form (one thread a score, B H N^2 / 256 blocks of 256; a block of 256 a
 * row of the softmax; one thread an output of O, B H N d / 256 blocks). A
 * grid that several fit (at d = 32 the plain P V has as many blocks as the
 * reference's softmax) gives the blocks of each. */
#define UNFUSED_TILE 32
#define UNFUSED_THREADS 256
#define UNFUSED_WARP_ROWS 8
enum { SCORE_TILES, PV_TILES, SOFTMAX_WARPS, SCORE_THREADS, SOFTMAX_BLOCKS, PV_THREADS };

static uint64_t ceil_div(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

/* The unfused launches grid[] of block[] threads can be (1u << kind each). */
static unsigned unfused_launches(const mw_case *c, const unsigned grid[3], const unsigned block[3])
{
    const uint64_t blocks = grid[0], BH = DB(c) * DH(c), N = DN(c), d = DD(c), rows = BH * N;
    const uint64_t tiles = ceil_div(N, UNFUSED_TILE);
    unsigned kinds = 0;
    if (grid[1] != 1 || grid[2] != 1 || block[2] != 1)
        return 0;
    if (block[0] == UNFUSED_TILE && block[1] == UNFUSED_TILE) {
        kinds |= (blocks == BH * tiles * tiles) << SCORE_TILES;
        kinds |= (d % UNFUSED_TILE == 0 && blocks == BH * tiles * (d / UNFUSED_TILE)) << PV_TILES;
    }
    if (block[0] == UNFUSED_THREADS && block[1] == 1) {
        kinds |= (blocks == ceil_div(rows, UNFUSED_WARP_ROWS)) << SOFTMAX_WARPS;
        kinds |= (blocks == ceil_div(rows * N, UNFUSED_THREADS)) << SCORE_THREADS;
        kinds |= (blocks == rows) << SOFTMAX_BLOCKS;
        kinds |= (blocks == ceil_div(rows * d, UNFUSED_THREADS)) << PV_THREADS;
    }
    return kinds;
}

/* blocks[n..] = first, first + 1, ..., last; the new count. */
static int block_range(uint64_t *blocks, int n, uint64_t first, uint64_t last)
{
    for (uint64_t b = first; b <= last; b++)
        blocks[n++] = b;
    return n;
}

/* The most blocks emulation_blocks names for an output of c, every layout
 * fitting one launch: a row's tiles of scores (N / 32), its scores a
 * thread each (N / 256 + 2 blocks), its tiles of O (d / 32), its softmax
 * (a block in each layout), its outputs of O a thread each (d / 256 + 2). */
static uint64_t row_blocks_most(const mw_case *c)
{
    const uint64_t N = DN(c), d = DD(c), T = UNFUSED_THREADS;
    return ceil_div(N, UNFUSED_TILE) + (N / T + 2) + d / UNFUSED_TILE + 2 + (d / T + 2);
}

/* The blocks that output i (O[b,h,i,k], or L[b,h,i]) needs in this launch:
 * all that compute its row's scores, the one that softmaxes that row, the
 * one that sums its P V (for L, which P V does not write, those of its
 * row). A sampled output's row then runs whole through the three kernels. */
static int emulation_blocks(const mw_case *c, size_t i, const unsigned grid[3],
                            const unsigned block[3], uint64_t blocks[MW_EMULATION_BLOCKS])
{
    const uint64_t N = DN(c), d = DD(c), o_count = DB(c) * DH(c) * N * d;
    const uint64_t row = i < o_count ? i / d : i - o_count, bh = row / N;
    const uint64_t tiles = ceil_div(N, UNFUSED_TILE), ti = row % N / UNFUSED_TILE;
    const uint64_t col_tiles = d / UNFUSED_TILE, T = UNFUSED_THREADS;
    const unsigned kinds = unfused_launches(c, grid, block);
    if (row_blocks_most(c) > MW_EMULATION_BLOCKS)
        return 0; /* emulation_layout refuses it */
    int n = 0;
    if (kinds & 1u << SCORE_TILES)
        n = block_range(blocks, n, (bh * tiles + ti) * tiles, (bh * tiles + ti + 1) * tiles - 1);
    if (kinds & 1u << PV_TILES) {
        const uint64_t first = (bh * tiles + ti) * col_tiles;
        n = i < o_count ? block_range(blocks, n, first + i % d / UNFUSED_TILE,
                                      first + i % d / UNFUSED_TILE)
                        : block_range(blocks, n, first, first + col_tiles - 1);
    }
    if (kinds & 1u << SOFTMAX_WARPS)
        n = block_range(blocks, n, row / UNFUSED_WARP_ROWS, row / UNFUSED_WARP_ROWS);
    if (kinds & 1u << SCORE_THREADS)
        n = block_range(blocks, n, row * N / T, (row * N + N - 1) / T);
    if (kinds & 1u << SOFTMAX_BLOCKS)
        n = block_range(blocks, n, row, row);
    if (kinds & 1u << PV_THREADS)
        n = i < o_count ? block_range(blocks, n, i / T, i / T)
                        : block_range(blocks, n, row * d / T, (row * d + d - 1) / T);
    return n;
}

/* Launches a sample cannot follow: any grid that is none of the unfused
 * launches. The flash references' grids are persistent: their blocks take
 * query tiles from a counter as the grid runs, so which block computes a
 * row is decided then, and no sample picked before can hold it. */
static const char *emulation_layout(const mw_case *c, const unsigned grid[3],
                                    const unsigned block[3])
{
    if (row_blocks_most(c) > MW_EMULATION_BLOCKS)
        return "rows whose scores pass through more blocks than a sample follows";
    if (!unfused_launches(c, grid, block))
        return "a grid that is none of the unfused layouts (a flash kernel's blocks take query "
               "tiles from a counter as the grid runs: which block computes which rows, no "
               "sample can tell)";
    return NULL;
}

/* The limit cases, past a 2^31 index into S or into Q, K, V and O, run on
 * a sample; the other long rows are left to a GPU: in the reference's
 * tiles a sampled row costs 32 rows' work, seconds at N = 16384, and a
 * long row holds no index that the small cases do not. */
static int emulation_samples(const mw_case *c)
{
    const uint64_t rows = DB(c) * DH(c) * DN(c), two31 = (uint64_t)1 << 31;
    return c->sampled && (rows * DN(c) > two31 || rows * DD(c) > two31);
}

const mw_chapter mw_chapter_def = {
    .id = "05-attention",
    .title = "Chapter 05: flash attention",
    .size_label = "sequence length N (B = 4, H = 16, d = 64; d = 128 in the -d128 series)",
    .roof = "fp32",
    .versions = versions,
    .nversions = sizeof versions / sizeof versions[0],
    .cases = cases,
    .ncases = sizeof cases / sizeof cases[0],
    .bench_cases = bench_cases,
    .nbench = sizeof bench_cases / sizeof bench_cases[0],
    .traffic_sizes = traffic_sizes,
    .ntraffic = sizeof traffic_sizes / sizeof traffic_sizes[0],
    .nbufs = NBUFS,
    .buffers = buffers,
    .describe = describe,
    .output_shape = output_shape,
    .bench_x = bench_x,
    .launch = launch,
    .reference = mw05_reference,
    .prepare_reference = mw05_prepare_reference,
    .tolerance = tolerance,
    .output_tolerance = output_tolerance,
    .model = model,
    .mistakes = mistakes,
    .nmistakes = sizeof mistakes / sizeof mistakes[0],
#ifndef MW_SIM
    .libraries = libraries,
    .nlibraries = sizeof libraries / sizeof libraries[0],
#endif
    .verdict = verdict,
    .op_suffix = op_suffix,
    .nops = sizeof op_suffix / sizeof op_suffix[0],
    .name_element = name_element,
    .explain = explain,
    .tiled_dims = 1u << 2,
    .race_class = race_class,
    /* A row of O costs the reference N d multiply-adds twice: sampled
     * checks take 2 rows' worth at each end and 384 random entries. */
    .sample_edge = 256,
    .sample_random = 384,
    .sample_above = (size_t)1 << 16,
    .emulation_blocks = emulation_blocks,
    .emulation_layout = emulation_layout,
    .emulation_samples = emulation_samples,
    /* A sampled row costs the emulation every tile of its scores (N / 32
     * blocks of 1024 threads in the reference) and a P V over N keys: O's
     * first elements and L's last at the ends, and a row at random.
     * Those ends are the first and last blocks of every grid in every
     * layout: one more block at each end, a P V tile of 1024 threads over
     * N keys, is all the sample would add. */
    .emulation_sample_edge = 2,
    .emulation_sample_random = 1,
    .emulation_sample_ends = 1,
    /* The reference's sample of 9 heads of N = 16384 measures 2.3e8 (10 s
     * on one core for its two runs), N = 65537 1.2e9: its tiles of 32 rows
     * make a sampled row cost 32 rows' work. */
    .emulation_sample_budget = 536870912.0,
};
