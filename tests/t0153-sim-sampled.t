#!/usr/bin/env bash
# The CPU emulation's huge cases, run on a sample (grader/emulation.h,
# grader/sim/lazy.c): chapter 01's cases past 2^31 elements (up to 66 GiB
# of buffers) run only the blocks that write the checked outputs, in
# buffers mapped lazily, and say so in their lines; the reference passes
# them, the known-wrong int-index fails them as on a GPU, and a kernel
# whose grid is too small to run on a sample (a grid-stride loop), or a
# right one in another layout (its blocks write away from the sampled
# outputs, or scatter over more pages than a sample may open), is skipped,
# saying why: never failed, never crashed.
. tests/lib.sh
skip_all_unless_full_tree
skip_all_unless_sim_compiler
skip_all_unless_known_wrongs

MAKE_Q="make -s --no-print-directory"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# The huge cases alone: every buffer of them is past 2^33 bytes.
HUGE="--from 8589934592"

out=$($MAKE_Q build/sim/01-vector-add/mw-chapter build/sim/solutions/01-vector-add/01_naive.so \
    build/sim/solutions/01-vector-add/02_fast.so 2>&1)
ok $? "the emulation's chapter 01 and its references build" || { diag <<<"$out"; done_testing; exit; }

# A grid-stride loop on a grid of at most 1024 blocks: right, but too
# small a grid to give each checked output a block of its own.
mkdir -p "$scratch/grid-stride-src"
cat >"$scratch/grid-stride-src/01_naive.cu" <<'END'
#include "vector_add.h"

__global__ void add_naive_kernel(const float *a, const float *b, float *c, size_t n)
{
    for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n;
         i += (size_t)gridDim.x * blockDim.x)
        c[i] = a[i] + b[i];
}

cudaError_t add_naive(const float *a, const float *b, float *c, size_t n, cudaStream_t stream)
{
    if (n == 0)
        return cudaSuccess;
    size_t blocks = (n + 255) / 256;
    add_naive_kernel<<<(unsigned)(blocks < 1024 ? blocks : 1024), 256, 0, stream>>>(a, b, c, n);
    return cudaGetLastError();
}
END
# Right too, in a layout the sample does not follow: thread t of block b
# adds element t * gridDim + b, so each block touches a page of every
# buffer per thread, more pages than a sample may open.
mkdir -p "$scratch/transposed-src"
sed 's/size_t i = blockIdx.x \* (size_t)blockDim.x + threadIdx.x;/size_t i = threadIdx.x * (size_t)gridDim.x + blockIdx.x;/' \
    solutions/01-vector-add/01_naive.cu >"$scratch/transposed-src/01_naive.cu"
grep -q 'threadIdx.x \* (size_t)gridDim.x' "$scratch/transposed-src/01_naive.cu"
ok $? "the transposed kernel is the reference with its index changed"
# Right as well, from the end: thread j adds element n - 1 - j, so the
# blocks picked for a sampled output write the mirrored ones.
mkdir -p "$scratch/reversed-src"
sed 's/size_t i = blockIdx.x \* (size_t)blockDim.x + threadIdx.x;/size_t j = blockIdx.x * (size_t)blockDim.x + threadIdx.x, i = n - 1 - j;/; s/if (i < n)/if (j < n)/' \
    solutions/01-vector-add/01_naive.cu >"$scratch/reversed-src/01_naive.cu"
grep -q 'i = n - 1 - j;' "$scratch/reversed-src/01_naive.cu" && grep -q 'if (j < n)' "$scratch/reversed-src/01_naive.cu"
ok $? "the reversed kernel is the reference with its index changed"
{
    echo "01-vector-add $scratch/reversed-src/01_naive.cu $scratch/reversed"
    echo "01-vector-add $scratch/transposed-src/01_naive.cu $scratch/transposed"
    src=$(wrong_source tests/wrong/01-vector-add/int-index "$scratch/derived") &&
        echo "01-vector-add $src $scratch/int-index"
    echo "01-vector-add $scratch/grid-stride-src/01_naive.cu $scratch/grid-stride"
} >"$scratch/list"
build_sim_libs "$scratch/list"

# The sample's note, K of B blocks, with K < B.
fewer_blocks() {
    sed -E 's/.*\(emulated on a sample: ([0-9]+) of ([0-9]+) blocks\)$/\1 \2/' |
        awk '$1 == 0 || $1 >= $2 { bad = 1 } END { exit bad || NR == 0 }'
}

for version in 01_naive 02_fast; do
    out=$(build/sim/01-vector-add/mw-chapter check --lib-dir build/sim/solutions/01-vector-add \
        --version "$version" --seed 7 $HUGE 2>&1)
    rc=$?
    runs=$(grep -E '^  PASS .* huge ' <<<"$out" | sample_lines)
    [ $rc = 0 ] && [ "$(grep -c . <<<"$runs")" = 6 ] && tail -n 1 <<<"$out" | grep -q '^6 passed, 0 failed$'
    ok $? "reference $version: its 6 huge cases pass on a sample (exit $rc)" || diag <<<"$out"
    fewer_blocks <<<"$runs"
    ok $? "reference $version: each ran fewer blocks than its grid has, and some" || diag <<<"$runs"
done

if built "$scratch/int-index"; then
    out=$(build/sim/01-vector-add/mw-chapter check --lib-dir "$scratch/int-index" \
        --version 01_naive --seed 7 $HUGE 2>&1)
    rc=$?
    [ $rc = 1 ] && [ "$(on_sample 'FAIL .* huge ')" -gt 0 ] &&
        grep -q -F 'a 32-bit int index overflows' <<<"$out"
    ok $? "known-wrong int-index: fails a huge case on a sample, exit 1 (got $rc), as a GPU says" ||
        diag <<<"$out"
    grep -q -E '^        [0-9]+ of [0-9]+ sampled elements wrong \([0-9]+ never written\)$' <<<"$out"
    ok $? "int-index: the sampled elements it never wrote are counted" || diag <<<"$out"
else
    ok 1 "known-wrong int-index builds for the emulation"
    tail -n 5 "$scratch/int-index.log" | diag
fi

if built "$scratch/grid-stride"; then
    # Every case: the small ones pass, so the check exits 0 with the skips.
    out=$(build/sim/01-vector-add/mw-chapter check --lib-dir "$scratch/grid-stride" \
        --version 01_naive --seed 7 2>&1)
    rc=$?
    skips=$(grep -c -E "^  SKIP .* huge .*\(emulated\): past the emulation's budget .*a grid too small to run on a sample.*: a GPU runs it$" <<<"$out")
    [ $rc = 0 ] && [ "$skips" = 6 ]
    ok $? "a grid-stride loop on 1024 blocks: its 6 huge cases skipped, saying why; the rest pass (exit $rc)" ||
        diag <<<"$out"
else
    ok 1 "the grid-stride kernel builds for the emulation"
    tail -n 5 "$scratch/grid-stride.log" | diag
fi

# skipped_on_sample NAME WHY DESC: kernel NAME (built in $scratch/NAME) has
# its 6 huge cases skipped with a reason matching WHY, none failed, and
# nothing else judged (exit 77): one test point, a failing one when it does
# not build.
skipped_on_sample() {
    local name=$1 why=$2 desc=$3 out rc skips
    if ! built "$scratch/$name"; then
        ok 1 "the $name kernel builds for the emulation"
        tail -n 5 "$scratch/$name.log" | diag
        return 1
    fi
    out=$(build/sim/01-vector-add/mw-chapter check --lib-dir "$scratch/$name" \
        --version 01_naive --seed 7 $HUGE 2>&1)
    rc=$?
    skips=$(grep -c -E "^  SKIP .* huge .*\(emulated\): past the emulation's budget .*$why.*: a GPU runs it$" <<<"$out")
    [ $rc = 77 ] && [ "$skips" = 6 ] && ! grep -q -E 'FAIL|ERROR|crashed' <<<"$out"
    ok $? "$desc: its 6 huge cases skipped, saying why, never failed (exit $rc)" || diag <<<"$out"
}

skipped_on_sample transposed "reach further into the buffers than a sample can follow" \
    "a right kernel whose blocks scatter"
if skipped_on_sample reversed "write outputs where the reference's layout puts none of the sampled ones" \
    "a right kernel that writes from the end"; then
    out=$(build/sim/01-vector-add/mw-chapter check --lib-dir "$scratch/reversed" \
        --version 01_naive --seed 7 --below 8589934592 2>&1)
    ok $? "and it passes every other case" || diag <<<"$out"
fi

# The cases the emulation runs on a sample are not GPU-only in the list.
gpu_only=$(build/sim/01-vector-add/mw-chapter list | grep -E '^  huge ' | grep -c -F 'GPU only')
[ "$gpu_only" = 0 ]
ok $? "list: no huge case of chapter 01 is GPU only on the emulation (got $gpu_only)"
done_testing
