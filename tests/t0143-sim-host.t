#!/usr/bin/env bash
# The CPU emulation's host side (grader/sim/host.c, grader/sim/host.mk).
#
# host.c's unit tests (tests/unit/sim/host_api.c, with the stand-in
# scheduler of tests/unit/sim/standin/host/): memory and its regions, copies,
# errors sticky and not, capture with a fork never joined back, occupancy,
# launch configuration errors; each of their points is one here.
#
# The chapter programs built for the emulation: each chapter's
# build/sim/<chapter>/mw-chapter links, no object includes a toolkit header
# and none calls cuBLAS or cuDNN: a student without the toolkit builds
# them. No GPU needed.
. tests/lib.sh

MAKE_Q="make -s --no-print-directory"

out=$($MAKE_Q build/sim/tests/host_api 2>&1)
ok $? "host.c's unit tests build" || { printf '%s\n' "$out" | diag; done_testing; exit; }

# Each point of the unit tests is one point here, named as there.
units=$(build/sim/tests/host_api 2>&1)
rc=$?
planned=$(printf '%s\n' "$units" | sed -n 's/^1\.\.\([0-9]*\)$/\1/p')
ran=0
while IFS= read -r line; do
    case $line in
    'ok '*) ran=$((ran + 1)); ok 0 "host_api: ${line#ok * - }" ;;
    'not ok '*) ran=$((ran + 1)); ok 1 "host_api: ${line#not ok * - }" ;;
    '#'*) printf '%s\n' "$line" ;;
    esac
done <<<"$units"
[ "$rc" -eq 0 ] && [ -n "$planned" ] && [ "$ran" -eq "$planned" ] && [ "$ran" -gt 100 ]
ok $? "host_api exits 0 having run all of its $planned points ($ran seen)"

# The headers in C++17, as a kernel file's host code calls them: the typed
# overloads of the toolkit's cuda_runtime.h (a T ** for cudaMalloc, a kernel
# for the function attributes and occupancy) and the default arguments.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cat >"$scratch/typed.cpp" <<'CPP'
#include <cuda_runtime.h>
#include <stdio.h>
static void kernel(float *) {}
int main()
{
    unsigned long long *counts = NULL;
    cudaStream_t s;
    cudaEvent_t e;
    int blocks = -1;
    cudaError_t err = cudaMalloc(&counts, 3 * sizeof *counts);
    if (err == cudaSuccess)
        err = cudaMemsetAsync(counts, 0, 3 * sizeof *counts);
    if (err == cudaSuccess)
        err = cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    if (err == cudaSuccess)
        err = cudaEventCreate(&e);
    if (err == cudaSuccess)
        err = cudaEventRecord(e);
    if (err == cudaSuccess)
        err = cudaStreamWaitEvent(s, e);
    if (err == cudaSuccess)
        err = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, 65536);
    if (err == cudaSuccess)
        err = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, 256, 65536);
    if (err == cudaSuccess)
        err = cudaFree(counts);
    printf("%s %d\n", cudaGetErrorName(err), blocks);
    return err != cudaSuccess;
}
CPP
out=$(${CC:-gcc} -std=c11 -O1 -Wall -Wextra -Werror -Igrader/sim -Igrader/sim/include \
      -Itests/unit/sim/standin/host -c grader/sim/host.c -o "$scratch/host.o" 2>&1 &&
      ${CC:-gcc} -std=c11 -O1 -Wall -Wextra -Werror -Igrader/sim -Igrader/sim/include \
      -c grader/sim/device.c -o "$scratch/device.o" 2>&1 &&
      ${CC:-gcc} -std=c11 -O1 -Wall -Wextra -Werror -Igrader/sim -Igrader/sim/include \
      -c grader/sim/lazy.c -o "$scratch/lazy.o" 2>&1 &&
      ${CC:-gcc} -std=c11 -O1 -Wall -Wextra -Werror -Igrader/sim -Igrader/sim/include \
      -Itests/unit/sim/standin/host -c tests/unit/sim/standin/host/run_grid.c \
      -o "$scratch/run_grid.o" 2>&1 &&
      g++ -std=c++17 -Wall -Wextra -Werror -Igrader/sim/include -Itests/unit/sim/standin/host \
          -o "$scratch/typed" "$scratch/typed.cpp" "$scratch/host.o" "$scratch/device.o" \
          "$scratch/lazy.o" "$scratch/run_grid.o" 2>&1 &&
      "$scratch/typed" 2>&1)
[ "$out" = "cudaSuccess 3" ]
ok $? "the headers in C++17: typed overloads and default arguments (228 KiB / 65 KiB: 3 blocks)" ||
    printf '%s\n' "$out" | diag

build=build
for ch in $(chapters); do
    out=$($MAKE_Q "build/sim/$ch/mw-chapter" 2>&1)
    ok $? "build/sim/$ch/mw-chapter links for the emulation" || printf '%s\n' "$out" | diag
done

objs=$(find "$build/sim" -path "$build/sim/tests" -prune -o -name '*.o' -print 2>/dev/null | sort)
[ -n "$objs" ]
ok $? "the emulation's objects are there ($(printf '%s\n' "$objs" | grep -c .))"

# A toolkit header is one under a CUDA toolkit's include folder.
deps=$(find "$build/sim" -name '*.d' 2>/dev/null)
toolkit=$(grep -lE '(cuda|cudnn)[-0-9.]*/(targets/[^/]*/)?include/' $deps /dev/null)
[ -z "$toolkit" ]
ok $? "no object of the emulation's build includes a toolkit header" ||
    printf '%s\n' "$toolkit" | diag

libs=$(nm -u $objs 2>/dev/null | grep -iE ' U [^ ]*(cublas|cudnn)' | sort -u)
[ -z "$libs" ]
ok $? "none calls cuBLAS or cuDNN: the library rows are left out of the emulation" ||
    printf '%s\n' "$libs" | diag

done_testing
