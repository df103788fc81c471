#!/bin/sh
# sanitize.sh GRADER LIBDIR LABEL [CHECK OPTIONS]: run the small cases of a
# chapter under compute-sanitizer's four tools, in-process, and say what
# each found. Each view is allocated exactly (--exact-views): the guard
# bands of a normal check would put a read one past the end inside the
# allocation, where memcheck cannot see it. Further options go to
# `mw-chapter check` (the batch passes --required-only: an optional version
# is not graded, so not sanitized). With MW_SANITIZE_FIRST set (make
# mutants), it stops at the first tool that finds a problem.
grader=$1 libdir=$2 label=$3
shift 3
if ! command -v compute-sanitizer >/dev/null 2>&1; then
    echo "sanitize: compute-sanitizer not found: it ships with the CUDA toolkit (put its bin/ on the PATH)"
    exit 77
fi
status=0
for tool in memcheck racecheck initcheck synccheck; do
    log=$(mktemp)
    # racecheck takes about a second a case (it tracks every shared-memory
    # access of every block), the others milliseconds: it runs one case per
    # launch shape, since a race follows from the shape, not the values.
    shapes=
    [ "$tool" = racecheck ] && shapes=--one-per-shape
    compute-sanitizer --tool "$tool" --error-exitcode 10 --print-limit 20 \
        "$grader" check --small $shapes --no-fork --exact-views --lib-dir "$libdir" \
        --label "$label" ${SEED:+--seed "$SEED"} "$@" >"$log" 2>&1
    rc=$?
    # memcheck, initcheck and synccheck end in "ERROR SUMMARY: N errors";
    # racecheck in "RACECHECK SUMMARY: N hazards displayed (N errors, N warnings)".
    # (Past the print limit memcheck adds "ERROR SUMMARY: N errors were not
    # printed...": the count of them all is the line that ends in "errors".)
    summary=$(grep -E 'ERROR SUMMARY: [0-9]+ errors?$|RACECHECK SUMMARY' "$log" | tail -n 1 | sed 's/^=* *//')
    if [ $rc -eq 10 ]; then
        echo "sanitize: $tool found problems: $summary"
        grep -E '^=========' "$log" | grep -v -E 'COMPUTE-SANITIZER|ERROR SUMMARY' | head -n 40
        status=1
        if [ -n "${MW_SANITIZE_FIRST:-}" ]; then # make mutants: one finding is enough
            rm -f "$log"
            exit 1
        fi
    elif [ $rc -eq 77 ] && grep -q 'no CUDA GPU' "$log"; then
        grep 'no CUDA GPU' "$log" | head -n 1
        rm -f "$log"
        exit 77
    elif [ $rc -eq 77 ]; then
        # Nothing was checked: the versions are not implemented yet.
        echo "sanitize: $tool: nothing to check: not implemented yet"
        [ $status -eq 0 ] && status=77
    elif [ $rc -ne 0 ]; then
        echo "sanitize: $tool: the cases themselves failed (exit $rc); run make check first:"
        tail -n 15 "$log"
        status=1
    else
        echo "sanitize: $tool: ${summary:-no report}"
    fi
    rm -f "$log"
done
exit $status
