#!/usr/bin/env bash
# The roofs (grader/roofs.c), measured by `mw-chapter roofs`. Without a GPU:
# it says what it would measure, each roof with its instruction, and exits
# 77. On a GPU: every roof is measured, each printed with its instruction,
# and cached; each compute roof measured is positive, and the FFMA roof is
# at least the rate of cuBLAS's FP32 GEMM measured in the same run (a
# microkernel of FFMA below a real GEMM made of FFMA is broken); so is
# mma.sync's bf16 roof above TF32's, its instruction doing twice the work.
# TAP; run with prove from the repository root.
. tests/lib.sh

first=$(chapters | head -n 1)
prog=build/$first/mw-chapter
[ -x "$prog" ] || { plan 1; ok 1 "$prog is not built (run 'make build')"; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
instructions='FFMA|mma.sync m16n8k8 tf32|mma.sync m16n8k16 bf16|wgmma m64n256k8 tf32|wgmma m64n256k16 bf16|16-byte loads|16-byte stores|cudaMemcpy'

if ! have_gpu; then
    "$prog" roofs --results "$scratch" >"$scratch/out" 2>&1
    ok $(($? != 77)) "no GPU: mw-chapter roofs exits 77" || diag <"$scratch/out"
    for roof in copy read write fp32 tf32_mma bf16_mma tf32_wgmma bf16_wgmma; do
        grep -Eq "^  $roof +($instructions) " "$scratch/out"
        ok $? "no GPU: it says it would measure $roof, with its instruction"
    done
    grep -q 'bf16_wgmma .*needs sm_90a' "$scratch/out"
    ok $? "no GPU: and what a roof needs (wgmma: sm_90a)"
    [ -z "$(ls -A "$scratch" | grep -v '^out$')" ]
    ok $? "no GPU: nothing is cached"
    skip "$GPU_REASON: the roofs measured on a GPU"
    done_testing
    exit
fi

"$prog" roofs --results "$scratch" --force >"$scratch/out" 2>&1
ok $? "mw-chapter roofs measures the roofs" || diag <"$scratch/out"
csv=$(ls "$scratch"/*/roofs.csv 2>/dev/null | head -n 1)
[ -s "$csv" ]
ok $? "and caches them in <results>/<gpu>/roofs.csv"
for roof in copy read write fp32 tf32_mma bf16_mma tf32_wgmma bf16_wgmma; do
    grep -Eq "^  $roof +($instructions) " "$scratch/out"
    ok $? "$roof printed with its instruction"
done
# value METRIC: its value in roofs.csv (blank: not on this GPU).
value() { awk -F, -v m="$1" '$1 == m { print $2 }' "$csv"; }
for m in copy_gbps read_gbps write_gbps fp32_ffma_gflops; do
    awk -v v="$(value $m)" 'BEGIN { exit !(v + 0 > 0) }'
    ok $? "$m is measured and positive ($(value $m))"
done
cc=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader -i 0 2>/dev/null | head -n 1 | tr -d ' .')
for m in tf32_mma_gflops bf16_mma_gflops tf32_wgmma_gflops bf16_wgmma_gflops; do
    v=$(value $m)
    case $m in
    *_mma_*) needed=$([ "${cc:-0}" -ge 80 ] && echo 1) ;;
    *) needed=$([ "${cc:-0}" = 90 ] && echo 1) ;;
    esac
    if [ -n "$needed" ]; then
        awk -v v="$v" 'BEGIN { exit !(v + 0 > 0) }'
        ok $? "$m is measured and positive on this GPU (compute capability $cc): $v"
    elif [ -z "$v" ]; then
        ok 0 "$m: not on this GPU (compute capability $cc), blank"
    else
        awk -v v="$v" 'BEGIN { exit !(v + 0 > 0) }'
        ok $? "$m: measured and positive ($v)"
    fi
done
# cuBLAS's FP32 GEMM, printed beside the roofs as a library's point.
sgemm=$(sed -n 's/^  cublasSgemm .* \([0-9.]*\) TFLOP\/s .*/\1/p' "$scratch/out")
[ -n "$sgemm" ]
ok $? "cublasSgemm's rate is printed as a library's measured point" || diag <"$scratch/out"
ffma=$(value fp32_ffma_gflops)
awk -v f="$ffma" -v s="$sgemm" 'BEGIN { exit !(f / 1e3 >= s) }'
ok $? "the FFMA roof ($ffma GFLOP/s) is at least cuBLAS SGEMM's rate ($sgemm TFLOP/s)"
! grep -Eq '^(fp32|tf32|bf16)_gflops,' "$csv"
ok $? "no library rate is cached as a roof"
tf=$(value tf32_mma_gflops) bf=$(value bf16_mma_gflops)
if [ -n "$tf" ] && [ -n "$bf" ]; then
    awk -v t="$tf" -v b="$bf" 'BEGIN { exit !(b > t) }'
    ok $? "bf16 mma.sync ($bf) above TF32 mma.sync ($tf)"
else
    skip "no mma.sync on this GPU"
fi
done_testing
