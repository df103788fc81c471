/* core_run.cpp: the emulation's semantics against hand-computed results:
 * indices, barriers, shared memory, warp collectives, atomics, the order
 * blocks and warps run in, blocks that wait on each other, math and bf16. */
#include <math.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "core_tap.h"

/* ---- indices ---- */

__global__ void indices(unsigned *out)
{
    unsigned b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned n = blockDim.x * blockDim.y * blockDim.z;
    out[b * n + t] = blockIdx.x << 24 | blockIdx.y << 20 | blockIdx.z << 16 | threadIdx.x << 8 |
                     threadIdx.y << 4 | threadIdx.z;
}

static void test_indices(void)
{
    dim3 grid(3, 2, 2), block(8, 4, 2);
    unsigned *out = dev<unsigned>(12 * 64);
    LAUNCH(indices, grid, block, 0, out);
    int bad = standin_take_error() != cudaSuccess;
    for (unsigned bz = 0; bz < 2; ++bz)
        for (unsigned by = 0; by < 2; ++by)
            for (unsigned bx = 0; bx < 3; ++bx)
                for (unsigned tz = 0; tz < 2; ++tz)
                    for (unsigned ty = 0; ty < 4; ++ty)
                        for (unsigned tx = 0; tx < 8; ++tx) {
                            unsigned b = bx + 3 * (by + 2 * bz), t = tx + 8 * (ty + 4 * tz);
                            bad += out[b * 64 + t] !=
                                   (bx << 24 | by << 20 | bz << 16 | tx << 8 | ty << 4 | tz);
                        }
    ok(!bad, "indices over a 3x2x2 grid of 8x4x2 blocks");
    standin_free(out);
}

__global__ void big_block(int *out)
{
    int i = blockIdx.x * blockDim.x * blockDim.y + threadIdx.y * blockDim.x + threadIdx.x;
    out[i] = i;
}

static void test_big_block(void)
{
    int *out = dev<int>(2048);
    LAUNCH(big_block, 2, dim3(32, 32), 0, out);
    int bad = standin_take_error() != cudaSuccess;
    for (int i = 0; i < 2048; ++i)
        bad += out[i] != i;
    ok(!bad, "two blocks of 1024 threads (32x32)");
    standin_free(out);
}

/* ---- barriers ---- */

__global__ void barrier_votes(int *out)
{
    int t = threadIdx.x;
    int c = __syncthreads_count(t % 3 == 0);
    int a = __syncthreads_and(t < 1000);
    int a0 = __syncthreads_and(t != 7);
    int o = __syncthreads_or(t == 200);
    int o0 = __syncthreads_or(0);
    if (t == 0) {
        out[0] = c;
        out[1] = a;
        out[2] = a0;
        out[3] = o;
        out[4] = o0;
    }
}

static void test_barrier_votes(void)
{
    int *out = dev<int>(5);
    LAUNCH(barrier_votes, 1, 256, 0, out);
    ok(standin_take_error() == cudaSuccess && out[0] == 86 && out[1] == 1 && out[2] == 0 &&
           out[3] == 1 && out[4] == 0,
       "__syncthreads_count/_and/_or over 256 threads: %d %d %d %d %d (86 1 0 1 0)", out[0], out[1],
       out[2], out[3], out[4]);
    standin_free(out);
}

/* Each of 16 rounds: every thread writes its slot, then reads its
 * neighbour's, which only a barrier between makes the neighbour's new one. */
__global__ void rounds(int *out, int nrounds)
{
    SHARED(int, slot, [256]);
    int t = threadIdx.x, sum = 0;
    for (int r = 0; r < nrounds; ++r) {
        slot[t] = r * 1000 + t;
        __syncthreads();
        sum += slot[(t + 1) % blockDim.x];
        __syncthreads();
    }
    out[blockIdx.x * blockDim.x + t] = sum;
}

static void test_rounds(void)
{
    int *out = dev<int>(64 * 256);
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    LAUNCH(rounds, 64, 256, 0, out, 8); /* 16 barriers a thread */
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    int bad = standin_take_error() != cudaSuccess;
    for (int b = 0; b < 64; ++b)
        for (int t = 0; t < 256; ++t)
            bad += out[b * 256 + t] != 8 * ((t + 1) % 256) + 1000 * (0 + 1 + 2 + 3 + 4 + 5 + 6 + 7);
    ok(!bad, "16 barriers a thread order every round's writes before its reads");
    /* A time, not a test: a loaded machine is slower (docs/emulation.md
     * has the emulation's measured speed). */
    printf("# 64 blocks x 256 threads x 16 barriers in %.3f s\n", s);
    standin_free(out);
}

__global__ void axpy(const float *x, float *y, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = 2.0f * x[i] + y[i];
}

/* Many small blocks, each one's threads started and run to the end. */
static void test_many_blocks(void)
{
    int n = 8192 * 32;
    float *x = dev<float>((size_t)n), *y = dev<float>((size_t)n);
    for (int i = 0; i < n; ++i) {
        x[i] = (float)i;
        y[i] = 1.0f;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    LAUNCH(axpy, 8192, 32, 0, x, y, n);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    int bad = standin_take_error() != cudaSuccess;
    for (int i = 0; i < n; ++i)
        bad += y[i] != 2.0f * (float)i + 1.0f;
    ok(!bad, "8192 blocks of 32 threads, each writing its y[i]");
    printf("# 8192 blocks of 32 threads in %.3f s\n", s);
    standin_free(x);
    standin_free(y);
}

static const int early_exit_line = __LINE__ + 5;
__global__ void early_exit(int *out)
{
    if (threadIdx.x >= 100)
        return;
    __syncthreads();
    out[threadIdx.x] = 1;
}

static void test_early_exit(void)
{
    int *out = dev<int>(128);
    char line[64];
    snprintf(line, sizeof line, "core_run.cpp:%d", early_exit_line);
    LAUNCH(early_exit, 1, 128, 0, out);
    ok(fault_is(cudaErrorLaunchFailure, "never reach", line,
                "block (0,0,0), thread (0,0,0), kernel early_exit", "thread (100,0,0) the first",
                (const char *)NULL),
       "a barrier some threads never reach is reported, named after a thread that waits");
    standin_free(out);
}

/* ---- shared memory ---- */

__global__ void reduce(const int *in, int *out)
{
    SHARED(int, partial, [256]);
    int t = threadIdx.x;
    partial[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (int s = 128; s > 0; s >>= 1) {
        if (t < s)
            partial[t] += partial[t + s];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = partial[0];
}

static void test_reduce(void)
{
    int *in = dev<int>(4 * 256), *out = dev<int>(4);
    for (int i = 0; i < 4 * 256; ++i)
        in[i] = i + 1;
    LAUNCH(reduce, 4, 256, 0, in, out);
    /* block b sums 256b+1 .. 256b+256 */
    ok(standin_take_error() == cudaSuccess && out[0] == 32896 && out[1] == 98432 &&
           out[2] == 163968 && out[3] == 229504,
       "a shared-memory tree reduction: %d %d %d %d", out[0], out[1], out[2], out[3]);
    standin_free(in);
    standin_free(out);
}

/* Reads shared memory past the instrumentation, to see what a block starts
 * with. */
__attribute__((no_sanitize_thread, noinline)) static unsigned peek(const unsigned *p)
{
    return *p;
}

__global__ void fresh_shared(unsigned *out)
{
    SHARED(float, tile, [64]);
    float *dyn = ::mw_sim::shared_dynamic<float>("dyn", __FILE__, __LINE__);
    out[threadIdx.x] = peek(reinterpret_cast<unsigned *>(&tile[threadIdx.x]));
    out[64 + threadIdx.x] = peek(reinterpret_cast<unsigned *>(&dyn[threadIdx.x]));
    out[128 + threadIdx.x] = (unsigned)(reinterpret_cast<uintptr_t>(dyn) % 128);
    tile[threadIdx.x] = 1.0f; /* the next block gets NaN again */
    dyn[threadIdx.x] = 2.0f;
}

static void test_fresh_shared(void)
{
    unsigned *out = dev<unsigned>(192);
    int bad = 0;
    for (int rep = 0; rep < 2; ++rep) {
        LAUNCH(fresh_shared, 1, 64, 64 * sizeof(float), out);
        bad += standin_take_error() != cudaSuccess;
        for (int i = 0; i < 128; ++i)
            bad += out[i] != 0xFFFFFFFFu;
        for (int i = 128; i < 192; ++i)
            bad += out[i] != 0;
    }
    ok(!bad, "static and dynamic shared memory start as 0xFF bytes (NaN), dynamic 128-aligned");
    standin_free(out);
}

__global__ void huge_shared(int *out)
{
    SHARED(float, big, [10000]);
    big[threadIdx.x] = 0;
    out[0] = 1;
}

static void test_shared_limit(void)
{
    int *out = dev<int>(1);
    out[0] = 0;
    /* 40000 static + 10000 dynamic bytes: past 48 KiB */
    LAUNCH(huge_shared, 1, 32, 10000, out);
    ok(standin_take_error() == cudaErrorInvalidValue && out[0] != 1 && mw_sim_error_detail() &&
           strstr(mw_sim_error_detail(), "past the limit"),
       "shared memory past 48 KiB is a launch error: %s", mw_sim_error_detail());
    standin_reset();
    out[0] = 0;
    LAUNCH(huge_shared, 1, 32, 50000, out); /* the dynamic part alone is past it */
    ok(standin_take_error() == cudaErrorInvalidValue && out[0] == 0,
       "dynamic shared memory alone past 48 KiB is a launch error before any thread runs: %s",
       mw_sim_error_detail());
    standin_reset();
    standin_set_max_dynamic_smem((const void *)huge_shared, 100000);
    LAUNCH(huge_shared, 1, 32, 60000, out);
    ok(standin_take_error() == cudaSuccess && out[0] == 1,
       "and fits once the kernel opts in to more");
    standin_set_max_dynamic_smem((const void *)huge_shared, 48 * 1024);
    standin_reset();
    standin_free(out);
}

/* ---- warps ---- */

__global__ void shuffles(long long *out)
{
    int lane = threadIdx.x % 32;
    long long *o = out + (blockIdx.x * blockDim.x + threadIdx.x) * 13;
    o[0] = __shfl_sync(0xffffffffu, lane * 10, 5);
    o[1] = (long long)__shfl_up_sync(0xffffffffu, (float)lane + 0.5f, 1, 8) * 2;
    o[2] = (long long)__shfl_down_sync(0xffffffffu, (double)lane * 4, 2);
    o[3] = __shfl_xor_sync(0xffffffffu, (long long)lane << 40, 16);
    o[4] = __shfl_xor_sync(0xffffffffu, (unsigned long long)lane + 7, 1, 4);
    o[5] = (long long)__shfl_down_sync(0xffffffffu, (unsigned)lane, 3, 16);
    o[6] = -1;
    if (lane < 16) /* a partial mask: only the lanes that take part */
        o[6] = __shfl_xor_sync(0x0000ffffu, lane * 3, 1);
    o[7] = __shfl_sync(0xffffffffu, lane, lane + 8, 16); /* src taken mod width */
    o[8] = o[9] = o[10] = o[11] = -1;
    if (lane >= 16) {
        o[8] = __shfl_sync(0xffff0000u, lane * 2, 20);
        o[11] = __any_sync(0xffff0000u, lane == 17);
    } else {
        o[9] = __shfl_up_sync(0x0000ffffu, lane, 2);
        o[10] = __shfl_down_sync(0x0000ffffu, lane, 2, 16);
    }
    o[12] = __bfloat16_as_ushort(__shfl_xor_sync(0xffffffffu, __float2bfloat16((float)lane), 1));
}

static void test_shuffles(void)
{
    long long *out = dev<long long>(64 * 13);
    LAUNCH(shuffles, 1, 64, 0, out);
    int bad = standin_take_error() != cudaSuccess;
    for (int t = 0; t < 64; ++t) {
        int l = t % 32;
        long long *o = out + t * 13;
        long long want[13] = {
            50,
            (long long)(((l % 8 == 0) ? l : l - 1) + 0.5f) * 2,
            (l + 2 < 32 ? l + 2 : l) * 4,
            (long long)(l ^ 16) << 40,
            (long long)(l ^ 1) + 7,
            (l % 16 + 3 < 16 ? l + 3 : l),
            l < 16 ? (l ^ 1) * 3 : -1,
            (l / 16) * 16 + (l + 8) % 16,
            l >= 16 ? 40 : -1,
            l < 16 ? (l >= 2 ? l - 2 : l) : -1,
            l < 16 ? (l + 2 < 16 ? l + 2 : l) : -1,
            l >= 16 ? 1 : -1,
            (long long)(__builtin_bit_cast(unsigned, (float)(l ^ 1)) >> 16),
        };
        for (int k = 0; k < 13; ++k)
            if (o[k] != want[k]) {
                if (bad < 5)
                    printf("# thread %d value %d: %lld, wanted %lld\n", t, k, o[k], want[k]);
                bad++;
            }
    }
    ok(!bad, "shuffles of int, float, double, long long, unsigned long long, unsigned: idx, up, "
             "down, xor, widths, partial masks, bf16");
    standin_free(out);
}

__global__ void votes(unsigned *out)
{
    int lane = threadIdx.x % 32;
    unsigned *o = out + threadIdx.x * 6;
    o[0] = __ballot_sync(0xffffffffu, lane % 3 == 0);
    o[1] = __any_sync(0xffffffffu, lane == 31);
    o[2] = __all_sync(0xffffffffu, lane < 31);
    o[3] = __activemask();
    o[4] = o[5] = 7;
    if (lane >= 16) {
        o[4] = __ballot_sync(0xffff0000u, lane & 1);
        o[5] = __all_sync(0xffff0000u, lane >= 16);
    }
    __syncwarp();
}

static void test_votes(void)
{
    unsigned *out = dev<unsigned>(32 * 6);
    LAUNCH(votes, 1, 32, 0, out);
    int bad = standin_take_error() != cudaSuccess;
    for (int l = 0; l < 32; ++l) {
        unsigned *o = out + l * 6;
        bad += o[0] != 0x49249249u || o[1] != 1 || o[2] != 0 || o[3] != 0xffffffffu;
        bad += l >= 16 ? (o[4] != 0xaaaa0000u || o[5] != 1) : (o[4] != 7 || o[5] != 7);
    }
    ok(!bad, "__ballot_sync, __any_sync, __all_sync, __activemask, with full and partial masks");
    standin_free(out);
}

/* ---- atomics ---- */

__global__ void atomics(int *i, unsigned *u, unsigned long long *ull, float *f, double *d,
                        float *old)
{
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&i[0], 1);
    atomicSub(&i[1], 2);
    atomicMax(&i[2], g);
    atomicMin(&i[3], -g);
    atomicAdd(&u[0], 3u);
    atomicInc(&u[1], 9u);
    atomicOr(&u[2], 1u << (g % 32));
    atomicAdd(&ull[0], 1ull << 33);
    atomicAdd(f, 0.5f);
    atomicAdd(d, 0.25);
    if (g == 100)
        old[0] = atomicAdd(&old[1], 2.0f);
    atomicCAS(&i[4], 0, g + 1); /* only the first thread to run wins */
    atomicExch(&u[3], 5u);
}

static void test_atomics(void)
{
    int *i = dev<int>(5);
    unsigned *u = dev<unsigned>(4);
    unsigned long long *ull = dev<unsigned long long>(1);
    float *f = dev<float>(1), *old = dev<float>(2);
    double *d = dev<double>(1);
    int init[5] = {0, 0, -1, 0, 0};
    memcpy(i, init, sizeof init);
    memset(u, 0, 4 * sizeof *u);
    ull[0] = 0;
    f[0] = 0;
    d[0] = 0;
    old[1] = 1.5f;
    LAUNCH(atomics, 64, 256, 0, i, u, ull, f, d, old);
    int n = 64 * 256;
    ok(standin_take_error() == cudaSuccess && i[0] == n && i[1] == -2 * n && i[2] == n - 1 &&
           i[3] == -(n - 1) && i[4] >= 1 && i[4] <= n && u[0] == 3u * n && u[1] == n % 10 &&
           u[2] == 0xffffffffu && u[3] == 5 && ull[0] == (unsigned long long)n << 33 &&
           f[0] == 0.5f * n && d[0] == 0.25 * n && old[0] == 1.5f && old[1] == 3.5f,
       "atomics from 64 blocks of 256 threads: add sub max min cas inc or exch, ull, float "
       "(returning the old value), double");
    for (void *p : {(void *)i, (void *)u, (void *)ull, (void *)f, (void *)d, (void *)old})
        standin_free(p);
}

/* ---- order ---- */

__global__ void arrival(int *ticket, int *order)
{
    if (threadIdx.x == 0)
        order[atomicAdd(ticket, 1)] = blockIdx.x;
    if (threadIdx.x % 32 == 0)
        order[16 + blockIdx.x * 4 + atomicAdd(&ticket[1 + blockIdx.x], 1)] = threadIdx.x / 32;
}

/* The blocks' arrival order in grid k, and the warps' in block 0. */
static void arrivals(int *ticket, int *order, int *blocks, int *warps)
{
    memset(ticket, 0, 17 * sizeof(int));
    LAUNCH(arrival, 16, 128, 0, ticket, order);
    memcpy(blocks, order, 16 * sizeof(int));
    memcpy(warps, order + 16, 4 * sizeof(int));
}

static void test_orders(void)
{
    int *ticket = dev<int>(17), *order = dev<int>(16 + 64);
    int b[6][16], w[6][4];
    mw_sim_schedule_seed(42);
    for (int k = 0; k < 3; ++k)
        arrivals(ticket, order, b[k], w[k]);
    mw_sim_schedule_seed(42);
    for (int k = 3; k < 6; ++k)
        arrivals(ticket, order, b[k], w[k]);
    int in_order = 1, reversed = 1, shuffled_perm = 1;
    for (int j = 0; j < 16; ++j) {
        in_order &= b[0][j] == j;
        reversed &= b[1][j] == 15 - j;
    }
    int seen[16] = {0};
    for (int j = 0; j < 16; ++j)
        seen[b[2][j]]++;
    for (int j = 0; j < 16; ++j)
        shuffled_perm &= seen[j] == 1;
    ok(in_order && reversed && w[0][0] == 0 && w[1][0] == 3,
       "grid 0 runs blocks and warps in order, grid 1 reversed");
    ok(shuffled_perm && memcmp(b[2], b[0], sizeof b[0]) && memcmp(b[2], b[1], sizeof b[0]),
       "grid 2 shuffles them");
    ok(!memcmp(b[0], b[3], sizeof b[0] * 3) && !memcmp(w[0], w[3], sizeof w[0] * 3),
       "the same seed replays the same orders");
    mw_sim_schedule_seed(43);
    arrivals(ticket, order, b[0], w[0]);
    arrivals(ticket, order, b[0], w[0]);
    arrivals(ticket, order, b[0], w[0]);
    ok(memcmp(b[0], b[2], sizeof b[0]) != 0, "another seed shuffles differently");
    /* A case's second run: its first grid reversed, whatever ran before. */
    mw_sim_schedule_seed(42);
    arrivals(ticket, order, b[0], w[0]);
    arrivals(ticket, order, b[0], w[0]);
    mw_sim_schedule_run(1);
    arrivals(ticket, order, b[1], w[1]);
    arrivals(ticket, order, b[2], w[2]);
    mw_sim_schedule_run(0);
    arrivals(ticket, order, b[4], w[4]);
    int second_reversed = 1;
    for (int j = 0; j < 16; ++j)
        second_reversed &= b[1][j] == 15 - j;
    ok(second_reversed && memcmp(b[2], b[3], sizeof b[0]) && memcmp(b[2], b[1], sizeof b[0]) &&
           !memcmp(b[4], b[3], sizeof b[0]),
       "run 1 shifts each grid's order by one: its grid 0 reversed, its grid 1 shuffled; run 0 "
       "again starts in order");
    standin_free(ticket);
    standin_free(order);
}

/* ---- blocks that wait on each other ---- */

__global__ void spin_pair(int *counter, int *seen)
{
    if (threadIdx.x == 0) {
        atomicAdd(counter, 1);
        while (atomicAdd(counter, 0) < (int)gridDim.x)
            __nanosleep(100);
        seen[blockIdx.x] = atomicAdd(counter, 0);
    }
}

static void test_spin(void)
{
    int *counter = dev<int>(1), *seen = dev<int>(2);
    int bad = 0;
    for (int k = 0; k < 3; ++k) { /* each order */
        counter[0] = 0;
        seen[0] = seen[1] = 0;
        LAUNCH(spin_pair, 2, 64, 0, counter, seen);
        bad += standin_take_error() != cudaSuccess || seen[0] != 2 || seen[1] != 2;
    }
    ok(!bad, "two blocks spinning on a counter with __nanosleep both finish, in every order");
    standin_free(counter);
    standin_free(seen);
}

/* ---- math and bf16 ---- */

__global__ void math(float *out, const float *in)
{
    float nan = in[0], one = in[1];
    out[0] = __expf(nan);
    out[1] = __expf(-100.0f); /* 3.7e-44 is subnormal: flushed */
    out[2] = __expf(0.0f);
    out[3] = fmaxf(nan, one);
    out[4] = fmaxf(one, nan);
    out[5] = fminf(nan, -one);
    out[6] = __fdividef(one, 1.0e38f); /* 2^126 < 1e38 < 2^128 */
    out[7] = __fdividef(6.0f, 3.0f);
    out[8] = max(2.0f, 3.0f) + (float)min(-1, 4) + (float)max(3u, 5u);
    out[9] = __saturatef(nan) + __saturatef(2.0f);
    out[10] = (float)__popc(0xF0F0u) + (float)__clz(1) + (float)__ffs(8) +
              (float)(__brev(1u) == 0x80000000u) +
              (float)(__byte_perm(0x33221100u, 0x77665544u, 0x5140u) == 0x55114400u);
    out[11] = __uint_as_float(__float_as_uint(one) + 1) - one;
}

static void test_math(void)
{
    float *out = dev<float>(12), *in = dev<float>(2);
    in[0] = NAN;
    in[1] = 1.0f;
    LAUNCH(math, 1, 1, 0, out, in);
    ok(standin_take_error() == cudaSuccess && isnan(out[0]) && out[1] == 0.0f && !signbit(out[1]) &&
           out[2] == 1.0f,
       "__expf: NaN stays NaN, a subnormal result flushes to 0, exp(0) = 1");
    ok(out[3] == 1.0f && out[4] == 1.0f && out[5] == -1.0f,
       "fmaxf/fminf with a NaN and a number give the number");
    ok(out[6] == 0.0f && out[7] == 2.0f, "__fdividef gives 0 for 2^126 < |y| < 2^128");
    ok(out[8] == 3.0f - 1.0f + 5.0f && out[9] == 1.0f, "min, max, __saturatef (NaN gives 0)");
    ok(out[10] == 8 + 31 + 4 + 1 + 1 && out[11] == ldexpf(1.0f, -23),
       "__popc __clz __ffs __brev __byte_perm and bit casts: %g %g", out[10], out[11]);
    standin_free(out);
    standin_free(in);
}

__global__ void bf16(unsigned short *out, const float *in)
{
    for (int i = 0; i < 8; ++i)
        out[i] = __bfloat16_as_ushort(__float2bfloat16_rn(in[i]));
    __nv_bfloat162 two = __floats2bfloat162_rn(in[0], in[1]);
    out[8] = __bfloat16_as_ushort(two.x);
    out[9] = __bfloat16_as_ushort(two.y);
    float2 back = __bfloat1622float2(__floats2bfloat162_rn(1.5f, -2.25f));
    out[10] = back.x == 1.5f && back.y == -2.25f && __low2float(two) == 1.0f;
    __nv_bfloat16 a = __float2bfloat16(1.0f),
                  b = __float2bfloat16(0.00390625f); /* 1 + 2^-8: a tie */
    out[11] = __bfloat16_as_ushort(a + b);
}

static void test_bf16(void)
{
    unsigned short *out = dev<unsigned short>(12);
    float *in = dev<float>(8);
    float v[8] = {
        1.00390625f,                            /* 1 + 2^-8: a tie, to even 1.0 (0x3F80) */
        1.01171875f,                            /* 1 + 3*2^-8: a tie, to even 1 + 2^-6 (0x3F82) */
        1.0058594f,                             /* above the tie: up (0x3F81) */
        -0.0f,                                  /* 0x8000 */
        NAN,                                    /* stays NaN */
        3.3961775e38f,                          /* rounds up to infinity (0x7F80) */
        -INFINITY,                              /* 0xFF80 */
        __builtin_bit_cast(float, 0xFF800001u), /* a signalling NaN: quiet, sign kept */
    };
    memcpy(in, v, sizeof v);
    LAUNCH(bf16, 1, 1, 0, out, in);
    ok(standin_take_error() == cudaSuccess && out[0] == 0x3F80 && out[1] == 0x3F82 &&
           out[2] == 0x3F81 && out[3] == 0x8000 && (out[4] & 0x7FFF) > 0x7F80 && out[5] == 0x7F80 &&
           out[6] == 0xFF80 && (out[7] & 0x8000) && (out[7] & 0x7FFF) > 0x7F80,
       "bf16 rounds to nearest even, keeps NaN NaN: %04x %04x %04x %04x %04x %04x %04x %04x",
       out[0], out[1], out[2], out[3], out[4], out[5], out[6], out[7]);
    ok(out[8] == 0x3F80 && out[9] == 0x3F82 && out[10] == 1 && out[11] == 0x3F80,
       "__floats2bfloat162_rn, __bfloat1622float2, __low2float, bf16 addition rounds");
    standin_free(out);
    standin_free(in);
}

/* ---- clocks ---- */

__global__ void clocks(long long *out)
{
    out[0] = clock64();
    out[1] = clock64();
    struct timespec ms10 = {0, 10000000};
    nanosleep(&ms10, NULL);
    out[2] = clock64();
    out[3] = clock();
    out[4] = clock64();
}

/* clock64 is the host's clock at 1.98 GHz: 10 ms of sleep are at least
 * 19,800,000 cycles; clock() is its low 32 bits as a signed int in a
 * kernel, the C library's outside one. */
static void test_clocks(void)
{
    long long *out = dev<long long>(5);
    LAUNCH(clocks, 1, 1, 0, out);
    ok(standin_take_error() == cudaSuccess && out[1] > out[0] && out[2] - out[1] >= 19800000 &&
           out[2] - out[1] < 19800000LL * 1000,
       "clock64 advances between two reads, 10 ms of sleep are 1.98e7 cycles or more: %lld",
       out[2] - out[1]);
    uint32_t low = (uint32_t)out[3];
    ok(out[3] >= INT32_MIN && out[3] <= INT32_MAX && low - (uint32_t)out[2] > 0 &&
           low - (uint32_t)out[2] < (uint32_t)(out[4] - out[2]),
       "clock() in a kernel: clock64's low 32 bits, signed");
    clock_t before = (clock)(), got = clock(), after = (clock)();
    ok(before <= got && got <= after, "clock() in host code is the C library's");
    standin_free(out);
}

__global__ void hello(int v)
{
    printf("kernel says %d from block %u thread %u\n", v, blockIdx.x, threadIdx.x);
}

/* printf in a kernel writes to stdout, a line a thread. */
static void test_printf(void)
{
    char path[] = "/tmp/mw-sim-core-XXXXXX", text[512] = "";
    int fd = mkstemp(path), saved = dup(1);
    fflush(stdout);
    dup2(fd, 1);
    LAUNCH(hello, 2, 2, 0, 7);
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    ssize_t got = pread(fd, text, sizeof text - 1, 0);
    close(fd);
    unlink(path);
    text[got > 0 ? got : 0] = 0;
    int lines = 0;
    for (const char *c = text; *c; ++c)
        lines += *c == '\n';
    ok(standin_take_error() == cudaSuccess && lines == 4 &&
           strstr(text, "kernel says 7 from block 1 thread 1\n") &&
           strstr(text, "kernel says 7 from block 0 thread 0\n"),
       "printf in a kernel writes each thread's line to stdout");
}

int main(void)
{
    test_indices();
    test_big_block();
    test_barrier_votes();
    test_rounds();
    test_many_blocks();
    test_early_exit();
    test_reduce();
    test_fresh_shared();
    test_shared_limit();
    test_shuffles();
    test_votes();
    test_atomics();
    test_orders();
    test_spin();
    test_math();
    test_bf16();
    test_clocks();
    test_printf();
    return done_testing();
}
