/* core_faults.cpp: the faults a GPU hides and the emulation reports, each
 * with block, thread, kernel, variable and line; and the accesses that are
 * fine (no false reports). */
#include <stdlib.h>

#include "core_tap.h"

/* "core_faults.cpp:N" for the line n lines below the caller's. */
static const char *at_line(int line)
{
    static char buf[8][64];
    static int next;
    char *b = buf[next++ % 8];
    snprintf(b, 64, "core_faults.cpp:%d", line);
    return b;
}

/* ---- out of bounds ---- */

static const int past_end_line = __LINE__ + 4;
__global__ void past_end(const float *in, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i % n] = in[i]; /* reads one past the end in the last thread */
}

static void test_past_end(void)
{
    float *in = dev<float>(100), *out = dev<float>(100);
    LAUNCH(past_end, 2, 64, 0, in, out, 100);
    ok(fault_is(cudaErrorIllegalAddress, "out-of-bounds read of 4 bytes",
                "past the end of the "
                "400-byte buffer",
                "thread (", "block (1,0,0)", "kernel past_end", at_line(past_end_line),
                (const char *)NULL),
       "a read past a device buffer is cudaErrorIllegalAddress, naming the buffer and line");
    standin_free(in);
    standin_free(out);
}

static const int host_pointer_line = __LINE__ + 3;
__global__ void host_pointer(int *p)
{
    p[threadIdx.x] = 1;
}

static void test_host_pointer(void)
{
    int *host = (int *)malloc(64 * sizeof(int));
    LAUNCH(host_pointer, 1, 32, 0, host);
    ok(fault_is(cudaErrorIllegalAddress, "illegal write of 4 bytes", "no device buffer",
                at_line(host_pointer_line), "thread (0,0,0)", (const char *)NULL),
       "a write through a host pointer is an illegal address");
    free(host);
}

__device__ int device_global[32];
__constant__ float constant_table[4] = {1, 2, 3, 4};

__global__ void fine_accesses(float *out)
{
    float local[8];
    for (int i = 0; i < 8; ++i)
        local[i] = constant_table[i % 4] * (float)threadIdx.x;
    device_global[threadIdx.x] = (int)threadIdx.x;
    out[threadIdx.x] = local[threadIdx.x % 8] + (float)device_global[threadIdx.x];
}

static void test_fine_accesses(void)
{
    float *out = dev<float>(32);
    LAUNCH(fine_accesses, 1, 32, 0, out);
    int bad = standin_take_error() != cudaSuccess;
    for (int t = 0; t < 32; ++t)
        bad += out[t] != (float)(t % 4 + 1) * (float)t + (float)t;
    ok(!bad, "the thread's own stack, __device__ and __constant__ variables are fine");
    standin_free(out);
}

/* ---- misaligned ---- */

static const int misaligned_line = __LINE__ + 4;
__global__ void misaligned(const float *in, float4 *out)
{
    const float4 *v = reinterpret_cast<const float4 *>(in + 1);
    out[threadIdx.x] = v[threadIdx.x];
}

/* The float4 taken apart, as an add of two float4s does: still one 16-byte
 * load, 8 bytes off here. */
static const int misaligned_parts_line = __LINE__ + 4;
__global__ void misaligned_parts(const float *in, float *out)
{
    const float4 *v = reinterpret_cast<const float4 *>(in + 2);
    float4 x = v[threadIdx.x];
    out[threadIdx.x] = x.x + x.y + x.z + x.w;
}

static void test_misaligned(void)
{
    float *in = dev<float>(64);
    float4 *out = dev<float4>(8);
    LAUNCH(misaligned, 1, 8, 0, in, out);
    ok(fault_is(cudaErrorMisalignedAddress, "misaligned read of 16 bytes", "4 bytes past",
                at_line(misaligned_line), "kernel misaligned", (const char *)NULL),
       "a float4 load from an address 4 bytes off is cudaErrorMisalignedAddress");
    float *sums = dev<float>(8);
    LAUNCH(misaligned_parts, 1, 8, 0, in, sums);
    ok(fault_is(cudaErrorMisalignedAddress, "misaligned read of 16 bytes", "8 bytes past",
                at_line(misaligned_parts_line), (const char *)NULL),
       "and one 8 bytes off whose four floats are used apart");
    standin_free(sums);
    standin_free(in);
    standin_free(out);
}

/* ---- shared memory ---- */

static const int unwritten_line = __LINE__ + 7;
__global__ void unwritten(float *out)
{
    SHARED(float, tile, [4][8]);
    if (threadIdx.x != 29) /* tile[3][5] is left unwritten */
        tile[threadIdx.x / 8][threadIdx.x % 8] = (float)threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tile[3 - threadIdx.x / 8][7 - threadIdx.x % 8];
}

static void test_unwritten(void)
{
    float *out = dev<float>(32);
    LAUNCH(unwritten, 1, 32, 0, out);
    ok(fault_is(cudaErrorLaunchFailure, "no thread of the block wrote: tile[3][5],",
                at_line(unwritten_line), "thread (2,0,0)", (const char *)NULL),
       "a read of shared memory no thread wrote names the variable, element and line");
    standin_free(out);
}

/* The element a report names, as the kernel indexes it: a byte inside a
 * struct element, an element of the dynamic array. */
struct pair_ml {
    float m, l;
};

__global__ void unwritten_member(float *out)
{
    SHARED(pair_ml, red, [4]);
    red[threadIdx.x].m = 1.0f; /* the .l are never written */
    __syncthreads();
    if (threadIdx.x == 0)
        out[0] = red[2].l;
}

__global__ void unwritten_dynamic(float *out)
{
    float *dyn = ::mw_sim::shared_dynamic<float>("dyn", __FILE__, __LINE__);
    if (threadIdx.x != 5)
        dyn[threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = dyn[threadIdx.x];
}

static void test_names(void)
{
    float *out = dev<float>(32);
    LAUNCH(unwritten_member, 1, 4, 0, out);
    ok(fault_is(cudaErrorLaunchFailure, "wrote: red[2] (byte 4 of it),", (const char *)NULL),
       "a byte inside a struct element: the element and the byte");
    LAUNCH(unwritten_dynamic, 1, 32, 32 * sizeof(float), out);
    ok(fault_is(cudaErrorLaunchFailure, "wrote: dyn[5],", "thread (5,0,0)", (const char *)NULL),
       "an element of the extern array");
    standin_free(out);
}

static const int race_line = __LINE__ + 5;
__global__ void race(int *out, int sync)
{
    SHARED(int, flag, [1]);
    if (threadIdx.x == 0)
        flag[0] = 7;
    if (sync)
        __syncthreads();
    if (threadIdx.x == 40)
        out[0] = flag[0];
}

static void test_race(void)
{
    int *out = dev<int>(1);
    LAUNCH(race, 1, 64, 0, out, 1);
    ok(standin_take_error() == cudaSuccess && out[0] == 7,
       "a write and a read with __syncthreads between are no race");
    mw_sim_schedule_seed(1); /* grid 0: warp 0 first, its write is seen */
    LAUNCH(race, 1, 64, 0, out, 0);
    ok(fault_is(cudaErrorLaunchFailure, "shared-memory race on flag[0]:", "thread (0,0,0) wrote it",
                at_line(race_line), "thread (40,0,0)", (const char *)NULL),
       "a write and a read of one word by two warps with no barrier is a race");
    standin_free(out);
}

static const int warp_race_line = __LINE__ + 8;
__global__ void warp_race(int *out, int sync)
{
    SHARED(int, cell, [32]);
    cell[threadIdx.x] = (int)threadIdx.x;
    if (sync)
        __syncwarp();
    int lane = threadIdx.x % 32;
    out[threadIdx.x] = cell[lane ? lane - 1 : 0]; /* the lane before's */
}

static void test_warp_race(void)
{
    int *out = dev<int>(32);
    mw_sim_schedule_seed(1);
    LAUNCH(warp_race, 1, 32, 0, out, 1);
    int bad = standin_take_error() != cudaSuccess;
    for (int t = 0; t < 32; ++t)
        bad += out[t] != (t ? t - 1 : 0);
    ok(!bad, "lanes that exchange through shared memory after __syncwarp do not race");
    LAUNCH(warp_race, 1, 32, 0, out, 0);
    ok(fault_is(cudaErrorLaunchFailure, "shared-memory race on cell", "warp collective",
                at_line(warp_race_line), (const char *)NULL),
       "two lanes of a warp with no __syncwarp between race");
    standin_free(out);
}

/* Neighbouring bf16 elements of one word, written by two threads: no race,
 * as the GPU stores bytes; a read of the other thread's element with no
 * barrier is one. */
static const int halves_line = __LINE__ + 8;
__global__ void halves(unsigned short *out, int sync)
{
    SHARED(__nv_bfloat16, pair, [2]);
    pair[threadIdx.x] = __float2bfloat16((float)threadIdx.x + 1.0f);
    if (sync)
        __syncthreads();
    if (threadIdx.x == 1)
        out[0] = __bfloat16_as_ushort(pair[0]);
}

static void test_halves(void)
{
    unsigned short *out = dev<unsigned short>(1);
    mw_sim_schedule_seed(1);
    LAUNCH(halves, 1, 2, 0, out, 1);
    ok(standin_take_error() == cudaSuccess && out[0] == 0x3F80,
       "two threads writing the two bf16 halves of one word do not race");
    LAUNCH(halves, 1, 2, 0, out, 0);
    ok(fault_is(cudaErrorLaunchFailure, "shared-memory race on pair[0]:", at_line(halves_line),
                (const char *)NULL),
       "and a read of the other's half with no barrier is a race");
    standin_free(out);
}

static const int smem_oob_line = __LINE__ + 6;
__global__ void smem_oob(float *out)
{
    SHARED(float, row, [32]);
    row[threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = row[threadIdx.x + 1];
}

static void test_smem_oob(void)
{
    float *out = dev<float>(32);
    LAUNCH(smem_oob, 1, 32, 0, out);
    ok(fault_is(cudaErrorIllegalAddress, "out-of-bounds read of 4 bytes of shared memory",
                "row[32], past the end of row (128 bytes)", at_line(smem_oob_line),
                "thread (31,0,0)", (const char *)NULL),
       "a read past the block's shared memory is out of bounds");
    standin_free(out);
}

/* Bounds are per variable: a read one past the first of two arrays lands
 * in the red zone between them, not in the second. */
static const int next_var_line = __LINE__ + 8;
__global__ void next_var(float *out)
{
    SHARED(float, first, [32]);
    SHARED(float, second, [32]);
    first[threadIdx.x] = 1.0f;
    second[threadIdx.x] = 2.0f;
    __syncthreads();
    out[threadIdx.x] = first[threadIdx.x + 1];
}

static void test_next_var(void)
{
    float *out = dev<float>(32);
    LAUNCH(next_var, 1, 32, 0, out);
    ok(fault_is(cudaErrorIllegalAddress, "out-of-bounds read of 4 bytes of shared memory",
                "first[32], past the end of first (128 bytes)", at_line(next_var_line),
                "thread (31,0,0)", (const char *)NULL),
       "a read one past a variable, where the next one would follow, is out of bounds");
    standin_free(out);
}

/* ---- warps ---- */

static const int lane_exited_line = __LINE__ + 6;
__global__ void lane_exited(int *out)
{
    int lane = threadIdx.x % 32;
    if (lane >= 30)
        return;
    out[lane] = __shfl_xor_sync(0xffffffffu, lane, 1);
}

static void test_lane_exited(void)
{
    int *out = dev<int>(32);
    mw_sim_schedule_seed(1);
    LAUNCH(lane_exited, 1, 32, 0, out);
    ok(fault_is(cudaErrorLaunchFailure, "__shfl_xor_sync with mask 0xffffffff",
                "lane 0 waits for lane 30, which has exited", at_line(lane_exited_line),
                (const char *)NULL),
       "a shuffle whose mask names lanes that exited is a fault naming them");
    standin_free(out);
}

static const int not_in_mask_line = __LINE__ + 4;
__global__ void not_in_mask(unsigned *out)
{
    unsigned lane = threadIdx.x % 32;
    out[lane] = __ballot_sync(0x0000ffffu, 1);
}

static void test_not_in_mask(void)
{
    unsigned *out = dev<unsigned>(32);
    LAUNCH(not_in_mask, 1, 32, 0, out);
    ok(fault_is(cudaErrorLaunchFailure, "__ballot_sync with mask 0x0000ffff", "is not in its mask",
                at_line(not_in_mask_line), (const char *)NULL),
       "a lane calling a collective outside its own mask is a fault");
    standin_free(out);
}

__global__ void split_warp(int *out)
{
    if (threadIdx.x % 2)
        __syncthreads();
    else
        __syncwarp();
    out[threadIdx.x] = 1;
}

static void test_split_warp(void)
{
    int *out = dev<int>(32);
    LAUNCH(split_warp, 1, 32, 0, out);
    ok(fault_is(cudaErrorLaunchFailure, "__syncwarp with mask 0xffffffff", "__syncthreads",
                (const char *)NULL),
       "lanes split between __syncwarp and __syncthreads are reported");
    standin_free(out);
}

/* Three lanes, each waiting for the next in a collective of its own: no
 * lane sees a fault when it arrives; the scheduler finds that none can go
 * on. */
__global__ void cycle(int *out)
{
    unsigned lane = threadIdx.x % 32;
    if (lane == 0)
        __syncwarp(0x3u);
    else if (lane == 1)
        __syncwarp(0x6u);
    else if (lane == 2)
        __syncwarp(0x5u);
    out[lane] = 1;
}

static void test_deadlock(void)
{
    int *out = dev<int>(32);
    LAUNCH(cycle, 1, 32, 0, out);
    ok(fault_is(cudaErrorLaunchFailure, "deadlock",
                "warp 0 waits in __syncwarp with mask 0x00000003", "kernel cycle",
                (const char *)NULL),
       "a deadlock among a warp's lanes is a fault naming what each warp waits on");
    standin_free(out);
}

int main(void)
{
    test_past_end();
    test_host_pointer();
    test_fine_accesses();
    test_misaligned();
    test_unwritten();
    test_names();
    test_race();
    test_warp_race();
    test_halves();
    test_smem_oob();
    test_next_var();
    test_lane_exited();
    test_not_in_mask();
    test_split_warp();
    test_deadlock();
    return done_testing();
}
