#!/usr/bin/env bash
# The CPU emulation's core (grader/sim/: sched.c, warp.c, shared.c,
# checks.c, the kernel-side headers): kernels launched through
# mw_sim::launcher against hand-computed results and the faults it reports
# (tests/unit/sim/core_*.cpp, built by make build-fast). Each program is
# TAP; its points are renumbered into this file's.
. tests/lib.sh

progs=$(ls tests/unit/sim/core_*.cpp 2>/dev/null | sed 's|tests/unit/sim/\(.*\)\.cpp|build/sim/tests/\1|')
[ -n "$progs" ] || skip_all "no tests/unit/sim/core_*.cpp"

for prog in $progs; do
    if [ ! -x "$prog" ]; then
        ok 1 "$prog is built (run make build-fast)"
        continue
    fi
    out=$(timeout 60 "$prog" 2>&1)
    status=$?
    while IFS= read -r line; do
        case $line in
        "ok "*) ok 0 "${prog##*/}: ${line#ok * - }" ;;
        "not ok "*) ok 1 "${prog##*/}: ${line#not ok * - }" ;;
        "#"*) echo "$line" ;;
        esac
    done <<<"$out"
    ok "$status" "${prog##*/} exits 0 (status $status)" || diag <<<"$out"
done
done_testing
