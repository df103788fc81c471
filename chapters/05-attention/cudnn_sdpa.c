/* cudnn_sdpa.c: cuDNN's fused flash-attention forward through the backend
 * C API (cudnnBackend* calls only), bf16 Q/K/V/O, FP32 compute, optional
 * FP32 logsumexp output. API and contract: cudnn_sdpa.h. Chapter 05's
 * library row for exercise 05.3 (library.h, mw05_sdpa_lib_*) calls it.
 *
 * Without cuDNN 9 headers at build time (no MW_HAVE_CUDNN, which the
 * Makefile defines when it finds cudnn.h, or cuDNN 8 headers) the calls
 * below are stubs: mw05_sdpa_create fails and says why.
 *
 * ---- How cuDNN does "fused attention" -----------------------------------
 * There is no attention *function* in the backend: one describes the maths
 * as an operation graph of small ops (matmul, pointwise, reduction) and asks
 * the heuristics for an engine that implements the whole graph. For this
 * graph the only engines cuDNN 9 offers are its runtime-fusion flash
 * attention engines (one kernel, S and P never leave the SM); they match the
 * graph against the pattern cudnn-frontend's SDPA node emits, so the graph
 * below mirrors that node op for op (cudnn-frontend's CompositeSDPANode,
 * CompositeDiagonalBandMaskNode and CompositeSoftmaxNode, which are what it
 * lowers to on cuDNN 9.0 to 9.20). A graph that means the same thing but is
 * spelt differently (another op order, FP32 P, a different mask formula) may
 * simply find no engine.
 *
 * The graph (uid: tensor, [dims], type; v = virtual, never in memory):
 *
 *    1 Q   [B,H,N,d] bf16      2 KT [B,H,d,N] bf16 (= K, strides below)
 *    3 V   [B,H,N,d] bf16      4 O  [B,H,N,d] bf16
 *    5 L   [B,H,N,1] fp32      6 scale [1,1,1,1] fp32, by value
 *    7 mask value [1,1,1,1] fp32, by value (-inf), causal graphs only
 *
 *    matmul     S(100,v,fp32)      = Q(1) . KT(2)
 *    pw MUL     Ss(101,v,fp32)     = S * scale(6)
 *    causal only:
 *    pw GEN_INDEX axis 2  row(102,v,int32)   = row index of Ss
 *    pw GEN_INDEX axis 3  col(103,v,int32)   = column index of Ss
 *    pw CMP_GE  keep(104,v,bool)   = row >= col
 *    pw BINARY_SELECT Sm(105,v,fp32) = keep ? Ss : mask value(7)
 *    (softmax on X = Sm if causal, else Ss)
 *    reduction MAX  M(106,v,[B,H,N,1])  = max_j X
 *    pw SUB     Z(107,v)           = X - M
 *    pw EXP     E(108,v)           = exp(Z)
 *    reduction ADD  Sum(109,v,[B,H,N,1]) = sum_j E
 *    pw LOG     lg(110,v,[B,H,N,1])    = log(Sum)
 *    pw ADD     L(5) = M + lg      (uid 111, virtual, when L == NULL)
 *    pw DIV     P(112,v,bf16)      = E / Sum
 *    matmul     O(4)               = P(112) . V(3)
 *
 * Every op computes in FP32 (CUDNN_ATTR_*_MATH_PREC / COMP_TYPE FLOAT; the
 * comparison in BOOLEAN), the intermediates are FP32 except P, which is
 * bf16 like Q: the second matmul takes both operands in the I/O type (the
 * frontend sets P's type to Q's, "requirement by cudnn backend"); the
 * engine does the rounding of P inside the kernel, as FlashAttention does.
 *
 * ---- Constraints of the fused engine (cuDNN 9.x, fp16/bf16 forward) -------
 * Gathered from cudnn-frontend's SDPA support-surface checks (its
 * validate_sdpa_support_surface, which is written against the backend's
 * limits) and the cuDNN "Attention" support matrix (for backend 9.18.1);
 * written against cuDNN 9.19.0's headers.
 *  - GPU sm_80 or newer (Ampere, Ada, Hopper, Blackwell). On sm_90 the
 *    heuristics rank first an engine they do not offer on sm_80 (see below),
 *    presumably the Hopper-specific flash-attention kernel.
 *  - Q, K, V, O fp16 or bf16 (fp8 is a different graph with descale ops);
 *    compute and intermediates FP32.
 *  - head dims d_qk, d_v a multiple of 8; d <= 256 on sm_8x/sm_90/sm_100 from
 *    cuDNN 9.10 (<= 128 on sm_8x and <= 256 on sm_90 for 9.9 and older;
 *    Ampere decode, N_q = 1, d <= 128).
 *  - the stride of the last (head) dim is 1 for Q, K, V, O; the other
 *    strides are free (BHSD, BSHD, interleaved all work), so K^T costs
 *    nothing: it is the same memory described with swapped strides.
 *  - sequence lengths: any. Before 9.0 an s_kv not a multiple of 64 needed
 *    an explicit padding mask (gen_index + cmp_lt); from 9.0 no longer.
 *  - causal: top-left diagonal (row >= col) as built here works for any N
 *    (N_q = N_kv, so no row is fully masked); the mask value is -inf from
 *    9.10 and the lowest finite float before, as the frontend does (older
 *    engines prefer a finite value).
 *  - the stats output (L) is optional (inference); it is required only
 *    by the backward graph. The frontend still puts the log + add ops in the
 *    graph with a virtual stats tensor when L is not wanted: done here too.
 *  - all tensors 16-byte aligned (CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT 16).
 *  - cuDNN 9.10.0 and 9.10.1: the frontend refuses fp16/bf16 SDPA forward
 *    on them ("known bugs"), so create() refuses them too.
 *  - cuDNN 9.13.1 and newer also have a single-op SDPA node
 *    (CUDNN_BACKEND_OPERATION_SDPA_FWD_DESCRIPTOR) that the frontend prefers
 *    for plain non-causal attention; with masks it needs 9.21, and 9.21 also
 *    brings a dedicated DIAGONAL_BAND_MASK op for causal. The 9.19
 *    headers have the SDPA_FWD op but not the mask op, so causal must use the
 *    composite graph here, and this file uses it for both, for one code path.
 *
 * What was checked without a GPU (cuDNN 9.19.0, deviceless: the same graph
 * given to the heuristics with CUDNN_ATTR_ENGINEHEUR_DEVICEPROP describing
 * an H100 or an A100, cuDNN's debug log on): every variant its stand-alone
 * driver uses (causal 0/1, L or not, d 64/128, N 129 and 4096) finalises as
 * an operation graph that cuDNN classifies as "SDPA_FWD"; heuristics A
 * offers engine 2 then engine 1 on sm_90 (5 configs at d=64, 2 at d=128),
 * engine 1 only on sm_80; they then stop at "libcuda == nullptr" (the
 * runtime compiler needs the driver), so no plan could be finalised. A
 * control graph with P in FP32 is refused before that point
 * (NOT_SUPPORTED_DATA_TYPE in check_matmul_flash_mha_support), so the graph
 * here passes the engine's pattern and type checks. Shape limits (d % 8,
 * d <= 256) are checked only after the compiler loads: not verified there.
 *
 * On an H100 the driver's checks pass (O and L against a double reference,
 * causal and not, with L and without, a second scale on a cached plan) and
 * B=4 H=16 N=4096 d=128, non-causal, runs at 685 TFLOP/s.
 *
 * ---- Design choices --------------------------------------------------------
 *  - scale is a by-value tensor (uid 6): its value is read at execute time
 *    from the variant pack, so one plan serves every scale.
 *  - plans are cached by (B,H,N,d,causal,L given); 16 slots, LRU eviction.
 *    Everything used to build a plan (tensors, ops, graph, heuristics,
 *    other engine configs) is destroyed once the plan is finalised: the
 *    backend copies what it needs into the finalised descriptors (the
 *    frontend also lets sub-descriptors die after finalising their parent);
 *    only the plan and its engine config are kept.
 *  - one workspace for all plans, grown as needed (with a stream
 *    synchronisation, rare: only at a new shape), freed in destroy.
 *  - uses CUDNN_ATTR_OPERATIONGRAPH_HANDLE and CUDNN_ATTR_EXECUTION_PLAN_HANDLE,
 *    marked deprecated in 9.x headers (in favour of device-property
 *    descriptors, for building without a GPU) but still what the frontend sets.
 */
#include "cudnn_sdpa.h"

#ifdef MW_HAVE_CUDNN
#include <cudnn.h>
#endif

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if !defined(MW_HAVE_CUDNN) || CUDNN_MAJOR < 9

/* ---- without cuDNN 9 at build time -------------------------------------------
 * The graph needs cuDNN 9's headers (cudnnGetLastErrorString, the 9.x status
 * codes, the runtime-fusion engines): before them there is nothing to call,
 * and create says why. The chapter still builds, without this row. */
#ifndef MW_HAVE_CUDNN
#define NO_SDPA "cuDNN was not found at build time"
#else
#define MW_SDPA_STR2(x) #x
#define MW_SDPA_STR(x) MW_SDPA_STR2(x)
#define NO_SDPA "cuDNN " MW_SDPA_STR(CUDNN_MAJOR) "." MW_SDPA_STR(CUDNN_MINOR) \
                " headers at build time; the fused attention graph here needs 9.0 or newer"
#endif

int mw05_sdpa_create(mw05_sdpa **out, char *why, size_t why_len) {
    if (out) *out = NULL;
    if (why && why_len) snprintf(why, why_len, "%s", NO_SDPA);
    return -1;
}

void mw05_sdpa_destroy(mw05_sdpa *s) {
    (void)s;
}

cudaError_t mw05_sdpa_run(mw05_sdpa *s, const void *Q, const void *K, const void *V, void *O, float *L, int B,
                          int H, int N, int d, float scale, int causal, cudaStream_t stream) {
    (void)s, (void)Q, (void)K, (void)V, (void)O, (void)L, (void)B, (void)H, (void)N, (void)d;
    (void)scale, (void)causal, (void)stream;
    return cudaErrorNotSupported;
}

const char *mw05_sdpa_engine_name(const mw05_sdpa *s) {
    (void)s;
    return NO_SDPA;
}

#else

#define CACHE_SLOTS 16
#define TEXT 320         /* one error line */
#define NAME (2 * TEXT)  /* a label, or an error line with context */
#define MAX_DESCS 64   /* descriptors of one build; the causal graph uses 49: 19 tensors,
                          14 ops and their 14 sub-descriptors, the graph, the heuristics */
#define MAX_OPS 16     /* ops of one graph; the causal graph has 14 */

/* Tensor uids. The non-virtual ones are the keys of the variant pack. */
enum {
    UID_Q = 1, UID_KT = 2, UID_V = 3, UID_O = 4, UID_STATS = 5, UID_SCALE = 6, UID_MASK_VALUE = 7,
    UID_S = 100, UID_S_SCALED, UID_ROW, UID_COL, UID_KEEP, UID_S_MASKED,
    UID_MAX, UID_SUB, UID_EXP, UID_SUM, UID_LOG, UID_STATS_VIRTUAL, UID_P
};

typedef struct {
    bool used;
    int B, H, N, d, causal, stats;
    unsigned long long stamp;          /* LRU clock value of the last use */
    cudnnBackendDescriptor_t plan, cfg;
    int64_t workspace;                 /* bytes */
    char name[NAME];
} slot;

struct mw05_sdpa {
    cudnnHandle_t handle;
    size_t version;                    /* cudnnGetVersion(), e.g. 91900 */
    float mask_value;                  /* what masked scores become */
    void *ws;
    size_t ws_bytes;
    unsigned long long clock;
    slot cache[CACHE_SLOTS];
    char name[NAME];                   /* last engine, or last failure */
};

/* ---- error text ---------------------------------------------------------- */

/* "what: STATUS_STRING (cuDNN's last error message)", on one line. */
static void status_text(char *buf, size_t len, const char *what, cudnnStatus_t st) {
    char detail[TEXT] = "";
    cudnnGetLastErrorString(detail, sizeof detail);
    for (char *c = detail; *c; ++c)
        if (*c == '\n' || *c == '\r' || *c == '\t') *c = ' ';
    snprintf(buf, len, "%s: %s%s%s%s", what, cudnnGetErrorString(st), detail[0] ? " (" : "", detail,
             detail[0] ? ")" : "");
}

static cudaError_t to_cuda_error(cudnnStatus_t st) {
    return CUDNN_STATUS_CATEGORY(st) == CUDNN_STATUS_NOT_SUPPORTED ? cudaErrorNotSupported : cudaErrorUnknown;
}

/* ---- graph builder -----------------------------------------------------------
 * A sticky status: the first failing call records its status and text and
 * every later call is a no-op, so building reads as a straight list of ops
 * with one check at the end, and every descriptor created is remembered for
 * destruction whatever happened. */
typedef struct {
    cudnnBackendDescriptor_t descs[MAX_DESCS];
    int n_descs;
    cudnnBackendDescriptor_t ops[MAX_OPS];
    int n_ops;
    cudnnStatus_t st;
    char err[TEXT];
} builder;

static void fail(builder *g, cudnnStatus_t st, const char *what) {
    if (g->st != CUDNN_STATUS_SUCCESS) return;
    g->st = st;
    status_text(g->err, sizeof g->err, what, st);
}

#define CK(g, what, call)                                                                                     \
    do {                                                                                                      \
        if ((g)->st == CUDNN_STATUS_SUCCESS) {                                                                \
            cudnnStatus_t st_ = (call);                                                                       \
            if (st_ != CUDNN_STATUS_SUCCESS) fail((g), st_, (what));                                          \
        }                                                                                                     \
    } while (0)

static cudnnBackendDescriptor_t make(builder *g, cudnnBackendDescriptorType_t type, const char *what) {
    cudnnBackendDescriptor_t d = NULL;
    if (g->st != CUDNN_STATUS_SUCCESS) return NULL;
    if (g->n_descs == MAX_DESCS) {
        fail(g, CUDNN_STATUS_INTERNAL_ERROR, "builder: too many descriptors");
        return NULL;
    }
    CK(g, what, cudnnBackendCreateDescriptor(type, &d));
    if (g->st == CUDNN_STATUS_SUCCESS) g->descs[g->n_descs++] = d;
    return d;
}

static void set(builder *g, cudnnBackendDescriptor_t d, cudnnBackendAttributeName_t name,
                cudnnBackendAttributeType_t type, int64_t count, const void *values, const char *what) {
    CK(g, what, cudnnBackendSetAttribute(d, name, type, count, values));
}

static void finalize(builder *g, cudnnBackendDescriptor_t d, const char *what) {
    CK(g, what, cudnnBackendFinalize(d));
}

static void set_desc(builder *g, cudnnBackendDescriptor_t d, cudnnBackendAttributeName_t name,
                     cudnnBackendDescriptor_t value, const char *what) {
    set(g, d, name, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &value, what);
}

static cudnnBackendDescriptor_t tensor(builder *g, int64_t uid, cudnnDataType_t type, const int64_t dim[4],
                                       const int64_t stride[4], bool is_virtual, bool by_value) {
    cudnnBackendDescriptor_t t = make(g, CUDNN_BACKEND_TENSOR_DESCRIPTOR, "create tensor");
    int64_t alignment = 16; /* 16 B: what the tensor-core engines require of every tensor */
    set(g, t, CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &type, "tensor data type");
    set(g, t, CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, 4, dim, "tensor dims");
    set(g, t, CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, 4, stride, "tensor strides");
    set(g, t, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &uid, "tensor uid");
    set(g, t, CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, 1, &alignment, "tensor alignment");
    if (is_virtual) set(g, t, CUDNN_ATTR_TENSOR_IS_VIRTUAL, CUDNN_TYPE_BOOLEAN, 1, &is_virtual, "tensor virtual");
    if (by_value) set(g, t, CUDNN_ATTR_TENSOR_IS_BY_VALUE, CUDNN_TYPE_BOOLEAN, 1, &by_value, "tensor by value");
    finalize(g, t, "finalize tensor");
    return t;
}

static void add_op(builder *g, cudnnBackendDescriptor_t op) {
    if (g->st != CUDNN_STATUS_SUCCESS) return;
    if (g->n_ops == MAX_OPS) {
        fail(g, CUDNN_STATUS_INTERNAL_ERROR, "builder: too many ops");
        return;
    }
    g->ops[g->n_ops++] = op;
}

/* Pointwise op y = mode(x [, b [, t]]). axis >= 0 only for GEN_INDEX. */
static void pointwise(builder *g, cudnnPointwiseMode_t mode, cudnnDataType_t math, int64_t axis,
                      cudnnBackendDescriptor_t x, cudnnBackendDescriptor_t b, cudnnBackendDescriptor_t t,
                      cudnnBackendDescriptor_t y) {
    cudnnBackendDescriptor_t pw = make(g, CUDNN_BACKEND_POINTWISE_DESCRIPTOR, "create pointwise desc");
    set(g, pw, CUDNN_ATTR_POINTWISE_MODE, CUDNN_TYPE_POINTWISE_MODE, 1, &mode, "pointwise mode");
    set(g, pw, CUDNN_ATTR_POINTWISE_MATH_PREC, CUDNN_TYPE_DATA_TYPE, 1, &math, "pointwise math precision");
    if (axis >= 0) set(g, pw, CUDNN_ATTR_POINTWISE_AXIS, CUDNN_TYPE_INT64, 1, &axis, "pointwise axis");
    finalize(g, pw, "finalize pointwise desc");

    cudnnBackendDescriptor_t op = make(g, CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR, "create pointwise op");
    float one = 1.0f; /* alpha1, alpha2: plain y = f(x, b), no blending */
    set_desc(g, op, CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR, pw, "pointwise op desc");
    set_desc(g, op, CUDNN_ATTR_OPERATION_POINTWISE_XDESC, x, "pointwise op x");
    if (b) set_desc(g, op, CUDNN_ATTR_OPERATION_POINTWISE_BDESC, b, "pointwise op b");
    if (t) set_desc(g, op, CUDNN_ATTR_OPERATION_POINTWISE_TDESC, t, "pointwise op t");
    set_desc(g, op, CUDNN_ATTR_OPERATION_POINTWISE_YDESC, y, "pointwise op y");
    set(g, op, CUDNN_ATTR_OPERATION_POINTWISE_ALPHA1, CUDNN_TYPE_FLOAT, 1, &one, "pointwise alpha1");
    set(g, op, CUDNN_ATTR_OPERATION_POINTWISE_ALPHA2, CUDNN_TYPE_FLOAT, 1, &one, "pointwise alpha2");
    finalize(g, op, "finalize pointwise op");
    add_op(g, op);
}

/* Reduction y = reduce(x) over the dims where y has extent 1 (here: the key axis). */
static void reduction(builder *g, cudnnReduceTensorOp_t how, cudnnBackendDescriptor_t x, cudnnBackendDescriptor_t y) {
    cudnnDataType_t f32 = CUDNN_DATA_FLOAT;
    cudnnBackendDescriptor_t rd = make(g, CUDNN_BACKEND_REDUCTION_DESCRIPTOR, "create reduction desc");
    set(g, rd, CUDNN_ATTR_REDUCTION_OPERATOR, CUDNN_TYPE_REDUCTION_OPERATOR_TYPE, 1, &how, "reduction operator");
    set(g, rd, CUDNN_ATTR_REDUCTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &f32, "reduction compute type");
    finalize(g, rd, "finalize reduction desc");

    cudnnBackendDescriptor_t op = make(g, CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR, "create reduction op");
    set_desc(g, op, CUDNN_ATTR_OPERATION_REDUCTION_DESC, rd, "reduction op desc");
    set_desc(g, op, CUDNN_ATTR_OPERATION_REDUCTION_XDESC, x, "reduction op x");
    set_desc(g, op, CUDNN_ATTR_OPERATION_REDUCTION_YDESC, y, "reduction op y");
    finalize(g, op, "finalize reduction op");
    add_op(g, op);
}

/* Batched matmul c = a . b over the last two dims, batch over the first two. */
static void matmul(builder *g, cudnnBackendDescriptor_t a, cudnnBackendDescriptor_t b, cudnnBackendDescriptor_t c) {
    cudnnDataType_t f32 = CUDNN_DATA_FLOAT;
    cudnnBackendDescriptor_t md = make(g, CUDNN_BACKEND_MATMUL_DESCRIPTOR, "create matmul desc");
    set(g, md, CUDNN_ATTR_MATMUL_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &f32, "matmul compute type");
    finalize(g, md, "finalize matmul desc");

    cudnnBackendDescriptor_t op = make(g, CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR, "create matmul op");
    set_desc(g, op, CUDNN_ATTR_OPERATION_MATMUL_ADESC, a, "matmul op a");
    set_desc(g, op, CUDNN_ATTR_OPERATION_MATMUL_BDESC, b, "matmul op b");
    set_desc(g, op, CUDNN_ATTR_OPERATION_MATMUL_CDESC, c, "matmul op c");
    set_desc(g, op, CUDNN_ATTR_OPERATION_MATMUL_DESC, md, "matmul op desc");
    finalize(g, op, "finalize matmul op");
    add_op(g, op);
}

static void builder_free(builder *g) {
    for (int i = g->n_descs - 1; i >= 0; --i) cudnnBackendDestroyDescriptor(g->descs[i]);
    g->n_descs = g->n_ops = 0;
}

/* ---- the SDPA graph ------------------------------------------------------------ */

static void build_graph(builder *g, const slot *e) {
    const int64_t B = e->B, H = e->H, N = e->N, d = e->d;
    const cudnnDataType_t bf16 = CUDNN_DATA_BFLOAT16, f32 = CUDNN_DATA_FLOAT;
    const cudnnDataType_t i32 = CUDNN_DATA_INT32, boolean = CUDNN_DATA_BOOLEAN;

    /* [B,H,N,d] row-major: (b,h,n,k) at b*H*N*d + h*N*d + n*d + k. */
    const int64_t qkv_dim[4] = {B, H, N, d};
    const int64_t qkv_stride[4] = {H * N * d, N * d, d, 1};
    /* K^T without moving a byte. The matmul computes A[.., m, k] . B[.., k, n],
     * so its B operand must be described as [.., d, N]: (head-dim index k,
     * key index n). K's memory holds (key n, k) at n*d + k, so element (k, n)
     * of the view is at k*1 + n*d: dims (d, N), strides (1, d). The strides
     * tell cuDNN that B is contiguous along k, the contraction dim, the same
     * as Q (stride 1 along k): the layout tensor-core GEMMs want for Q K^T
     * ("TN"), read straight from K as stored. */
    const int64_t kt_dim[4] = {B, H, d, N};
    const int64_t kt_stride[4] = {H * N * d, N * d, 1, d};
    /* Scores, [B,H,N,N] row-major; virtual, so only their shape matters. */
    const int64_t s_dim[4] = {B, H, N, N};
    const int64_t s_stride[4] = {H * N * N, N * N, N, 1};
    /* Per-row values (max, sum, stats): [B,H,N,1], contiguous [B,H,N] in memory for L. */
    const int64_t row_dim[4] = {B, H, N, 1};
    const int64_t row_stride[4] = {H * N, N, 1, 1};
    const int64_t one_dim[4] = {1, 1, 1, 1};
    const int64_t one_stride[4] = {1, 1, 1, 1};

    cudnnBackendDescriptor_t q = tensor(g, UID_Q, bf16, qkv_dim, qkv_stride, false, false);
    cudnnBackendDescriptor_t kt = tensor(g, UID_KT, bf16, kt_dim, kt_stride, false, false);
    cudnnBackendDescriptor_t v = tensor(g, UID_V, bf16, qkv_dim, qkv_stride, false, false);
    cudnnBackendDescriptor_t o = tensor(g, UID_O, bf16, qkv_dim, qkv_stride, false, false);
    cudnnBackendDescriptor_t scale = tensor(g, UID_SCALE, f32, one_dim, one_stride, false, true);

    /* S = Q K^T, then S * scale */
    cudnnBackendDescriptor_t s = tensor(g, UID_S, f32, s_dim, s_stride, true, false);
    matmul(g, q, kt, s);
    cudnnBackendDescriptor_t ss = tensor(g, UID_S_SCALED, f32, s_dim, s_stride, true, false);
    pointwise(g, CUDNN_POINTWISE_MUL, f32, -1, s, scale, NULL, ss);

    cudnnBackendDescriptor_t x = ss; /* the softmax input */
    if (e->causal) {
        /* keep where query row >= key column; elsewhere the by-value mask value */
        cudnnBackendDescriptor_t mask_value = tensor(g, UID_MASK_VALUE, f32, one_dim, one_stride, false, true);
        cudnnBackendDescriptor_t row = tensor(g, UID_ROW, i32, s_dim, s_stride, true, false);
        cudnnBackendDescriptor_t col = tensor(g, UID_COL, i32, s_dim, s_stride, true, false);
        cudnnBackendDescriptor_t keep = tensor(g, UID_KEEP, boolean, s_dim, s_stride, true, false);
        cudnnBackendDescriptor_t sm = tensor(g, UID_S_MASKED, f32, s_dim, s_stride, true, false);
        pointwise(g, CUDNN_POINTWISE_GEN_INDEX, f32, 2, ss, NULL, NULL, row);
        pointwise(g, CUDNN_POINTWISE_GEN_INDEX, f32, 3, ss, NULL, NULL, col);
        pointwise(g, CUDNN_POINTWISE_CMP_GE, boolean, -1, row, col, NULL, keep);
        /* BINARY_SELECT: y = t ? x : b */
        pointwise(g, CUDNN_POINTWISE_BINARY_SELECT, f32, -1, ss, mask_value, keep, sm);
        x = sm;
    }

    /* softmax with the statistics, in the order the engine's pattern expects */
    cudnnBackendDescriptor_t mx = tensor(g, UID_MAX, f32, row_dim, row_stride, true, false);
    cudnnBackendDescriptor_t z = tensor(g, UID_SUB, f32, s_dim, s_stride, true, false);
    cudnnBackendDescriptor_t ex = tensor(g, UID_EXP, f32, s_dim, s_stride, true, false);
    cudnnBackendDescriptor_t sum = tensor(g, UID_SUM, f32, row_dim, row_stride, true, false);
    cudnnBackendDescriptor_t lg = tensor(g, UID_LOG, f32, row_dim, row_stride, true, false);
    cudnnBackendDescriptor_t stats = e->stats ? tensor(g, UID_STATS, f32, row_dim, row_stride, false, false)
                                              : tensor(g, UID_STATS_VIRTUAL, f32, row_dim, row_stride, true, false);
    cudnnBackendDescriptor_t p = tensor(g, UID_P, bf16, s_dim, s_stride, true, false);
    reduction(g, CUDNN_REDUCE_TENSOR_MAX, x, mx);
    pointwise(g, CUDNN_POINTWISE_SUB, f32, -1, x, mx, NULL, z);
    pointwise(g, CUDNN_POINTWISE_EXP, f32, -1, z, NULL, NULL, ex);
    reduction(g, CUDNN_REDUCE_TENSOR_ADD, ex, sum);
    pointwise(g, CUDNN_POINTWISE_LOG, f32, -1, sum, NULL, NULL, lg);
    pointwise(g, CUDNN_POINTWISE_ADD, f32, -1, mx, lg, NULL, stats);
    pointwise(g, CUDNN_POINTWISE_DIV, f32, -1, ex, sum, NULL, p);

    /* O = P V */
    matmul(g, p, v, o);
}

/* "eng7 rtc" from an engine config, best effort (a label, not needed to run). */
static void engine_label(cudnnBackendDescriptor_t cfg, char *buf, size_t len) {
    cudnnBackendDescriptor_t eng = NULL;
    int64_t n = 0, index = -1;
    cudnnBackendBehaviorNote_t notes[CUDNN_BEHAVIOR_NOTE_TYPE_COUNT];
    int64_t n_notes = 0;
    bool rtc = false;
    snprintf(buf, len, "eng?");
    if (cudnnBackendCreateDescriptor(CUDNN_BACKEND_ENGINE_DESCRIPTOR, &eng) != CUDNN_STATUS_SUCCESS) return;
    if (cudnnBackendGetAttribute(cfg, CUDNN_ATTR_ENGINECFG_ENGINE, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &n, &eng) ==
            CUDNN_STATUS_SUCCESS &&
        cudnnBackendGetAttribute(eng, CUDNN_ATTR_ENGINE_GLOBAL_INDEX, CUDNN_TYPE_INT64, 1, &n, &index) ==
            CUDNN_STATUS_SUCCESS) {
        if (cudnnBackendGetAttribute(eng, CUDNN_ATTR_ENGINE_BEHAVIOR_NOTE, CUDNN_TYPE_BEHAVIOR_NOTE,
                                     CUDNN_BEHAVIOR_NOTE_TYPE_COUNT, &n_notes, notes) == CUDNN_STATUS_SUCCESS)
            for (int64_t i = 0; i < n_notes && i < CUDNN_BEHAVIOR_NOTE_TYPE_COUNT; ++i)
                rtc |= notes[i] == CUDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION;
        snprintf(buf, len, "eng%lld%s", (long long)index, rtc ? " rtc" : "");
    }
    cudnnBackendDestroyDescriptor(eng);
}

/* Builds the graph of e's key, finds an engine, finalises its plan into e.
 * 0, or -1 with the status in *st_out and a line in err. */
static int build_plan(mw05_sdpa *s, slot *e, cudnnStatus_t *st_out, char *err, size_t err_len) {
    builder g;
    memset(&g, 0, sizeof g);
    build_graph(&g, e);

    /* the operation graph: the ops, in data-flow order */
    cudnnBackendDescriptor_t graph = make(&g, CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR, "create operation graph");
    set(&g, graph, CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR, g.n_ops, g.ops, "graph ops");
    set(&g, graph, CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1, &s->handle, "graph handle");
    finalize(&g, graph, "finalize operation graph (graph not valid)");

    /* heuristics, mode A (the fast, usual one): engine configs, best first */
    cudnnBackendHeurMode_t mode = CUDNN_HEUR_MODE_A;
    cudnnBackendDescriptor_t heur = make(&g, CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR, "create heuristics");
    set_desc(&g, heur, CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, graph, "heuristics graph");
    set(&g, heur, CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, 1, &mode, "heuristics mode");
    finalize(&g, heur, "finalize heuristics (no engine for this graph)");
    int64_t n_cfg = 0;
    CK(&g, "heuristics result count",
       cudnnBackendGetAttribute(heur, CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, &n_cfg, NULL));

    /* The configs are returned into descriptors we create beforehand. */
    cudnnBackendDescriptor_t *cfgs = NULL;
    int64_t n_made = 0, n_got = 0;
    if (g.st == CUDNN_STATUS_SUCCESS && n_cfg > 0) {
        cfgs = calloc((size_t)n_cfg, sizeof *cfgs);
        if (!cfgs) fail(&g, CUDNN_STATUS_INTERNAL_ERROR_HOST_ALLOCATION_FAILED, "engine config list");
        for (int64_t i = 0; i < n_cfg && g.st == CUDNN_STATUS_SUCCESS; ++i) {
            CK(&g, "create engine config", cudnnBackendCreateDescriptor(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR, &cfgs[i]));
            if (g.st == CUDNN_STATUS_SUCCESS) n_made = i + 1;
        }
        CK(&g, "heuristics results",
           cudnnBackendGetAttribute(heur, CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, n_made, &n_got,
                                    cfgs));
    }
    if (g.st == CUDNN_STATUS_SUCCESS && n_got <= 0) fail(&g, CUDNN_STATUS_NOT_SUPPORTED, "heuristics: no engine config");

    /* Try the configs in order: the first whose plan finalises wins (a config
     * can still be refused here, e.g. the kernel does not compile or does
     * not fit in shared memory). */
    int64_t chosen = -1;
    cudnnBackendDescriptor_t plan = NULL;
    cudnnStatus_t last = CUDNN_STATUS_NOT_SUPPORTED;
    char last_err[TEXT] = "no engine config finalised";
    for (int64_t i = 0; g.st == CUDNN_STATUS_SUCCESS && i < n_got && chosen < 0; ++i) {
        cudnnStatus_t st = cudnnBackendCreateDescriptor(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR, &plan);
        if (st == CUDNN_STATUS_SUCCESS)
            st = cudnnBackendSetAttribute(plan, CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, 1, &s->handle);
        if (st == CUDNN_STATUS_SUCCESS)
            st = cudnnBackendSetAttribute(plan, CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, CUDNN_TYPE_BACKEND_DESCRIPTOR,
                                          1, &cfgs[i]);
        if (st == CUDNN_STATUS_SUCCESS) st = cudnnBackendFinalize(plan);
        if (st == CUDNN_STATUS_SUCCESS) {
            chosen = i;
        } else {
            last = st;
            status_text(last_err, sizeof last_err, "finalize execution plan", st);
            if (plan) cudnnBackendDestroyDescriptor(plan);
            plan = NULL;
        }
    }
    if (g.st == CUDNN_STATUS_SUCCESS && chosen < 0) {
        g.st = last;
        snprintf(g.err, sizeof g.err, "%s (tried %lld engine configs)", last_err, (long long)n_got);
    }

    int64_t ws = 0, n = 0;
    if (g.st == CUDNN_STATUS_SUCCESS) {
        CK(&g, "plan workspace size",
           cudnnBackendGetAttribute(plan, CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, CUDNN_TYPE_INT64, 1, &n, &ws));
        if (g.st == CUDNN_STATUS_SUCCESS && ws < 0) fail(&g, CUDNN_STATUS_INTERNAL_ERROR, "negative workspace size");
    }
    if (g.st == CUDNN_STATUS_SUCCESS) {
        char label[64];
        engine_label(cfgs[chosen], label, sizeof label);
        snprintf(e->name, sizeof e->name, "cuDNN %zu.%zu.%zu %s (heur A %lld/%lld)", s->version / 10000,
                 s->version % 10000 / 100, s->version % 100, label, (long long)chosen + 1, (long long)n_got);
        e->plan = plan;
        e->cfg = cfgs[chosen];
        e->workspace = ws;
    } else if (plan) {
        cudnnBackendDestroyDescriptor(plan);
    }

    /* Keep the plan and its config; everything else goes. */
    for (int64_t i = 0; i < n_made; ++i)
        if (i != chosen || g.st != CUDNN_STATUS_SUCCESS) cudnnBackendDestroyDescriptor(cfgs[i]);
    free(cfgs);
    builder_free(&g);

    *st_out = g.st;
    if (g.st != CUDNN_STATUS_SUCCESS) {
        snprintf(err, err_len, "%s", g.err);
        return -1;
    }
    return 0;
}

static void slot_release(slot *e) {
    if (e->used) {
        cudnnBackendDestroyDescriptor(e->plan);
        cudnnBackendDestroyDescriptor(e->cfg);
    }
    memset(e, 0, sizeof *e);
}

/* The cached plan for the key, built on a miss (evicting the least recently
 * used slot). NULL on failure, with the status and a line in err. */
static slot *get_plan(mw05_sdpa *s, int B, int H, int N, int d, int causal, int stats, cudnnStatus_t *st,
                      char *err, size_t err_len) {
    slot *victim = &s->cache[0];
    for (int i = 0; i < CACHE_SLOTS; ++i) {
        slot *e = &s->cache[i];
        if (e->used && e->B == B && e->H == H && e->N == N && e->d == d && e->causal == causal &&
            e->stats == stats) {
            e->stamp = ++s->clock;
            return e;
        }
        if (!victim->used) continue;                      /* already have a free one */
        if (!e->used || e->stamp < victim->stamp) victim = e; /* free, or older */
    }
    slot fresh;
    memset(&fresh, 0, sizeof fresh);
    fresh.B = B, fresh.H = H, fresh.N = N, fresh.d = d, fresh.causal = causal, fresh.stats = stats;
    if (build_plan(s, &fresh, st, err, err_len) != 0) return NULL;
    slot_release(victim);
    *victim = fresh;
    victim->used = true;
    victim->stamp = ++s->clock;
    return victim;
}

/* ---- API ------------------------------------------------------------------------- */

static void say(char *why, size_t len, const char *text) { /* bounded copy, always terminated */
    if (!why || !len) return;
    size_t n = strlen(text);
    if (n >= len) n = len - 1;
    memcpy(why, text, n);
    why[n] = '\0';
}

int mw05_sdpa_create(mw05_sdpa **out, char *why, size_t why_len) {
    char line[NAME];
    if (!out) return say(why, why_len, "mw05_sdpa_create: out is NULL"), -1;
    *out = NULL;

    size_t version = cudnnGetVersion();
    if (version < 90000) {
        snprintf(line, sizeof line, "cuDNN %zu at run time; the fused attention graph here needs 9.0 or newer",
                 version);
        return say(why, why_len, line), -1;
    }
    if (version == 91000 || version == 91001) {
        snprintf(line, sizeof line, "cuDNN %zu: 9.10.0/9.10.1 have known bf16 SDPA forward bugs (upgrade)", version);
        return say(why, why_len, line), -1;
    }

    int dev = 0, major = 0, minor = 0;
    cudaError_t ce = cudaGetDevice(&dev);
    if (ce == cudaSuccess) ce = cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    if (ce == cudaSuccess) ce = cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
    if (ce != cudaSuccess) {
        snprintf(line, sizeof line, "no usable CUDA device: %s", cudaGetErrorString(ce));
        return say(why, why_len, line), -1;
    }
    if (major < 8) {
        snprintf(line, sizeof line, "GPU is sm_%d%d; cuDNN's fused attention needs sm_80 or newer", major, minor);
        return say(why, why_len, line), -1;
    }

    mw05_sdpa *s = calloc(1, sizeof *s);
    if (!s) return say(why, why_len, "out of host memory"), -1;
    s->version = version;
    /* The frontend masks with -inf from 9.10 and with the lowest float before. */
    s->mask_value = version >= 91000 ? -INFINITY : -FLT_MAX;
    cudnnStatus_t st = cudnnCreate(&s->handle);
    if (st != CUDNN_STATUS_SUCCESS) {
        status_text(line, sizeof line, "cudnnCreate", st);
        free(s);
        return say(why, why_len, line), -1;
    }

    /* Probe: is there an engine for the graph at all on this GPU? */
    char err[TEXT];
    const slot *probe = get_plan(s, 1, 1, 128, 64, 0, 1, &st, err, sizeof err);
    if (!probe) {
        snprintf(line, sizeof line, "no cuDNN engine for the SDPA graph (probe B=1 H=1 N=128 d=64, sm_%d%d): %s",
                 major, minor, err);
        mw05_sdpa_destroy(s);
        return say(why, why_len, line), -1;
    }
    snprintf(s->name, sizeof s->name, "%s", probe->name);
    *out = s;
    return 0;
}

void mw05_sdpa_destroy(mw05_sdpa *s) {
    if (!s) return;
    for (int i = 0; i < CACHE_SLOTS; ++i) slot_release(&s->cache[i]);
    if (s->ws) cudaFree(s->ws);
    if (s->handle) cudnnDestroy(s->handle);
    free(s);
}

const char *mw05_sdpa_engine_name(const mw05_sdpa *s) {
    return s ? s->name : "no mw05_sdpa state";
}

static cudaError_t bad_arg(mw05_sdpa *s, const char *text) {
    snprintf(s->name, sizeof s->name, "mw05_sdpa_run: %s", text);
    fprintf(stderr, "%s\n", s->name);
    return cudaErrorInvalidValue;
}

static bool misaligned(const void *p) {
    return ((uintptr_t)p & 15u) != 0;
}

cudaError_t mw05_sdpa_run(mw05_sdpa *s, const void *Q, const void *K, const void *V, void *O, float *L, int B,
                          int H, int N, int d, float scale, int causal, cudaStream_t stream) {
    if (!s) return cudaErrorInvalidValue;
    if (!Q || !K || !V || !O) return bad_arg(s, "Q, K, V and O must not be NULL");
    if (B < 1 || H < 1 || N < 1) return bad_arg(s, "B, H and N must be >= 1");
    if (d < 8 || d > 256 || d % 8) return bad_arg(s, "d must be a multiple of 8 in [8, 256]");
    if (causal != 0 && causal != 1) return bad_arg(s, "causal must be 0 or 1");
    if (misaligned(Q) || misaligned(K) || misaligned(V) || misaligned(O) || misaligned(L))
        return bad_arg(s, "pointers must be 16-byte aligned");

    cudnnStatus_t st;
    char err[TEXT];
    slot *e = get_plan(s, B, H, N, d, causal, L != NULL, &st, err, sizeof err);
    if (!e) {
        snprintf(s->name, sizeof s->name, "no plan for B=%d H=%d N=%d d=%d causal=%d: %s", B, H, N, d, causal, err);
        fprintf(stderr, "mw05_sdpa: %s\n", s->name);
        return to_cuda_error(st);
    }
    snprintf(s->name, sizeof s->name, "%s", e->name);

    /* Grow the shared workspace (rounded up to 1 MiB to avoid creeping). The
     * old one may still be in use by queued work on this stream: wait first. */
    if ((size_t)e->workspace > s->ws_bytes) {
        size_t bytes = ((size_t)e->workspace + (1u << 20) - 1) & ~(size_t)((1u << 20) - 1);
        cudaError_t ce = cudaStreamSynchronize(stream);
        if (ce == cudaSuccess && s->ws) ce = cudaFree(s->ws);
        if (ce == cudaSuccess) s->ws = NULL, s->ws_bytes = 0;
        if (ce == cudaSuccess) ce = cudaMalloc(&s->ws, bytes);
        if (ce != cudaSuccess) {
            snprintf(s->name, sizeof s->name, "workspace of %zu bytes: %s", bytes, cudaGetErrorString(ce));
            fprintf(stderr, "mw05_sdpa: %s\n", s->name);
            return ce;
        }
        s->ws_bytes = bytes;
    }

    /* The variant pack: uid -> pointer for each non-virtual tensor. Device
     * pointers for the data; host pointers for the by-value scalars, read
     * when cudnnBackendExecute queues the kernel (so locals are fine). */
    int64_t uids[7] = {UID_Q, UID_KT, UID_V, UID_O, UID_SCALE};
    void *ptrs[7] = {(void *)Q, (void *)K, (void *)V, O, &scale};
    int64_t n = 5;
    if (L) uids[n] = UID_STATS, ptrs[n++] = L;
    if (causal) uids[n] = UID_MASK_VALUE, ptrs[n++] = &s->mask_value;

    builder g;
    memset(&g, 0, sizeof g);
    CK(&g, "cudnnSetStream", cudnnSetStream(s->handle, stream));
    cudnnBackendDescriptor_t pack = make(&g, CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR, "create variant pack");
    set(&g, pack, CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, n, uids, "variant pack uids");
    set(&g, pack, CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, n, ptrs, "variant pack pointers");
    set(&g, pack, CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &s->ws, "variant pack workspace");
    finalize(&g, pack, "finalize variant pack");
    CK(&g, "cudnnBackendExecute", cudnnBackendExecute(s->handle, e->plan, pack));
    builder_free(&g);
    if (g.st != CUDNN_STATUS_SUCCESS) {
        snprintf(s->name, sizeof s->name, "%s", g.err);
        fprintf(stderr, "mw05_sdpa: %s\n", g.err);
        return to_cuda_error(g.st);
    }
    return cudaSuccess;
}

#endif /* cuDNN 9 */
