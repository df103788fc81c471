#!/bin/sh
# hint-table.sh: does the first hint the grader prints name the real cause?
#
#   sh tests/hint-table.sh run OUTDIR [CHAPTER...]    on a GPU machine
#   sh tests/hint-table.sh table OUTDIR [WRONGDIR]    anywhere: markdown on stdout
#
# `run` builds every known-wrong submission (tests/wrong/<chapter>/<name>/,
# as tests/t0510-gpu-wrong.t builds them: a file, or a `one-change` to a
# reference solution) and grades each with the chapter program as t0510
# does (its version, its timeout, seed 7), writing the grader's output to
# OUTDIR/<chapter>/<name>.log and its exit code to <name>.rc. A submission
# whose log and exit code are there already is not graded again, so the
# same command run once more (after a time limit cut it off) goes on where
# it stopped; CHAPTER arguments limit it to those chapters. Without a GPU
# it grades nothing and exits 77.
#
# `table` reads those logs and each submission's `expect` file, whose
# `cause:` line is a phrase the first hint must contain to name the
# mistake, and writes one row per submission (the first hint printed, and
# whether it names the cause) and the share that do; its `rejected` column
# says whether the submission was rejected as t0510 requires (an exit code
# its `exit:` line allows, and its `diagnostic:` phrase in the output), so
# one run on a GPU serves both. The first hint is
# the output's first `hint:` line; where there is none, the first line
# said under the first case that failed (a timeout, a crash). WRONGDIR
# (default tests/wrong) holds the expect files, as <chapter>/<name>/. A
# submission with `cause: none` is right (it must pass) and is left out of
# the share; one without a log is listed as not graded, and counts as a
# miss.
set -u

field() { sed -n "s/^$1: *//p" "$2" | head -n 1; }

run() {
    out=$1
    shift
    . tests/lib.sh
    chapters=${*:-$(ls tests/wrong)}
    mkdir -p "$out" || exit 2
    make -s --no-print-directory build-fast || exit 2
    if ! have_gpu; then # a log of "no CUDA GPU" is no result, and would not be graded again
        echo "hint-table.sh run: $GPU_REASON" >&2
        exit 77
    fi
    scratch=$(mktemp -d) || exit 2
    trap 'rm -rf "$scratch"' EXIT
    : >"$scratch/list"
    for ch in $chapters; do
        for dir in $(known_wrong_dirs "$ch"); do
            name=$(basename "$dir")
            [ -s "$out/$ch/$name.rc" ] && continue
            src=$(wrong_source "$dir" "$scratch/derived") || continue
            echo "$ch $src $scratch/$ch-$name" >>"$scratch/list"
        done
    done
    build_libs "$scratch/list"
    for ch in $chapters; do
        mkdir -p "$out/$ch"
        for dir in $(known_wrong_dirs "$ch"); do
            name=$(basename "$dir")
            [ -s "$out/$ch/$name.rc" ] && continue
            grade_one "$dir" "$ch" "$name" "$scratch/$ch-$name" "$out/$ch/$name"
        done
    done
}

# grade_one DIR CHAPTER NAME LIBDIR LOG: the log and exit code of one.
grade_one() {
    version=$(field version "$1/expect")
    timeout=$(field timeout "$1/expect")
    needs=$(field needs_gib "$1/expect")
    mib=$(nvidia-smi --query-gpu=memory.total --format=csv,noheader,nounits -i 0 2>/dev/null | head -n 1)
    if [ -n "$needs" ] && [ "${mib:-0}" -lt $((needs * 1024)) ]; then
        echo "not graded: its case needs $needs GiB; this GPU has $((${mib:-0} / 1024))" >"$5.log"
        echo skip >"$5.rc"
        return
    fi
    if ! built "$4"; then
        { echo "not graded: the submission does not build"; tail -n 20 "$4.log"; } >"$5.log"
        echo build >"$5.rc"
        return
    fi
    # `sanitize: 1`: what catches it is make check's sanitizer step.
    quick=$([ "$(field sanitize "$1/expect")" = 1 ] && echo --quick-sanitize)
    echo "grading $2/$3" >&2
    build/"$2"/mw-chapter check --lib-dir "$4" --version "$version" \
        --timeout "${timeout:-30}" --seed 7 $quick >"$5.log" 2>&1
    echo $? >"$5.rc"
}

# first_hint LOG: what the student reads first about the cause.
first_hint() {
    awk '
        /^ *hint: / { sub(/^ *hint: /, ""); print; found = 1; exit }
        /^  (FAIL|ERROR) / && fallback == "" { failing = 1; next }
        failing && /^        [^ ]/ && fallback == "" { fallback = $0; sub(/^ +/, "", fallback) }
        /^  (PASS|FAIL|ERROR|TODO|SKIP) / { failing = 0 }
        END { if (!found) print fallback }
    ' "$1"
}

# md TEXT: one markdown table cell.
md() { printf '%s' "$1" | sed 's/|/\\|/g'; }

table() {
    out=$1 wrong=${2:-tests/wrong}
    named=0 total=0
    echo "| submission | expected cause | exit (wanted) | as t0510 wants | first hint | names it |"
    echo "|---|---|---|---|---|---|"
    for expect in "$wrong"/*/*/expect; do
        dir=${expect%/expect}
        name=$(basename "$dir")
        ch=$(basename "$(dirname "$dir")")
        cause=$(field cause "$expect")
        want=$(field exit "$expect")
        phrase=$(field diagnostic "$expect")
        log=$out/$ch/$name.log
        rejected=no
        if [ ! -f "$log" ]; then
            hint="(not graded)" rc="-" verdict=no
        else
            rc=$(cat "$out/$ch/$name.rc" 2>/dev/null || echo "?")
            # As t0510 judges it: an exit code it allows, and its phrase said.
            case " $want " in *" $rc "*) grep -q -F -- "$phrase" "$log" && rejected=yes ;; esac
            hint=$(first_hint "$log")
            case $(head -n 1 "$log") in "not graded:"*) hint=$(head -n 1 "$log") ;; esac
            verdict=no
            if [ "$cause" = none ]; then
                verdict="n/a: right, must pass"
                [ -n "$hint" ] && verdict="n/a: right, but hints: $hint"
            elif [ -n "$cause" ] && printf '%s' "$hint" | grep -q -F -- "$cause"; then
                verdict=yes
            fi
        fi
        if [ "$cause" != none ]; then
            total=$((total + 1))
            [ "$verdict" = yes ] && named=$((named + 1))
        fi
        echo "| $ch/$name | $(md "${cause:-(no cause: line)}") | $rc ($want) | $rejected | $(md "${hint:-(none)}") | $(md "$verdict") |"
    done
    echo
    if [ "$total" -gt 0 ]; then
        awk -v n="$named" -v t="$total" 'BEGIN { printf "Share: %d of %d known-wrong submissions (%.1f%%) have a first hint that names their cause.\n", n, t, 100 * n / t }'
    fi
}

case ${1:-} in
run) [ $# -ge 2 ] || { echo "usage: $0 run OUTDIR [CHAPTER...]" >&2; exit 2; }
    shift; run "$@" ;;
table) [ $# -eq 2 ] || [ $# -eq 3 ] || { echo "usage: $0 table OUTDIR [WRONGDIR]" >&2; exit 2; }
    shift; table "$@" ;;
*) echo "usage: $0 run OUTDIR [CHAPTER...] | table OUTDIR [WRONGDIR]" >&2; exit 2 ;;
esac
