#!/usr/bin/env bash
# The CPU emulation's huge cases of chapters 03 and 04, run on a sample
# (grader/emulation.h): chapter 03's blocks own tiles of C, their shape
# told by the grid; chapter 04's own rows, one or several a block. The
# references pass them or have them skipped with the reason (a row split
# over blocks, a sample past the budget, a column of B over more pages than
# a sample may touch); the known-wrongs grid-y-clamped, split-rows-on-y and
# max-misses-column (the lone class, which emulation_samples adds) fail as on a
# GPU, where a right kernel on the same clamped grid that loops over y
# passes; a right kernel in another layout (C's tiles in another order,
# rows from the end) is skipped, saying why: never failed.
. tests/lib.sh
skip_all_unless_full_tree
skip_all_unless_sim_compiler
skip_all_unless_known_wrongs

MAKE_Q="make -s --no-print-directory"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# Chapter 03's sampled cases: 20 MB (the grid.y ones) and up.
MM_SAMPLED="--from 16000000"
MM_GRID_Y="--from 16000000 --below 30000000"
# Chapter 04's huge cases: every one of them is past 2^33 bytes.
SM_HUGE="--from 8589934592"
# Chapter 04's lone class at 1000 and 1024 columns (8.3 MB), beside the
# other cases of about that size, which stay past the budget.
SM_LONE="--from 8000000 --below 9000000"

out=$($MAKE_Q build/sim/03-matmul/mw-chapter build/sim/04-softmax/mw-chapter \
    build/sim/solutions/03-matmul/01_naive.so build/sim/solutions/03-matmul/02_tiled.so \
    build/sim/solutions/04-softmax/01_three_pass.so build/sim/solutions/04-softmax/02_fused.so \
    build/sim/solutions/04-softmax/03_online.so 2>&1)
ok $? "the emulation's chapters 03 and 04 and their references build" ||
    { diag <<<"$out"; done_testing; exit; }

# Right, in a layout the sample does not follow: 03.1's reference with its
# blocks in m-fastest order, where the references go n fastest.
mkdir -p "$scratch/m-fastest-src"
sed 's|const int blocks_n = (N + kBlockX - 1) / kBlockX;|const int blocks_m = (M + kBlockY - 1) / kBlockY;|;
     s|(blockIdx.x % blocks_n) \* kBlockX|(blockIdx.x / blocks_m) * kBlockX|;
     s|(blockIdx.x / blocks_n) \* kBlockY|(blockIdx.x % blocks_m) * kBlockY|' \
    solutions/03-matmul/01_naive.cu >"$scratch/m-fastest-src/01_naive.cu"
[ "$(grep -c 'blocks_m' "$scratch/m-fastest-src/01_naive.cu")" = 3 ]
ok $? "the m-fastest kernel is 03.1's reference with its block order changed"
# Right too: grid-y-clamped's launch (grid.y at most 65535) with a loop over
# the rows of tiles in steps of gridDim.y, which a sample follows.
mkdir -p "$scratch/y-stride-src"
cat >"$scratch/y-stride-src/01_naive.cu" <<'END'
#include "matmul.h"

__global__ void naive_kernel(const float *A, const float *B, float *C, int M, int N, int K)
{
    const int n = blockIdx.x * 32 + threadIdx.x;
    for (int by = blockIdx.y; by * 8 < M; by += gridDim.y) {
        const int m = by * 8 + threadIdx.y;
        if (m >= M || n >= N)
            continue;
        float acc = 0.f;
        for (int k = 0; k < K; ++k)
            acc += A[(size_t)m * K + k] * B[(size_t)k * N + n];
        C[(size_t)m * N + n] = acc;
    }
}

cudaError_t matmul_naive(const float *A, const float *B, float *C, int M, int N, int K,
                         cudaStream_t stream)
{
    if (M == 0 || N == 0)
        return cudaSuccess;
    const unsigned rows = (unsigned)((M + 7) / 8);
    dim3 grid((unsigned)((N + 31) / 32), rows > 65535 ? 65535 : rows);
    naive_kernel<<<grid, dim3(32, 8), 0, stream>>>(A, B, C, M, N, K);
    return cudaGetLastError();
}
END
# Right as well, rows from the end: block b softmaxes row gridDim.x - 1 - b.
mkdir -p "$scratch/rows-reversed-src"
sed 's|const float \*row = x + blockIdx.x \* cols;|const size_t r = gridDim.x - 1 - blockIdx.x;\n    const float *row = x + r * cols;|;
     s|float \*out = y + blockIdx.x \* cols;|float *out = y + r * cols;|' \
    solutions/04-softmax/01_three_pass.cu >"$scratch/rows-reversed-src/01_three_pass.cu"
grep -q 'x + r \* cols' "$scratch/rows-reversed-src/01_three_pass.cu" &&
    grep -q 'y + r \* cols' "$scratch/rows-reversed-src/01_three_pass.cu"
ok $? "the reversed-rows kernel is 04.1's reference with its row changed"
{
    echo "03-matmul $scratch/m-fastest-src/01_naive.cu $scratch/m-fastest"
    echo "03-matmul $scratch/y-stride-src/01_naive.cu $scratch/y-stride"
    echo "04-softmax $scratch/rows-reversed-src/01_three_pass.cu $scratch/rows-reversed"
    for w in 03-matmul/grid-y-clamped 04-softmax/split-rows-on-y 04-softmax/max-misses-column; do
        src=$(wrong_source tests/wrong/$w "$scratch/derived/${w%/*}") &&
            echo "${w%/*} $src $scratch/${w#*/}"
    done
} >"$scratch/list"
build_sim_libs "$scratch/list"

# ---- chapter 03 ------------------------------------------------------------
sim_check 03-matmul build/sim/solutions/03-matmul 01_naive $MM_SAMPLED
passed=$(on_sample 'PASS ')
[ $rc = 0 ] && [ "$passed" = 6 ] && no_failure
ok $? "reference 01_naive: 6 sampled cases (grid.y, C and A past 2^31 and 2^32) pass on a sample (exit $rc, $passed)" ||
    diag <<<"$out"
grep -q -E "^  SKIP .* M=4 N=65536 K=81920 .*a column of B spans 81920 pages of 4 KiB, more than a sample may touch" <<<"$out"
ok $? "01_naive: B past 2^32 elements is skipped, saying why no sample can follow it" || diag <<<"$out"

sim_check 03-matmul build/sim/solutions/03-matmul 02_tiled $MM_GRID_Y
passed=$(on_sample 'PASS ')
[ $rc = 0 ] && [ "$passed" = 2 ]
ok $? "reference 02_tiled: its 32 x 32 tiles pass both grid.y cases on a sample (exit $rc)" ||
    diag <<<"$out"

if built_or_say "$scratch/grid-y-clamped" "known-wrong grid-y-clamped"; then
    sim_check 03-matmul "$scratch/grid-y-clamped" 01_naive $MM_GRID_Y
    [ $rc = 1 ] && [ "$(on_sample 'FAIL .* M=1000003 N=2 K=3 ')" -gt 0 ] &&
        grep -q -F 'where a grid of 65535 blocks in y runs out' <<<"$out"
    ok $? "known-wrong grid-y-clamped: fails M = 1000003 on a sample with the GPU's hint (exit $rc)" ||
        diag <<<"$out"
fi

if built_or_say "$scratch/y-stride" "the y-stride kernel"; then
    sim_check 03-matmul "$scratch/y-stride" 01_naive $MM_GRID_Y
    passed=$(on_sample 'PASS .* M=1000003 N=2 K=3 ')
    [ $rc = 0 ] && [ "$passed" = 1 ]
    ok $? "a right kernel on grid-y-clamped's grid, looping over y: passes M = 1000003 on a sample (exit $rc)" ||
        diag <<<"$out"
fi

if built_or_say "$scratch/m-fastest" "the m-fastest kernel"; then
    sim_check 03-matmul "$scratch/m-fastest" 01_naive $MM_SAMPLED
    skips=$(grep -c -E "^  SKIP .* M=(46341|65537) .*\(emulated\): past the emulation's budget .*write outputs where the reference's layout puts none of the sampled ones.*: a GPU runs it$" <<<"$out")
    [ $rc = 0 ] && [ "$skips" = 2 ] && no_failure
    ok $? "a right kernel with its tiles in another order: C past 2^31 and 2^32 skipped, saying why, never failed (exit $rc)" ||
        diag <<<"$out"
fi

# ---- chapter 04 ------------------------------------------------------------
for version in 01_three_pass 03_online; do
    sim_check 04-softmax build/sim/solutions/04-softmax $version $SM_HUGE
    passed=$(on_sample 'PASS ')
    [ $rc = 0 ] && [ "$passed" = 5 ] && no_failure &&
        grep -q -E "^  SKIP .* rows=1 cols=2147483652 .*and its sample alone \(1 of 1 blocks, .*\) is past it" <<<"$out"
    ok $? "reference $version: 5 huge cases pass on a sample; the one row of 2^31 + 4, one block, is skipped (exit $rc)" ||
        diag <<<"$out"
done

sim_check 04-softmax build/sim/solutions/04-softmax 02_fused $SM_HUGE
passed=$(on_sample 'PASS ')
[ $rc = 0 ] && [ "$passed" = 4 ] && no_failure &&
    grep -q -E "^  SKIP .* rows=65537 cols=32769 .*\(emulated\): .*and a row split over several blocks" <<<"$out"
ok $? "reference 02_fused: 4 huge cases pass on a sample; its rows split over blocks are skipped, saying why (exit $rc)" ||
    diag <<<"$out"

if built_or_say "$scratch/split-rows-on-y" "known-wrong split-rows-on-y"; then
    sim_check 04-softmax "$scratch/split-rows-on-y" 02_fused $SM_HUGE
    [ $rc = 2 ] && grep -q -E '^  ERROR .* rows=65537 cols=32769 .*\(emulated\)$' <<<"$out" &&
        grep -q -F 'grid.y and grid.z at most 65535' <<<"$out"
    ok $? "known-wrong split-rows-on-y: its launch refused, as on a GPU (exit $rc)" || diag <<<"$out"
fi

if built_or_say "$scratch/max-misses-column" "known-wrong max-misses-column"; then
    sim_check 04-softmax "$scratch/max-misses-column" 01_three_pass $SM_LONE
    failed=$(on_sample 'FAIL .* rows=1031 .*alone in its row')
    [ $rc = 1 ] && [ "$failed" = 2 ]
    ok $? "known-wrong max-misses-column: fails the lone class at 1000 and 1024 columns on a sample (exit $rc)" ||
        diag <<<"$out"
fi
sim_check 04-softmax build/sim/solutions/04-softmax 01_three_pass $SM_LONE
passed=$(on_sample 'PASS .* rows=1031 ')
[ $rc = 0 ] && [ "$passed" = 2 ]
ok $? "reference 01_three_pass: passes the same lone cases on a sample (exit $rc)" || diag <<<"$out"

if built_or_say "$scratch/rows-reversed" "the reversed-rows kernel"; then
    sim_check 04-softmax "$scratch/rows-reversed" 01_three_pass $SM_HUGE
    skips=$(grep -c -E "^  SKIP .*\(emulated\): past the emulation's budget .*write outputs where the reference's layout puts none of the sampled ones.*: a GPU runs it$" <<<"$out")
    [ $rc = 77 ] && [ "$skips" = 5 ] && no_failure
    ok $? "a right kernel that takes its rows from the end: 5 huge cases skipped, saying why, never failed (exit $rc)" ||
        diag <<<"$out"
fi

# The lone class and the huge cases a sample runs are not GPU-only in the list.
gpu_only=$(build/sim/04-softmax/mw-chapter list | grep -F 'alone in its row' | grep -F 'rows=1031' |
    grep -c -F 'GPU only')
[ "$gpu_only" = 0 ]
ok $? "list: the lone class is not GPU only on the emulation (got $gpu_only)"
done_testing
