#!/usr/bin/env bash
# The harness's own GPU helpers as the emulation runs them: plain loops on
# the CPU (grader/device_emulated.c) that keep grader/device.h's contract,
# checked on hand-made buffers (tests/unit/sim/device_emulated.c). No GPU.
. tests/lib.sh
prog=build/sim/tests/device_emulated
[ -x "$prog" ] || { ok 1 "$prog is built (run make build-fast)"; done_testing; exit; }
units=$("$prog" 2>&1)
rc=$?
ran=0
while IFS= read -r line; do
    case $line in
    'ok '*) ran=$((ran + 1)); ok 0 "${line#ok * - }" ;;
    'not ok '*) ran=$((ran + 1)); ok 1 "${line#not ok * - }" ;;
    esac
done <<<"$units"
planned=$(sed -n 's/^1\.\.\([0-9]*\)$/\1/p' <<<"$units")
[ "$rc" = 0 ] && [ -n "$planned" ] && [ "$ran" = "$planned" ]
ok $? "it exits 0 having run its $planned points ($ran seen)"
done_testing
