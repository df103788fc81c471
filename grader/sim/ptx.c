/* ptx.c: the inline PTX the exercises use, with the semantics of the PTX
 * ISA (mw_sim_ptx.h says how a statement gets here):
 *
 *   cp.async.{ca,cg}.shared.global [dst], [src], cp-size{, src-size}
 *   cp.async.commit_group, cp.async.wait_group N, cp.async.wait_all
 *   ldmatrix.sync.aligned.m8n8.{x1,x2,x4}{.trans}.shared{::cta}.b16
 *   mma.sync.aligned.m16n8k16.row.col.f32.{bf16.bf16,f16.f16}.f32
 *   mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
 *   ex2.approx.ftz.f32, cvt.rna.tf32.f32, mov.u32 %r, %laneid
 *
 * A template is parsed once (cached by its address, checked against its
 * text, since a library unloaded and another loaded may reuse the address).
 * Asynchronous copies are queued per thread and move their data when their
 * group completes, not at the instruction: a kernel that reads the
 * destination before waiting reads what shared memory held (NaN), where a
 * GPU reads something undefined. The warp-collective instructions meet the
 * warp's 32 lanes through mw_sim_warp_exchange. */
#include "sim.h"

#include "mw_sim_ptx.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- a template, parsed ------------------------------------------------------------- */

enum ptx_op { OP_CP_ASYNC, OP_COMMIT, OP_WAIT_GROUP, OP_WAIT_ALL, OP_LDMATRIX, OP_MMA, OP_EX2,
              OP_CVT_TF32, OP_MOV_LANEID };

/* One operand of an instruction: %n, an immediate, or %laneid. */
typedef struct ptx_arg {
    enum { ARG_REG, ARG_IMM, ARG_LANEID } kind;
    int reg;
    long long imm;
    int addr; /* written [x] */
} ptx_arg;

#define PTX_MAX_ARGS 16

typedef struct ptx_insn {
    enum ptx_op op;
    int ca;     /* cp.async.ca: cached in L1 too; the same data moves */
    int count;  /* ldmatrix: 1, 2 or 4 matrices */
    int trans;  /* ldmatrix .trans */
    enum mma_type { MMA_BF16, MMA_F16, MMA_TF32 } mma; /* mma: its A and B element type */
    int nargs;
    ptx_arg args[PTX_MAX_ARGS];
} ptx_insn;

typedef struct ptx_program {
    const char *key; /* the template's address */
    char *text;      /* its text, to tell a reused address */
    int ninsns;
    ptx_insn *insns;
} ptx_program;

static const char *cur_file;
static int cur_line;

#define PTX_FAULT(err, ...) mw_sim_kernel_fault((err), __VA_ARGS__)

static _Noreturn void not_emulated(const char *mnemonic)
{
    PTX_FAULT(cudaErrorLaunchFailure, "%s:%d: inline PTX '%s' is not emulated", cur_file, cur_line,
              mnemonic);
}

static _Noreturn void bad_operands(const char *mnemonic)
{
    PTX_FAULT(cudaErrorLaunchFailure, "%s:%d: inline PTX '%s' with operands the emulation cannot read",
              cur_file, cur_line, mnemonic);
}

static int mnemonic_is(const char *m, const char *want)
{
    return !strcmp(m, want);
}

static void parse_mnemonic(ptx_insn *in, const char *m)
{
    memset(in, 0, sizeof *in);
    if (mnemonic_is(m, "cp.async.ca.shared.global") || mnemonic_is(m, "cp.async.cg.shared.global")) {
        in->op = OP_CP_ASYNC;
        in->ca = m[9] == 'c' && m[10] == 'a';
    } else if (mnemonic_is(m, "cp.async.commit_group"))
        in->op = OP_COMMIT;
    else if (mnemonic_is(m, "cp.async.wait_group"))
        in->op = OP_WAIT_GROUP;
    else if (mnemonic_is(m, "cp.async.wait_all"))
        in->op = OP_WAIT_ALL;
    else if (!strncmp(m, "ldmatrix.sync.aligned.m8n8.x", 28)) {
        const char *p = m + 28;
        in->op = OP_LDMATRIX;
        in->count = *p == '1' ? 1 : *p == '2' ? 2 : *p == '4' ? 4 : 0;
        p++;
        if (!strncmp(p, ".trans", 6))
            in->trans = 1, p += 6;
        if (!in->count || (strcmp(p, ".shared.b16") && strcmp(p, ".shared::cta.b16")))
            not_emulated(m);
    } else if (mnemonic_is(m, "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32"))
        in->op = OP_MMA, in->mma = MMA_BF16;
    else if (mnemonic_is(m, "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32"))
        in->op = OP_MMA, in->mma = MMA_F16;
    else if (mnemonic_is(m, "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"))
        in->op = OP_MMA, in->mma = MMA_TF32;
    else if (mnemonic_is(m, "ex2.approx.ftz.f32"))
        in->op = OP_EX2;
    else if (mnemonic_is(m, "cvt.rna.tf32.f32"))
        in->op = OP_CVT_TF32;
    else if (mnemonic_is(m, "mov.u32"))
        in->op = OP_MOV_LANEID;
    else
        not_emulated(m);
}

/* Reads the operands after the mnemonic up to the ';' (or the end):
 * registers, immediates, %laneid, [x] addresses and {a, b} vectors, the
 * vectors flattened. Returns the end. */
static const char *parse_args(ptx_insn *in, const char *s, const char *m)
{
    int addr = 0;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == ',' || *s == '{' ||
               *s == '}')
            s++;
        if (!*s || *s == ';')
            return *s ? s + 1 : s;
        if (*s == '[') {
            addr = 1, s++;
            continue;
        }
        if (*s == ']') {
            addr = 0, s++;
            continue;
        }
        if (in->nargs == PTX_MAX_ARGS)
            bad_operands(m);
        ptx_arg *a = &in->args[in->nargs++];
        a->addr = addr;
        char *end;
        if (!strncmp(s, "%laneid", 7)) {
            a->kind = ARG_LANEID, s += 7;
        } else if (*s == '%' && s[1] >= '0' && s[1] <= '9') {
            a->kind = ARG_REG, a->reg = (int)strtol(s + 1, &end, 10), s = end;
        } else if ((*s >= '0' && *s <= '9') || *s == '-') {
            a->kind = ARG_IMM, a->imm = strtoll(s, &end, 0), s = end;
        } else
            bad_operands(m);
        while (*s == ' ' || *s == '\t')
            s++;
        if (addr && *s != ']')
            bad_operands(m); /* [%0+16] and the like: not used, not emulated */
    }
}

/* The shape each instruction takes: its operand count, which are addresses. */
static void check_shape(const ptx_insn *in, const char *m)
{
    int n = in->nargs, ok;
    const ptx_arg *a = in->args;
    switch (in->op) {
    case OP_CP_ASYNC:
        ok = (n == 3 || n == 4) && a[0].addr && a[1].addr && !a[2].addr && (n == 3 || !a[3].addr);
        break;
    case OP_COMMIT:
    case OP_WAIT_ALL:
        ok = n == 0;
        break;
    case OP_WAIT_GROUP:
        ok = n == 1 && !a[0].addr;
        break;
    case OP_LDMATRIX:
        ok = n == in->count + 1 && a[n - 1].addr;
        for (int i = 0; i < in->count; i++)
            ok = ok && a[i].kind == ARG_REG && !a[i].addr;
        break;
    case OP_MMA:
        ok = n == 14;
        for (int i = 0; i < n; i++)
            ok = ok && a[i].kind == ARG_REG && !a[i].addr;
        break;
    case OP_EX2:
    case OP_CVT_TF32:
        ok = n == 2 && a[0].kind == ARG_REG && !a[0].addr && !a[1].addr && a[1].kind == ARG_REG;
        break;
    case OP_MOV_LANEID:
        ok = n == 2 && a[0].kind == ARG_REG && a[1].kind == ARG_LANEID;
        if (!ok)
            not_emulated("mov.u32 of anything but %laneid");
        break;
    default:
        ok = 0;
    }
    if (!ok)
        bad_operands(m);
}

static ptx_program *parse(const char *tmpl)
{
    ptx_program *p = calloc(1, sizeof *p);
    size_t len = strlen(tmpl) + 1;
    if (p)
        p->text = malloc(len);
    if (!p || !p->text)
        PTX_FAULT(cudaErrorLaunchFailure, "%s:%d: out of memory parsing inline PTX", cur_file,
                  cur_line);
    memcpy(p->text, tmpl, len);
    p->key = tmpl;
    const char *s = tmpl;
    for (;;) {
        while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r' || *s == ';')
            s++;
        if (!*s)
            break;
        char m[96];
        size_t n = 0;
        while (s[n] && s[n] != ' ' && s[n] != '\t' && s[n] != '\n' && s[n] != ';')
            n++;
        snprintf(m, sizeof m, "%.*s", (int)n, s);
        ptx_insn *grown = realloc(p->insns, (size_t)(p->ninsns + 1) * sizeof *grown);
        if (!grown)
            PTX_FAULT(cudaErrorLaunchFailure, "%s:%d: out of memory parsing inline PTX",
                      cur_file, cur_line);
        p->insns = grown;
        ptx_insn *in = &p->insns[p->ninsns++];
        parse_mnemonic(in, m);
        s = parse_args(in, s + n, m);
        check_shape(in, m);
    }
    return p;
}

/* Templates seen, open addressing on the address; never freed (a handful
 * per kernel file). */
#define PTX_CACHE 256
static ptx_program *cache[PTX_CACHE];

static ptx_program *program_of(const char *tmpl)
{
    size_t h = ((uintptr_t)tmpl >> 3) % PTX_CACHE;
    for (size_t probe = 0; probe < PTX_CACHE; probe++, h = (h + 1) % PTX_CACHE) {
        ptx_program *p = cache[h];
        if (!p)
            return cache[h] = parse(tmpl);
        if (p->key == tmpl) {
            if (strcmp(p->text, tmpl) != 0) {
                free(p->text);
                free(p->insns);
                free(p);
                cache[h] = parse(tmpl);
            }
            return cache[h];
        }
    }
    /* Full: parse every time rather than fail. */
    static ptx_program *spare;
    if (spare) {
        free(spare->text);
        free(spare->insns);
        free(spare);
    }
    return spare = parse(tmpl);
}

/* ---- operands ----------------------------------------------------------------------- */

static const mw_sim_asm_operand *outs, *ins;
static size_t nops, nouts;

/* The running statement's operands and place. A warp collective lets the
 * warp's other lanes run their own statements before it returns: each
 * collective puts its lane's back. */
typedef struct ptx_ctx {
    const mw_sim_asm_operand *outs, *ins;
    size_t nops, nouts;
    const char *file;
    int line;
} ptx_ctx;

static ptx_ctx save(void)
{
    return (ptx_ctx){outs, ins, nops, nouts, cur_file, cur_line};
}

static void restore(ptx_ctx c)
{
    outs = c.outs, ins = c.ins, nops = c.nops, nouts = c.nouts, cur_file = c.file, cur_line = c.line;
}

static void exchange(const void *mine, size_t bytes, void *all, const char *what)
{
    ptx_ctx c = save();
    mw_sim_warp_exchange(0xffffffffu, mine, bytes, all, what);
    restore(c);
}

static const mw_sim_asm_operand *reg(const ptx_arg *a)
{
    if (a->kind != ARG_REG || (size_t)a->reg >= nops)
        PTX_FAULT(cudaErrorLaunchFailure, "%s:%d: inline PTX names %%%d, past its %zu operands",
                  cur_file, cur_line, a->reg, nops);
    return (size_t)a->reg < nouts ? &outs[a->reg] : &ins[(size_t)a->reg - nouts];
}

/* An operand's value as an integer: an immediate, or an input's bits (or a
 * "+" output's, read before the instruction). */
static uint64_t value(const ptx_arg *a)
{
    if (a->kind == ARG_IMM)
        return (uint64_t)a->imm;
    if (a->kind == ARG_LANEID)
        return (uint64_t)mw_sim_lane();
    const mw_sim_asm_operand *o = reg(a);
    if ((size_t)a->reg < nouts && o->constraint[0] != '+')
        PTX_FAULT(cudaErrorLaunchFailure, "%s:%d: inline PTX reads %%%d, an output only (\"%s\")",
                  cur_file, cur_line, a->reg, o->constraint);
    return o->bits;
}

static uint32_t value32(const ptx_arg *a)
{
    return (uint32_t)value(a);
}

static float value_f32(const ptx_arg *a)
{
    const mw_sim_asm_operand *o = reg(a);
    uint64_t bits = value(a);
    float f;
    if (o->is_float && o->size == 8) {
        double d;
        memcpy(&d, &bits, sizeof d);
        return (float)d;
    }
    uint32_t b = (uint32_t)bits;
    memcpy(&f, &b, sizeof f);
    return f;
}

static void *output(const ptx_arg *a)
{
    const mw_sim_asm_operand *o = reg(a);
    if ((size_t)a->reg >= nouts || !o->out)
        PTX_FAULT(cudaErrorLaunchFailure, "%s:%d: inline PTX writes %%%d, which is not an output",
                  cur_file, cur_line, a->reg);
    return o->out;
}

/* Writes 32 bits to an output of at least 4 bytes, as a .b32 register. */
static void write32(const ptx_arg *a, uint32_t bits)
{
    const mw_sim_asm_operand *o = reg(a);
    void *dst = output(a);
    if (o->size == 8) {
        uint64_t wide = bits;
        memcpy(dst, &wide, 8);
    } else if (o->size == 4)
        memcpy(dst, &bits, 4);
    else
        PTX_FAULT(cudaErrorLaunchFailure, "%s:%d: inline PTX writes 32 bits to %%%d, a %u-byte "
                  "variable", cur_file, cur_line, a->reg, (unsigned)o->size);
}

static void write_f32(const ptx_arg *a, float f)
{
    uint32_t bits;
    memcpy(&bits, &f, 4);
    write32(a, bits);
}

/* ---- cp.async ---------------------------------------------------------------------------- */

typedef struct ptx_copy {
    char *dst;
    const char *src;
    int cp_size, src_size;
    long group; /* the commit that closed it; the thread's next one while open */
    const void *pc;
} ptx_copy;

typedef struct ptx_thread {
    ptx_copy *copies; /* issued, not yet completed, oldest first */
    size_t n, cap;
    long committed; /* groups committed so far */
} ptx_thread;

static ptx_thread *thread_state(void)
{
    void **slot = mw_sim_ptx_slot();
    if (!*slot) {
        *slot = calloc(1, sizeof(ptx_thread));
        if (!*slot)
            PTX_FAULT(cudaErrorLaunchFailure, "%s:%d: out of memory for cp.async", cur_file, cur_line);
    }
    return *slot;
}

static void complete(const ptx_copy *c)
{
    if (c->src_size > 0)
        mw_sim_check_access(c->src, (size_t)c->src_size, 0, c->pc);
    mw_sim_check_access(c->dst, (size_t)c->cp_size, 1, c->pc);
    memcpy(c->dst, c->src, (size_t)c->src_size);
    memset(c->dst + c->src_size, 0, (size_t)(c->cp_size - c->src_size));
}

/* Completes, oldest first, every copy of a group before `group` (every
 * copy, open ones included, when all). */
static void complete_before(ptx_thread *t, long group, int all)
{
    size_t kept = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (all || t->copies[i].group < group)
            complete(&t->copies[i]);
        else
            t->copies[kept++] = t->copies[i];
    }
    t->n = kept;
}

static void cp_async(const ptx_insn *in, const void *pc)
{
    const ptx_arg *a = in->args;
    int cp_size = (int)value(&a[2]);
    int src_size = in->nargs == 4 ? (int)value(&a[3]) : cp_size;
    if (cp_size != 4 && cp_size != 8 && cp_size != 16)
        PTX_FAULT(cudaErrorLaunchFailure, "%s:%d: cp.async of %d bytes (4, 8 or 16)", cur_file,
                  cur_line, cp_size);
    if (in->ca == 0 && cp_size != 16)
        PTX_FAULT(cudaErrorLaunchFailure, "%s:%d: cp.async.cg copies 16 bytes, not %d", cur_file,
                  cur_line, cp_size);
    if (src_size < 0 || src_size > cp_size)
        PTX_FAULT(cudaErrorLaunchFailure, "%s:%d: cp.async src-size %d outside 0 to cp-size %d",
                  cur_file, cur_line, src_size, cp_size);
    uint32_t dst_addr = value32(&a[0]);
    const char *src = (const char *)(uintptr_t)value(&a[1]);
    if (dst_addr % (uint32_t)cp_size || (uintptr_t)src % (uintptr_t)cp_size)
        PTX_FAULT(cudaErrorMisalignedAddress, "%s:%d: cp.async of %d bytes from %p to shared "
                  "0x%x: both must be aligned to %d", cur_file, cur_line, cp_size,
                  (const void *)src, (unsigned)dst_addr, cp_size);
    char *dst = mw_sim_shared_ptr(dst_addr, (size_t)cp_size);
    ptx_thread *t = thread_state();
    if (t->n == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 16;
        ptx_copy *grown = realloc(t->copies, cap * sizeof *grown);
        if (!grown)
            PTX_FAULT(cudaErrorLaunchFailure, "%s:%d: out of memory for cp.async", cur_file, cur_line);
        t->copies = grown, t->cap = cap;
    }
    t->copies[t->n++] = (ptx_copy){dst, src, cp_size, src_size, t->committed, pc};
}

void mw_sim_ptx_thread_done(void *state)
{
    ptx_thread *t = state;
    if (!t)
        return;
    complete_before(t, 0, 1);
    free(t->copies);
    free(t);
}

/* ---- ldmatrix ---------------------------------------------------------------------------- */

/* Each of the count 8x8 matrices of b16 has its 8 rows' addresses given by
 * lanes 8i to 8i+7; lane l receives, in register i, row l/4's elements
 * 2(l%4) and 2(l%4)+1 (lower half first), or with .trans the same of the
 * transposed matrix: column l/4's elements of rows 2(l%4) and 2(l%4)+1. */
static void ldmatrix(const ptx_insn *in, const void *pc)
{
    /* Lanes at two different shapes must not meet as one. */
    static const char *const what[2][5] = {
        {NULL, "ldmatrix.sync.aligned.m8n8.x1.shared.b16", "ldmatrix.sync.aligned.m8n8.x2.shared.b16",
         NULL, "ldmatrix.sync.aligned.m8n8.x4.shared.b16"},
        {NULL, "ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16",
         "ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16", NULL,
         "ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16"}};
    uint32_t mine = value32(&in->args[in->count]), rows[32];
    exchange(&mine, sizeof mine, rows, what[in->trans][in->count]);
    int lane = mw_sim_lane();
    for (int i = 0; i < in->count; i++) {
        uint16_t half[2];
        for (int h = 0; h < 2; h++) {
            int row = in->trans ? 2 * (lane % 4) + h : lane / 4;
            int col = in->trans ? lane / 4 : 2 * (lane % 4) + h;
            uint32_t row_addr = rows[8 * i + row];
            if (row_addr % 16)
                PTX_FAULT(cudaErrorMisalignedAddress, "%s:%d: ldmatrix row address 0x%x (lane %d) "
                          "is not 16-byte aligned", cur_file, cur_line, (unsigned)row_addr,
                          8 * i + row);
            const char *p = (const char *)mw_sim_shared_ptr(row_addr, 16) + 2 * col;
            mw_sim_check_access(p, 2, 0, pc);
            memcpy(&half[h], p, 2);
        }
        write32(&in->args[i], (uint32_t)half[0] | (uint32_t)half[1] << 16);
    }
}

/* ---- mma ---------------------------------------------------------------------------------- */

static float bf16_to_float(uint16_t h)
{
    uint32_t bits = (uint32_t)h << 16;
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static float f16_to_float(uint16_t h)
{
    int sign = h >> 15, exp = (h >> 10) & 31, man = h & 1023;
    float mag;
    if (exp == 31)
        mag = man ? NAN : INFINITY;
    else if (exp == 0)
        mag = ldexpf((float)man, -24);
    else
        mag = ldexpf((float)(man | 1024), exp - 25);
    return sign ? -mag : mag;
}

/* What one lane gives the warp's mma: its A, B and C fragments (m16n8k8
 * .tf32 uses a[0..3] and b[0..1] too, one element a register). */
typedef struct mma_frag {
    uint32_t a[4], b[2];
    float c[4];
} mma_frag;

/* A .tf32 element as the tensor core reads it from its .b32 register: the
 * sign, the 8 exponent bits and the top 10 mantissa bits, the low 13 bits
 * dropped (truncated, not rounded). The ISA's wgmma says so in words ("will
 * truncate lower 13 bits of the 32-bit input data before multiplication is
 * issued"); mma's "multiplication ... is performed with specified precision"
 * reads the same way. A NaN whose payload lies in those 13 bits alone reads
 * as an infinity; cvt.rna.tf32.f32 never makes one. */
static float tf32_to_float(uint32_t bits)
{
    uint32_t kept = bits & 0xffffe000u;
    float f;
    memcpy(&f, &kept, 4);
    return f;
}

static float element(uint32_t reg, int half, enum mma_type type)
{
    uint16_t bits = (uint16_t)(reg >> (16 * half));
    switch (type) {
    case MMA_F16:
        return f16_to_float(bits);
    case MMA_TF32:
        return tf32_to_float(reg);
    default:
        return bf16_to_float(bits);
    }
}

/* Element (row, k) of A, with g = lane/4 and t = lane%4 (the ISA's groupID
 * and threadID_in_group). m16n8k16 (16-bit types): lane (g, t)'s registers
 * hold (g, 2t..2t+1), (g+8, 2t..), (g, 2t+8..), (g+8, 2t+8..), the lower
 * column in the lower half. m16n8k8 .tf32: a0 (g, t), a1 (g+8, t),
 * a2 (g, t+4), a3 (g+8, t+4). */
static float mma_a(const mma_frag *all, int row, int k, enum mma_type type)
{
    if (type == MMA_TF32)
        return element(all[4 * (row % 8) + k % 4].a[(row >= 8) + 2 * (k >= 4)], 0, type);
    int lane = 4 * (row % 8) + (k % 8) / 2, r = (row >= 8) + 2 * (k >= 8);
    return element(all[lane].a[r], k % 2, type);
}

/* Element (k, col) of B: m16n8k16, lane (g, t)'s registers hold
 * (k 2t..2t+1, n g) and (k 2t+8.., n g); m16n8k8 .tf32, b0 (k t, n g) and
 * b1 (k t+4, n g). */
static float mma_b(const mma_frag *all, int k, int col, enum mma_type type)
{
    if (type == MMA_TF32)
        return element(all[4 * col + k % 4].b[k >= 4], 0, type);
    return element(all[4 * col + (k % 8) / 2].b[k >= 8], k % 2, type);
}

/* D = A B + C, A 16xK (row), B Kx8 (col), C and D 16x8 FP32, K 16 for the
 * 16-bit types and 8 for .tf32; lane (g, t)'s C and D registers are
 * (g, 2t), (g, 2t+1), (g+8, 2t), (g+8, 2t+1) for both shapes. Each product
 * of two 16-bit values, or of two .tf32 values (11-bit significands), is
 * exact in FP32 (but where it overflows or falls below FP32's normal range:
 * there it rounds as an FP32 multiply does). The sum runs in FP32 from C in
 * k order, each addition rounded to nearest even; the ISA leaves the order
 * and rounding unspecified and the tensor cores' differ, within rounding. */
static void mma(const ptx_insn *in)
{
    static const char *const what[3] = {"mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32",
                                        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32",
                                        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32"};
    const ptx_arg *a = in->args;
    mma_frag mine, all[32];
    for (int i = 0; i < 4; i++)
        mine.a[i] = value32(&a[4 + i]), mine.c[i] = value_f32(&a[10 + i]);
    mine.b[0] = value32(&a[8]), mine.b[1] = value32(&a[9]);
    exchange(&mine, sizeof mine, all, what[in->mma]);
    int lane = mw_sim_lane(), g = lane / 4, t = lane % 4;
    int depth = in->mma == MMA_TF32 ? 8 : 16;
    for (int i = 0; i < 4; i++) {
        int row = g + 8 * (i >> 1), col = 2 * t + (i & 1);
        float acc = mine.c[i];
        for (int k = 0; k < depth; k++) {
            float product = mma_a(all, row, k, in->mma) * mma_b(all, k, col, in->mma);
            acc += product;
        }
        write_f32(&a[i], acc);
    }
}

/* ---- scalars ------------------------------------------------------------------------------ */

/* 2^x, .ftz: a subnormal input counts as 0 and a subnormal result is 0;
 * 2^-inf = 0, NaN stays NaN. */
static float ex2_ftz(float x)
{
    if (fpclassify(x) == FP_SUBNORMAL)
        x = 0.f;
    float y = exp2f(x);
    return fpclassify(y) == FP_SUBNORMAL ? 0.f : y;
}

/* To TF32 (10 explicit mantissa bits, in a .b32), rounding to nearest with
 * ties away from zero; NaN stays NaN, infinities stay. */
static uint32_t tf32_rna(float x)
{
    uint32_t bits;
    memcpy(&bits, &x, 4);
    if (isnan(x))
        return 0x7fffffffu;
    if (isinf(x))
        return bits;
    return (bits + 0x1000u) & 0xffffe000u;
}

/* ---- the entry ---------------------------------------------------------------------------- */

void mw_sim_ptx_run(const char *tmpl, const char *file, int line, const mw_sim_asm_operand *outputs,
                    size_t n_out, const mw_sim_asm_operand *inputs, size_t n_in)
{
    const void *pc = __builtin_return_address(0);
    restore((ptx_ctx){outputs, inputs, n_out + n_in, n_out, file, line});
    ptx_program *p = program_of(tmpl);
    for (int i = 0; i < p->ninsns; i++) {
        const ptx_insn *in = &p->insns[i];
        switch (in->op) {
        case OP_CP_ASYNC:
            cp_async(in, pc);
            break;
        case OP_COMMIT:
            thread_state()->committed++;
            break;
        case OP_WAIT_GROUP: {
            ptx_thread *t = thread_state();
            long pending = (long)value(&in->args[0]);
            if (pending < 0)
                PTX_FAULT(cudaErrorLaunchFailure, "%s:%d: cp.async.wait_group %ld", file, line,
                          pending);
            complete_before(t, t->committed - pending, 0);
            break;
        }
        case OP_WAIT_ALL: {
            ptx_thread *t = thread_state();
            t->committed++;
            complete_before(t, 0, 1);
            break;
        }
        case OP_LDMATRIX:
            ldmatrix(in, pc);
            break;
        case OP_MMA:
            mma(in);
            break;
        case OP_EX2:
            write_f32(&in->args[0], ex2_ftz(value_f32(&in->args[1])));
            break;
        case OP_CVT_TF32:
            write32(&in->args[0], tf32_rna(value_f32(&in->args[1])));
            break;
        case OP_MOV_LANEID:
            write32(&in->args[0], (uint32_t)mw_sim_lane());
            break;
        }
    }
}
