/* device_emulated.c: the harness's own GPU helpers (grader/device.h) for
 * the emulation, as plain loops on the CPU.
 *
 * On a GPU they are grader/device.cu's kernels. On the emulation, running
 * those as kernels would make every element a fiber and every access a
 * checked call, for code that is the harness's, not the student's: the
 * fills, the input checks and the guard counts of a case cost as much as
 * the student's kernel there, and most of a small case's time. The values
 * are the same: the generator (rng.h) and the bf16 rounding (bf16.h) are
 * the functions the kernels call. The emulation runs stream work when it
 * is queued (grader/sim/host.c) and the harness never captures its own
 * helpers, so running them at the call keeps their order. Device memory
 * is closed to the host while no kernel runs (host.c): each helper opens
 * the allocations it reaches, as a launch would, and closes them after. */
#include "device.h"

#include <string.h>

#include "rng.h"
#include "sim.h"

static uint32_t bits_at(const void *p, int type, size_t i)
{
    if (type == MW_BF16)
        return ((const uint16_t *)p)[i];
    uint32_t u;
    memcpy(&u, (const float *)p + i, sizeof u);
    return u;
}

static uint32_t stored_bits(int type, float x)
{
    if (type == MW_BF16)
        return mw_bf16_round(x);
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

cudaError_t mw_dev_fill(void *p, int type, size_t n, uint64_t seed, uint32_t stream, int kind,
                        float scale, cudaStream_t s)
{
    (void)s;
    mw_sim_host_access(p, 1);
    for (size_t i = 0; i < n; i++) {
        float x = mw_gen(seed, stream, i, kind, scale);
        if (type == MW_BF16)
            ((uint16_t *)p)[i] = mw_bf16_round(x);
        else
            ((float *)p)[i] = x;
    }
    mw_sim_host_access(p, 0);
    return cudaSuccess;
}

cudaError_t mw_dev_verify_fill(const void *p, int type, size_t n, uint64_t seed,
                               uint32_t stream, int kind, float scale,
                               unsigned long long result[2])
{
    /* As device.cu leaves them: the first index starts at ~0 (none), and
     * both stay 0 for an empty range. */
    result[0] = 0;
    result[1] = n ? ~0ULL : 0;
    mw_sim_host_access(p, 1);
    for (size_t i = 0; i < n; i++)
        if (bits_at(p, type, i) != stored_bits(type, mw_gen(seed, stream, i, kind, scale)) &&
            result[0]++ == 0)
            result[1] = i;
    mw_sim_host_access(p, 0);
    return cudaSuccess;
}

cudaError_t mw_dev_count_not(const void *p, int type, size_t n, uint32_t bits,
                             unsigned long long result[3])
{
    uint32_t want = type == MW_BF16 ? bits & 0xffffu : bits;
    result[0] = result[2] = 0;
    result[1] = n ? ~0ULL : 0;
    mw_sim_host_access(p, 1);
    for (size_t i = 0; i < n; i++)
        if (bits_at(p, type, i) != want) {
            if (result[0]++ == 0)
                result[1] = i;
            result[2] = i;
        }
    mw_sim_host_access(p, 0);
    return cudaSuccess;
}

cudaError_t mw_dev_gather(const void *p, int type, const size_t *idx, size_t m, float *out,
                          cudaStream_t s)
{
    (void)s;
    const void *reached[3] = {p, idx, out};
    for (int r = 0; r < 3; r++)
        mw_sim_host_access(reached[r], 1);
    for (size_t j = 0; j < m; j++)
        out[j] = type == MW_BF16 ? mw_bf16_widen(((const uint16_t *)p)[idx[j]])
                                 : ((const float *)p)[idx[j]];
    for (int r = 0; r < 3; r++)
        mw_sim_host_access(reached[r], 0);
    return cudaSuccess;
}

/* ncu's markers and the harness's launch overhead: nothing to emulate. */
cudaError_t mw_dev_marker(unsigned k, cudaStream_t s)
{
    (void)k, (void)s;
    return cudaSuccess;
}

cudaError_t mw_dev_empty(cudaStream_t s)
{
    (void)s;
    return cudaSuccess;
}
