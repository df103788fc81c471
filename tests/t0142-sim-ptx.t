#!/usr/bin/env bash
# t0142-sim-ptx.t: the emulation's inline PTX (grader/sim/ptx.c), each
# instruction against hand-computed results from the PTX ISA's fragment
# pictures: tests/unit/sim/ptx_*.cpp, built by make as build/tests/sim/ptx_*
# against a stand-in of the running thread (tests/unit/sim/standin/ptx/).
# One point per program; a failing program's own lines follow it.
cd "$(dirname "$0")/.." || exit 1

. tests/lib.sh

for unit in tests/unit/sim/ptx_*.cpp; do
    name=$(basename "$unit" .cpp)
    prog=build/tests/sim/$name
    if [ ! -x "$prog" ]; then
        ok 1 "$name: $prog is not built (run 'make build-fast')"
        continue
    fi
    out=$("$prog" 2>&1)
    status=$?
    points=$(printf '%s\n' "$out" | grep -c '^ok ')
    [ $status -eq 0 ] && [ "$points" -gt 0 ] && ! printf '%s\n' "$out" | grep -q '^not ok'
    ok $? "$name: $points checks pass" || printf '%s\n' "$out" | grep -v '^ok ' | diag
done

done_testing
