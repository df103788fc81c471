#!/usr/bin/env bash
# On a GPU: compute-sanitizer's memcheck, racecheck, initcheck and synccheck
# find nothing in the reference solutions (small cases, in-process).
. tests/lib.sh
have_gpu || skip_all "$GPU_REASON"
long_file "compute-sanitizer on every chapter's solutions"
command -v compute-sanitizer >/dev/null 2>&1 || skip_all "compute-sanitizer not on the PATH"

for ch in $(chapters); do
    if ! ls solutions/$ch/*.cu >/dev/null 2>&1; then
        skip "$ch: no solutions/$ch/ here (the student edition leaves them out)"
        continue
    fi
    out=$(make -s --no-print-directory sanitize CH=$ch SRC=solutions 2>&1)
    rc=$?
    ok $rc "$ch: make sanitize finds nothing in the solutions (exit $rc)"
    [ $rc -ne 0 ] && printf '%s\n' "$out" | tail -n 30 | diag
    for tool in memcheck racecheck initcheck synccheck; do
        printf '%s' "$out" | grep -q -E "sanitize: $tool: (ERROR SUMMARY: 0 errors|RACECHECK SUMMARY: 0 hazards)"
        ok $? "$ch: $tool reports 0 errors"
    done
done

# The sanitizer itself must catch a planted out-of-bounds write.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/oob"
cat >"$scratch/oob/01_naive.cu" <<'CU'
#include "vector_add.h"
__global__ void k(const float *a, const float *b, float *c, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        c[i + (1 << 20)] = a[i] + b[i]; /* 4 MB past the end: outside the guard */
}
cudaError_t add_naive(const float *a, const float *b, float *c, size_t n, cudaStream_t s)
{
    if (n == 0)
        return cudaSuccess;
    k<<<(unsigned)((n + 255) / 256), 256, 0, s>>>(a, b, c, n);
    return cudaGetLastError();
}
CU
build_lib 01-vector-add "$scratch/oob/01_naive.cu" "$scratch/oob/lib" >/dev/null 2>&1
out=$(sh grader/mk/sanitize.sh build/01-vector-add/mw-chapter "$scratch/oob/lib" planted 2>&1)
printf '%s' "$out" | grep -q 'memcheck found problems'
ok $? "memcheck reports a planted out-of-bounds write"

# A read one element past the end, whose value changes nothing: inside the
# guard band of a normal check, so make check passes it; make sanitize
# allocates each view exactly, and memcheck must report it.
mkdir -p "$scratch/oob-read"
cat >"$scratch/oob-read/01_naive.cu" <<'CU'
#include "vector_add.h"
__global__ void k(const float *a, const float *b, float *c, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) {
        float next = a[i + 1]; /* one past the end when i == n - 1 */
        c[i] = next == 12345.0f ? 0.0f : a[i] + b[i];
    }
}
cudaError_t add_naive(const float *a, const float *b, float *c, size_t n, cudaStream_t s)
{
    if (n == 0)
        return cudaSuccess;
    k<<<(unsigned)((n + 255) / 256), 256, 0, s>>>(a, b, c, n);
    return cudaGetLastError();
}
CU
build_lib 01-vector-add "$scratch/oob-read/01_naive.cu" "$scratch/oob-read/lib" >/dev/null 2>&1
build/01-vector-add/mw-chapter check --small --version 01 --lib-dir "$scratch/oob-read/lib" >/dev/null 2>&1
ok $? "a read one past the end passes make check (it lands in the guard band)"
out=$(sh grader/mk/sanitize.sh build/01-vector-add/mw-chapter "$scratch/oob-read/lib" planted --version 01 2>&1)
printf '%s' "$out" | grep -q 'memcheck found problems'
ok $? "memcheck reports a read one past the end (views allocated exactly)"

# A race that the values may not show: racecheck names the missing barrier
# of chapter 03's known-wrong tiled kernel (the hazard between the shared
# tile's reads and the next step's writes).
race=tests/wrong/03-matmul/missing-second-syncthreads/02_tiled.cu
if [ -f "$race" ]; then
    build_lib 03-matmul "$race" "$scratch/race/lib" >/dev/null 2>&1
    out=$(compute-sanitizer --tool racecheck --print-limit 5 build/03-matmul/mw-chapter check \
        --small --no-fork --version 02 --lib-dir "$scratch/race/lib" 2>&1)
    printf '%s' "$out" | grep -q -E 'RACECHECK SUMMARY: [1-9][0-9]* hazards'
    rc=$?
    ok $rc "racecheck reports the hazard of a missing second __syncthreads"
    [ $rc -ne 0 ] && printf '%s\n' "$out" | tail -n 5 | diag
else
    skip "no tests/wrong/ here (the student edition)"
fi

done_testing
