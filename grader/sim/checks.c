/* checks.c: the faults a GPU hides and a CPU can show.
 *
 * The kernel code is compiled with -fsanitize=thread for its
 * instrumentation only: every load and store calls one of the __tsan_*
 * hooks below, which check it (mw_sim_check_access) and do nothing outside
 * a kernel. An address in the block's shared window is checked for reads of
 * bytes no thread of the block wrote and for races (two threads touch the
 * same word, one writes, no barrier between them; two lanes of a warp, no
 * warp collective between them); an address in a device allocation, the
 * thread's own stack or a loaded object's segments is fine; any other is
 * out of bounds. Misaligned accesses are faults as on the GPU. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"

/* ---- source lines ---- */

static void copy_text(char *buf, size_t len, const char *src)
{
    size_t n = strlen(src);
    if (n >= len)
        n = len - 1;
    memcpy(buf, src, n);
    buf[n] = 0;
}

typedef struct line_cache {
    const void *pc;
    char text[256];
} line_cache;
static line_cache lines[64];
static int nlines;

/* Whether a source file is one of the emulation's own headers, whose
 * inlined wrappers a report skips for the kernel's line that called them. */
static int emulation_header(const char *file)
{
    static const char *const own[] = {"mw_sim_kernel.h", "mw_sim_ptx.h", "cuda_bf16.h",
                                      "cuda_fp16.h", "vector_types.h"};
    const char *base = strrchr(file, '/');
    base = base ? base + 1 : file;
    for (size_t i = 0; i < sizeof own / sizeof *own; ++i)
        if (strncmp(base, own[i], strlen(own[i])) == 0 && base[strlen(own[i])] == ':')
            return 1;
    return 0;
}

/* The innermost line of the inline chain at off that is the kernel's own. */
static int addr2line(const char *object, uintptr_t off, char *buf, size_t len)
{
    char cmd[1200];
    if (strchr(object, '\'') || snprintf(cmd, sizeof cmd, "addr2line -i -e '%s' 0x%lx 2>/dev/null",
                                         object, (unsigned long)off) >= (int)sizeof cmd)
        return 0;
    FILE *p = popen(cmd, "r");
    if (!p)
        return 0;
    char out[512], found[512] = "";
    while (fgets(out, sizeof out, p)) {
        out[strcspn(out, " \n")] = 0;
        if (found[0] || out[0] == '?' || strstr(out, ":?"))
            continue;
        if (!emulation_header(out))
            memcpy(found, out, sizeof found);
    }
    pclose(p);
    if (!found[0] || (strlen(found) >= 2 && strcmp(found + strlen(found) - 2, ":0") == 0))
        return 0;
    const char *base = strrchr(found, '/');
    copy_text(buf, len, base ? base + 1 : found);
    return 1;
}

void mw_sim_pc_line(const void *pc, char *buf, size_t len)
{
    for (int i = 0; i < nlines; ++i)
        if (lines[i].pc == pc) {
            copy_text(buf, len, lines[i].text);
            return;
        }
    char text[256] = "?";
    Dl_info info;
    /* pc is a return address: the call is the byte before it */
    const char *at = (const char *)pc - 1;
    if (pc && dladdr(at, &info) && info.dli_fname) {
        uintptr_t off = (uintptr_t)at - (uintptr_t)info.dli_fbase;
        if (!addr2line(info.dli_fname, off, text, sizeof text)) {
            if (info.dli_sname)
                snprintf(text, sizeof text, "%s+0x%lx", info.dli_sname,
                         (unsigned long)((uintptr_t)at - (uintptr_t)info.dli_saddr));
            else
                snprintf(text, sizeof text, "%s+0x%lx", info.dli_fname, (unsigned long)off);
        }
    }
    if (nlines < 64) {
        lines[nlines].pc = pc;
        copy_text(lines[nlines++].text, sizeof lines[0].text, text);
    }
    copy_text(buf, len, text);
}

/* ---- the loaded objects' segments, cached at each grid ---- */

typedef struct span {
    uintptr_t lo, hi;
} span;
static span *segs;
static size_t nsegs, segs_cap;

static int add_object(struct dl_phdr_info *info, size_t size, void *data)
{
    (void)size;
    (void)data;
    for (int i = 0; i < info->dlpi_phnum; ++i) {
        const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
        if (ph->p_type != PT_LOAD)
            continue;
        if (nsegs == segs_cap) {
            size_t cap = segs_cap ? 2 * segs_cap : 64;
            span *s = realloc(segs, cap * sizeof *s);
            if (!s)
                return 1;
            segs = s;
            segs_cap = cap;
        }
        uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
        segs[nsegs++] = (span){lo, lo + ph->p_memsz};
    }
    return 0;
}

static int span_cmp(const void *a, const void *b)
{
    const span *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

static const mw_sim_region *last_region;

void mw_sim_checks_grid_start(void)
{
    nsegs = 0;
    dl_iterate_phdr(add_object, NULL);
    qsort(segs, nsegs, sizeof *segs, span_cmp);
    last_region = NULL; /* regions may have been freed between grids */
}

static int in_segments(uintptr_t a, size_t bytes)
{
    size_t lo = 0, hi = nsegs;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (segs[mid].hi <= a)
            lo = mid + 1;
        else if (segs[mid].lo > a)
            hi = mid;
        else
            return a + bytes <= segs[mid].hi;
    }
    return 0;
}

/* ---- faults ---- */

static const char *rw(int is_write)
{
    return is_write ? "write" : "read";
}

/* The nearest allocation below or above addr (probing bytes: a fault's
 * path only). */
_Noreturn static void out_of_bounds(uintptr_t a, size_t bytes, int is_write, const void *pc,
                                    const mw_sim_region *inside)
{
    char at[512];
    mw_sim_pc_line(pc, at, sizeof at);
    if (inside)
        mw_sim_kernel_fault(cudaErrorIllegalAddress,
                            "out-of-bounds %s of %zu bytes at %p, at %s: it runs %zu bytes past "
                            "the end of the %zu-byte buffer at %p",
                            rw(is_write), bytes, (void *)a, at,
                            (size_t)(a + bytes - (uintptr_t)(inside->base + inside->bytes)),
                            inside->bytes, (void *)inside->base);
    enum { PROBE = 1 << 20 };
    for (uintptr_t k = 1; k <= PROBE; ++k) {
        const mw_sim_region *r = a >= k ? mw_sim_region_find((const void *)(a - k)) : NULL;
        if (r)
            mw_sim_kernel_fault(cudaErrorIllegalAddress,
                                "out-of-bounds %s of %zu bytes at %p, at %s: %zu bytes past the "
                                "end of the %zu-byte buffer at %p",
                                rw(is_write), bytes, (void *)a, at,
                                (size_t)(a - (uintptr_t)(r->base + r->bytes)), r->bytes,
                                (void *)r->base);
        r = mw_sim_region_find((const void *)(a + k));
        if (r)
            mw_sim_kernel_fault(cudaErrorIllegalAddress,
                                "out-of-bounds %s of %zu bytes at %p, at %s: %zu bytes before "
                                "the %zu-byte buffer at %p",
                                rw(is_write), bytes, (void *)a, at, (size_t)k, r->bytes,
                                (void *)r->base);
    }
    mw_sim_kernel_fault(cudaErrorIllegalAddress,
                        "illegal %s of %zu bytes at %p, at %s: no device buffer within 1 MiB "
                        "(a host pointer?)",
                        rw(is_write), bytes, (void *)a, at);
}

/* ---- shared memory ---- */

static const mw_sim_thread *thread_of(const mw_sim_block *b, int32_t tid1)
{
    return &b->threads[tid1 - 1];
}

/* Whether the earlier access of thread `tid1 - 1` (at warp count wcount) is
 * ordered before the current one by a warp collective both lanes took. */
static int warp_ordered(const mw_sim_thread *me, const mw_sim_thread *other, uint32_t wcount)
{
    if (other->warp != me->warp)
        return 0;
    return me->block->wsync[me->warp].last[me->lane][other->lane] > wcount;
}

_Noreturn static void race(const mw_sim_thread *me, const mw_sim_thread *other, size_t off,
                           int is_write, int other_wrote, const void *pc, const void *other_pc)
{
    char at[512], other_at[512], what[256];
    mw_sim_shared_describe(off, what, sizeof what);
    mw_sim_pc_line(pc, at, sizeof at);
    mw_sim_pc_line(other_pc, other_at, sizeof other_at);
    mw_sim_kernel_fault(cudaErrorLaunchFailure,
                        "shared-memory race on %s: this thread %s it at %s, "
                        "thread (%u,%u,%u) %s it at %s, with no %s between",
                        what, is_write ? "writes" : "reads", at, other->idx.x, other->idx.y,
                        other->idx.z, other_wrote ? "wrote" : "read", other_at,
                        other->warp == me->warp ? "__syncthreads or warp collective"
                                                : "__syncthreads");
}

/* Races are found 2 bytes at a time, between accesses to the same bytes:
 * two threads that store neighbouring bf16 elements do not race on a GPU,
 * which stores bytes. */
static void shared_words(const mw_sim_thread *me, size_t off, size_t bytes, int is_write,
                         const void *pc)
{
    mw_sim_block *b = me->block;
    int32_t self = me->tid + 1;
    uint32_t wcount = b->wsync[me->warp].count;
    for (size_t h = off / 2; h <= (off + bytes - 1) / 2; ++h) {
        mw_sim_word *rec = &b->words[h];
        uint8_t mine = (uint8_t)((off <= h * 2 ? 1u : 0u) | (off + bytes > h * 2 + 1 ? 2u : 0u));
        size_t at = h * 2 + (mine & 1u ? 0 : 1);
        if (rec->writer && rec->writer != self && rec->write_epoch == b->epoch &&
            (rec->write_bytes & mine) &&
            !warp_ordered(me, thread_of(b, rec->writer), rec->write_wcount))
            race(me, thread_of(b, rec->writer), at, is_write, 1, pc, rec->write_pc);
        if (is_write && rec->reader && rec->reader != self && rec->read_epoch == b->epoch &&
            (rec->read_bytes & mine) &&
            !warp_ordered(me, thread_of(b, rec->reader), rec->read_wcount))
            race(me, thread_of(b, rec->reader), at, is_write, 0, pc, rec->read_pc);
        if (is_write) {
            rec->writer = self;
            rec->write_epoch = b->epoch;
            rec->write_wcount = wcount;
            rec->write_bytes = mine;
            rec->write_pc = pc;
        } else {
            rec->reader = self;
            rec->read_epoch = b->epoch;
            rec->read_wcount = wcount;
            rec->read_bytes = mine;
            rec->read_pc = pc;
        }
    }
}

static void shared_written(const mw_sim_thread *me, size_t off, size_t bytes, int is_write,
                           const void *pc)
{
    uint8_t *written = me->block->written;
    if (is_write) {
        memset(written + off, 1, bytes);
        return;
    }
    for (size_t k = 0; k < bytes; ++k) {
        if (written[off + k])
            continue;
        char at[512], what[256];
        mw_sim_shared_describe(off + k, what, sizeof what);
        mw_sim_pc_line(pc, at, sizeof at);
        mw_sim_kernel_fault(cudaErrorLaunchFailure,
                            "read of shared memory no thread of the block wrote: %s, at %s", what,
                            at);
    }
}

/* 1 when addr is in the block's shared window (checked), 0 when outside. */
static int check_shared(const mw_sim_thread *me, uintptr_t a, size_t bytes, int is_write,
                        int atomic, const void *pc)
{
    uintptr_t base = (uintptr_t)me->block->smem;
    if (a - base >= mw_sim_cur->smem_window)
        return 0;
    size_t off = a - base;
    if (mw_sim_shared_outside(off, bytes)) {
        char at[512], what[384];
        mw_sim_shared_describe_outside(off, what, sizeof what);
        mw_sim_pc_line(pc, at, sizeof at);
        mw_sim_kernel_fault(cudaErrorIllegalAddress,
                            "out-of-bounds %s of %zu bytes of shared memory at %s: %s",
                            rw(is_write), bytes, at, what);
    }
    shared_written(me, off, bytes, atomic ? 0 : is_write, pc);
    if (atomic)
        shared_written(me, off, bytes, 1, pc);
    else
        shared_words(me, off, bytes, is_write, pc);
    return 1;
}

/* An access to a lazily mapped region (lazy.c) gives its pages their bytes
 * before it happens: the access that follows this check reads them. */
static void touch_lazy(const mw_sim_region *r, const void *addr, size_t bytes)
{
    int rc = r->lazy ? mw_sim_lazy_touch(r, addr, bytes) : 0;
    if (rc == -2) /* its accesses are not where the sample looks: skip the case */
        mw_sim_sample_scattered();
    if (rc != 0)
        mw_sim_kernel_fault(cudaErrorMemoryAllocation,
                            "the emulation ran out of memory for a lazily mapped buffer's pages");
}

static void check(const void *addr, size_t bytes, int is_write, int atomic, int aligned,
                  const void *pc)
{
    const mw_sim_thread *me = mw_sim_cur->thread;
    uintptr_t a = (uintptr_t)addr;
    if (aligned && (bytes == 2 || bytes == 4 || bytes == 8 || bytes == 16) && a % bytes) {
        char at[512];
        mw_sim_pc_line(pc, at, sizeof at);
        mw_sim_kernel_fault(cudaErrorMisalignedAddress,
                            "misaligned %s of %zu bytes at %p (%zu bytes past a multiple of "
                            "%zu), at %s",
                            rw(is_write), bytes, addr, (size_t)(a % bytes), bytes, at);
    }
    if (check_shared(me, a, bytes, is_write, atomic, pc))
        return;
    uintptr_t stack = (uintptr_t)me->fiber.stack;
    if (a - stack < me->fiber.stack_bytes)
        return;
    const mw_sim_region *r = last_region;
    if (r && a - (uintptr_t)r->base < r->bytes) {
        if (a + bytes > (uintptr_t)(r->base + r->bytes))
            out_of_bounds(a, bytes, is_write, pc, r);
        touch_lazy(r, addr, bytes);
        return;
    }
    if (in_segments(a, bytes))
        return;
    if ((r = mw_sim_region_find(addr)) != NULL) {
        last_region = r;
        if (a + bytes > (uintptr_t)(r->base + r->bytes))
            out_of_bounds(a, bytes, is_write, pc, r);
        touch_lazy(r, addr, bytes);
        return;
    }
    out_of_bounds(a, bytes, is_write, pc, NULL);
}

void mw_sim_check_access(const void *addr, size_t bytes, int is_write, const void *pc)
{
    if (mw_sim_cur && mw_sim_cur->thread && bytes)
        check(addr, bytes, is_write, 0, 1, pc);
}

void mw_sim_check_atomic(const void *addr, size_t bytes, const void *pc)
{
    if (mw_sim_cur && mw_sim_cur->thread)
        check(addr, bytes, 1, 1, 1, pc);
}

/* ---- the hooks gcc's -fsanitize=thread emits ---- */

#define RA __builtin_return_address(0)
#define IN_KERNEL (mw_sim_cur && mw_sim_cur->thread)
#define HOOKS(N)                                                                                   \
    void __tsan_read##N(void *p);                                                                  \
    void __tsan_write##N(void *p);                                                                 \
    void __tsan_unaligned_read##N(void *p);                                                        \
    void __tsan_unaligned_write##N(void *p);                                                       \
    void __tsan_volatile_read##N(void *p);                                                         \
    void __tsan_volatile_write##N(void *p);                                                        \
    void __tsan_read##N(void *p)                                                                   \
    {                                                                                              \
        if (IN_KERNEL)                                                                             \
            check(p, N, 0, 0, 1, RA);                                                              \
    }                                                                                              \
    void __tsan_write##N(void *p)                                                                  \
    {                                                                                              \
        if (IN_KERNEL)                                                                             \
            check(p, N, 1, 0, 1, RA);                                                              \
    }                                                                                              \
    void __tsan_unaligned_read##N(void *p)                                                         \
    {                                                                                              \
        if (IN_KERNEL)                                                                             \
            check(p, N, 0, 0, 0, RA);                                                              \
    }                                                                                              \
    void __tsan_unaligned_write##N(void *p)                                                        \
    {                                                                                              \
        if (IN_KERNEL)                                                                             \
            check(p, N, 1, 0, 0, RA);                                                              \
    }                                                                                              \
    void __tsan_volatile_read##N(void *p)                                                          \
    {                                                                                              \
        if (IN_KERNEL)                                                                             \
            check(p, N, 0, 0, 1, RA);                                                              \
    }                                                                                              \
    void __tsan_volatile_write##N(void *p)                                                         \
    {                                                                                              \
        if (IN_KERNEL)                                                                             \
            check(p, N, 1, 0, 1, RA);                                                              \
    }

HOOKS(1)
HOOKS(2)
HOOKS(4)
HOOKS(8)
HOOKS(16)

void __tsan_read_range(void *p, size_t n);
void __tsan_write_range(void *p, size_t n);
void __tsan_read_range(void *p, size_t n)
{
    if (IN_KERNEL && n)
        check(p, n, 0, 0, 0, RA);
}
void __tsan_write_range(void *p, size_t n)
{
    if (IN_KERNEL && n)
        check(p, n, 1, 0, 0, RA);
}

/* clang's instrumentation of memcpy, memmove and memset in kernel code. */
void *__tsan_memcpy(void *dst, const void *src, size_t n);
void *__tsan_memmove(void *dst, const void *src, size_t n);
void *__tsan_memset(void *dst, int c, size_t n);
void *__tsan_memcpy(void *dst, const void *src, size_t n)
{
    if (IN_KERNEL && n) {
        check(src, n, 0, 0, 0, RA);
        check(dst, n, 1, 0, 0, RA);
    }
    return memcpy(dst, src, n);
}
void *__tsan_memmove(void *dst, const void *src, size_t n)
{
    if (IN_KERNEL && n) {
        check(src, n, 0, 0, 0, RA);
        check(dst, n, 1, 0, 0, RA);
    }
    return memmove(dst, src, n);
}
void *__tsan_memset(void *dst, int c, size_t n)
{
    if (IN_KERNEL && n)
        check(dst, n, 1, 0, 0, RA);
    return memset(dst, c, n);
}

/* Nothing to set up, and no call stack is kept. */
void __tsan_init(void);
void __tsan_func_entry(void *pc);
void __tsan_func_exit(void);
void __tsan_vptr_read(void **p);
void __tsan_vptr_update(void **p, void *v);
void __tsan_init(void) {}
void __tsan_func_entry(void *pc)
{
    (void)pc;
}
void __tsan_func_exit(void) {}
void __tsan_vptr_read(void **p)
{
    if (IN_KERNEL)
        check(p, sizeof *p, 0, 0, 1, RA);
}
void __tsan_vptr_update(void **p, void *v)
{
    (void)v;
    if (IN_KERNEL)
        check(p, sizeof *p, 1, 0, 1, RA);
}

/* C++ atomics in kernel code (std::atomic, __atomic builtins): checked as
 * atomics, then done. */
#define ATOMICS(N, T)                                                                              \
    T __tsan_atomic##N##_load(const volatile T *p, int mo);                                        \
    void __tsan_atomic##N##_store(volatile T *p, T v, int mo);                                     \
    T __tsan_atomic##N##_exchange(volatile T *p, T v, int mo);                                     \
    T __tsan_atomic##N##_fetch_add(volatile T *p, T v, int mo);                                    \
    T __tsan_atomic##N##_fetch_sub(volatile T *p, T v, int mo);                                    \
    T __tsan_atomic##N##_fetch_and(volatile T *p, T v, int mo);                                    \
    T __tsan_atomic##N##_fetch_or(volatile T *p, T v, int mo);                                     \
    T __tsan_atomic##N##_fetch_xor(volatile T *p, T v, int mo);                                    \
    int __tsan_atomic##N##_compare_exchange_strong(volatile T *p, T *e, T v, int mo, int fmo);     \
    int __tsan_atomic##N##_compare_exchange_weak(volatile T *p, T *e, T v, int mo, int fmo);       \
    T __tsan_atomic##N##_compare_exchange_val(volatile T *p, T e, T v, int mo, int fmo);           \
    T __tsan_atomic##N##_load(const volatile T *p, int mo)                                         \
    {                                                                                              \
        (void)mo;                                                                                  \
        mw_sim_check_atomic((const void *)p, N / 8, RA);                                           \
        return *p;                                                                                 \
    }                                                                                              \
    void __tsan_atomic##N##_store(volatile T *p, T v, int mo)                                      \
    {                                                                                              \
        (void)mo;                                                                                  \
        mw_sim_check_atomic((const void *)p, N / 8, RA);                                           \
        *p = v;                                                                                    \
    }                                                                                              \
    T __tsan_atomic##N##_exchange(volatile T *p, T v, int mo)                                      \
    {                                                                                              \
        (void)mo;                                                                                  \
        mw_sim_check_atomic((const void *)p, N / 8, RA);                                           \
        T old = *p;                                                                                \
        *p = v;                                                                                    \
        return old;                                                                                \
    }                                                                                              \
    ATOMIC_OP(N, T, add, +)                                                                        \
    ATOMIC_OP(N, T, sub, -)                                                                        \
    ATOMIC_OP(N, T, and, &)                                                                        \
    ATOMIC_OP(N, T, or, |)                                                                         \
    ATOMIC_OP(N, T, xor, ^)                                                                        \
    int __tsan_atomic##N##_compare_exchange_strong(volatile T *p, T *e, T v, int mo, int fmo)      \
    {                                                                                              \
        (void)mo;                                                                                  \
        (void)fmo;                                                                                 \
        mw_sim_check_atomic((const void *)p, N / 8, RA);                                           \
        if (*p == *e) {                                                                            \
            *p = v;                                                                                \
            return 1;                                                                              \
        }                                                                                          \
        *e = *p;                                                                                   \
        return 0;                                                                                  \
    }                                                                                              \
    int __tsan_atomic##N##_compare_exchange_weak(volatile T *p, T *e, T v, int mo, int fmo)        \
    {                                                                                              \
        return __tsan_atomic##N##_compare_exchange_strong(p, e, v, mo, fmo);                       \
    }                                                                                              \
    T __tsan_atomic##N##_compare_exchange_val(volatile T *p, T e, T v, int mo, int fmo)            \
    {                                                                                              \
        (void)mo;                                                                                  \
        (void)fmo;                                                                                 \
        mw_sim_check_atomic((const void *)p, N / 8, RA);                                           \
        T old = *p;                                                                                \
        if (old == e)                                                                              \
            *p = v;                                                                                \
        return old;                                                                                \
    }
#define ATOMIC_OP(N, T, NAME, OP)                                                                  \
    T __tsan_atomic##N##_fetch_##NAME(volatile T *p, T v, int mo)                                  \
    {                                                                                              \
        (void)mo;                                                                                  \
        mw_sim_check_atomic((const void *)p, N / 8, RA);                                           \
        T old = *p;                                                                                \
        *p = (T)(old OP v);                                                                        \
        return old;                                                                                \
    }

ATOMICS(8, uint8_t)
ATOMICS(16, uint16_t)
ATOMICS(32, uint32_t)
ATOMICS(64, uint64_t)

void __tsan_atomic_thread_fence(int mo);
void __tsan_atomic_signal_fence(int mo);
void __tsan_atomic_thread_fence(int mo)
{
    (void)mo;
}
void __tsan_atomic_signal_fence(int mo)
{
    (void)mo;
}
