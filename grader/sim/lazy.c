/* lazy.c: device allocations mapped lazily (sim.h).
 *
 * A huge case's buffers (chapter 01's 2^33-element vectors: 32 GiB each)
 * do not fit the machine, and the emulation runs only a sample of its
 * blocks, which read and write a few thousand pages of them. So an
 * allocation past MW_SIM_LAZY_BYTES is reserved without memory
 * (MAP_NORESERVE, PROT_NONE), and what it holds is recorded rather than
 * written: the NaN bytes cudaMalloc leaves, the runtime's memsets, the
 * harness's input fills, each as a content over a byte range, the later
 * over the earlier. A page gets its bytes when first touched (a kernel's
 * access, seen by checks.c before it happens; a copy; a helper that asks),
 * by running every content over it in order: the bytes it would hold had
 * every fill been done at once. Untouched pages cost nothing, and the
 * harness's scans of a whole buffer (the inputs unchanged, the output's
 * poison) skip the pages whose one content settles the answer.
 *
 * Touched pages follow the region's protection (closed to the host while no
 * kernel runs, host.c); untouched pages stay PROT_NONE, so host code that
 * reads through a device pointer still crashes as on a GPU. */
#define _GNU_SOURCE
#include "sim.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

enum { PAGE = 4096 };

typedef struct part {
    size_t from, to; /* bytes of the region */
    mw_sim_content content;
} part;

struct mw_sim_lazy {
    size_t pages;
    unsigned char *touched; /* per page: 1 once it holds its bytes */
    size_t *list;           /* the touched pages, in the order touched */
    size_t nlist, list_cap;
    part *parts; /* oldest first */
    size_t nparts, parts_cap;
    int open; /* touched pages readable and writable */
};

static void produce_bytes(const void *ctx, char *dst, const char *at, size_t bytes)
{
    (void)at;
    memset(dst, *(const unsigned char *)ctx, bytes);
}

void mw_sim_content_bytes(mw_sim_content *c, int byte)
{
    memset(c, 0, sizeof *c);
    c->produce = produce_bytes;
    c->ctx[0] = (unsigned char)byte;
}

int mw_sim_content_is_bytes(const mw_sim_content *c, int *byte)
{
    if (c->produce != produce_bytes)
        return 0;
    *byte = c->ctx[0];
    return 1;
}

/* Runs every part over bytes [from, from + n) of region r into dst. */
static void produce_range(const mw_sim_region *r, char *dst, size_t from, size_t n)
{
    const mw_sim_lazy *lz = r->lazy;
    for (size_t i = 0; i < lz->nparts; i++) {
        const part *p = &lz->parts[i];
        size_t lo = p->from > from ? p->from : from;
        size_t hi = p->to < from + n ? p->to : from + n;
        if (lo < hi)
            p->content.produce(p->content.ctx, dst + (lo - from), r->base + lo, hi - lo);
    }
}

static size_t page_bytes(const mw_sim_region *r, size_t page)
{
    size_t from = page * PAGE;
    return r->bytes - from < PAGE ? r->bytes - from : PAGE;
}

static int page_protect(const mw_sim_region *r, size_t page, int open)
{
    return mprotect(r->base + page * PAGE, PAGE, open ? PROT_READ | PROT_WRITE : PROT_NONE);
}

/* Touched pages in all lazy regions (MW_SIM_LAZY_MAX_PAGES). */
static size_t pages_touched;

static int touch_page(const mw_sim_region *r, size_t page)
{
    mw_sim_lazy *lz = r->lazy;
    if (lz->touched[page])
        return 0;
    if (pages_touched >= MW_SIM_LAZY_MAX_PAGES)
        return -2;
    if (lz->nlist == lz->list_cap) {
        size_t cap = lz->list_cap ? 2 * lz->list_cap : 64;
        size_t *grown = realloc(lz->list, cap * sizeof *grown);
        if (!grown)
            return -1;
        lz->list = grown, lz->list_cap = cap;
    }
    /* The kernel refuses a mapping past its limit: out of memory, not a
     * write into a closed page. */
    if (page_protect(r, page, 1) != 0)
        return -1;
    produce_range(r, r->base + page * PAGE, page * PAGE, page_bytes(r, page));
    if (!lz->open)
        page_protect(r, page, 0);
    lz->touched[page] = 1;
    lz->list[lz->nlist++] = page;
    pages_touched++;
    return 0;
}

mw_sim_lazy *mw_sim_lazy_new(size_t bytes)
{
    mw_sim_lazy *lz = calloc(1, sizeof *lz);
    if (!lz)
        return NULL;
    lz->pages = (bytes + PAGE - 1) / PAGE;
    lz->touched = calloc(lz->pages, 1);
    lz->parts = malloc(4 * sizeof *lz->parts);
    if (!lz->touched || !lz->parts) {
        mw_sim_lazy_free(lz);
        return NULL;
    }
    lz->parts_cap = 4;
    /* What cudaMalloc leaves: NaN bytes, as an eager allocation holds. */
    lz->parts[0].from = 0, lz->parts[0].to = bytes;
    mw_sim_content_bytes(&lz->parts[0].content, 0xFF);
    lz->nparts = 1;
    return lz;
}

void mw_sim_lazy_free(mw_sim_lazy *lz)
{
    if (!lz)
        return;
    pages_touched -= lz->nlist;
    free(lz->touched);
    free(lz->list);
    free(lz->parts);
    free(lz);
}

void mw_sim_lazy_open(const mw_sim_region *r, int open)
{
    mw_sim_lazy *lz = r->lazy;
    if (lz->open == open)
        return;
    lz->open = open;
    for (size_t i = 0; i < lz->nlist; i++)
        page_protect(r, lz->list[i], open);
}

int mw_sim_lazy_touch(const mw_sim_region *r, const void *addr, size_t bytes)
{
    size_t from = (size_t)((const char *)addr - r->base);
    if (from >= r->bytes || bytes == 0)
        return 0;
    size_t last = (from + bytes - 1 < r->bytes ? from + bytes - 1 : r->bytes - 1) / PAGE;
    for (size_t page = from / PAGE; page <= last; page++) {
        int rc = touch_page(r, page);
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* The lazily mapped region holding p, or NULL. */
static const mw_sim_region *lazy_region(const void *p)
{
    const mw_sim_region *r = mw_sim_region_find(p);
    return r && r->lazy ? r : NULL;
}

int mw_sim_lazy_set(void *p, size_t bytes, const mw_sim_content *c)
{
    const mw_sim_region *r = lazy_region(p);
    if (!r)
        return 0;
    mw_sim_lazy *lz = r->lazy;
    size_t from = (size_t)((char *)p - r->base);
    size_t to = bytes > r->bytes - from ? r->bytes : from + bytes;
    /* Parts the new one covers whole are gone for good. */
    size_t kept = 0;
    for (size_t i = 0; i < lz->nparts; i++)
        if (!(lz->parts[i].from >= from && lz->parts[i].to <= to))
            lz->parts[kept++] = lz->parts[i];
    lz->nparts = kept;
    if (lz->nparts == lz->parts_cap) {
        part *grown = realloc(lz->parts, 2 * lz->parts_cap * sizeof *grown);
        if (!grown)
            return -1;
        lz->parts = grown, lz->parts_cap *= 2;
    }
    lz->parts[lz->nparts++] = (part){from, to, *c};
    /* Pages that hold their bytes already get the new ones now. */
    for (size_t i = 0; i < lz->nlist; i++) {
        size_t lo = lz->list[i] * PAGE, hi = lo + page_bytes(r, lz->list[i]);
        lo = lo > from ? lo : from;
        hi = hi < to ? hi : to;
        if (lo >= hi)
            continue;
        if (!lz->open)
            page_protect(r, lz->list[i], 1);
        c->produce(c->ctx, r->base + lo, r->base + lo, hi - lo);
        if (!lz->open)
            page_protect(r, lz->list[i], 0);
    }
    return 1;
}

/* The newest part that reaches into bytes [lo, hi) of the region, when it
 * covers them whole; NULL when an older part shows through. */
static const part *settling_part(const mw_sim_lazy *lz, size_t lo, size_t hi)
{
    for (size_t i = lz->nparts; i-- > 0;) {
        const part *p = &lz->parts[i];
        if (p->from < hi && p->to > lo)
            return p->from <= lo && p->to >= hi ? p : NULL;
    }
    return NULL;
}

size_t mw_sim_lazy_piece(const void *p, size_t bytes, const mw_sim_content **content)
{
    const mw_sim_region *r = lazy_region(p);
    *content = NULL;
    if (!r || bytes == 0)
        return 0;
    mw_sim_lazy *lz = r->lazy;
    size_t from = (size_t)((const char *)p - r->base);
    size_t end = bytes > r->bytes - from ? r->bytes : from + bytes;
    size_t page = from / PAGE;
    size_t page_end = (page + 1) * PAGE < end ? (page + 1) * PAGE : end;
    const part *settled = lz->touched[page] ? NULL : settling_part(lz, page * PAGE, page_end);
    if (!lz->touched[page] && !settled)
        touch_page(r, page); /* two contents meet in it: its bytes, then */
    size_t at = page_end;
    /* The run of pages after it in the same state. */
    while (at < end) {
        size_t next = (at / PAGE + 1) * PAGE < end ? (at / PAGE + 1) * PAGE : end;
        int touched = lz->touched[at / PAGE];
        if (settled ? touched || settling_part(lz, at, next) != settled : !touched)
            break;
        at = next;
    }
    *content = settled ? &settled->content : NULL;
    return at - from;
}

int mw_sim_lazy_read(const void *p, void *dst, size_t bytes)
{
    const mw_sim_region *r = lazy_region(p);
    if (!r)
        return 0;
    size_t from = (size_t)((const char *)p - r->base);
    size_t page = from / PAGE;
    if (r->lazy->touched[page] && (from + bytes - 1) / PAGE == page && r->lazy->open)
        memcpy(dst, p, bytes);
    else if (r->lazy->touched[page] || r->lazy->touched[(from + bytes - 1) / PAGE]) {
        mw_sim_lazy_touch(r, p, bytes);
        int was_open = r->lazy->open;
        mw_sim_lazy_open(r, 1);
        memcpy(dst, p, bytes);
        mw_sim_lazy_open(r, was_open);
    } else {
        produce_range(r, dst, from, bytes);
    }
    return 1;
}

size_t mw_sim_lazy_touched(const void *p, size_t count, size_t elem, size_t *firsts,
                           size_t cap)
{
    const mw_sim_region *r = lazy_region(p);
    if (!r || count == 0)
        return 0;
    const mw_sim_lazy *lz = r->lazy;
    size_t base = (size_t)((const char *)p - r->base), end = base + count * elem, n = 0;
    for (size_t i = 0; i < lz->nlist; i++) {
        size_t from = lz->list[i] * PAGE, to = from + PAGE;
        if (to <= base || from >= end)
            continue; /* the guard bands around the view are the harness's */
        if (n == cap)
            return cap + 1;
        firsts[n++] = from > base ? (from - base + elem - 1) / elem : 0;
    }
    return n;
}
