#!/usr/bin/env bash
# t0415-verdict.t: mw-chapter verdict DIR (make verdict CH=NN) prints the
# verdict make bench ends with from a results folder's bench.csv, without a
# GPU: on every committed run; chapter 05's bf16 verdict, whose 05.4 column
# and ranges are checked against the CSV's own times; the rows a verdict
# may not rest on (not timed, faster than the roof) left out; and the
# refusals (no folder, another chapter's CSV, a file that is not a
# bench.csv), each one line on stderr and exit 2. TAP; run with prove.
. tests/lib.sh
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# ---- every committed run --------------------------------------------------------------
for dir in results/*/[0-9][0-9]-*; do
    [ -f "$dir/bench.csv" ] || continue
    ch=$(basename "$dir")
    if [ ! -x "build/$ch/mw-chapter" ]; then
        skip "build/$ch/mw-chapter is not built (make build)"
        continue
    fi
    out=$("build/$ch/mw-chapter" verdict "$dir" 2>&1)
    [ $? -eq 0 ] && printf '%s\n' "$out" | grep -q '^verdict'
    ok $? "verdict of $dir: exit 0, a verdict printed" || printf '%s\n' "$out" | tail -n 5 | diag
done

grader=build/05-attention/mw-chapter
if [ ! -x $grader ]; then
    skip_all "$grader is not built (make build)"
fi

# ---- chapter 05's bf16 verdict against its CSV --------------------------------------------
# A made-up run of the bf16 rows: 05.3, 05.4 and cuDNN at N = 4096 and
# 16384, each series; the rates and ratios the verdict must print follow.
mkdir -p "$scratch/gpu/05-attention"
run=$scratch/gpu/05-attention
{
    echo "chapter,impl,kind,size,shape,median_ms,gbps,gflops,timed,flag"
    for n in 4096 16384; do
        for s in "" -causal -d128 -d128-causal; do
            # 05.3 at 2 ms (400 TFLOP/s: 800 GFLOP a call), 05.4 and cuDNN by series
            case $s in
            "") w=1.25 c=1.2 ;; -causal) w=1.5 c=1.2 ;; -d128) w=1.0 c=1.1 ;; *) w=0.88 c=0.9 ;;
            esac
            echo "05-attention,reference/03_flash_bf16$s,reference,$n,x,2,1,400000,1,"
            echo "05-attention,reference/04_flash_wgmma$s,reference,$n,x,$w,1,$(awk -v w=$w 'BEGIN{print 800000/w}'),1,"
            echo "05-attention,library/cudnn_sdpa$s,library,$n,x,$c,1,$(awk -v c=$c 'BEGIN{print 800000/c}'),1,"
        done
    done
} >"$run/bench.csv"
out=$($grader verdict "$run" 2>&1)
ok $? "verdict of a made-up run: exit 0" || printf '%s\n' "$out" | diag
row=$(printf '%s\n' "$out" | grep -E '^ +4096 d=128 +400 ')
[ -n "$row" ] && set -- $row && [ "$3 $4 $5 $6 $7" = "400 800 727 55% 110%" ]
ok $? "the d = 128 row: 05.3 400, 05.4 800 and cuDNN 727 TFLOP/s; 55% and 110% of cuDNN" ||
    printf '%s\n' "$out" | diag
printf '%s\n' "$out" | grep -q '05.3.s mma.sync reaches 45 to 60% of cuDNN'
ok $? "05.3's range over the rows: 45 to 60%" || printf '%s\n' "$out" | diag
printf '%s\n' "$out" | tr '\n' ' ' | grep -q 'reaches 80 to  *110% of cuDNN (102 to 110% at d = 128)'
ok $? "05.4's range (80 to 110%) and at d = 128 alone (102 to 110%)" || printf '%s\n' "$out" | diag
printf '%s\n' "$out" | grep -q 'Call cuDNN where it can express your attention'
ok $? "05.4 below cuDNN somewhere: the verdict is to call cuDNN" || printf '%s\n' "$out" | diag

# Every series at cuDNN's speed or past it: either will do.
sed -i -e 's/^\(05-attention,library\/cudnn_sdpa[^,]*,library,[0-9]*,x,\)[0-9.]*/\15/' "$run/bench.csv"
out=$($grader verdict "$run" 2>&1)
printf '%s\n' "$out" | grep -q 'Where cuDNN can express your attention either will do'
ok $? "05.4 at or past cuDNN everywhere: either will do" || printf '%s\n' "$out" | diag

# Rows a verdict may not rest on: 05.4 not timed at 4096 d = 128, faster
# than the roof at 16384 d = 128; no 05.4 at all.
awk -F, -v OFS=, '$2 == "reference/04_flash_wgmma-d128" && $4 == 4096 { $9 = 0; $10 = "wrong" }
    $2 == "reference/04_flash_wgmma-d128" && $4 == 16384 { $10 = "faster-than-roof" } 1' \
    "$run/bench.csv" >"$run/b" && mv "$run/b" "$run/bench.csv"
out=$($grader verdict "$run" 2>&1)
set -- $(printf '%s\n' "$out" | grep -E '^ +4096 d=128 ')
[ "$4 $7" = "- -" ]
ok $? "a row not timed: its 05.4 cells are '-'" || printf '%s\n' "$out" | diag
set -- $(printf '%s\n' "$out" | grep -E '^ +16384 d=128 ')
[ "$4 $7" = "- -" ]
ok $? "a row faster than the roof: left out, as make bench leaves it" || printf '%s\n' "$out" | diag
grep -v 04_flash_wgmma "$run/bench.csv" >"$run/b" && mv "$run/b" "$run/bench.csv"
out=$($grader verdict "$run" 2>&1)
printf '%s\n' "$out" | grep -q '05.4 (wgmma, TMA, warp specialisation: sm_90a only) was not timed here'
ok $? "no 05.4 rows: the verdict says it was not timed" || printf '%s\n' "$out" | diag

# ---- refusals ---------------------------------------------------------------------------
refused() { # refused WHAT PATTERN ARGS...: exit 2, one stderr line matching PATTERN
    local what=$1 pattern=$2
    shift 2
    err=$($grader verdict "$@" 2>&1 >/dev/null)
    rc=$?
    [ $rc -eq 2 ] && [ "$(printf '%s\n' "$err" | wc -l)" -eq 1 ] && printf '%s' "$err" | grep -q -- "$pattern"
    ok $? "$what: exit 2 (got $rc), one line naming it" || printf '%s\n' "$err" | diag
}
refused "a folder without bench.csv" "no $scratch/none/bench.csv" "$scratch/none"
mkdir -p "$scratch/other"
printf 'chapter,impl,kind,size,shape,median_ms,gbps,gflops,timed,flag\n01-vector-add,a,reference,8,x,1,1,1,1,\n' \
    >"$scratch/other/bench.csv"
refused "another chapter's bench.csv" "is chapter 01-vector-add's, not 05-attention's" "$scratch/other"
printf 'impl,size\na,8\n' >"$scratch/other/bench.csv"
refused "a CSV without the bench's columns" "has no column 'chapter'" "$scratch/other"
printf 'chapter,impl,kind,size,shape,median_ms,gbps,gflops,timed,flag\n05-attention,a,b\n' \
    >"$scratch/other/bench.csv"
refused "a short row" "line 2 has 3 fields" "$scratch/other"
refused "no folder given" "give one results folder"

# ---- make verdict -----------------------------------------------------------------------
set -- results/*/05-attention/bench.csv
if [ -f "$1" ]; then
    gpu=${1#results/} gpu=${gpu%%/*}
    out=$(make -s --no-print-directory verdict CH=05 GPU=$gpu 2>&1)
    [ $? -eq 0 ] && printf '%s\n' "$out" | grep -q "the verdict of $1"
    ok $? "make verdict CH=05 GPU=$gpu reads that run" || printf '%s\n' "$out" | tail -n 5 | diag
else
    skip "no committed run of chapter 05"
fi
out=$(make -s --no-print-directory verdict CH=05 GPU=No_Such_GPU 2>&1)
[ $? -ne 0 ] && printf '%s\n' "$out" | grep -q 'no results for 05-attention on No_Such_GPU'
ok $? "make verdict with a GPU that has no results: fails, naming the ones that have" ||
    printf '%s\n' "$out" | diag

done_testing
