#!/usr/bin/env bash
# grader/mk/class-bench.sh's one-GPU run in parts (BENCH_PART=I/P), with
# stand-ins for nvidia-smi and make, so that it runs without a GPU: each
# part grades its own consecutive slice of the class, the row waits for the
# last part, then holds the sum of the parts' wall times, and the one-GPU
# gradebook that the runs on several GPUs are matched against holds every
# student of the class once. A part given wrong is refused. On two GPUs, in
# parts: each graded on both, the row the sum, matched with one GPU's. The
# runs in either order: a one-GPU run made last compares the rows there.
# Without CLASS_BENCH_DIR, the runs are kept in a folder of the CSV's GPU.
# What a row is computed from (gradebooks, the parts' times, step times) is
# recorded beside the CSV, in class-bench/, and is enough: with the kept
# folder gone (another machine), the last part still makes the row.
# Each row names its host (GPUs and CPUs); a part made on another kind of
# host than its run's other parts is refused, and a row is not compared
# with a one-GPU run made on another kind of host.
. tests/lib.sh
[ -d tests/class/01-vector-add ] || skip_all "no fixture class (student edition)"

scratch=$(mktemp -d)
gpu_keep=grades/class-bench/Stand-in-$$
trap 'rm -rf "$scratch" "$gpu_keep"' EXIT
mkdir -p "$scratch/bin"
# A host of STANDIN_GPUS GPUs (2 unless told).
cat >"$scratch/bin/nvidia-smi" <<'END'
#!/bin/sh
i=0
while [ "$i" -lt "${STANDIN_GPUS:-2}" ]; do
    echo "GPU $i: Stand-in (UUID: GPU-$i)"
    i=$((i + 1))
done
END
cpus=$(nproc)
# make grade: a gradebook row and a steps.csv per entry of SUBMISSIONS, after
# a second; the grader's build: nothing.
cat >"$scratch/bin/make" <<'END'
#!/bin/sh
subs= out=
for a in "$@"; do
    case $a in
    SUBMISSIONS=*) subs=${a#SUBMISSIONS=} ;;
    OUT=*) out=${a#OUT=} ;;
    esac
done
[ -n "$out" ] || exit 0
mkdir -p "$out/students"
echo "student,total,max,status" >"$out/gradebook.csv"
for e in "$subs"/*; do
    name=$(basename "$e" .cu)
    echo "$name,10,10,graded" >>"$out/gradebook.csv"
    mkdir -p "$out/students/$name"
    printf 'step,seconds\nbuild,1\ncheck,2\nsanitize,3\nperf,4\n' >"$out/students/$name/steps.csv"
done
echo "$subs" >"$out/graded-from"
echo "$*" >"$out/args"
sleep 1
END
chmod +x "$scratch/bin/nvidia-smi" "$scratch/bin/make"

bench() { # bench PART: the script on chapter 01, one GPU, a class of 5
    PATH=$scratch/bin:$PATH CLASS_BENCH_DIR=$scratch/keep BENCH_PART=$1 \
        bash grader/mk/class-bench.sh "$scratch/bench.csv" 01 1 5 2>"$scratch/err"
}
entries() { ls "$scratch/keep/01-vector-add-1-part$1/students" | tr '\n' ' '; }
rec=$scratch/class-bench # the record, beside bench.csv

bench 2/2 >/dev/null
[ ! -s "$scratch/bench.csv" ]
ok $? "part 2 of 2 alone writes no row" || diag <"$scratch/bench.csv"
grep -q -E '^class-bench: 01-vector-add on 1 GPU, part 2/2: [0-9.]+ s$' "$scratch/err"
ok $? "part 2 of 2 says its time" || diag <"$scratch/err"
STANDIN_GPUS=4 bench 1/2 >/dev/null
[ $? = 2 ] && grep -q "part 2/2 of this run was made on 2gpu/${cpus}cpu, this host is 4gpu/${cpus}cpu" "$scratch/err" &&
    [ ! -e "$scratch/keep/01-vector-add-1-part1" ] && [ "$(wc -l <"$rec/01-vector-add-1.parts")" = 1 ]
ok $? "part 1 of 2 on another kind of host (4 GPUs) is refused, naming both, grading nothing" || diag <"$scratch/err"
row=$(bench 1/2 | head -n 1)
grep -q -E "^1,01-vector-add,5,[0-9.]+,1.00,yes,0,[0-9.]*,2gpu/${cpus}cpu\$" <<<"$row"
ok $? "with part 1 of 2, the row is written, its host named: $row" || diag <"$scratch/err"

p1=$(entries 1) p2=$(entries 2)
n1=$(wc -w <<<"$p1") n2=$(wc -w <<<"$p2")
[ "$n1" = 3 ] && [ "$n2" = 2 ] && [ -z "$(comm -12 <(tr ' ' '\n' <<<"$p1" | sort) <(tr ' ' '\n' <<<"$p2" | sort) | grep .)" ]
ok $? "the parts are 3 and 2 students, none in both ($p1| $p2)"
sum=$(awk '{ s += $3 } END { printf "%.1f", s }' "$rec/01-vector-add-1.parts")
wall=$(cut -d, -f4 <<<"$row")
[ "$wall" = "$sum" ] && awk -v w="$wall" 'BEGIN { exit !(w >= 2) }'
ok $? "the row's wall time is the parts' sum ($wall s, parts $sum s, each at least 1 s)"
book=$rec/01-vector-add-1.csv
[ "$(head -n 1 "$book")" = "student,total,max,status" ] && [ "$(tail -n +2 "$book" | cut -d, -f1 | sort -u | wc -l)" = 5 ] &&
    [ "$(grep -c . "$book")" = 6 ]
ok $? "the one-GPU gradebook: one header, every student once" || diag <"$book"
steps=$rec/01-vector-add-1-steps.csv
[ "$(head -n 1 "$steps")" = "student,build,check,sanitize,perf" ] &&
    [ "$(tail -n +2 "$steps" | cut -d, -f1 | sort -u | wc -l)" = 5 ] && grep -q '^alice,1,2,3,4$' "$steps"
ok $? "the one-GPU run's step times: all five students, each step's seconds" || diag <"$steps"

bench 3/2 >/dev/null
[ $? = 2 ] && grep -q 'give I/P with 1 <= I <= P' "$scratch/err"
ok $? "BENCH_PART=3/2 is refused, saying why" || diag <"$scratch/err"
PATH=$scratch/bin:$PATH CLASS_BENCH_DIR=$scratch/keep BENCH_PART=1/2 \
    bash grader/mk/class-bench.sh "$scratch/bench.csv" 01 "1 2" 5 >/dev/null 2>"$scratch/err"
[ $? = 2 ] && grep -q 'one GPU count' "$scratch/err"
ok $? "BENCH_PART with more than one GPU count is refused" || diag <"$scratch/err"

# On two GPUs, in parts: each part graded with GPUS=all on both, the row
# (the sum) compared with the one-GPU run above, made on the same host.
bench2() {
    PATH=$scratch/bin:$PATH CLASS_BENCH_DIR=$scratch/keep BENCH_PART=$1 \
        bash grader/mk/class-bench.sh "$scratch/bench.csv" 01 2 5 2>"$scratch/err"
}
bench2 1/2 >/dev/null
grep -q -E '^class-bench: 01-vector-add on 2 GPUs, part 1/2: [0-9.]+ s$' "$scratch/err" &&
    ! grep -q '^2,' "$scratch/bench.csv"
ok $? "part 1 of 2 on two GPUs says its time and writes no row" || diag <"$scratch/err"
row2=$(bench2 2/2 | head -n 1)
sum2=$(awk '{ s += $3 } END { printf "%.1f", s }' "$rec/01-vector-add-2.parts")
grep -q -E "^2,01-vector-add,5,$sum2,[0-9.]+,yes,0," <<<"$row2" && grep -q '^1,01-vector-add,' "$scratch/bench.csv"
ok $? "with part 2, the two-GPU row: the parts' sum ($sum2 s), the same scores as one GPU: $row2" || diag <"$scratch/err"
grep -q -x 'GPUS=all' <(tr ' ' '\n' <"$scratch/keep/01-vector-add-2-part1/args")
ok $? "each part on two GPUs is graded with GPUS=all" || diag <"$scratch/keep/01-vector-add-2-part1/args"
# The runs in any order: on two GPUs first, no one-GPU run yet (no
# speedup), then on one GPU, which compares the two-GPU row it finds.
fresh=$scratch/fresh
mkdir -p "$fresh"
run_fresh() { # run_fresh GPU_COUNT
    PATH=$scratch/bin:$PATH CLASS_BENCH_DIR=$fresh/keep \
        bash grader/mk/class-bench.sh "$fresh/bench.csv" 01 "$1" 5 2>"$scratch/err"
}
row2=$(run_fresh 2 | head -n 1)
grep -q -E "^2,01-vector-add,5,[0-9.]+,,,,,2gpu/${cpus}cpu\$" <<<"$row2"
ok $? "on two GPUs before any one-GPU run: the row has no speedup yet ($row2)" || diag <"$scratch/err"
STANDIN_GPUS=4 run_fresh 1 >/dev/null
grep -q -E "^2,01-vector-add,5,[0-9.]+,,,,,2gpu/${cpus}cpu\$" "$fresh/bench.csv" &&
    grep -q "made on 2gpu/${cpus}cpu, the one-GPU run on 4gpu/${cpus}cpu: not compared" "$scratch/err"
ok $? "a one-GPU run on another kind of host leaves it without a speedup, saying why" || diag <"$scratch/err"
run_fresh 1 >/dev/null
row2=$(grep '^2,' "$fresh/bench.csv")
wall1=$(awk -F, '$1 == 1 { print $4 }' "$fresh/bench.csv")
wall2=$(cut -d, -f4 <<<"$row2")
want=$(awk -v a="$wall1" -v b="$wall2" 'BEGIN { printf "%.2f", a / b }')
grep -q -E "^2,01-vector-add,5,$wall2,$want,yes,0," <<<"$row2"
ok $? "the one-GPU run made after it fills the two-GPU row: $row2 (speedup $wall1 / $wall2)" || diag <"$scratch/err"
[ "$(grep -c '^2,' "$fresh/bench.csv")" = 1 ]
ok $? "the two-GPU row is replaced, not added" || diag <"$fresh/bench.csv"
# A row left from a one-GPU run since replaced (its gradebook not
# recorded, made on another kind of host) keeps no comparison with it.
echo "4,01-vector-add,5,1.0,9.99,yes,0,0,4gpu/${cpus}cpu" >>"$fresh/bench.csv"
run_fresh 1 >/dev/null
grep -q -x "4,01-vector-add,5,1.0,,,,,4gpu/${cpus}cpu" "$fresh/bench.csv" &&
    grep -q "01-vector-add on 4 GPU(s) was made on 4gpu/${cpus}cpu, the one-GPU run on 2gpu/${cpus}cpu: not compared" "$scratch/err"
ok $? "a new one-GPU run clears the speedup of a row it cannot compare, saying why" || diag <"$fresh/bench.csv"

# The record alone makes the row: part 1 of a new run, the kept folder
# removed (the next part made on another machine), then part 2.
rm -f "$rec"/01-vector-add-1*
bench 1/2 >/dev/null
rm -rf "$scratch/keep"
row=$(bench 2/2 | head -n 1)
sum=$(awk '{ s += $3 } END { printf "%.1f", s }' "$rec/01-vector-add-1.parts")
grep -q -E "^1,01-vector-add,5,$sum,1.00,yes,0," <<<"$row" && [ "$(grep -c . "$rec/01-vector-add-1.csv")" = 6 ] &&
    grep -q -E "^2,01-vector-add,5,$sum2,[0-9.]+,yes,0," "$scratch/bench.csv"
ok $? "with the kept folder gone, part 2 makes the row from the record, and the two-GPU row is compared with it: $row" ||
    diag <"$scratch/err"
grep -q -E '^  steps, summed over the class: build 5 s, check 10 s, sanitize 15 s, perf 20 s; slowest student [a-z0-9-]+, 10 s$' <(bench 2/2)
ok $? "the step totals come from the record" || diag <"$scratch/err"
PATH=$scratch/bin:$PATH CLASS_BENCH_DIR=$scratch/keep \
    bash grader/mk/class-bench.sh "$scratch/bench.csv" 01 1 5 >/dev/null 2>"$scratch/err"
[ ! -e "$rec/01-vector-add-1.parts" ] && ! ls "$rec"/01-vector-add-1-part* >/dev/null 2>&1 &&
    [ "$(grep -c . "$rec/01-vector-add-1.csv")" = 6 ]
ok $? "a run made whole replaces the parts' record" || ls "$rec" | diag

# The default folder: grades/class-bench/<the CSV's folder>, the GPU's name
# in results/<gpu>/class-bench.csv, so that another GPU's parts never join.
mkdir -p "$scratch/Stand-in-$$"
PATH=$scratch/bin:$PATH BENCH_PART=1/2 \
    bash grader/mk/class-bench.sh "$scratch/Stand-in-$$/class-bench.csv" 01 1 5 >/dev/null 2>"$scratch/err"
[ -s "$scratch/Stand-in-$$/class-bench/01-vector-add-1.parts" ] && [ -d "$gpu_keep/01-vector-add-1-part1/students" ]
ok $? "without CLASS_BENCH_DIR, the parts are kept in grades/class-bench/<gpu>/, noted beside the CSV" ||
    diag <"$scratch/err"
done_testing
