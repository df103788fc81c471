#!/usr/bin/env bash
# t0126-toolkit.t: where make finds nvcc. NVCC= first, then the PATH, then
# the toolkit's usual place ($CUDA_HOME/bin/nvcc, /usr/local/cuda by
# default), whose bin/ then joins the end of the PATH of every command (for
# compute-sanitizer). Without any, goals that compile stop before compiling
# anything with one line saying how to fix it; help, clean and the others
# that compile nothing still work. And ARCH: a change rebuilds the kernels,
# no clean needed.
. tests/lib.sh

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# This PATH without every folder that holds an nvcc.
nonvcc=$(printf '%s\n' "$PATH" | tr ':' '\n' | while IFS= read -r d; do
    [ -n "$d" ] && [ ! -x "$d/nvcc" ] && printf '%s:' "$d"
done)
nonvcc=${nonvcc%:}
env PATH="$nonvcc" sh -c 'command -v nvcc' >/dev/null 2>&1
ok "$([ $? -ne 0 ] && echo 0 || echo 1)" "a PATH without nvcc for these tests"
m() { env PATH="$nonvcc" make --no-print-directory "$@" 2>&1; }

# A kernel library this tree can build: a solution's, or an exercise's in the
# student edition.
so=build/solutions/01-vector-add/01_naive.so
[ -f solutions/01-vector-add/01_naive.cu ] || so=build/exercises/01-vector-add/01_naive.so

# A toolkit of our own, whose nvcc is a script: found in CUDA_HOME/bin.
mkdir -p "$scratch/cuda/bin" "$scratch/fake"
printf '#!/bin/sh\nexit 0\n' >"$scratch/cuda/bin/nvcc"
cp "$scratch/cuda/bin/nvcc" "$scratch/fake/nvcc"
chmod +x "$scratch/cuda/bin/nvcc" "$scratch/fake/nvcc"

out=$(m -n -B V=1 CUDA_HOME="$scratch/cuda" "$so")
printf '%s' "$out" | grep -q -E "(^|[ '])$scratch/cuda/bin/nvcc -O3"
ok $? "nvcc off the PATH: make uses CUDA_HOME/bin/nvcc"
out=$(m CUDA_HOME="$scratch/cuda" --eval 'show-path: ; @echo "$$PATH"' show-path)
[ "${out##*:}" = "$scratch/cuda/bin" ]
ok $? "and adds that bin/ to the end of the commands' PATH"

if [ -x /usr/local/cuda/bin/nvcc ]; then
    out=$(m -n -B V=1 "$so")
    printf '%s' "$out" | grep -q -E "(^|[ '])/usr/local/cuda/bin/nvcc -O3"
    ok $? "by default the usual place is /usr/local/cuda/bin/nvcc"
else
    skip "no /usr/local/cuda/bin/nvcc on this machine"
fi

out=$(env PATH="$scratch/fake:$nonvcc" make --no-print-directory -n -B V=1 CUDA_HOME="$scratch/none" "$so" 2>&1)
printf '%s' "$out" | grep -q -E "(^|[ '])nvcc -O3"
ok $? "an nvcc on the PATH comes first, by its name"

# No toolkit anywhere.
for goal in build "check CH=01 SIM=0" "bench CH=01" "sanitize CH=01" "grade-build CH=01" test test-full roofs "$so"; do
    # shellcheck disable=SC2086
    out=$(m -n $goal CUDA_HOME="$scratch/none")
    rc=$?
    [ $rc -eq 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] &&
        printf '%s' "$out" | grep -q 'nvcc not found: not on the PATH, nor at .*/none/bin/nvcc' &&
        printf '%s' "$out" | grep -q 'put its bin/ on the PATH' && printf '%s' "$out" | grep -q 'NVCC='
    ok $? "no nvcc: make $goal stops with one line saying how to fix it (exit $rc)"
done
# The CPU emulation needs no toolkit: make check SIM=1 builds with the host
# compiler alone.
out=$(m -n check CH=01 SIM=1 CUDA_HOME="$scratch/none")
ok $? "no nvcc: make check CH=01 SIM=1 goes on, on the CPU emulation"
printf '%s' "$out" | grep -q -- '--lib-dir build/sim/exercises/01-vector-add' &&
    ! printf '%s' "$out" | grep -q 'nvcc'
ok $? "and runs build/sim/'s program and libraries, with no nvcc"
printf '%s\n' "$out" | grep nvcc | head -n 3 | diag

out=$(m build CUDA_HOME="$scratch/none" V=1)
! printf '%s' "$out" | grep -q -E '^(gcc|nvcc|mkdir) '
ok $? "and it compiles nothing first"
printf '%s\n' "$out" | diag

out=$(m help CUDA_HOME="$scratch/none")
ok $? "make help works without nvcc"
printf '%s' "$out" | grep -q 'make check CH=01'
ok $? "and prints the help"
for goal in clean skeletons tables "plot CH=01" dist; do
    # shellcheck disable=SC2086
    out=$(m -n $goal CUDA_HOME="$scratch/none")
    ok $? "make -n $goal works without nvcc"
done

out=$(make --no-print-directory -n build NVCC="$scratch/none/nvcc" 2>&1)
rc=$?
[ $rc -eq 2 ] && [ "$(printf '%s\n' "$out" | wc -l)" -eq 1 ] &&
    printf '%s' "$out" | grep -q "NVCC=$scratch/none/nvcc not found or not executable"
ok $? "NVCC= naming no file: one line saying so"
out=$(m -n -B V=1 NVCC="$scratch/fake/nvcc" "$so")
printf '%s' "$out" | grep -q -E "(^|[ '])$scratch/fake/nvcc -O3"
ok $? "NVCC= names the compiler"

# ---- ARCH: a change rebuilds, no clean -------------------------------------------

if ! command -v nvcc >/dev/null 2>&1 && [ ! -x /usr/local/cuda/bin/nvcc ]; then
    skip "no nvcc: the ARCH rebuild needs one"
else
    b=$scratch/build # a build folder of its own: build/ is left alone
    target=$b/${so#build/}
    make -s --no-print-directory BUILD="$b" ARCH=sm_90 "$target" >/dev/null 2>&1
    ok $? "a kernel library built for sm_90 (in a scratch build folder)"
    make -q --no-print-directory BUILD="$b" ARCH=sm_90 "$target" 2>/dev/null
    ok $? "it is up to date for sm_90"
    make -q --no-print-directory BUILD="$b" ARCH=sm_80 "$target" 2>/dev/null
    rc=$?
    ok "$([ $rc -eq 1 ] && echo 0 || echo 1)" "ARCH=sm_80 finds it out of date, without a clean (make -q: $rc)"
    out=$(make --no-print-directory BUILD="$b" ARCH=sm_80 V=1 "$target" 2>&1)
    printf '%s' "$out" | grep -q 'arch=compute_80,code=sm_80'
    ok $? "and rebuilds it for sm_80"
fi

done_testing
