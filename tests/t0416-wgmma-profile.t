#!/usr/bin/env bash
# t0416-wgmma-profile.t: the table step of exercise 05.4's Nsight Compute
# script (instructor/dev/05-wgmma/profile.sh) on hand-written raw pages
# (ncu --csv --page raw: a row of metric names, one of units, one of
# values), read with RAW= as from an earlier run: the metrics it keeps,
# the stall reasons too small to keep, D=128's kernels (ws and cuDNN), and
# the refusals (an unknown D, a raw page missing or with no reading) that
# leave the last CSV as it was. PAGE=source: hand-written source pages
# (--csv --page source --print-source sass) as the classes of instruction
# with their samples (sass-stalls.awk), and its refusals alike.
. tests/lib.sh

script=$PWD/instructor/dev/05-wgmma/profile.sh
[ -f "$script" ] || skip_all "no instructor/ here (the student edition leaves it out)"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# raw_page KERNEL_TIME: a raw page with a line of the program's own first,
# a metric kept, one left out, a stall reason kept and one too small.
raw_page() {
    echo "time ws N=4096 d=128 full 0.824 ms 666.8 TFLOP/s"
    echo '"ID","Kernel Name","gpu__time_duration.sum","sm__not_a_kept.sum","dram__bytes_read.sum","smsp__average_warps_issue_stalled_wait_per_issue_active.ratio","smsp__average_warps_issue_stalled_drain_per_issue_active.ratio"'
    echo '"","","ns","cycle","byte","inst","inst"'
    echo "\"0\",\"k\",\"$1\",\"5\",\"201,475,840\",\"2.22\",\"0.001\""
}
mkdir -p "$scratch/raw" "$scratch/run"
for k in ws cudnn; do
    raw_page "1,000" >"$scratch/raw/raw-$k-full.csv"
    raw_page "2,000" >"$scratch/raw/raw-$k-causal.csv"
done
csv=$scratch/run/results/TEST/05-attention/ncu-wgmma-d128.csv

(cd "$scratch/run" && RAW="$scratch/raw" GPU=TEST D=128 sh "$script") >/dev/null 2>"$scratch/err"
ok $? "D=128 from raw pages: exit 0"
expected='path,metric,value,unit'
for k in ws cudnn; do
    for m in full causal; do
        [ $m = full ] && t=1000 || t=2000
        expected="$expected
$k-$m,gpu__time_duration.sum,$t,ns
$k-$m,dram__bytes_read.sum,201475840,byte
$k-$m,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio,2.22,inst"
    done
done
[ "$(cat "$csv" 2>/dev/null)" = "$expected" ]
ok $? "D=128: ws and cuDNN, each without the mask and with it; the kept metrics, commas gone from the numbers; the small stall reason and the other metric left out"
[ "$(cat "$csv" 2>/dev/null)" = "$expected" ] || diag <"$csv"

cp "$csv" "$scratch/good.csv"
(cd "$scratch/run" && RAW="$scratch/raw" GPU=TEST D=96 sh "$script") >/dev/null 2>"$scratch/err"
rc=$?
[ $rc -eq 2 ] && grep -q 'give D=64 or D=128' "$scratch/err" && cmp -s "$csv" "$scratch/good.csv"
ok $? "D=96: refused (exit $rc), saying which D it takes, the CSV kept"

rm "$scratch/raw/raw-cudnn-causal.csv"
(cd "$scratch/run" && RAW="$scratch/raw" GPU=TEST D=128 sh "$script") >/dev/null 2>"$scratch/err"
rc=$?
[ $rc -eq 2 ] && grep -q 'no .*raw-cudnn-causal.csv' "$scratch/err" && cmp -s "$csv" "$scratch/good.csv" &&
    [ ! -e "$csv.tmp" ]
ok $? "a raw page missing: refused (exit $rc), naming it, the last CSV kept whole"

echo "==PROF== No kernels were profiled." >"$scratch/raw/raw-cudnn-causal.csv"
(cd "$scratch/run" && RAW="$scratch/raw" GPU=TEST D=128 sh "$script") >/dev/null 2>"$scratch/err"
rc=$?
[ $rc -eq 2 ] && grep -q 'holds no reading' "$scratch/err" && cmp -s "$csv" "$scratch/good.csv" &&
    [ ! -e "$csv.tmp" ]
ok $? "a raw page in which ncu read no kernel: refused (exit $rc), the last CSV kept whole"

# src_page: a source page with the program's own line and ncu's kernel line
# first; two MUFU.EX2 (one predicated), a wait_group 1, an FADD and an
# instruction never sampled; a "(Not Issued)" column, larger than any at
# the FADD, that is not a stall reason of its own; an instruction count
# with a thousands separator.
src_page() {
    echo "time ws N=4096 d=128 full 0.824 ms 666.8 TFLOP/s"
    echo '"Kernel Name","void k(int)"'
    echo '"Address","Source","Warp Stall Sampling (All Samples)","Warp Stall Sampling (Not-issued Samples)","Instructions Executed","stall_barrier","stall_wait","stall_selected","stall_wait (Not Issued)"'
    echo '"0x10","      MUFU.EX2 R1, R1","30","28","1,000","0","28","2","28"'
    echo '"0x20","@P0   MUFU.EX2 R2, R2","10","8","1,000","0","8","2","8"'
    echo '"0x30","      WARPGROUP.DEPBAR.LE gsb0, 0x1","50","50","10","50","0","0","0"'
    echo '"0x40","      FADD R3, R1, R2","10","2","2000","0","2","3","9"'
    echo '"0x50","      LDC R1, c[0x0][0x28]","0","0","5","0","0","0","0"'
}
mkdir -p "$scratch/src"
for k in ws cudnn; do
    for m in full causal; do src_page >"$scratch/src/src-$k-$m.csv"; done
done
sass=$scratch/run/results/TEST/05-attention/ncu-wgmma-d128-sass.csv
(cd "$scratch/run" && RAW="$scratch/src" GPU=TEST D=128 PAGE=source sh "$script") >/dev/null 2>"$scratch/err"
ok $? "PAGE=source from source pages: exit 0"
expected='path,class,samples,share_pct,executed,top_stall'
for k in ws cudnn; do
    for m in full causal; do
        expected="$expected
$k-$m,WARPGROUP.DEPBAR<=1,50,50.0,10,barrier
$k-$m,MUFU.EX2,40,40.0,2000,wait
$k-$m,FADD,10,10.0,2000,selected"
    done
done
[ "$(cat "$sass" 2>/dev/null)" = "$expected" ]
ok $? "PAGE=source: each kernel and mask's classes, most samples first, predicates and modifiers gone, wait_group's count kept, the unsampled class left out, the Not Issued column not counted"
[ "$(cat "$sass" 2>/dev/null)" = "$expected" ] || diag <"$sass"
cmp -s "$csv" "$scratch/good.csv"
ok $? "PAGE=source leaves the metrics CSV alone"

cp "$sass" "$scratch/good-sass.csv"
(cd "$scratch/run" && RAW="$scratch/src" GPU=TEST D=128 PAGE=details sh "$script") >/dev/null 2>"$scratch/err"
rc=$?
[ $rc -eq 2 ] && grep -q 'give PAGE=raw or PAGE=source' "$scratch/err" && cmp -s "$sass" "$scratch/good-sass.csv"
ok $? "PAGE=details: refused (exit $rc), saying which pages it takes"

echo "==PROF== No kernels were profiled." >"$scratch/src/src-ws-causal.csv"
(cd "$scratch/run" && RAW="$scratch/src" GPU=TEST D=128 PAGE=source sh "$script") >/dev/null 2>"$scratch/err"
rc=$?
[ $rc -eq 2 ] && grep -q 'holds no reading' "$scratch/err" && cmp -s "$sass" "$scratch/good-sass.csv" &&
    [ ! -e "$sass.tmp" ]
ok $? "a source page without an instruction: refused (exit $rc), the last CSV kept whole"

rm "$scratch/src/src-ws-causal.csv"
(cd "$scratch/run" && RAW="$scratch/src" GPU=TEST D=128 PAGE=source sh "$script") >/dev/null 2>"$scratch/err"
rc=$?
[ $rc -eq 2 ] && grep -q 'no .*src-ws-causal.csv' "$scratch/err" && cmp -s "$sass" "$scratch/good-sass.csv"
ok $? "a source page missing: refused (exit $rc), naming it, the last CSV kept whole"
done_testing
