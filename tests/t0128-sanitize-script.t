#!/usr/bin/env bash
# grader/mk/sanitize.sh, the batch's sanitizer step and make sanitize, with
# a stand-in compute-sanitizer first on the PATH (no GPU needed): the four
# tools run at once and are reported in a fixed order; a tool that ends
# without a verdict (a GPU in exclusive-process mode: "busy") runs again
# alone and its second run is the one reported; a finding fails the step
# and the other tools still report; MW_SANITIZE_FIRST (make mutants) runs
# the tools one after another and stops at the first finding; no GPU is
# exit 77 with the check's reason, said once.
. tests/lib.sh

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/bin"
# The stand-in: FAKE_<TOOL> says what the tool does (ok, finding, busy-once,
# nogpu, todo); each run notes "start TOOL T" and "end TOOL T" in $FAKE_RECORD
# and takes FAKE_SECONDS.
cat >"$scratch/bin/compute-sanitizer" <<'SH'
#!/bin/sh
tool=$2
echo "start $tool $(date +%s.%N)" >>"$FAKE_RECORD"
sleep "${FAKE_SECONDS:-1}"
eval "what=\${FAKE_$tool:-ok}"
if [ "$what" = busy-once ]; then
    if [ -e "$FAKE_RECORD.$tool" ]; then what=ok; else : >"$FAKE_RECORD.$tool"; what=busy; fi
fi
echo "end $tool $(date +%s.%N)" >>"$FAKE_RECORD"
summary="========= ERROR SUMMARY: 0 errors"
[ "$tool" = racecheck ] && summary="========= RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)"
case $what in
ok) echo "$summary"; exit 0 ;;
finding)
    echo "========= Invalid __global__ write of size 4 bytes"
    echo "=========     at k+0x70 in 01_naive.cu:6"
    echo "========= ERROR SUMMARY: 1 error"
    exit 10 ;;
busy) echo "mw-chapter: cudaErrorDevicesUnavailable: CUDA-capable device(s) is/are busy or unavailable"; exit 2 ;;
nogpu) echo "no CUDA GPU: no CUDA-capable device is detected"; exit 77 ;;
todo) echo "nothing implemented yet"; exit 77 ;;
esac
SH
chmod +x "$scratch/bin/compute-sanitizer"
export PATH="$scratch/bin:$PATH"

# sanitize [VAR=VALUE...]: runs the script with those settings; its output
# in $out, its exit code in $rc, the stand-in's record in $scratch/record.
sanitize() {
    rm -f "$scratch"/record*
    out=$(env FAKE_RECORD="$scratch/record" "$@" sh grader/mk/sanitize.sh mw-chapter lib label 2>&1)
    rc=$?
}
# runs TOOL: how many times the tool was started.
runs() { grep -c "^start $1 " "$scratch/record"; }
# Each tool's first run started before any run ended: they ran at once.
at_once() {
    awk '$1 == "start" && !($2 in first) { first[$2] = $3; if ($3 > s) s = $3 }
         $1 == "end" && (e == "" || $3 < e) { e = $3 }
         END { exit !(length(first) == 4 && s < e) }' "$scratch/record"
}
# one_after_another: no run started before the one before it ended.
one_after_another() {
    awk '$1 == "start" && open { bad = 1 } $1 == "start" { open = 1 } $1 == "end" { open = 0 }
         END { exit bad }' "$scratch/record"
}
order() { printf '%s\n' "$out" | sed -n 's/^sanitize: \([a-z]*\)[: ].*/\1/p' | tr '\n' ' '; }

sanitize FAKE_SECONDS=1
ok $((rc != 0)) "nothing found: exit 0 (exit $rc)" || printf '%s\n' "$out" | diag
at_once
ok $? "the four tools run at once" || diag <"$scratch/record"
[ "$(order)" = "memcheck racecheck initcheck synccheck " ]
ok $? "reported in a fixed order: $(order)"
printf '%s\n' "$out" | grep -qx 'sanitize: racecheck: RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)' &&
    printf '%s\n' "$out" | grep -qx 'sanitize: synccheck: ERROR SUMMARY: 0 errors'
ok $? "each tool's summary line"

sanitize FAKE_racecheck=busy-once
ok $((rc != 0)) "a tool turned away once (a busy GPU): exit 0 (exit $rc)" || printf '%s\n' "$out" | diag
[ "$(runs racecheck)" -eq 2 ] && [ "$(runs memcheck)" -eq 1 ]
ok $? "it alone ran again ($(runs racecheck) racecheck runs, $(runs memcheck) memcheck)"
last_start=$(awk '$1 == "start" && $2 == "racecheck" { t = $3 } END { print t }' "$scratch/record")
awk -v t="$last_start" '$1 == "end" && $3 > t { late++ } END { exit late != 1 }' "$scratch/record"
ok $? "its second run ran alone, after the others ended"
printf '%s\n' "$out" | grep -qx 'sanitize: racecheck: RACECHECK SUMMARY: 0 hazards displayed (0 errors, 0 warnings)' &&
    ! printf '%s\n' "$out" | grep -q busy
ok $? "the second run is the one reported" || printf '%s\n' "$out" | diag

sanitize FAKE_initcheck=finding
[ $rc -eq 1 ]
ok $? "a finding: exit 1 (exit $rc)"
printf '%s\n' "$out" | grep -qx 'sanitize: initcheck found problems: ERROR SUMMARY: 1 error' &&
    printf '%s\n' "$out" | grep -q 'at k+0x70 in 01_naive.cu:6' &&
    [ "$(order)" = "memcheck racecheck initcheck synccheck " ]
ok $? "the finding with its location, and every tool reported" || printf '%s\n' "$out" | diag
[ "$(runs initcheck)" -eq 1 ]
ok $? "a verdict is not run again"

sanitize MW_SANITIZE_FIRST=1 FAKE_SECONDS=0 FAKE_racecheck=finding
[ $rc -eq 1 ] && [ "$(order)" = "memcheck racecheck " ]
ok $? "MW_SANITIZE_FIRST: exit 1 at the first finding, the later tools not reported (exit $rc; $(order))"
[ "$(runs initcheck)" -eq 0 ] && [ "$(runs synccheck)" -eq 0 ] && one_after_another
ok $? "MW_SANITIZE_FIRST: one tool after another, none started after the finding" ||
    diag <"$scratch/record"

sanitize FAKE_SECONDS=0 FAKE_memcheck=nogpu FAKE_racecheck=nogpu FAKE_initcheck=nogpu FAKE_synccheck=nogpu
[ $rc -eq 77 ] && [ "$(printf '%s\n' "$out" | grep -c 'no CUDA GPU')" -eq 1 ]
ok $? "no GPU: exit 77, the reason said once (exit $rc)" || printf '%s\n' "$out" | diag

sanitize FAKE_SECONDS=0 FAKE_memcheck=todo FAKE_racecheck=todo FAKE_initcheck=todo FAKE_synccheck=todo
[ $rc -eq 77 ] && [ "$(printf '%s\n' "$out" | grep -c 'nothing to check: not implemented yet')" -eq 4 ]
ok $? "nothing implemented: exit 77, said for each tool (exit $rc)" || printf '%s\n' "$out" | diag

done_testing
