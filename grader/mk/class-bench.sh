#!/usr/bin/env bash
# grader/mk/class-bench.sh: how much several GPUs of a host speed up
# make grade, on a class of STUDENTS (default 32), for each chapter and each
# number of GPUs (make grade on GPU 0, GPUS=0,1, GPUS=0,1,2,3; GPUS=all where
# that is every GPU the host has), run from the repository root on the GPU
# machine:
#
#   bash grader/mk/class-bench.sh OUT.csv [CHAPTERS] [GPU_COUNTS] [STUDENTS]
#   bash grader/mk/class-bench.sh results/NVIDIA_H200/class-bench.csv "01 05" "1 2 4" 32
#
# The class: chapter 01's fixture class (tests/class/01-vector-add), for
# other chapters the reference solutions, the skeletons and the
# known-wrong submissions of tests/wrong/<chapter>/ (one file each, on the
# reference's other versions), taken in turn until there are STUDENTS
# (alice, alice-2, ...), so that the class mixes full marks, compile errors,
# wrong answers and students who hand in nothing. Each run grades the whole
# class (FORCE=1) into an OUT of its own, kept (grades/class-bench/<gpu>/
# <chapter>-<gpus>/, with its log; <gpu> is OUT.csv's folder, the GPU's
# name, so that runs on another kind of GPU never meet these), and is
# timed whole, wall clock.
# The CSV: gpus,chapter,students,wall_s,speedup,same_scores,differing,
# performance_gap,host, a row per (gpus, chapter), replaced by a new run of it,
# so that the runs can be made one at a time (BENCH_GPUS=1, then
# BENCH_GPUS="2 4") where a command may only run so long; the others are
# compared with the one-GPU run of the chapter, made before or after them
# (a one-GPU run compares again every row already there, with itself).
#
# What a row is computed from is kept beside the CSV, in OUT.csv's folder's
# class-bench/ (results/NVIDIA_H200/class-bench/), small enough to commit
# with the row: each run's gradebook (<chapter>-N.csv), each part's
# (<chapter>-N-partI.csv), the parts' wall times (<chapter>-N.parts, "P I
# SECONDS HOST" lines) and the students' step times (<chapter>-N-steps.csv,
# <chapter>-N-partI-steps.csv: student,build,check,sanitize,perf), so
# that a run's parts made on different days, on machines that keep no
# files between them, still make one row, and the scores a row compares
# can be read again. The students' reports and logs stay in the kept
# folder below.
# A run longer than a command may last is made in parts: BENCH_PART=I/P
# (with one GPU count, BENCH_GPUS=N) grades the I-th of P consecutive
# slices of the class on N GPUs, timed, into grades/class-bench/<gpu>/
# <chapter>-N-partI/, and notes its wall time in the record. The class's
# wall time is the sum of its parts'. On one GPU, which grades one student
# at a time, that is the whole run's (each part adds the batch's start, a
# few seconds); on several, each part also ends with GPUs idle while the
# last students finish, so the sum is longer than one run and the speedup
# it gives is a lower bound. Once every part is there, the row is written
# from the sum, with the run's gradebook and step times made of the
# parts'; the parts may be made in any order, one command each, on one
# kind of host.
# speedup is the one-GPU run's wall time over this run's; same_scores says
# whether every student's status and points are those of the one-GPU run,
# the performance points within the timing noise (grader/mk/same-scores.awk:
# 2% of them); differing counts the students whose are not (each named on
# stderr with both rows), performance_gap is the largest difference in
# performance points of any student. host is the machine the run was made
# on, as "<GPUs it has>gpu/<CPUs this script may use>cpu" (4gpu/64cpu): the
# other steps of grading (nvcc, the CPU's reference) share the host, so a
# speedup is one host's, and a row is compared only with a one-GPU run made
# on the same kind of host (else its speedup is left empty, said on
# stderr), and a part made on another kind of host than the run's first
# parts is refused. Exits 77 where nvidia-smi lists fewer GPUs than the
# largest count asked.
set -u
. tests/lib.sh

csv=${1:?usage: $0 OUT.csv [CHAPTERS] [GPU_COUNTS] [STUDENTS]}
chapters=${2:-01 05}
counts=${3:-1 2 4}
students=${4:-32}
part=${BENCH_PART:-}
if [ -n "$part" ]; then
    part_i=${part%/*} parts=${part#*/}
    if ! [ "$part_i" -ge 1 ] 2>/dev/null || ! [ "$parts" -ge "$part_i" ] 2>/dev/null ||
        ! [ "$counts" -ge 1 ] 2>/dev/null; then
        echo "class-bench: BENCH_PART=$part: give I/P with 1 <= I <= P, and one GPU count (BENCH_GPUS=N: the parts of one run)" >&2
        exit 2
    fi
fi
have=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU [0-9]*:')
host=${have}gpu/$(nproc)cpu
for n in $counts; do
    if [ "$n" -gt "$have" ]; then
        echo "class-bench: $n GPUs asked, nvidia-smi lists $have" >&2
        exit 77
    fi
done
work=$(mktemp -d)
chmod 755 "$work"
trap '[ -n "${CLASS_BENCH_KEEP:-}" ] || rm -rf "$work"' EXIT

# The submissions a class is made of, one folder or .cu file each, in $1.
seeds() { # seeds CHAPTER DIR
    local ch=$1 dir=$2 w name version src
    mkdir -p "$dir"
    if [ -d "tests/class/$ch" ]; then
        for s in "tests/class/$ch"/*; do
            case $s in *.md | *.csv) continue ;; esac
            cp -r "$s" "$dir/"
        done
        return
    fi
    # 00-: first in turn, in a class of any size.
    mkdir -p "$dir/00-reference" "$dir/00-skeleton"
    cp "solutions/$ch"/[0-9][0-9]_*.cu "$dir/00-reference/"
    cp "exercises/$ch"/[0-9][0-9]_*.cu "$dir/00-skeleton/"
    for w in $(known_wrong_dirs "$ch"); do
        name=$(basename "$w")
        version=$(sed -n 's/^version: *//p' "$w/expect")
        src=$(wrong_source "$w" "$work/derived") || continue
        mkdir -p "$dir/$name"
        cp "solutions/$ch"/[0-9][0-9]_*.cu "$dir/$name/"
        cp "$src" "$dir/$name/$version.cu"
    done
}

# STUDENTS entries, the seeds in turn.
make_class() { # make_class CHAPTER DIR
    local seed_dir=$work/seeds-$1 i=0 round=1 s base
    seeds "$1" "$seed_dir"
    mkdir -p "$2"
    while [ "$i" -lt "$students" ]; do
        for s in "$seed_dir"/*; do
            [ "$i" -lt "$students" ] || break
            base=$(basename "$s")
            if [ "$round" -gt 1 ]; then
                case $base in
                *.cu) base=${base%.cu}-$round.cu ;;
                *) base=$base-$round ;;
                esac
            fi
            cp -r "$s" "$2/$base"
            i=$((i + 1))
        done
        round=$((round + 1))
    done
    chmod -R a+rX "$2"
}

# The I-th of P consecutive slices of a class folder's entries, copied.
slice_class() { # slice_class FROM TO I P
    local k=0 e
    mkdir -p "$2"
    for e in "$1"/*; do
        [ $((k * $4 / students + 1)) -eq "$3" ] && cp -r "$e" "$2/"
        k=$((k + 1))
    done
    chmod -R a+rX "$2"
}

# grade_timed SUBMISSIONS OUT LOG LABEL: make grade of SUBMISSIONS into OUT
# on this run's GPUs (the loop's $ch, $gpus and $visible), its output in
# LOG; prints the wall seconds. Exit 1, saying so under LABEL, when a GPU
# was missing or lost (mw-batch's 77; make fails with 2 where a student is
# not graded, which is a result like any other).
grade_timed() {
    local start end
    start=$(date +%s.%N)
    CUDA_VISIBLE_DEVICES=$visible make -s --no-print-directory grade CH="$ch" SUBMISSIONS="$1" \
        OUT="$2" FORCE=1 ${gpus:+GPUS="$gpus"} >"$3" 2>&1
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }'
    grep -q 'Error 77' "$3" || return 0
    { echo "class-bench: $4: a GPU was missing or lost:"; tail -n 20 "$3"; } >&2
    return 1
}

# steps_of OUT: its students' step times, one row each
# (student,build,check,sanitize,perf), from students/*/steps.csv.
steps_of() {
    echo "student,build,check,sanitize,perf"
    local f name
    for f in "$1"/students/*/steps.csv; do
        [ -s "$f" ] || continue
        name=$(basename "$(dirname "$f")")
        awk -F, -v s="$name" 'FNR > 1 { v[$1] = $2 }
            END { printf "%s,%s,%s,%s,%s\n", s, v["build"], v["check"], v["sanitize"], v["perf"] }' "$f"
    done
}

# record_run OUT NAME: OUT's gradebook and step times into the record, as
# NAME.csv and NAME-steps.csv (an earlier NAME.csv removed where OUT has no
# gradebook: a run that lost its GPU compares with nothing).
record_run() {
    mkdir -p "$record"
    rm -f "$record/$2.csv"
    [ -s "$1/gradebook.csv" ] && cp "$1/gradebook.csv" "$record/$2.csv"
    steps_of "$1" >"$record/$2-steps.csv"
}

# Part I of P of a run on N GPUs, graded and timed: its gradebook and step
# times recorded, its wall time noted in $record/CHAPTER-N.parts ("P I
# SECONDS HOST" lines). When every part of P is there, the run's gradebook
# (their rows under one header) and step times are recorded, and the sum is
# printed; else nothing.
run_part() { # run_part CHAPTER N
    local chapter=$1 n=$2 wall i
    local notes=$record/$1-$2.parts out=$keep/$1-$2-part$part_i
    rm -rf "$out" "$work/part"
    slice_class "$work/class-$chapter" "$work/part" "$part_i" "$parts"
    wall=$(grade_timed "$work/part" "$out" "$out.log" "$chapter, part $part") || return 0
    record_run "$out" "$chapter-$n-part$part_i"
    touch "$notes"
    awk -v p="$parts" -v i="$part_i" '$1 == p && $2 != i' "$notes" >"$notes.tmp"
    echo "$parts $part_i $wall $host" >>"$notes.tmp"
    mv "$notes.tmp" "$notes"
    local unit=GPU
    [ "$n" -gt 1 ] && unit=GPUs
    echo "class-bench: $chapter on $n $unit, part $part: $(awk -v i="$part_i" '$2 == i { print $3 }' "$notes") s" >&2
    [ "$(wc -l <"$notes")" -eq "$parts" ] || return 0
    for i in $(seq 1 "$parts"); do
        [ -s "$record/$chapter-$n-part$i.csv" ] || {
            echo "class-bench: $chapter on $n $unit: part $i/$parts is noted but its gradebook $record/$chapter-$n-part$i.csv is missing: make that part again" >&2
            return 0
        }
    done
    for i in $(seq 1 "$parts"); do
        if [ "$i" -eq 1 ]; then
            cat "$record/$chapter-$n-part$i.csv"
        else
            tail -n +2 "$record/$chapter-$n-part$i.csv"
        fi
    done >"$record/$chapter-$n.csv"
    for i in $(seq 1 "$parts"); do
        tail -n +2 "$record/$chapter-$n-part$i-steps.csv" 2>/dev/null
    done | sed '1i student,build,check,sanitize,perf' >"$record/$chapter-$n-steps.csv"
    awk '{ s += $3 } END { printf "%.1f", s }' "$notes"
}

# The parts of a run already made on another kind of host than this one
# (or on one not noted), named on stderr: exit 1 where there is one.
other_host_parts() { # other_host_parts CHAPTER N
    local notes=$record/$1-$2.parts
    [ -s "$notes" ] || return 0
    awk -v p="$parts" -v i="$part_i" -v h="$host" -v f="$notes" \
        '$1 == p && $2 != i && $4 != h {
             printf "class-bench: part %s/%s of this run was made on %s, this host is %s: the parts of a run are made on one kind of host (start again: remove %s and its parts)\n",
                    $2, p, ($4 == "" ? "a host not noted" : $4), h, f > "/dev/stderr"; bad = 1 }
         END { exit bad }' "$notes"
}

# A row of the CSV: the one of (gpus, chapter) replaced, the others kept, so
# that the runs can be made one command at a time (BENCH_GPUS=1, then 2...).
put_row() { # put_row GPUS CHAPTER ROW
    [ -s "$csv" ] || echo "gpus,chapter,students,wall_s,speedup,same_scores,differing,performance_gap,host" >"$csv"
    awk -F, -v g="$1" -v c="$2" 'NR == 1 || !($1 == g && $2 == c)' "$csv" >"$csv.tmp" &&
        echo "$3" >>"$csv.tmp" && mv "$csv.tmp" "$csv"
    echo "$3"
}

# Where the run's time went: each step's seconds summed over the class,
# and the slowest student, from the recorded step times STEPS.csv.
step_totals() { # step_totals STEPS.csv
    awk -F, 'FNR == 1 { next }
             { b += $2; c += $3; s += $4; p += $5; all = $2 + $3 + $4 + $5; rows++
               if (all > worst) { worst = all; who = $1 } }
             END { if (!rows) exit
                   printf "  steps, summed over the class: build %.0f s, check %.0f s, " \
                          "sanitize %.0f s, perf %.0f s; slowest student %s, %.0f s\n",
                          b, c, s, p, who, worst }' "$1" 2>/dev/null || true
}

# The CSV row of a run on N GPUs of WALL seconds made on HOST, its gradebook
# recorded, against the chapter's one-GPU run (its recorded gradebook, its
# wall time and host given or in the CSV): no speedup yet where
# that run is not made, nor where it was made on another kind of host.
compare_row() { # compare_row CHAPTER N WALL HOST
    local chapter=$1 n=$2 wall=$3 row_host=$4 book=$record/$1-$2.csv base=$record/$1-1.csv
    local speedup= same= differing= widest= base_wall base_host
    read -r base_wall base_host < <(awk -F, -v c="$chapter" '$1 == 1 && $2 == c { print $4, $9 }' \
        "$csv" 2>/dev/null)
    [ "$n" -eq 1 ] && base_wall=$wall base_host=$row_host
    if [ -n "$base_wall" ] && [ "$base_host" != "$row_host" ]; then
        echo "class-bench: $chapter on $n GPU(s) was made on ${row_host:-a host not noted}, the one-GPU run on ${base_host:-a host not noted}: not compared" >&2
        base_wall=
    fi
    if [ -s "$base" ] && [ -n "$base_wall" ]; then
        speedup=$(awk -v a="$base_wall" -v b="$wall" 'BEGIN { printf "%.2f", a / b }')
        differing=$students # no gradebook: nothing matches
        if [ -s "$book" ]; then
            read -r differing widest < <(awk -f grader/mk/same-scores.awk "$base" \
                "$book" 2> >(sed "1i class-bench: $chapter on $n GPU(s) differs from the one-GPU run:" >&2))
        fi
        same=$([ "$differing" -eq 0 ] && echo yes || echo no)
    fi
    echo "$n,$chapter,$students,$wall,$speedup,$same,$differing,$widest,$row_host"
}

# Each run's OUT, kept with its reports and logs (where make grade's own
# go, not in results/, or in CLASS_BENCH_DIR), a folder a GPU, as the CSV
# is; what the rows are computed from is recorded beside the CSV.
keep=${CLASS_BENCH_DIR:-grades/class-bench/$(basename "$(dirname "$csv")")}
record=$(dirname "$csv")/class-bench
for ch in $chapters; do
    chapter=$(sh grader/mk/chapter.sh "$ch")
    [ -n "$chapter" ] || { echo "class-bench: no chapter $ch" >&2; exit 2; }
    make_class "$chapter" "$work/class-$chapter"
    make -s --no-print-directory grade-build CH="$ch" build/tools/mw-batch || exit 2
    for n in $counts; do
        # One GPU: the plain make grade, the run the others must match.
        # Every GPU the host has: GPUS=all, as an instructor would write it.
        gpus=
        [ "$n" -gt 1 ] && gpus=$(seq -s, 0 $((n - 1)))
        [ "$n" -gt 1 ] && [ "$n" -eq "$have" ] && gpus=all
        out=$keep/$chapter-$n
        mkdir -p "$keep"
        visible=${gpus:-0}
        [ "$gpus" = all ] && visible=$(seq -s, 0 $((have - 1)))
        if [ -n "$part" ]; then
            other_host_parts "$chapter" "$n" || exit 2
            wall=$(run_part "$chapter" "$n")
            [ -n "$wall" ] || continue # parts left: no row yet
        else
            rm -rf "$out"
            # A GPU lost: said, and the row written all the same.
            wall=$(grade_timed "$work/class-$chapter" "$out" "$keep/$chapter-$n.log" \
                "$chapter on $n GPU(s)") || true
            # Made whole, it replaces a run made in parts.
            rm -f "$record/$chapter-$n.parts" "$record/$chapter-$n"-part*.csv
            record_run "$out" "$chapter-$n"
        fi
        # Against the one-GPU run of this chapter, made now or before.
        put_row "$n" "$chapter" "$(compare_row "$chapter" "$n" "$wall" "$host")"
        step_totals "$record/$chapter-$n-steps.csv"
        # A one-GPU run made after the others: their rows compared now,
        # each with this run alone (a row whose gradebook is not recorded
        # matches nothing; one from another kind of host gets no speedup),
        # so that no row keeps a comparison with a one-GPU run now replaced.
        [ "$n" -eq 1 ] || continue
        awk -F, -v c="$chapter" 'NR > 1 && $2 == c && $1 != 1 { print $1, $4, $9 }' "$csv" |
            while read -r other other_wall other_host; do
                put_row "$other" "$chapter" \
                    "$(compare_row "$chapter" "$other" "$other_wall" "$other_host")"
            done
    done
done
