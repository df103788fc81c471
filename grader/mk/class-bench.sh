#!/usr/bin/env bash
# grader/mk/class-bench.sh: how much several GPUs of a host speed up
# make grade, on a class of STUDENTS (default 32), for each chapter and each
# number of GPUs (make grade on GPU 0, GPUS=0,1, GPUS=0,1,2,3), run from the
# repository root on the GPU machine:
#
#   bash grader/mk/class-bench.sh OUT.csv [CHAPTERS] [GPU_COUNTS] [STUDENTS]
#   bash grader/mk/class-bench.sh results/class-bench.csv "01 05" "1 2 4" 32
#
# The class: chapter 01's fixture class (tests/class/01-vector-add), for
# other chapters the reference solutions, the skeletons and the
# known-wrong submissions of tests/wrong/<chapter>/ (one file each, on the
# reference's other versions), taken in turn until there are STUDENTS
# (alice, alice-2, ...), so that the class mixes full marks, compile errors,
# wrong answers and students who hand in nothing. Each run grades the whole
# class (FORCE=1) into an OUT of its own, and is timed whole, wall clock.
# The CSV: gpus,chapter,students,wall_s,speedup,identical_scores,differing
# speedup is the one-GPU run's wall time over this run's; identical_scores
# says whether every student's points (total, each group, sanitize,
# performance) and status are those of the one-GPU run (differing: how many
# students' are not; performance points may move within the rubric's
# noise, and such a student is named on stderr with both rows). Exits 77
# where nvidia-smi lists fewer GPUs than the largest count asked.
set -u
. tests/lib.sh

csv=${1:?usage: $0 OUT.csv [CHAPTERS] [GPU_COUNTS] [STUDENTS]}
chapters=${2:-01 05}
counts=${3:-1 2 4}
students=${4:-32}
have=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU [0-9]*:')
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

# The points columns and the status of a gradebook, a student a line.
points() { # points GRADEBOOK
    awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "time_ms") last = i - 1; next }
             { line = $1; for (i = 2; i <= last; i++) line = line "," $i
               print line "," $NF }' "$1" |
        sort
}

echo "gpus,chapter,students,wall_s,speedup,identical_scores,differing" >"$csv"
for ch in $chapters; do
    chapter=$(sh grader/mk/chapter.sh "$ch")
    [ -n "$chapter" ] || { echo "class-bench: no chapter $ch" >&2; exit 2; }
    make_class "$chapter" "$work/class-$chapter"
    make -s --no-print-directory grade-build CH="$ch" build/tools/mw-batch || exit 2
    base_wall=
    for n in $counts; do
        # One GPU: the plain make grade, the run the others must match.
        gpus=
        [ "$n" -gt 1 ] && gpus=$(seq -s, 0 $((n - 1)))
        out=$work/out-$chapter-$n
        start=$(date +%s.%N)
        CUDA_VISIBLE_DEVICES=${gpus:-0} make -s --no-print-directory grade CH="$ch" \
            SUBMISSIONS="$work/class-$chapter" OUT="$out" FORCE=1 ${gpus:+GPUS="$gpus"} \
            >"$work/log-$chapter-$n" 2>&1
        rc=$?
        end=$(date +%s.%N)
        wall=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')
        [ -n "$base_wall" ] || base_wall=$wall
        points "$out/gradebook.csv" >"$work/points-$chapter-$n" 2>/dev/null
        differing=$(diff "$work/points-$chapter-${counts%% *}" "$work/points-$chapter-$n" |
            grep -c '^>')
        [ -s "$out/gradebook.csv" ] || differing=$students # no gradebook: nothing matches
        if [ "$differing" -gt 0 ]; then
            echo "class-bench: $chapter on $n GPU(s): $differing student(s) differ from the" \
                "run on ${counts%% *}:" >&2
            diff "$work/points-$chapter-${counts%% *}" "$work/points-$chapter-$n" >&2
        fi
        [ $rc -eq 0 ] || [ $rc -eq 2 ] ||
            echo "class-bench: $chapter on $n GPU(s): make grade exited $rc (see below)" >&2
        [ $rc -eq 0 ] || [ $rc -eq 2 ] || tail -n 20 "$work/log-$chapter-$n" >&2
        speedup=$(awk -v a="$base_wall" -v b="$wall" 'BEGIN { printf "%.2f", a / b }')
        same=$([ "$differing" -eq 0 ] && echo yes || echo no)
        echo "$n,$chapter,$students,$wall,$speedup,$same,$differing" |
            tee -a "$csv"
    done
done
