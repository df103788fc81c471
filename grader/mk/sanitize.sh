#!/bin/sh
# sanitize.sh GRADER LIBDIR LABEL [CHECK OPTIONS]: run the small cases of a
# chapter under compute-sanitizer's four tools, in-process, and say what
# each found. Each view is allocated exactly (--exact-views): the guard
# bands of a normal check would put a read one past the end inside the
# allocation, where memcheck cannot see it. Further options go to
# `mw-chapter check` (the batch passes --required-only: an optional version
# is not graded, so not sanitized).
#
# The four tools run at once, each a process of its own on the same GPU,
# and are reported in a fixed order when all are done: most of a tool's
# time is the host's (starting the tool, patching each kernel module), a
# few seconds a tool on one core, where the GPU work of the small cases
# takes milliseconds, so together they take about as long as the slowest
# (racecheck) rather than the sum. Nothing here is timed. A tool that ends
# other than with a verdict (0: nothing found, 10: a finding), for example
# on a GPU in exclusive-process mode that takes one process at a time, is
# run again alone, and that run is the one reported. With
# MW_SANITIZE_FIRST set (make mutants, while it runs several mutants at
# once), the tools run one after another and it stops at the first that
# finds a problem.
grader=$1 libdir=$2 label=$3
shift 3
if ! command -v compute-sanitizer >/dev/null 2>&1; then
    echo "sanitize: compute-sanitizer not found: it ships with the CUDA toolkit (put its bin/ on the PATH)"
    exit 77
fi
tools="memcheck racecheck initcheck synccheck"
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

# run_tool TOOL [CHECK OPTIONS]: the tool over the small cases, its output in
# $logs/TOOL, its exit code in $logs/TOOL.rc.
run_tool() {
    tool=$1
    shift
    # racecheck takes about a second a case (it tracks every shared-memory
    # access of every block), the others milliseconds: it runs one case per
    # launch shape, since a race follows from the shape, not the values.
    shapes=
    [ "$tool" = racecheck ] && shapes=--one-per-shape
    compute-sanitizer --tool "$tool" --error-exitcode 10 --print-limit 20 \
        "$grader" check --small $shapes --no-fork --exact-views --lib-dir "$libdir" \
        --label "$label" ${SEED:+--seed "$SEED"} "$@" >"$logs/$tool" 2>&1
    echo $? >"$logs/$tool.rc"
}

# report TOOL: what the tool found, said; status updated. Exits 77 where
# the check found no GPU, and 1 at a finding under MW_SANITIZE_FIRST.
report() {
    log=$logs/$1 rc=$(cat "$logs/$1.rc")
    # memcheck, initcheck and synccheck end in "ERROR SUMMARY: N errors";
    # racecheck in "RACECHECK SUMMARY: N hazards displayed (N errors, N warnings)".
    # (Past the print limit memcheck adds "ERROR SUMMARY: N errors were not
    # printed...": the count of them all is the line that ends in "errors".)
    summary=$(grep -E 'ERROR SUMMARY: [0-9]+ errors?$|RACECHECK SUMMARY' "$log" | tail -n 1 | sed 's/^=* *//')
    if [ "$rc" -eq 10 ]; then
        echo "sanitize: $1 found problems: $summary"
        grep -E '^=========' "$log" | grep -v -E 'COMPUTE-SANITIZER|ERROR SUMMARY' | head -n 40
        status=1
        [ -z "${MW_SANITIZE_FIRST:-}" ] || exit 1 # make mutants: one finding is enough
    elif [ "$rc" -eq 77 ] && grep -q 'no CUDA GPU' "$log"; then
        grep 'no CUDA GPU' "$log" | head -n 1
        exit 77
    elif [ "$rc" -eq 77 ]; then
        # Nothing was checked: the versions are not implemented yet.
        echo "sanitize: $1: nothing to check: not implemented yet"
        [ $status -eq 0 ] && status=77
    elif [ "$rc" -ne 0 ]; then
        echo "sanitize: $1: the cases themselves failed (exit $rc); run make check first:"
        tail -n 15 "$log"
        status=1
    else
        echo "sanitize: $1: ${summary:-no report}"
    fi
}

status=0
if [ -n "${MW_SANITIZE_FIRST:-}" ]; then
    for tool in $tools; do
        run_tool "$tool" "$@"
        report "$tool"
    done
    exit $status
fi
pids=
for tool in $tools; do
    run_tool "$tool" "$@" &
    pids="$pids $!"
done
wait $pids
for tool in $tools; do
    case $(cat "$logs/$tool.rc" 2>/dev/null) in
    0 | 10) ;;
    *) run_tool "$tool" "$@" ;;
    esac
done
for tool in $tools; do
    report "$tool"
done
exit $status
