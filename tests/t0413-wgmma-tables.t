#!/usr/bin/env bash
# t0413-wgmma-tables.t: the table steps of exercise 05.4's timing scripts
# (instructor/dev/05-wgmma/ablation.sh and by-n.sh, which the lesson's
# tables read) on hand-written logs of time.cu's lines: the median of an
# odd and of an even count of rounds, the rows and columns, and the
# refusals (no timing, a kernel missing, an O unlike its group's or one
# that changed between rounds) that leave no CSV behind. Without a GPU,
# both say so and exit 77 before building anything.
. tests/lib.sh

dir=instructor/dev/05-wgmma
[ -d $dir ] || skip_all "no $dir here (the student edition leaves instructor/ out)"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# One of time.cu's lines: KERNEL N D MASK TFLOPS HASH
line() { printf 'time %-8s N=%-5s d=%-3s %-8s 0.500 ms  %s TFLOP/s hash %s nonfinite 0\n' "$@"; }

# by-n.sh: three rounds of one shape (median 410.0), two of another (the
# mean of the middle two, 305.0), and a line that is not a timing.
{
    line ws 4096 64 causal 400.0 a
    line ws 4096 64 causal 420.0 a
    line ws 4096 64 causal 410.0 a
    line step1 2048 128 full 300.0 b
    echo "1980 MHz, 42, 306.71 W"
    line step1 2048 128 full 310.0 b
} >"$scratch/by-n.log"
bash $dir/by-n.sh table "$scratch/by-n.log" "$scratch/by-n.csv" >/dev/null
ok $? "by-n.sh table: exit 0 on a log of timings"
expected='MW_FLASH_WGMMA,N,d,mask,rounds,tflops
ws,4096,64,causal,3,410.0
step1,2048,128,full,2,305.0'
[ "$(cat "$scratch/by-n.csv" 2>/dev/null)" = "$expected" ]
ok $? "by-n.sh table: a row per kernel and shape, d first, the median of its rounds (odd and even counts)"
[ "$(cat "$scratch/by-n.csv" 2>/dev/null)" = "$expected" ] || diag <"$scratch/by-n.csv"

echo "no timings here" >"$scratch/empty.log"
bash $dir/by-n.sh table "$scratch/empty.log" "$scratch/empty.csv" 2>"$scratch/err"
rc=$?
[ $rc -ne 0 ] && [ ! -e "$scratch/empty.csv" ] && [ ! -e "$scratch/empty.csv.tmp" ] &&
    grep -q 'no timings in the log' "$scratch/err"
ok $? "by-n.sh table on a log without timings: refused (exit $rc), saying why, no CSV"

# ablation.sh: every kernel at every shape, two rounds, each kernel's O
# the hash of the kernel it must match (its group: the script's `same`),
# ws-eager its own at d = 128 without a mask (`wide`).
kernels=$(sed -n 's/^kernels="\(.*\)"$/\1/p' $dir/ablation.sh)
same=$(sed -n 's/^same="\(.*\)"$/\1/p' $dir/ablation.sh)
[ -n "$kernels" ] && [ -n "$same" ]
ok $? "ablation.sh names its kernels and their groups"
group() { # kernel d mask: whose O it must be
    case "$1 $2 $3" in "ws-eager 128 full") echo ws-eager; return ;; esac
    for pair in $same; do [ "${pair%%=*}" = "$1" ] && { echo "${pair#*=}"; return; }; done
    echo "$1"
}
ablation_log() { # rate of ws at N=4096 d=64 full in round 1, in round 2
    for round in 1 2; do
        for v in $kernels; do
            for n in 4096 16384; do for d in 64 128; do for m in full causal; do
                rate=500.0
                [ "$v $n $d $m" = "ws 4096 64 full" ] && { [ $round = 1 ] && rate=$1 || rate=$2; }
                line "$v" $n $d $m $rate "$(group "$v" $d $m)-$n-$d-$m"
            done; done; done
        done
    done
}
ablation_log 400.0 451.0 >"$scratch/abl.log"
bash $dir/ablation.sh table "$scratch/abl.log" "$scratch/abl.csv" >/dev/null
ok $? "ablation.sh table: exit 0 when every O is its group's"
rows=$(($(wc -l <"$scratch/abl.csv") - 1))
[ "$rows" -eq "$(echo $kernels | wc -w)" ] &&
    head -n 1 "$scratch/abl.csv" | grep -q -x 'MW_FLASH_WGMMA,what,N=4096 d=64,N=4096 d=64 causal,N=4096 d=128,N=4096 d=128 causal,N=16384 d=64,N=16384 d=64 causal,N=16384 d=128,N=16384 d=128 causal'
ok $? "ablation.sh table: a row per kernel ($rows), a column per shape"
grep -q '^ws,"[^"]*",425.5,500.0,' "$scratch/abl.csv"
ok $? "ablation.sh table: the median of two rounds is their mean (ws at N = 4096, d = 64: 425.5)"

# cuDNN's row, where the run timed it: after the kernels, every cell
# there, or the table is refused.
cudnn_log() { # two rounds of the shapes on stdin, a line "N d mask" each
    shapes=$(cat)
    for round in 1 2; do
        echo "$shapes" | while read -r n d m; do line cudnn $n $d $m 520.0 "cudnn-$n-$d-$m"; done
    done
}
all_shapes() { for n in 4096 16384; do for d in 64 128; do for m in full causal; do echo "$n $d $m"; done; done; done; }
{ ablation_log 400.0 451.0; all_shapes | cudnn_log; } >"$scratch/lib.log"
bash $dir/ablation.sh table "$scratch/lib.log" "$scratch/lib.csv" >/dev/null &&
    [ $(($(wc -l <"$scratch/lib.csv") - 1)) -eq $(($(echo $kernels | wc -w) + 1)) ] &&
    tail -n 1 "$scratch/lib.csv" | grep -q -x 'cudnn,"[^"]*",520.0,520.0,520.0,520.0,520.0,520.0,520.0,520.0'
ok $? "ablation.sh table: cuDNN's timings make a last row, cudnn, each cell the median of its rounds"
{ ablation_log 400.0 451.0; echo "4096 64 full" | cudnn_log; } >"$scratch/libpart.log"
bash $dir/ablation.sh table "$scratch/libpart.log" "$scratch/libpart.csv" 2>"$scratch/err" >/dev/null
rc=$?
[ $rc -ne 0 ] && [ ! -e "$scratch/libpart.csv" ] && grep -q 'timings missing' "$scratch/err"
ok $? "ablation.sh table: cuDNN timed at one shape of eight is refused (exit $rc), no CSV"

ablation_log 400.0 451.0 | sed '/^time ws-heads .*N=16384 d=64  causal/s/hash [^ ]*/hash other/' >"$scratch/bad.log"
bash $dir/ablation.sh table "$scratch/bad.log" "$scratch/bad.csv" 2>"$scratch/err" >/dev/null
rc=$?
[ $rc -ne 0 ] && [ ! -e "$scratch/bad.csv" ] && grep -q 'with an O unlike its group' "$scratch/err"
ok $? "ablation.sh table: a kernel whose O is not its group's is refused (exit $rc), no CSV"

ablation_log 400.0 451.0 | grep -v '^time ws-nopp ' >"$scratch/missing.log"
bash $dir/ablation.sh table "$scratch/missing.log" "$scratch/missing.csv" 2>/dev/null >/dev/null
rc=$?
[ $rc -ne 0 ] && [ ! -e "$scratch/missing.csv" ]
ok $? "ablation.sh table: a kernel missing from the log is refused (exit $rc), no CSV"

if have_gpu; then
    skip "without a GPU, both scripts exit 77: this machine has one (the scripts' own run times them)"
else
    for s in ablation.sh by-n.sh; do
        bash $dir/$s "$scratch/results" >/dev/null 2>"$scratch/err"
        rc=$?
        [ $rc -eq 77 ] && grep -q "$s: no GPU here" "$scratch/err" &&
            [ -z "$(ls -A "$scratch/results" 2>/dev/null)" ]
        ok $? "$s without a GPU: exit 77 (got $rc), saying so, nothing written"
    done
fi
done_testing
