/* shared.c: each resident block's shared-memory window.
 *
 * The rewriter turns every static __shared__ declarator into a call of
 * mw_sim_shared_static (keyed by a static object unique to the
 * declarator) and every extern __shared__ array into mw_sim_shared_dynamic.
 * Offsets are given in the order the declarations are first reached in a
 * launch, static first as on the GPU, then the dynamic array; every block
 * of the launch sees the same layout. A window is filled with 0xFF (NaN as
 * float) when its block starts, as the GPU's shared memory holds whatever
 * was there. A layout past the launch's limit is the launch error the GPU
 * gives (cudaErrorInvalidValue), not a fault.
 *
 * Between two variables lies a red zone that is no variable's, as
 * AddressSanitizer puts between globals: an index that runs past one
 * variable lands there and is out of bounds, rather than in the next
 * variable, where no check would see it. The GPU's counts (the limit, the
 * occupancy) leave the red zones out. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

typedef struct shared_var {
    const void *key; /* NULL: the dynamic array */
    size_t offset, bytes;
    const char *name, *file;
    int line;
    mw_sim_shape shape; /* elem 0: not known, its bytes are reported */
} shared_var;

enum { MAX_VARS = 256, DYN_ALIGN = 128, SLACK = 2 * DYN_ALIGN };
/* A red zone keeps the dynamic array's 128-byte alignment; at most
 * RED_TOTAL bytes of them a launch, which the window holds beyond its
 * limit. */
enum { REDZONE = 2 * DYN_ALIGN, RED_TOTAL = 16 * REDZONE, MAX_GAPS = 64 };

static shared_var vars[MAX_VARS];
static int nvars;
static size_t layout_end;   /* where the next variable may go */
static size_t declared;     /* static + dynamic bytes, as the GPU counts them */
static size_t window_bytes; /* what each block's window holds */
static int have_dynamic;
static size_t dynamic_off;
/* The bytes of the layout that are no variable's: red zones and alignment
 * padding. */
typedef struct gap {
    size_t lo, hi;
} gap;
static gap gaps[MAX_GAPS];
static int ngaps;
static size_t red_used;

/* The static bytes a kernel declared in its last launch, so that the next
 * launch's occupancy counts them before they are reached. */
typedef struct static_size {
    const void *func;
    size_t bytes;
} static_size;
static static_size known[64];
static int nknown;

static size_t known_static(const void *func)
{
    for (int i = 0; i < nknown; ++i)
        if (known[i].func == func)
            return known[i].bytes;
    return 0;
}

static void remember_static(const void *func, size_t bytes)
{
    for (int i = 0; i < nknown; ++i)
        if (known[i].func == func) {
            known[i].bytes = bytes;
            return;
        }
    if (nknown < 64)
        known[nknown++] = (static_size){func, bytes};
}

static size_t static_bytes;

cudaError_t mw_sim_shared_grid_start(mw_sim_grid *g)
{
    const mw_sim_device *d = mw_sim_device_get();
    const mw_sim_launch *l = g->launch;
    size_t maxdyn = mw_sim_func_max_dynamic_smem(l->func);
    g->smem_limit = maxdyn > d->smem_default ? d->smem_optin : d->smem_default;
    nvars = 0;
    layout_end = static_bytes = 0;
    declared = l->dynamic_smem; /* counted whether or not the kernel declares it */
    have_dynamic = 0;
    ngaps = 0;
    red_used = 0;
    window_bytes = g->smem_limit + SLACK + RED_TOTAL;
    g->smem_window = window_bytes;
    g->smem_used = known_static(l->func) + l->dynamic_smem;
    if (declared > g->smem_limit) {
        char text[512];
        snprintf(text, sizeof text,
                 "kernel %s: %zu bytes of dynamic shared memory are past the limit of %zu bytes "
                 "a block",
                 l->name, declared, g->smem_limit);
        mw_sim_error_set(cudaErrorInvalidValue, 0, text);
        return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}

void mw_sim_shared_grid_end(void)
{
    if (mw_sim_cur)
        remember_static(mw_sim_cur->launch->func, static_bytes);
}

/* A window is pristine when allocated (a grid's first block in its slot);
 * after that a block start resets only the layout so far, the only bytes
 * the previous block could touch, as grids of thousands of blocks start
 * one each. */
void mw_sim_shared_block_start(mw_sim_block *b)
{
    size_t records = window_bytes / 2 + 1, used = mw_sim_cur->smem_used;
    if (!b->smem) {
        b->smem = aligned_alloc(4096, (window_bytes + 4095) / 4096 * 4096);
        b->written = calloc(window_bytes, 1);
        b->words = calloc(records, sizeof *b->words);
        if (!b->smem || !b->written || !b->words) {
            fprintf(stderr, "memwall emulation: out of memory for shared memory\n");
            abort();
        }
        memset(b->smem, 0xFF, window_bytes);
        return;
    }
    if (used > window_bytes)
        used = window_bytes;
    memset(b->smem, 0xFF, used);
    memset(b->written, 0, used);
    memset(b->words, 0, (used / 2 + 1) * sizeof *b->words);
}

void mw_sim_shared_block_free(mw_sim_block *b)
{
    free(b->smem);
    free(b->written);
    free(b->words);
    b->smem = NULL;
    b->written = NULL;
    b->words = NULL;
}

static size_t align_up(size_t x, size_t a)
{
    return a ? (x + a - 1) / a * a : x;
}

static void add_var(const void *key, size_t off, size_t bytes, const char *name, const char *file,
                    int line, const mw_sim_shape *shape)
{
    if (nvars < MAX_VARS)
        vars[nvars++] = (shared_var){key, off, bytes, name, file, line,
                                     shape ? *shape : (mw_sim_shape){0, 0, {0, 0, 0, 0}}};
    if (off + bytes > layout_end)
        layout_end = off + bytes;
    mw_sim_cur->smem_used = layout_end;
}

static void check_limit(const char *name, const char *file, int line)
{
    if (declared <= mw_sim_cur->smem_limit)
        return;
    mw_sim_launch_error(cudaErrorInvalidValue,
                        "kernel %s: shared memory of %zu bytes (%zu static, %zu dynamic; '%s' at "
                        "%s:%d) is past the limit of %zu bytes a block",
                        mw_sim_cur->launch->name, declared, static_bytes,
                        mw_sim_cur->launch->dynamic_smem, name, file, line, mw_sim_cur->smem_limit);
}

/* Where the next variable goes: past a red zone after the last one (while
 * the launch has red zones left), at a multiple of align. */
static size_t place(size_t align)
{
    size_t start = layout_end;
    if (nvars > 0 && red_used + REDZONE <= RED_TOTAL) {
        start += REDZONE;
        red_used += REDZONE;
    }
    size_t off = align_up(start, align < 1 ? 1 : align);
    if (off > layout_end && ngaps < MAX_GAPS)
        gaps[ngaps++] = (gap){layout_end, off};
    return off;
}

void *mw_sim_shared_static_shaped(const void *key, size_t size, size_t align, const char *name,
                                  const char *file, int line, const mw_sim_shape *shape)
{
    for (int i = 0; i < nvars; ++i)
        if (vars[i].key == key)
            return mw_sim_cur->block->smem + vars[i].offset;
    size_t off = place(align);
    static_bytes += size;
    declared += size;
    check_limit(name, file, line);
    add_var(key, off, size, name, file, line, shape);
    return mw_sim_cur->block->smem + off;
}

void *mw_sim_shared_static(const void *key, size_t size, size_t align, const char *name,
                           const char *file, int line)
{
    return mw_sim_shared_static_shaped(key, size, align, name, file, line, NULL);
}

void *mw_sim_shared_dynamic_shaped(const char *name, const char *file, int line,
                                   const mw_sim_shape *shape)
{
    if (!have_dynamic) {
        /* 128-aligned, as kernels that swizzle their tiles assume */
        dynamic_off = place(DYN_ALIGN);
        have_dynamic = 1;
        check_limit(name, file, line);
        add_var(NULL, dynamic_off, mw_sim_cur->launch->dynamic_smem, name, file, line, shape);
    }
    return mw_sim_cur->block->smem + dynamic_off;
}

void *mw_sim_shared_dynamic(const char *name, const char *file, int line)
{
    return mw_sim_shared_dynamic_shaped(name, file, line, NULL);
}

/* PTX's view: a 32-bit offset into the window. */
void *mw_sim_shared_ptr(uint32_t addr, size_t bytes)
{
    if ((size_t)addr + bytes > mw_sim_cur->smem_used)
        mw_sim_kernel_fault(cudaErrorIllegalAddress,
                            "shared-memory address 0x%x (%zu bytes) is past the block's %zu bytes "
                            "of shared memory",
                            addr, bytes, mw_sim_cur->smem_used);
    return mw_sim_cur->block->smem + addr;
}

uint32_t mw_sim_shared_offset(const void *p)
{
    return (uint32_t)((const char *)p - mw_sim_cur->block->smem);
}

/* The variable holding window offset off, else the nearest below it (an
 * access past its end), else NULL. */
static const shared_var *var_at(size_t off)
{
    const shared_var *best = NULL;
    for (int i = 0; i < nvars; ++i) {
        if (off >= vars[i].offset && off < vars[i].offset + vars[i].bytes)
            return &vars[i];
        if (vars[i].offset <= off && (!best || vars[i].offset > best->offset))
            best = &vars[i];
    }
    return best;
}

int mw_sim_shared_outside(size_t off, size_t bytes)
{
    if (off + bytes > mw_sim_cur->smem_used)
        return 1;
    for (int i = 0; i < ngaps; ++i)
        if (off < gaps[i].hi && off + bytes > gaps[i].lo)
            return 1;
    return 0;
}

void mw_sim_shared_describe_outside(size_t off, char *buf, size_t len)
{
    const shared_var *v = var_at(off);
    mw_sim_shared_describe(off, buf, len);
    if (!v)
        return;
    size_t n = strlen(buf);
    if (n < len)
        snprintf(buf + n, len - n, ", %s the end of %s (%zu bytes)",
                 off < v->offset + v->bytes ? "running past" : "past", v->name, v->bytes);
}

void mw_sim_shared_describe(size_t off, char *buf, size_t len)
{
    const shared_var *v = var_at(off);
    if (!v) {
        snprintf(buf, len, "byte %zu of shared memory", off);
        return;
    }
    size_t in = off - v->offset;
    const mw_sim_shape *s = &v->shape;
    if (s->elem == 0) { /* declared without its shape (the core's own tests) */
        snprintf(buf, len, "%s (byte %zu of it)", v->name, in);
        return;
    }
    size_t n = (size_t)snprintf(buf, len, "%s", v->name);
    /* Row-major: the last index varies fastest; the first is what is left,
     * past its extent for an access past the variable's end. */
    size_t e = in / s->elem, idx[4] = {0, 0, 0, 0};
    for (int d = s->rank - 1; d > 0; --d) {
        size_t x = s->extent[d] ? s->extent[d] : 1;
        idx[d] = e % x;
        e /= x;
    }
    idx[0] = e;
    for (int d = 0; d < s->rank && n < len; ++d)
        n += (size_t)snprintf(buf + n, len - n, "[%zu]", idx[d]);
    size_t within = s->rank ? in % s->elem : in;
    if (within && n < len)
        snprintf(buf + n, len - n, " (byte %zu of it)", within);
}

size_t mw_sim_shared_var_bytes(const char *name)
{
    for (int i = 0; i < nvars; ++i)
        if (vars[i].name == name)
            return vars[i].bytes;
    return 0;
}
