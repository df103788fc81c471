/* mw.h: what a chapter declares, and what the shared harness does with it.
 *
 * A chapter (chapters/NN-name/chapter.c) fills one `mw_chapter`: its kernel
 * versions, test cases, buffers, CPU reference, tolerance, analytic bytes and
 * FLOPs, library baselines and verdict. Everything else (allocation with
 * guards, NaN poisoning, random inputs, checking, diagnosis, crash and hang
 * isolation, timing, CSV, ncu) lives in grader/ and serves every chapter. */
#ifndef MW_H
#define MW_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bf16.h"
#include "compare.h"
#include "gpu.h"
#include "rng.h"
#include "student.h"


/* Buffers per case: inputs, then one or more outputs (chapter 05: Q, K, V
 * in; O and L out). A version or library may also ask for a workspace,
 * which the launcher finds after the buffers, at bufs[nbufs].
 *
 * The views reach the launcher as `float *const *bufs` whatever each
 * buffer's element type (mw_buffer_spec.type): the slot of a bf16 buffer
 * holds a `__nv_bfloat16 *`, which the chapter's launch() casts to,
 * `(const __nv_bfloat16 *)bufs[0]`, as it casts `fn`. A workspace is
 * always FP32. */
#define MW_MAX_BUFS 6

/* The most blocks mw_chapter.emulation_blocks names for one output: a few
 * tile shapes or rows per block that fit the launched grid, each a block;
 * or every block that an output's row passes through on its way, as the
 * tiles of scores of one query row in chapter 05's unfused form (2049 of
 * 32 keys at N = 65537). */
#define MW_EMULATION_BLOCKS 4096

struct mw_case;

/* One kernel version: solutions/NN/<file>.cu defines `symbol`. */
typedef struct mw_version {
    const char *file;   /* "01_naive" */
    const char *symbol; /* the launcher's C name: "add_naive" */
    const char *budget; /* the exercise's stated budget, one line */
    int op;             /* which of the chapter's operations it computes (0 if one) */
    int optional;       /* an open challenge: left as a stub it is "not attempted",
                           which neither fails a check nor costs points */
    /* Optional: floats (FP32) of scratch the launcher needs for this case (chapter
     * 05's unfused version: the B*H*N*N scores). The harness allocates it
     * with guards, poisons it with NaN, and passes it at bufs[nbufs]; a case
     * whose workspace does not fit the GPU is skipped, saying how much it
     * needed. NULL: none. */
    size_t (*workspace)(const struct mw_case *c);
    /* Optional: the roof its "% of roof" is taken against when it is not the
     * chapter's: "bf16" for a kernel on the bf16 tensor cores (such as
     * chapter 05's 03_flash_bf16), which would otherwise read as faster
     * than the FP32 roof. NULL: the chapter's roof. A name of the table in
     * roofs.c, checked at startup, as mw_library.roof is. */
    const char *roof;
} mw_version;

/* A limit of the GPU at hand that a case's size may be set against: the
 * shared memory a block may have. A kernel that holds a row in shared
 * memory breaks at these sizes, and they differ from GPU to GPU, so such a
 * case is written against the limit (mw_case.at) and resolved when a check
 * starts (grader/gpu_limits.c). */
enum { MW_LIMIT_NONE, MW_LIMIT_SMEM_DEFAULT, MW_LIMIT_SMEM_OPTIN };

typedef struct mw_gpu_limits {
    size_t smem_default; /* bytes per block without opting in: cudaDevAttrMaxSharedMemoryPerBlock */
    size_t smem_optin;   /* with cudaFuncSetAttribute: cudaDevAttrMaxSharedMemoryPerBlockOptin */
} mw_gpu_limits;

/* The H100's (48 KiB and 227 KiB): what a case shows before a GPU is
 * asked (make list, a machine without one). */
#define MW_H100_SMEM_DEFAULT ((size_t)48 << 10)
#define MW_H100_SMEM_OPTIN ((size_t)227 << 10)

/* dim[dim] = the limit's bytes / 4 (FP32 values) + delta. */
typedef struct mw_dim_at_limit {
    int limit;  /* MW_LIMIT_*; MW_LIMIT_NONE (0): the case's dims are fixed */
    int dim;    /* the dim[] entry it sets */
    long delta; /* floats added to the limit's */
} mw_dim_at_limit;

/* One test or bench case. The meaning of dim[] is the chapter's own. */
typedef struct mw_case {
    const char *group;           /* "edge", "tail", "offset", "special", "large"... */
    size_t dim[4];               /* e.g. n for vector add; M, N, K for matmul;
                                    B, H, N, d for attention */
    size_t offset[MW_MAX_BUFS];  /* per buffer: the view starts this many
                                    elements (of the buffer's type: 4 bytes
                                    for FP32, 2 for bf16) past a 256-byte
                                    aligned address */
    int gen;                     /* MW_GEN_* for the inputs */
    float scale;                 /* inputs are scaled by this (0 means 1) */
    int sampled;                 /* huge: check sampled entries only */
    float arg[2];                /* scalar arguments, the chapter's own (a, s) */
    int op;                      /* set by the harness from the version or library
                                    being run: which operation the hooks describe;
                                    the case's own for MW_OP_FROM_CASE ones */
    int shared_inputs;           /* 1: every input is a view of the first input's
                                    storage (a + a: the interface lets inputs
                                    alias), so a limit case needs one input
                                    buffer, not two, and fits a smaller GPU. The
                                    offsets of the later inputs are ignored. */
    /* Optional, bench cases: the series of a sweep that covers the sizes of
     * another ("-d128": chapter 05's d = 128 rows beside its d = 64 ones),
     * appended to its rows' names before the op's suffix. NULL: the
     * chapter's main series. Names only: no hook reads it. */
    const char *series;
    mw_dim_at_limit at;          /* optional: a dim set by the GPU's limits; dim[]
                                    holds the H100's value until a check resolves it */
} mw_case;

/* One buffer of a case: inputs first, then the outputs.
 *
 * `type` is the element type (bf16.h): MW_F32 (0, so a spec that leaves
 * it out is FP32, the type most buffers have) or
 * MW_BF16. It sets the element size of everything the harness does with
 * the buffer: allocation, the offset, the guard bands (MW_GUARD elements of
 * 0xfe bytes each side, checked in the type's width), the NaN poison of an
 * output (0xff bytes: 0xffff is a bf16 NaN as 0xffffffff is an FP32 one).
 * A bf16 input is generated in FP32 and rounded to bf16 (to nearest even,
 * mw_bf16_round), and mw_input() gives the reference that rounded value;
 * a bf16 output comes back to the host widened to float (exact), so the
 * reference, the tolerance and the reports see floats as for FP32. Inputs
 * that share storage (mw_case.shared_inputs) take the first input's type. */
typedef struct mw_buffer_spec {
    const char *name;
    size_t count;  /* elements */
    int is_output;
    int type;      /* MW_F32 (0, the default) or MW_BF16 */
} mw_buffer_spec;

/* Read access to a case's inputs for the CPU reference: element i of input
 * buffer b, recomputed from the seed (no host copy needed), rounded to the
 * buffer's type as the GPU's copy is. */
typedef struct mw_inputs {
    uint64_t seed;
    uint32_t stream[MW_MAX_BUFS];
    int type[MW_MAX_BUFS]; /* each buffer's mw_buffer_spec.type */
    int gen;
    float scale;
} mw_inputs;

static inline float mw_input(const mw_inputs *in, int b, size_t i)
{
    return mw_gen_as(in->seed, in->stream[b], i, in->gen, in->scale, in->type[b]);
}

/* A classic mistake, recognised by its values: when every wrong element a
 * report shows equals what the mistake computes there, the grader names it.
 * Chapter 01 has none; chapter 02's "ReLU before the add" is one. */
typedef struct mw_mistake {
    const char *message;
    double (*value)(const mw_case *c, const mw_inputs *in, size_t i);
    /* Optional: 0 for a case where value() costs too much to ask for each
     * element a failure shows (a sum over a row of 2^31 columns, on one
     * core, would outlast the case's time limit). NULL: every case. */
    int (*applies)(const mw_case *c);
} mw_mistake;

/* A library call (or the copy roof) timed beside the kernels. */
typedef struct mw_library {
    const char *name; /* "cublasSgeam" */
    const char *kind; /* "library", or "roof" for the speed of light */
    /* Returns 0 and a state, or -1 after printing why it is unavailable. */
    int (*setup)(void **state);
    cudaError_t (*run)(void *state, const mw_case *c, float *const *bufs, cudaStream_t s);
    void (*teardown)(void *state);
    /* Optional: its own byte count (a copy moves 8 bytes per element, not 12). */
    void (*model)(const mw_case *c, double *read, double *write, double *flops);
    int computes_output; /* 1: validated against the reference before timing */
    int op;              /* the chapter operation it computes */
    /* Optional: the roof its "% of roof" is taken against when it is not the
     * chapter's: "tf32" for a GEMM on the tensor cores at lower precision,
     * which would otherwise read as faster than the FP32 roof. NULL: the
     * chapter's roof. A name of the table in roofs.c, checked at startup. */
    const char *roof;
    /* Optional: floats (FP32) of workspace, as for a version (passed at bufs[nbufs]). */
    size_t (*workspace)(const struct mw_case *c);
    /* Optional: the outputs it does not compute, as a mask of buffer indices
     * (1u << b): left out of its validation. Chapter 05's library composition
     * returns O, not the logsumexp L. 0: it computes every output. */
    unsigned skips_outputs;
} mw_library;

/* One measured implementation at one size, for the verdict. */
typedef struct mw_result {
    const char *impl;    /* "reference/02_fast" */
    const char *kind;    /* student, reference, library, roof */
    double size;
    double median_ms;    /* NaN when not timed */
    double gbps, gflops;
} mw_result;

typedef struct mw_chapter {
    const char *id;    /* "01-vector-add" */
    const char *title; /* "Chapter 01: vector add" */
    const char *size_label; /* x axis of the plots: "elements (n)" */
    const char *roof;  /* "copy" (memory-bound) or "fp32" (compute-bound): a
                          name of the table in roofs.c, checked at startup */

    const mw_version *versions;
    int nversions;
    const mw_case *cases;       /* make check */
    int ncases;
    const mw_case *bench_cases; /* make bench, smallest first */
    int nbench;
    const size_t *traffic_sizes; /* make traffic: bench_x values to profile */
    int ntraffic;

    int nbufs;
    void (*buffers)(const mw_case *c, mw_buffer_spec *specs);
    void (*describe)(const mw_case *c, char *text, size_t len);
    double (*bench_x)(const mw_case *c);
    /* Calls the version's launcher `fn` on the case's views. */
    cudaError_t (*launch)(void *fn, const mw_case *c, float *const *bufs, cudaStream_t s);
    /* The exact answer, in double, for output element i. */
    double (*reference)(const mw_case *c, const mw_inputs *in, size_t i);
    mw_tol (*tolerance)(const mw_case *c);
    /* Optional: a tolerance per output buffer b, used instead of tolerance()
     * (chapter 05: O, an average of V, and L, a logarithm, err differently). */
    mw_tol (*output_tolerance)(const mw_case *c, int b);
    void (*model)(const mw_case *c, double *read, double *write, double *flops);

    const mw_mistake *mistakes;
    int nmistakes;

    const mw_library *libraries;
    int nlibraries;
    /* Prints the chapter's verdict in words; results cover every bench size,
     * smallest first. */
    void (*verdict)(const mw_result *results, int count, double copy_gbps);

    /* Optional, indexed by op: a suffix for the bench rows of MW_OP_FROM_CASE
     * (and MW_OP_FROM_CASE_WITH) implementations at cases of that op
     * ("-causal"), so that two sweeps over the same sizes are two series.
     * NULL (or a NULL entry): none. */
    const char *const *op_suffix;
    int nops;

    /* Optional: names output element i (a flat index over the outputs in
     * buffer order) in reports, e.g. "O[b=0,h=2,i=17,k=5]". NULL: "[i]". */
    void (*name_element)(const mw_case *c, size_t i, char *text, size_t len);
    /* Optional: the chapter's own hints from which outputs are wrong, called
     * after a failed check with one mismatch per output buffer (per[b] for
     * buffer b; inputs' entries are empty). Returns the hints written. */
    int (*explain)(const mw_case *c, const mw_inputs *in, const mw_mismatch *per,
                   char hints[][256], int max);
    /* Optional: a mask of the dim[] entries a kernel tiles (1u << k). When
     * every failing case has one of them off a multiple of 16 and a case
     * with all of them multiples of 16 passed, the check names a missing
     * bounds check on a partial tile. 0: no such hint. */
    unsigned tiled_dims;
    /* Optional: racecheck's class of a case (`check --small --one-per-shape`,
     * grader/mk/sanitize.sh), as a key of the chapter's choosing. Shared
     * memory is a block's own, so a race follows from the paths one block
     * takes through it: cases that differ only in how many such blocks
     * they launch, or in their values, are one class, and racecheck runs
     * the smallest of each. NULL: a class per launch shape (the same
     * dimensions, view offsets and operation). */
    void (*race_class)(const struct mw_case *c, char *key, size_t len);
    /* Optional: the shape of output buffer b for the case, as up to four
     * named axes, row-major (locate.h: chapter 05's O is b, h, i, k), with
     * the axes a kernel tiles, a square pair of axes with a diagonal, and
     * the case's causal flag and scale where they apply. The harness has
     * set `s` empty (mw_shape_init) and fills what it knows itself (full,
     * inputs_nonfinite). A failure then says where its wrong elements lie
     * and, where one factor relates them to the reference, which. NULL:
     * no localisation. */
    void (*output_shape)(const struct mw_case *c, int b, mw_shape *s);

    /* Optional, 0 for the defaults. A sampled check takes sample_edge
     * consecutive elements at each end and around 2^31, 2^32 and 2^33 (default
     * 65536), plus sample_random indices drawn from the seed (default
     * 2^18). The bench checks outputs of more than sample_above elements by
     * sampling (default 2^22). A chapter whose reference costs more than a
     * few operations per element (a GEMM: K multiply-adds) lowers them. */
    size_t sample_edge, sample_random, sample_above;

    /* Optional: called before reference() is asked for the outputs at the
     * flat indices idx[0..count) (idx NULL: every output, 0..count-1), so
     * that the chapter can compute at once, on every core, what those
     * references share (chapter 04: each row's max and sum). reference()
     * must give the same values with or without it. NULL: none. */
    void (*prepare_reference)(const struct mw_case *c, const mw_inputs *in, const size_t *idx,
                              size_t count);
    /* Optional: 1 when reference() may be called from several threads at
     * once (after prepare_reference, where there is one): a check then
     * computes the references it compares on every core. 0: one thread. */
    int reference_threads;

    /* Optional: the most work a case may have to run on the CPU emulation
     * (grader/emulation.h: model FLOPs plus the elements of its buffers);
     * larger cases are skipped there, saying so. 0: MW_EMULATION_BUDGET. */
    double emulation_budget;
    /* Optional: work the default measure misses, added to it: the
     * emulation's time follows the threads a kernel runs and the barriers
     * they meet, which FLOPs and bytes do not tell when a chapter's kernels
     * launch a block per row whatever its length (chapter 04). NULL: none. */
    double (*emulation_work)(const struct mw_case *c);
    /* Optional: the blocks that write flat output element i of a sampled
     * case under the chapter's canonical mappings (those of its reference
     * solutions, within its launch-shape rules), in a grid of grid[] blocks
     * of block[] threads: up to MW_EMULATION_BLOCKS linear block indices (x
     * fastest) in blocks[], and their count. Those outside the grid are left
     * out, so 0 says the grid is too small to give element i a block of its
     * own (a grid-stride loop). With it, the CPU emulation runs a sampled
     * case past its budget on the blocks its sample needs (emulation.h).
     * NULL: such a case is past the budget as any other. */
    int (*emulation_blocks)(const struct mw_case *c, size_t i, const unsigned grid[3],
                            const unsigned block[3], uint64_t blocks[MW_EMULATION_BLOCKS]);
    /* Optional, with emulation_blocks: NULL when a grid of grid[] blocks of
     * block[] threads is one whose blocks emulation_blocks can name for case
     * c; else why not, a phrase for the skip's line ("a row split over
     * several blocks, ..."). NULL hook: every grid is. */
    const char *(*emulation_layout)(const struct mw_case *c, const unsigned grid[3],
                                    const unsigned block[3]);
    /* Optional, with emulation_blocks: 1 when case c, past the budget, runs
     * on a sample of its blocks (and is checked on a sample, as a sampled
     * case); 0 when it is left to a GPU as any case past it is. A chapter
     * may leave out sampled cases whose sample would cost the emulation
     * much and check nothing its small cases do not (chapter 05's long
     * rows), and add cases a GPU checks whole that are small there but past
     * the budget (chapter 04's lone class). NULL: the sampled cases. */
    int (*emulation_samples)(const struct mw_case *c);
    /* Optional, 0 for the defaults (MW_EMULATION_SAMPLE_EDGE and
     * MW_EMULATION_SAMPLE_RANDOM, emulation.h): the emulation's sample of a
     * case it runs on a sample, a part of the GPU's. A chapter whose blocks
     * cost the emulation much (a GEMM tile: K multiply-adds a thread; a row
     * of a thousand threads) takes fewer. */
    size_t emulation_sample_edge, emulation_sample_random;
    /* Optional, 0 for MW_EMULATION_SAMPLE_ENDS (emulation.h): how many
     * blocks at each end of every grid a sample runs besides those its
     * outputs need. A chapter whose sampled outputs already hold both ends
     * of every grid, and whose blocks cost much, takes fewer. */
    size_t emulation_sample_ends;
    /* Optional, 0 for the chapter's budget (emulation_budget): the most
     * work the blocks of a sample may cost (mw_emulation_pick's measure).
     * A chapter whose sampled rows cost more than a whole small case sets
     * more. */
    double emulation_sample_budget;
} mw_chapter;

/* The width of the version column in a chapter's listings and check lines:
 * 12, or the longest version's file name where one is longer. */
static inline int mw_version_width(const mw_chapter *ch)
{
    int w = 12;
    for (int v = 0; v < ch->nversions; v++)
        w = (int)strlen(ch->versions[v].file) > w ? (int)strlen(ch->versions[v].file) : w;
    return w;
}

/* A version or library whose op is this computes whichever operation the
 * case names (chapter 05: attention, causal or not, through one flag). */
#define MW_OP_FROM_CASE (-1)
/* The case's operation with some of the chapter's flag bits set as well
 * (flags >= 1): a version that computes every case's operation in another
 * way the hooks must know of (chapter 05's bf16 version: causal or not, as
 * the case says, with bf16 buffers). */
#define MW_OP_FROM_CASE_WITH(flags) (-2 - (flags))

/* 1 when an implementation of this op computes the case's operation. */
static inline int mw_op_from_case(int op)
{
    return op <= MW_OP_FROM_CASE;
}

/* The case as the hooks see it while operation `op` runs. */
static inline mw_case mw_case_for(const mw_case *c, int op)
{
    mw_case copy = *c;
    if (op < MW_OP_FROM_CASE)
        copy.op = c->op | (-2 - op);
    else if (op != MW_OP_FROM_CASE)
        copy.op = op;
    return copy;
}

/* For an element-wise case of n floats whose views start `offset[]` floats
 * past a 256-byte boundary (nviews of them): which index limit it crosses
 * and in which code path of a float4 kernel, as a label for describe():
 * "" below 2^31, else e.g. " [limit: 2^31, an int index; crossed in the
 * float4 body]". Past 2^32 the limit is an unsigned 32-bit product
 * (blockIdx.x * blockDim.x), past 2^33 an int count of float4s. The head is the 0-3 elements before the first
 * 16-byte boundary; when the views' misalignments differ there is no
 * float4 path, only scalar accesses. */
static inline const char *mw_index_limit_label(size_t n, const size_t *offset, int nviews)
{
    const size_t two31 = (size_t)1 << 31, two32 = (size_t)1 << 32, two33 = (size_t)1 << 33;
    if (n <= two31)
        return "";
    int same = 1;
    for (int b = 1; b < nviews; b++)
        same &= offset[b] % 4 == offset[0] % 4;
    if (n > two33 && same)
        return " [limit: 2^33 elements, 2^31 float4s, where an int float4 index overflows]";
    if (n > two32)
        return same ? " [limit: 2^32, where an unsigned 32-bit product wraps]"
                    : " [limit: 2^32, where an unsigned 32-bit product wraps; scalar path]";
    size_t head = (4 - offset[0] % 4) % 4;
    size_t body_end = n > head ? head + (n - head) / 4 * 4 : n;
    if (!same)
        return " [limit: 2^31, an int index; crossed in the scalar path (misalignments differ)]";
    return body_end > two31 ? " [limit: 2^31, an int index; crossed in the float4 body]"
                            : " [limit: 2^31, an int index; crossed in the scalar tail]";
}

/* The floats of a limit: its bytes / 4. */
static inline size_t mw_limit_floats(const mw_gpu_limits *g, int limit)
{
    return (limit == MW_LIMIT_SMEM_OPTIN ? g->smem_optin : g->smem_default) / 4;
}

/* The label of a case set against a limit, for describe(): "" for a fixed
 * case, else e.g. " [smem: 12288 floats, the default 48 KiB per block, +1]". */
static inline void mw_dim_at_limit_label(const mw_case *c, char *text, size_t len)
{
    text[0] = '\0';
    if (c->at.limit == MW_LIMIT_NONE)
        return;
    long floats = (long)c->dim[c->at.dim] - c->at.delta;
    char delta[32] = "";
    if (c->at.delta != 0)
        snprintf(delta, sizeof delta, ", %+ld", c->at.delta);
    snprintf(text, len, " [smem: %ld floats, the %s %ld KiB per block%s]", floats,
             c->at.limit == MW_LIMIT_SMEM_OPTIN ? "opt-in maximum" : "default", floats * 4 / 1024,
             delta);
}

/* Defined by the chapter. */
extern const mw_chapter mw_chapter_def;
/* The chapter's folder name (grader/chapter_folder.c), which its id must be. */
extern const char mw_chapter_folder[];

#endif
