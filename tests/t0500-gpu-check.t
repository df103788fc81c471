#!/usr/bin/env bash
# On a GPU: every reference solution passes every case; every skeleton (as
# generated from the solutions) reports "not implemented" with exit 77; EX=,
# SEED= and the last-line contract hold; chapter 03's tuned reference with
# packing forced passes the small cases; 05.2's reference with its
# tensor-core path off (sm_90, where it is on by default) passes them too. Long (make test-full): it passes
# every case so, chapter 03's tuned reference and chapter 05's bf16 one
# forced to each of their configurations, and 05.4's reference to each of
# its kernels.
. tests/lib.sh
have_gpu || skip_all "$GPU_REASON"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

for ch in $(chapters); do
    if ! ls solutions/$ch/*.cu >/dev/null 2>&1; then
        skip "$ch: no solutions/$ch/ here (the student edition leaves them out)"
        continue
    fi
    out=$(make -s --no-print-directory check CH=$ch SRC=solutions SEED=20261122 2>&1)
    rc=$?
    ok $rc "$ch: the reference solutions pass (exit $rc)"
    [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -v '^  PASS' | head -n 40 | diag
    last=$(printf '%s\n' "$out" | grep -v '^make' | tail -n 1)
    printf '%s' "$last" | grep -q -E '^[0-9]+ passed, 0 failed(, [0-9]+ skipped)?$'
    ok $? "$ch: the last line is 'N passed, 0 failed[, K skipped]' ($last)"
    # A reference may skip a case only for want of GPU memory, saying so.
    nskip=$(printf '%s' "$last" | sed -n 's/.* \([0-9]*\) skipped$/\1/p')
    nmem=$(printf '%s\n' "$out" | grep -c -E '^  SKIP .*: needs [0-9.]+ GiB.*the GPU has')
    [ "${nskip:-0}" = "$nmem" ]
    ok $? "$ch: every skipped case is one the GPU has no memory for (${nskip:-0} skipped, $nmem for memory)"
    printf '%s' "$out" | grep -q 'seed 20261122'
    ok $? "$ch: SEED= replays the given seed"

    # Skeletons as the strip tool makes them. exercises/ holds exactly that
    # unless a student edited it (t0210), and make build has built it: then
    # its library is taken, else the skeleton is made and built here.
    for f in solutions/$ch/*.cu; do
        v=$(basename "$f" .cu)
        mkdir -p "$scratch/$ch/src" "$scratch/$ch/lib"
        if build/tools/mw-strip --check "$f" "exercises/$ch/$v.cu" >/dev/null 2>&1 &&
            make -s --no-print-directory "build/exercises/$ch/$v.so" >/dev/null 2>&1; then
            cp "build/exercises/$ch/$v.so" "$scratch/$ch/lib/"
        else
            build/tools/mw-strip "$f" "$scratch/$ch/src/$v.cu" &&
                build_lib "$ch" "$scratch/$ch/src/$v.cu" "$scratch/$ch/lib" >/dev/null
        fi
    done
    out=$(build/$ch/mw-chapter check --lib-dir "$scratch/$ch/lib" --label skeleton 2>&1)
    rc=$?
    ok "$([ $rc -eq 77 ] && echo 0 || echo 1)" "$ch: the skeletons exit 77, not implemented (exit $rc)"
    printf '%s' "$out" | grep -q 'not implemented yet' && ! printf '%s' "$out" | grep -q -E '^  (PASS|FAIL|ERROR)'
    ok $? "$ch: no skeleton case passes, fails or crashes; all are TODO"

    first=$(ls solutions/$ch/*.cu | head -n 1 | xargs basename | cut -c1-2)
    out=$(build/$ch/mw-chapter check --lib-dir build/solutions/$ch --version "$first" --small 2>&1)
    others=$(printf '%s\n' "$out" | grep -E '^  (PASS|FAIL|ERROR|TODO|SKIP)' | grep -v -c " ${first}_")
    ok "$([ "$others" -eq 0 ] && echo 0 || echo 1)" "$ch: EX=$first grades only version $first"
done

# Chapter 03's tuned reference picks among tile configurations at run time:
# each one, forced, must pass every case on its own.
if [ -f solutions/03-matmul/04_tuned.cu ]; then
    configs=$(sed -n 's/^ *{"\([0-9x]*\)", launch_config.*/\1/p' solutions/03-matmul/04_tuned.cu)
    [ -n "$configs" ]
    ok $? "03-matmul: the tuned reference lists its configurations ($(echo $configs))"
    if long_tests; then
        for cfg in $configs; do
            out=$(MW_TUNED_CONFIG=$cfg build/03-matmul/mw-chapter check --lib-dir build/solutions/03-matmul \
                --version 04 --seed 7 2>&1)
            rc=$?
            ok $rc "03-matmul: 04_tuned forced to $cfg passes every case"
            [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -v '^  PASS' | head -n 20 | diag
        done
    else
        skip_long "03-matmul: 04_tuned forced to each configuration passes every case ($(echo $configs))"
    fi
    # Packing (A and B copied into rows padded for float4) runs by default
    # only on large unaligned shapes; forced, it must pass every case too,
    # the offset views and odd K and N above all. The small cases always,
    # every case in the long tier.
    if long_tests; then which="every case"; only=; else which="the small cases"; only=--small; fi
    out=$(MW_TUNED_PACK=always build/03-matmul/mw-chapter check --lib-dir build/solutions/03-matmul \
        --version 04 --seed 7 $only 2>&1)
    rc=$?
    ok $rc "03-matmul: 04_tuned packing every shape float4 cannot take passes $which"
    [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -v '^  PASS' | head -n 20 | diag
    out=$(MW_TUNED_PACK=sometimes build/03-matmul/mw-chapter check --lib-dir build/solutions/03-matmul \
        --version 04 --small 2>&1)
    [ $? -ne 0 ] && printf '%s\n' "$out" | grep -q 'MW_TUNED_PACK=sometimes is not always or never'
    ok $? "03-matmul: 04_tuned refuses an MW_TUNED_PACK it does not know, saying so"
    # The cache file it writes beside the library names this GPU.
    tune=build/solutions/03-matmul/04_tuned.tune
    build/03-matmul/mw-chapter check --lib-dir build/solutions/03-matmul --version 04 --small >/dev/null 2>&1
    [ -s "$tune" ] && grep -q "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)" "$tune"
    ok $? "03-matmul: the tuned reference caches its choices per GPU in $tune"

    # An optional version left as a stub costs nothing: required versions
    # from the solutions, the optional one from its skeleton (both built
    # above), exit 0.
    lib=$scratch/optional/lib
    mkdir -p "$lib"
    cp build/solutions/03-matmul/0[123]_*.so "$scratch/03-matmul/lib/04_tuned.so" "$lib/"
    out=$(build/03-matmul/mw-chapter check --lib-dir "$lib" --small 2>&1)
    rc=$?
    ok $rc "03-matmul: an unattempted optional version does not fail the check (exit $rc)"
    printf '%s' "$out" | grep -q 'optional version was not attempted'
    ok $? "03-matmul: ... and the check says it was not attempted"
fi

# 05.2's reference has a tensor-core path for d = 128 (3xTF32) where it is
# built for sm_90a (its "Tuned for" line), on by default; the checks above
# ran it. There, turned off (MW_FLASH_TF32X3=never), its FFMA kernel passes
# too: the small cases, every case in the long tier; and an unknown value is
# refused, saying so.
if [ -f solutions/05-attention/02_flash.cu ]; then
    lib=build/solutions/05-attention
    if grep -q MW_FLASH_TF32X3 $lib/02_flash.so; then
        if long_tests; then which="every case"; only=; else which="the small cases"; only=--small; fi
        out=$(MW_FLASH_TF32X3=never build/05-attention/mw-chapter check --lib-dir $lib \
            --version 02 --seed 7 $only 2>&1)
        rc=$?
        ok $rc "05-attention: 02_flash with its tensor-core path off passes $which"
        [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -v '^  PASS' | head -n 20 | diag
        out=$(MW_FLASH_TF32X3=sometimes build/05-attention/mw-chapter check --lib-dir $lib \
            --version 02 --small 2>&1)
        [ $? -ne 0 ] && printf '%s\n' "$out" | grep -q 'MW_FLASH_TF32X3=sometimes is not always or never'
        ok $? "05-attention: 02_flash refuses an MW_FLASH_TF32X3 it does not know, saying so"
    else
        level=$(sh grader/mk/detect-arch.sh | sed 's/^sm_\([0-9]*\).*/\1/')
        [ "$level" != 90 ]
        ok $? "05-attention: 02_flash has no tensor-core path, as on a GPU other than sm_90 (sm_$level)"
    fi
fi

# Exercise 05.3's reference has a configuration table: each one, forced by
# MW_FLASH_BF16_CONFIG (its d's cases run it, the other d their default),
# must pass every case on its own.
if [ -f solutions/05-attention/03_flash_bf16.cu ]; then
    configs=$(sed -n 's/^ *{"\([a-z0-9-]*\)", [0-9]*, [01], launch<Cfg.*/\1/p' \
        solutions/05-attention/03_flash_bf16.cu)
    [ -n "$configs" ]
    ok $? "05-attention: the bf16 reference lists its configurations ($(echo $configs))"
    if long_tests; then
        for cfg in $configs; do
            out=$(MW_FLASH_BF16_CONFIG=$cfg build/05-attention/mw-chapter check \
                --lib-dir build/solutions/05-attention --version 03 --seed 7 2>&1)
            rc=$?
            ok $rc "05-attention: 03_flash_bf16 forced to $cfg passes every case"
            [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -v '^  PASS' | head -n 20 | diag
        done
    else
        skip_long "05-attention: 03_flash_bf16 forced to each configuration passes every case ($(echo $configs))"
    fi
fi

# Exercise 05.4's reference holds the kernels of the lesson's ablation,
# picked by MW_FLASH_WGMMA (the default, auto, runs above): each must pass
# every case on its own, and a name that is none of them fails the check.
if [ -f solutions/05-attention/04_flash_wgmma.cu ]; then
    # the initializer of kKernelNames, on one line or several
    kernels=$(sed -n '/^const char \*const kKernelNames\[KERNELS\] = {/,/};/p' \
        solutions/05-attention/04_flash_wgmma.cu | tr -d '\n' |
        sed 's/.*= {\(.*\)};.*/\1/' | tr -d '",')
    [ -n "$kernels" ]
    ok $? "05-attention: the wgmma reference lists its kernels ($(echo $kernels))"
    if long_tests; then
        for k in $kernels; do
            [ "$k" = auto ] && continue
            out=$(MW_FLASH_WGMMA=$k build/05-attention/mw-chapter check \
                --lib-dir build/solutions/05-attention --version 04 --seed 7 2>&1)
            rc=$?
            ok $rc "05-attention: 04_flash_wgmma with MW_FLASH_WGMMA=$k passes every case"
            [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -v '^  PASS' | head -n 20 | diag
        done
        out=$(MW_FLASH_WGMMA=no-such-kernel build/05-attention/mw-chapter check \
            --lib-dir build/solutions/05-attention --version 04 --seed 7 2>&1)
        rc=$?
        if [ ! -f build/solutions/05-attention/04_flash_wgmma.so ]; then
            skip "05-attention: 04_flash_wgmma is not built for this GPU"
        else
            [ $rc -ne 0 ] && printf '%s' "$out" | grep -q 'MW_FLASH_WGMMA=no-such-kernel is not one of'
            ok $? "05-attention: MW_FLASH_WGMMA=no-such-kernel fails the check, naming the kernels (exit $rc)"
            # The graded build (make grade's make lib GRADED=1) has no switch:
            # auto alone, whatever the environment says.
            graded=$(mktemp -d)
            make -s --no-print-directory lib CH=05 KERNEL=solutions/05-attention/04_flash_wgmma.cu \
                LIBDIR="$graded" GRADED=1 >/dev/null 2>&1
            ok $? "05-attention: 04_flash_wgmma builds as make grade builds it (GRADED=1)"
            out=$(MW_FLASH_WGMMA=no-such-kernel build/05-attention/mw-chapter check \
                --lib-dir "$graded" --version 04 --seed 7 2>&1)
            rc=$?
            ok $rc "05-attention: the graded build ignores MW_FLASH_WGMMA and passes every case"
            [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -v '^  PASS' | head -n 20 | diag
            rm -rf "$graded"
        fi
    else
        skip_long "05-attention: 04_flash_wgmma with each MW_FLASH_WGMMA kernel passes every case ($(echo $kernels))"
    fi
fi

# Correct but not bitwise reproducible is correct: a summation order that
# changes from run to run. Split-K with atomics does that by chance; this
# one sums each part of K forwards on one launch and backwards on the next,
# so that the two runs of a case surely differ. Every case passes, and the
# check notes that the runs differ.
if ls chapters/03-matmul/matmul.h >/dev/null 2>&1; then
    mkdir -p "$scratch/splitk"
    cat >"$scratch/splitk/01_naive.cu" <<'CU'
#include "matmul.h"
__device__ unsigned launches;
/* C = A B with K split in 4, each part added to C with atomicAdd. */
__global__ void splitk(const float *A, const float *B, float *C, int M, int N, int K,
                       unsigned parity)
{
    int n = blockIdx.x * 32 + threadIdx.x, m = blockIdx.y * 8 + threadIdx.y;
    int k0 = (int)(((long long)K * blockIdx.z) / 4), k1 = (int)(((long long)K * (blockIdx.z + 1)) / 4);
    if (m >= M || n >= N)
        return;
    float acc = 0.f;
    for (int j = 0; j < k1 - k0; j++) {
        int k = parity ? k1 - 1 - j : k0 + j;
        acc += A[(size_t)m * K + k] * B[(size_t)k * N + n];
    }
    atomicAdd(&C[(size_t)m * N + n], acc);
}
__global__ void count_launch(unsigned *parity)
{
    *parity = launches++ & 1;
}
cudaError_t matmul_naive(const float *A, const float *B, float *C, int M, int N, int K,
                         cudaStream_t stream)
{
    if (M == 0 || N == 0)
        return cudaSuccess;
    cudaError_t err = cudaMemsetAsync(C, 0, (size_t)M * N * sizeof(float), stream);
    if (err != cudaSuccess || K == 0)
        return err;
    static unsigned *parity;
    if (!parity && (err = cudaMalloc((void **)&parity, sizeof *parity)) != cudaSuccess)
        return err;
    count_launch<<<1, 1, 0, stream>>>(parity);
    unsigned host_parity;
    if ((err = cudaMemcpyAsync(&host_parity, parity, sizeof host_parity, cudaMemcpyDeviceToHost,
                               stream)) != cudaSuccess ||
        (err = cudaStreamSynchronize(stream)) != cudaSuccess)
        return err;
    /* grid.y caps at 65535 rows of blocks: enough for the small cases. */
    dim3 grid((N + 31) / 32, (M + 7) / 8, 4);
    splitk<<<grid, dim3(32, 8), 0, stream>>>(A, B, C, M, N, K, host_parity);
    return cudaGetLastError();
}
CU
    build_lib 03-matmul "$scratch/splitk/01_naive.cu" "$scratch/splitk/lib" >/dev/null 2>&1
    out=$(build/03-matmul/mw-chapter check --lib-dir "$scratch/splitk/lib" --version 01 --small --seed 7 2>&1)
    rc=$?
    ok $rc "03-matmul: split-K with atomics, not bitwise reproducible, passes (exit $rc)"
    [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -v '^  PASS' | head -n 20 | diag
    printf '%s' "$out" | grep -q 'the two runs differ bitwise, both within tolerance'
    ok $? "03-matmul: ... and the check notes that its runs differ bitwise"
fi

done_testing
