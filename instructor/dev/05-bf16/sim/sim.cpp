/* sim.cpp: runs solutions/05-attention/03_flash_bf16.cu's kernel on the CPU, one block at a time, each
 * thread a fiber (ucontext), to check its index logic where there is no GPU.
 *
 * Build and run (from the repository root; no GPU, no CUDA needed):
 *   bash instructor/dev/05-bf16/run.sh sim         (or see run.sh for the two commands)
 *
 * What is simulated, and how faithfully:
 *  - warp collectives (ldmatrix, mma.sync, shuffles, votes, __syncwarp): each
 *    lane deposits its operands and waits until all 32 lanes of its warp have
 *    arrived at the same operation (a lane arriving at a different one aborts:
 *    divergence); mma and ldmatrix follow the PTX ISA fragment layouts, the
 *    same ones the kernel's header states: this checks the kernel against
 *    those layouts, not the layouts against the hardware;
 *  - __syncthreads: a block barrier; a barrier no thread can pass aborts;
 *  - cp.async: the copy is queued and done at the thread's cp.async.wait_group
 *    that retires its group, so a read before the wait and barrier sees the
 *    stale bytes (shared memory starts as NaN garbage for each block);
 *  - threads run in a random order between waits; the mma adds in float in
 *    k order (the hardware's order differs, within the tolerance);
 *  - ex2.approx.ftz is exp2f with results below 2^-126 flushed to 0.
 * The grid mapping and launch parameters are those of launch<C> in
 * 03_flash_bf16.cu, with few resident blocks (so heads are grouped). */
#include "../check_list.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#include <algorithm>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

/* ---- the CUDA surface the kernel uses ---------------------------------------- */

struct __nv_bfloat16 {
    uint16_t bits;
};
struct __nv_bfloat162 {
    __nv_bfloat16 x, y;
};
struct uint4 {
    uint32_t x, y, z, w;
};
struct Dim3 {
    unsigned x, y, z;
};
using std::max;
using std::min;

namespace sim {

struct Thread {
    ucontext_t ctx;
    int tid = 0;
    bool done = false;
    std::vector<char> stack;
    struct Copy {
        uint32_t dst;
        const void *src;
        bool ok;
    };
    std::vector<Copy> open;
    std::vector<std::vector<Copy>> groups;
};

struct Warp {
    int arrived = 0;
    long gen = 0;
    int op = 0;
    uint32_t in[32][12];
    uint32_t out[32][4];
};

const int kSmem = 228 * 1024;
unsigned char smem[kSmem];
Thread *cur = nullptr;
ucontext_t sched_ctx;
std::vector<Warp> warps;
int bar_arrived = 0, live_threads = 0;
long bar_gen = 0, progress = 0;
unsigned block_id = 0;
std::mt19937 rng(1);

void yield() { swapcontext(&cur->ctx, &sched_ctx); }

void fail(const char *what)
{
    fprintf(stderr, "sim: block %u thread %d: %s\n", block_id, cur ? cur->tid : -1, what);
    exit(3);
}

/* A warp collective: `op` names it; in: this lane's operands; f(in, out)
 * runs once all 32 lanes have arrived; out: this lane's results. */
template <class F> void collective(int op, const uint32_t *in, int nin, uint32_t *out, int nout, F f)
{
    Warp &w = warps[cur->tid / 32];
    const int lane = cur->tid % 32;
    if (w.arrived == 0)
        w.op = op;
    else if (w.op != op)
        fail("lanes of a warp at different collectives (divergence)");
    memcpy(w.in[lane], in, nin * 4);
    const long g = w.gen;
    if (++w.arrived == 32) {
        f(w.in, w.out);
        w.arrived = 0;
        w.gen++;
        progress++;
    } else {
        while (w.gen == g)
            yield();
    }
    memcpy(out, w.out[lane], nout * 4);
}

uint16_t smem16(uint32_t addr)
{
    if (addr + 2 > (uint32_t)kSmem)
        fail("shared address out of range");
    uint16_t v;
    memcpy(&v, smem + addr, 2);
    return v;
}

uint32_t pack2(uint16_t lo, uint16_t hi) { return (uint32_t)lo | (uint32_t)hi << 16; }

float f32(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}
uint32_t u32(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

} /* namespace sim */

#define threadIdx (Dim3{(unsigned)sim::cur->tid, 0u, 0u})
#define blockIdx (Dim3{sim::block_id, 0u, 0u})
#define __restrict__ __restrict

inline unsigned char *sim_smem() { return sim::smem; }
inline float __uint_as_float(uint32_t u) { return sim::f32(u); }
inline uint32_t __float_as_uint(float f) { return sim::u32(f); }
inline __nv_bfloat162 __floats2bfloat162_rn(float a, float b)
{
    return __nv_bfloat162{{ref::f2bf(a)}, {ref::f2bf(b)}};
}

inline void __syncthreads()
{
    const long g = sim::bar_gen;
    if (++sim::bar_arrived == sim::live_threads) {
        sim::bar_arrived = 0;
        sim::bar_gen++;
        sim::progress++;
    } else {
        while (sim::bar_gen == g)
            sim::yield();
    }
}

inline void __syncwarp(unsigned = 0xffffffffu)
{
    sim::collective(1, nullptr, 0, nullptr, 0, [](uint32_t (*)[12], uint32_t (*)[4]) {});
}

inline float __shfl_xor_sync(unsigned, float v, int x)
{
    uint32_t in[2] = {sim::u32(v), (uint32_t)x}, out;
    sim::collective(2, in, 2, &out, 1, [](uint32_t (*i)[12], uint32_t (*o)[4]) {
        for (int l = 0; l < 32; l++)
            o[l][0] = i[l ^ (i[l][1] & 31)][0];
    });
    return sim::f32(out);
}

inline uint32_t __shfl_sync(unsigned, uint32_t v, int src)
{
    uint32_t in[2] = {v, (uint32_t)src}, out;
    sim::collective(3, in, 2, &out, 1, [](uint32_t (*i)[12], uint32_t (*o)[4]) {
        for (int l = 0; l < 32; l++)
            o[l][0] = i[i[l][1] & 31][0];
    });
    return out;
}

inline bool vote(int op, bool p)
{
    uint32_t in = p, out;
    sim::collective(op, &in, 1, &out, 1, [op](uint32_t (*i)[12], uint32_t (*o)[4]) {
        int n = 0;
        for (int l = 0; l < 32; l++)
            n += i[l][0] != 0;
        for (int l = 0; l < 32; l++)
            o[l][0] = op == 4 ? n > 0 : n == 32;
    });
    return out != 0;
}
inline bool __any_sync(unsigned, bool p) { return vote(4, p); }
inline bool __all_sync(unsigned, bool p) { return vote(5, p); }

/* The PTX wrappers of 03_flash_bf16.cu, simulated. */
inline uint32_t smem_u32(const void *p) { return (uint32_t)((const unsigned char *)p - sim::smem); }

inline void cp_async16(uint32_t dst, const void *src, bool ok)
{
    if (dst % 16 || dst + 16 > (uint32_t)sim::kSmem)
        sim::fail("cp.async: bad shared address");
    sim::cur->open.push_back({dst, src, ok});
}
inline void cp_commit()
{
    sim::cur->groups.push_back(sim::cur->open);
    sim::cur->open.clear();
}
template <int n> inline void cp_wait()
{
    auto &gs = sim::cur->groups;
    while ((int)gs.size() > n) {
        for (auto &c : gs.front()) {
            if (c.ok)
                memcpy(sim::smem + c.dst, c.src, 16);
            else
                memset(sim::smem + c.dst, 0, 16);
        }
        gs.erase(gs.begin());
    }
}

inline void ldsm(int trans, uint32_t (&r)[4], uint32_t addr)
{
    if (addr % 16)
        sim::fail("ldmatrix: row address not 16-byte aligned");
    uint32_t in[2] = {addr, (uint32_t)trans};
    sim::collective(6 + trans, in, 2, r, 4, [](uint32_t (*i)[12], uint32_t (*o)[4]) {
        for (int mat = 0; mat < 4; mat++) {
            uint16_t M[8][8];
            for (int row = 0; row < 8; row++)
                for (int c = 0; c < 8; c++)
                    M[row][c] = sim::smem16(i[8 * mat + row][0] + 2 * c);
            for (int l = 0; l < 32; l++) {
                const int a = l / 4, b = 2 * (l % 4);
                o[l][mat] = i[0][1] ? sim::pack2(M[b][a], M[b + 1][a]) : sim::pack2(M[a][b], M[a][b + 1]);
            }
        }
    });
}
inline void ldsm_x4(uint32_t (&r)[4], uint32_t addr) { ldsm(0, r, addr); }
inline void ldsm_x4_t(uint32_t (&r)[4], uint32_t addr) { ldsm(1, r, addr); }

/* m16n8k16 row.col bf16 -> f32, fragments as in the PTX ISA. */
inline void mma(float (&c)[4], const uint32_t (&a)[4], uint32_t b0, uint32_t b1)
{
    uint32_t in[10] = {a[0], a[1], a[2], a[3], b0, b1, sim::u32(c[0]), sim::u32(c[1]), sim::u32(c[2]),
                       sim::u32(c[3])};
    uint32_t out[4];
    sim::collective(8, in, 10, out, 4, [](uint32_t (*i)[12], uint32_t (*o)[4]) {
        float A[16][16], B[16][8], C[16][8];
        auto lo = [](uint32_t u) { return ref::bf2f((uint16_t)(u & 0xffff)); };
        auto hi = [](uint32_t u) { return ref::bf2f((uint16_t)(u >> 16)); };
        for (int l = 0; l < 32; l++) {
            const int g = l / 4, t = l % 4;
            const uint32_t *x = i[l];
            A[g][2 * t] = lo(x[0]), A[g][2 * t + 1] = hi(x[0]);
            A[g + 8][2 * t] = lo(x[1]), A[g + 8][2 * t + 1] = hi(x[1]);
            A[g][2 * t + 8] = lo(x[2]), A[g][2 * t + 9] = hi(x[2]);
            A[g + 8][2 * t + 8] = lo(x[3]), A[g + 8][2 * t + 9] = hi(x[3]);
            B[2 * t][g] = lo(x[4]), B[2 * t + 1][g] = hi(x[4]);
            B[2 * t + 8][g] = lo(x[5]), B[2 * t + 9][g] = hi(x[5]);
            C[g][2 * t] = sim::f32(x[6]), C[g][2 * t + 1] = sim::f32(x[7]);
            C[g + 8][2 * t] = sim::f32(x[8]), C[g + 8][2 * t + 1] = sim::f32(x[9]);
        }
        for (int r = 0; r < 16; r++)
            for (int n = 0; n < 8; n++) {
                float acc = C[r][n];
                for (int k = 0; k < 16; k++)
                    acc += A[r][k] * B[k][n];
                C[r][n] = acc;
            }
        for (int l = 0; l < 32; l++) {
            const int g = l / 4, t = l % 4;
            o[l][0] = sim::u32(C[g][2 * t]), o[l][1] = sim::u32(C[g][2 * t + 1]);
            o[l][2] = sim::u32(C[g + 8][2 * t]), o[l][3] = sim::u32(C[g + 8][2 * t + 1]);
        }
    });
    for (int e = 0; e < 4; e++)
        c[e] = sim::f32(out[e]);
}

inline float ex2(float x)
{
    const float y = exp2f(x);
    return y < FLT_MIN ? 0.f : y;
}
inline uint32_t pack_bf16(float lo, float hi) { return sim::pack2(ref::f2bf(lo), ref::f2bf(hi)); }
inline float bf16_half(uint32_t u, int hi) { return sim::f32(hi ? (u & 0xffff0000u) : (u << 16)); }
inline bool nonfinite2(uint32_t w)
{
    return (w & 0x7f80u) == 0x7f80u || (w & 0x7f800000u) == 0x7f800000u;
}

#include "sim_kernel.inc"

/* ---- the launcher ---------------------------------------------------------------- */

namespace sim {

struct Launch {
    void (*entry)();
    std::vector<Thread> threads;
};

/* The kernel's arguments, for the fibers' entry (makecontext passes ints only). */
struct Args {
    const __nv_bfloat16 *Q, *K, *V;
    __nv_bfloat16 *O;
    float *L;
    size_t BH;
    int N, Tr, G;
    float sl2;
    int neg, causal;
} args;

template <class C> void thread_main()
{
    flash_fwd_kernel<C>(args.Q, args.K, args.V, args.O, args.L, args.BH, args.N, args.Tr, args.G, args.sl2,
                        args.neg, args.causal);
    cur->done = true;
    live_threads--;
    progress++;
    swapcontext(&cur->ctx, &sched_ctx);
}

/* launch<C> of 03_flash_bf16.cu, on the simulator, with `slots` resident blocks. */
template <class C>
void run(const uint16_t *Q, const uint16_t *K, const uint16_t *V, uint16_t *O, float *L, const ref::Case &c,
         int slots)
{
    const size_t BH = (size_t)c.B * c.H;
    const int Tr = (c.N + C::BR - 1) / C::BR;
    size_t G = (size_t)(slots / Tr);
    G = G < 1 ? 1 : (G > BH ? BH : G);
    float sl2 = fabsf(c.scale) * kLog2e;
    if (sl2 < FLT_MIN)
        sl2 = FLT_MIN;
    args = Args{(const __nv_bfloat16 *)Q, (const __nv_bfloat16 *)K, (const __nv_bfloat16 *)V,
                (__nv_bfloat16 *)O,      L,  BH, c.N, Tr, (int)G, sl2, c.scale < 0.f, c.causal ? 1 : 0};
    if (C::SMEM > kSmem)
        fail("configuration needs more shared memory than an SM has");
    std::vector<unsigned> order(BH * Tr);
    for (size_t b = 0; b < order.size(); b++)
        order[b] = (unsigned)b;
    std::shuffle(order.begin(), order.end(), rng);
    std::vector<Thread> th(C::THREADS);
    for (unsigned b : order) {
        block_id = b;
        for (int i = 0; i < kSmem / 4; i++) /* garbage: NaN-ish words */
            memcpy(smem + 4 * i, "\xc1\x7f\xc3\x7f", 4);
        warps.assign(C::THREADS / 32, Warp());
        bar_arrived = 0;
        live_threads = C::THREADS;
        for (int t = 0; t < C::THREADS; t++) {
            Thread &x = th[t];
            x.tid = t;
            x.done = false;
            x.open.clear();
            x.groups.clear();
            x.stack.resize(256 * 1024);
            getcontext(&x.ctx);
            x.ctx.uc_stack.ss_sp = x.stack.data();
            x.ctx.uc_stack.ss_size = x.stack.size();
            x.ctx.uc_link = nullptr;
            makecontext(&x.ctx, (void (*)())thread_main<C>, 0);
        }
        std::vector<int> perm(C::THREADS);
        for (int t = 0; t < C::THREADS; t++)
            perm[t] = t;
        for (;;) {
            const long before = progress;
            std::shuffle(perm.begin(), perm.end(), rng);
            bool any = false;
            for (int t : perm) {
                if (th[t].done)
                    continue;
                any = true;
                cur = &th[t];
                swapcontext(&sched_ctx, &th[t].ctx);
                cur = nullptr;
            }
            if (!any)
                break;
            if (progress == before) {
                cur = nullptr;
                fail("deadlock: every live thread waits (a barrier some threads never reach?)");
            }
        }
    }
}

} /* namespace sim */

/* ---- the checks -------------------------------------------------------------------- */

struct Variant {
    const char *name;
    int d, is_default;
    void (*run)(const uint16_t *, const uint16_t *, const uint16_t *, uint16_t *, float *, const ref::Case &,
                int);
};

#define SIM_ENTRY(NAME, D, DEF, ...) {NAME, D, DEF, sim::run<__VA_ARGS__>},
const Variant kVariants[] = {SIM_VARIANTS(SIM_ENTRY)};

int main(int argc, char **argv)
{
    /* sim [--config NAME] [--quick]: --quick skips the N = 1000 cases. */
    const char *only = nullptr;
    bool quick = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--config") && i + 1 < argc)
            only = argv[++i];
        else if (!strcmp(argv[i], "--quick"))
            quick = true;
        else {
            fprintf(stderr, "usage: sim [--config NAME] [--quick]\n");
            return 2;
        }
    }
    int runs = 0, fails = 0, k = 0;
    for (const ref::Case &c : ref::check_cases()) {
        if (quick && c.N >= 1000)
            continue;
        std::vector<uint16_t> q, kk, v;
        ref::make_inputs(c, q, kk, v);
        ref::Reference R;
        ref::reference(c, q, kk, v, R);
        /* inputs with a NaN guard after the end, as the driver's */
        const size_t n = q.size(), guard = 8192;
        q.resize(n + guard, 0x7fc0);
        kk.resize(n + guard, 0x7fc0);
        v.resize(n + guard, 0x7fc0);
        char desc[160];
        ref::describe(c, desc, sizeof desc);
        for (const Variant &x : kVariants) {
            if (x.d != c.d || (only && strcmp(only, x.name)))
                continue;
            std::vector<uint16_t> O(n, 0xffff);
            std::vector<float> L(R.L.size(), NAN);
            const int slots = (k++ % 3 == 0) ? 1 : (k % 3 == 1 ? 5 : 264);
            x.run(q.data(), kk.data(), v.data(), O.data(), L.data(), c, slots);
            const ref::Verdict r = ref::compare(c, R, O, L);
            printf("%s  %-10s %s slots=%d  maxerr O %.3g (tol %.3g) L %.3g%s\n", r.pass ? "PASS" : "FAIL", x.name,
                   desc, slots, r.errO, r.tolO, r.errL, r.nanO ? "  [NaN expected]" : "");
            if (!r.pass)
                printf("      %zu O and %zu L elements wrong; first: %s\n", r.badO, r.badL, r.first);
            runs++;
            fails += !r.pass;
            fflush(stdout);
        }
    }
    printf("%d passed, %d failed\n", runs - fails, fails);
    return fails ? 1 : 0;
}
