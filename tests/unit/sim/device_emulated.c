/* device_emulated.c's contract (grader/device.h), as grader/device.cu keeps
 * it on a GPU: what each harness helper returns, on hand-made buffers. */
#include <stdlib.h>

#include "compare.h" /* MW_GUARD_BITS */
#include "device.h"
#include "rng.h"
#include "sim.h"
#include "tap.h"

/* The buffers here are the test's own, not device allocations: host.c
 * would find no region for them and do nothing, as this does. */
void mw_sim_host_access(const void *p, int open)
{
    (void)p, (void)open;
}

/* Nor is any of them mapped lazily (grader/sim/lazy.c): each says so. */
int mw_sim_lazy_set(void *p, size_t bytes, const mw_sim_content *c)
{
    (void)p, (void)bytes, (void)c;
    return 0;
}

size_t mw_sim_lazy_piece(const void *p, size_t bytes, const mw_sim_content **content)
{
    (void)p, (void)bytes;
    *content = NULL;
    return 0;
}

int mw_sim_lazy_read(const void *p, void *dst, size_t bytes)
{
    (void)p, (void)dst, (void)bytes;
    return 0;
}

int mw_sim_content_is_bytes(const mw_sim_content *c, int *byte)
{
    (void)c, (void)byte;
    return 0;
}

static int same_bits(float a, float b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static void fill_and_verify(void)
{
    float x[64];
    mw_dev_fill(x, MW_F32, 64, 42, 3, MW_GEN_UNIFORM, 2.f, NULL);
    int all = 1;
    for (size_t i = 0; i < 64; i++)
        all &= same_bits(x[i], mw_gen(42, 3, i, MW_GEN_UNIFORM, 2.f));
    ok(all, "fill: element i is mw_gen(seed, stream, i, kind, scale)");
    unsigned long long r[2];
    mw_dev_verify_fill(x, MW_F32, 64, 42, 3, MW_GEN_UNIFORM, 2.f, r);
    ok(r[0] == 0 && r[1] == ~0ULL, "verify_fill of an untouched fill: 0 changed, first index ~0");
    x[37] += 1.f;
    x[9] = -x[9];
    mw_dev_verify_fill(x, MW_F32, 64, 42, 3, MW_GEN_UNIFORM, 2.f, r);
    ok(r[0] == 2 && r[1] == 9, "verify_fill after two changes: 2 changed, the first at 9");
    mw_dev_verify_fill(x, MW_F32, 0, 42, 3, MW_GEN_UNIFORM, 2.f, r);
    ok(r[0] == 0 && r[1] == 0, "verify_fill of nothing: 0 and 0");
}

static void bf16_fill(void)
{
    uint16_t h[16];
    mw_dev_fill(h, MW_BF16, 16, 7, 1, MW_GEN_UNIFORM, 1.f, NULL);
    int all = 1;
    for (size_t i = 0; i < 16; i++)
        all &= h[i] == mw_bf16_round(mw_gen(7, 1, i, MW_GEN_UNIFORM, 1.f));
    ok(all, "fill of a bf16 buffer: each element rounded by mw_bf16_round");
    unsigned long long r[2];
    mw_dev_verify_fill(h, MW_BF16, 16, 7, 1, MW_GEN_UNIFORM, 1.f, r);
    ok(r[0] == 0, "verify_fill of a bf16 fill: nothing changed");
}

static void count_not(void)
{
    float g[10];
    uint32_t guard = MW_GUARD_BITS;
    for (int i = 0; i < 10; i++)
        memcpy(&g[i], &guard, sizeof guard);
    unsigned long long r[3];
    mw_dev_count_not(g, MW_F32, 10, MW_GUARD_BITS, r);
    ok(r[0] == 0 && r[1] == ~0ULL && r[2] == 0, "count_not of an intact guard: 0, ~0, 0");
    g[2] = 1.f;
    g[6] = 0.f;
    mw_dev_count_not(g, MW_F32, 10, MW_GUARD_BITS, r);
    ok(r[0] == 2 && r[1] == 2 && r[2] == 6, "count_not: 2 written, first 2, last 6");
    mw_dev_count_not(g, MW_F32, 0, MW_GUARD_BITS, r);
    ok(r[0] == 0 && r[1] == 0 && r[2] == 0, "count_not of nothing: 0, 0, 0");
    uint16_t h[5] = {0xfefe, 0xfefe, 0x3f80, 0xfefe, 0xfefe};
    mw_dev_count_not(h, MW_BF16, 5, MW_GUARD_BITS, r);
    ok(r[0] == 1 && r[1] == 2 && r[2] == 2, "count_not of bf16: the pattern's low 16 bits");
}

static void gather(void)
{
    float p[6] = {0.5f, 1.5f, 2.5f, 3.5f, 4.5f, 5.5f}, out[3];
    size_t idx[3] = {5, 0, 3};
    mw_dev_gather(p, MW_F32, idx, 3, out, NULL);
    ok(out[0] == 5.5f && out[1] == 0.5f && out[2] == 3.5f, "gather: out[j] = p[idx[j]]");
    uint16_t h[2] = {0x3fc0, 0xc000}; /* 1.5, -2 */
    size_t hidx[2] = {1, 0};
    mw_dev_gather(h, MW_BF16, hidx, 2, out, NULL);
    ok(out[0] == -2.f && out[1] == 1.5f, "gather of bf16: widened to float");
}

int main(void)
{
    fill_and_verify();
    bf16_fill();
    count_not();
    gather();
    ok(mw_dev_marker(3, NULL) == cudaSuccess && mw_dev_empty(NULL) == cudaSuccess,
       "marker and empty: nothing to run, success");
    printf("1..%d\n", tap_count);
    return tap_failed != 0;
}
