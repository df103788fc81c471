#!/usr/bin/env bash
# The CPU tier (grader/sim/) end to end, a sample small enough for the fast
# tier (t0151 runs all of it): make check SIM=1 on a reference version, its
# result lines marked emulated and the cases past the chapter's budget
# skipped with that reason; the exit codes 0, 1, 2 and 77; one known-wrong
# of each fault class the emulation reports, rejected with its detail line
# (block, thread, kernel, file:line); bench still needs a GPU. The
# known-wrongs run on their smallest cases (--smallest-first), which is
# where each of these shows. Last, racecheck's case list (--one-per-shape).
. tests/lib.sh
skip_all_unless_full_tree
skip_all_unless_sim_compiler
skip_all_unless_known_wrongs

MAKE_Q="make -s --no-print-directory"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# A fault's detail line: the fault's phrase, then where it happened.
fault_line() { # fault_line PHRASE <OUTPUT
    grep -E "block \([0-9]+,[0-9]+,[0-9]+\), thread \([0-9]+,[0-9]+,[0-9]+\), kernel [A-Za-z_0-9]+: .*$1.*\.cu:[0-9]+"
}

# Known-wrongs, one of each fault class: folder, phrase, the number of its
# smallest cases to run.
faults="03-matmul/no-bounds-check|out-of-bounds read of 4 bytes|6
01-vector-add/assumes-alignment|misaligned read of 16 bytes|20
03-matmul/missing-second-syncthreads|shared-memory race on As|6
04-softmax/reduce-skips-warp-0|read of shared memory no thread of the block wrote: shared|3
03-matmul/exits-before-barrier|barrier some threads of the block never reach|2"
wrong_answer="01-vector-add/writes-half|elements wrong|6"
# A kernel that spins on every case: after three timeouts in a row the
# version's other cases are counted as timed out without running, except
# those past the emulation's budget, which stay skipped for that reason.
mkdir -p "$scratch/spins/01-vector-add/spins"
echo "version: 01_naive" >"$scratch/spins/01-vector-add/spins/expect"
cat >"$scratch/spins/01-vector-add/spins/one-change" <<'END'
base: tests/wrong/01-vector-add/base/01_naive.cu
-    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
+    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
+    volatile int spin = 1;
+    while (spin)
+        ;
END

# Built side by side while nothing else runs.
out=$($MAKE_Q build/sim/tools/mw-simcc build/sim/01-vector-add/mw-chapter \
    build/sim/03-matmul/mw-chapter build/sim/04-softmax/mw-chapter 2>&1)
ok $? "the emulation's chapter programs build" || { diag <<<"$out"; done_testing; exit; }
{
    printf '%s\n' "$faults" "$wrong_answer" | while IFS='|' read -r dir _ _; do
        src=$(wrong_source "tests/wrong/$dir" "$scratch/derived") &&
            echo "${dir%%/*} $src $scratch/${dir/\//-}"
    done
    spins=$(wrong_source "$scratch/spins/01-vector-add/spins" "$scratch/derived") &&
        echo "01-vector-add $spins $scratch/spins-lib"
} >"$scratch/list"
build_sim_libs "$scratch/list"

# A reference version through make check: every emulated case passes, the
# rest are skipped with the budget's reason, and every result line says so.
out=$($MAKE_Q check CH=01 SIM=1 SRC=solutions EX=01 SEED=7 2>&1)
ok $? "make check CH=01 SIM=1 SRC=solutions EX=01: exit 0" || diag <<<"$out"
results=$(grep -E '^  (PASS|FAIL|ERROR|SKIP) ' <<<"$out")
[ -n "$results" ] &&
    ! grep -v -E '\(emulated( on a sample: [0-9]+ of [0-9]+ blocks)?\)' <<<"$results"
ok $? "every result line says (emulated), or (emulated on a sample: K of B blocks)"
grep -q -E '^  SKIP .*past the emulation.s budget \(.* allowed\): a GPU runs it' <<<"$out"
ok $? "a case past the budget is skipped, saying so"
budget_skips=$(grep -c -F "past the emulation's budget" <<<"$results")
gpu_only=$(build/sim/01-vector-add/mw-chapter list | grep -c -F 'GPU only: past the emulation')
[ "$budget_skips" -gt 0 ] && [ "$gpu_only" -gt 0 ]
ok $? "list marks cases GPU only ($gpu_only) as check skips them ($budget_skips for one version)"
grep -q -E '^[1-9][0-9]* passed, 0 failed, [1-9][0-9]* skipped$' <<<"$(tail -n 1 <<<"$out")"
ok $? "the last line counts passes and skips, no failure: $(tail -n 1 <<<"$out")"

# The skeleton: not implemented, 77.
out=$($MAKE_Q check CH=01 SIM=1 EX=01 SEED=7 2>&1)
rc=$(sed -n 's/.*Error \([0-9]*\)$/\1/p' <<<"$out" | tail -n 1)
[ "$rc" = 77 ] && grep -q -F 'not implemented yet' <<<"$out"
ok $? "make check CH=01 SIM=1 EX=01 on the skeleton: Error 77, not implemented (got ${rc:-0})" ||
    diag <<<"$out"

# run_wrong DIR PHRASE N: exit status and output of DIR's known-wrong on
# its N smallest cases.
run_wrong() {
    local ch=${1%%/*} lib=$scratch/${1/\//-} version
    version=$(sed -n 's/^version: *//p' "tests/wrong/$1/expect")
    if ! built "$lib"; then
        echo "not built"
        tail -n 5 "$lib.log"
        return 99
    fi
    build/sim/"$ch"/mw-chapter check --lib-dir "$lib" --version "$version" --seed 7 \
        --timeout 30 --smallest-first --first-cases "$3" 2>&1
}

IFS='|' read -r dir phrase n <<<"$wrong_answer"
out=$(run_wrong "$dir" "$phrase" "$n")
rc=$?
[ $rc = 1 ] && grep -q -F "$phrase" <<<"$out"
ok $? "$dir: a wrong answer, exit 1, '$phrase' (got $rc)" || diag <<<"$out"

while IFS='|' read -r dir phrase n; do
    out=$(run_wrong "$dir" "$phrase" "$n")
    rc=$?
    ok $((rc != 2)) "$dir: a kernel fault, exit 2 (got $rc)" || grep -v '^  PASS' <<<"$out" | head -n 20 | diag
    fault_line "$phrase" <<<"$out" >/dev/null
    ok $? "$dir: a detail line '$phrase' with block, thread, kernel and file:line" ||
        grep -v '^  PASS' <<<"$out" | head -n 20 | diag
done <<<"$faults"

out=$(build/sim/01-vector-add/mw-chapter check --lib-dir "$scratch/spins-lib" --version 01_naive \
    --seed 7 --timeout 1 2>&1)
rc=$?
timed_out=$(grep -c -E '^  ERROR ' <<<"$out")
not_run=$(grep -c -F 'not run, counted as timed out' <<<"$out")
budget=$(grep -c -E "^  SKIP .*past the emulation's budget" <<<"$out")
[ $rc = 2 ] && [ "$not_run" -gt 0 ] && [ "$budget" -gt 0 ] && [ "$timed_out" = $((not_run + 3)) ]
ok $? "a kernel that spins: exit 2, 3 timeouts, $not_run counted as timed out, $budget skipped past the budget (got $rc, $timed_out errors)" ||
    grep -v '^  PASS' <<<"$out" | tail -n 20 | diag

# bench times a GPU: on the emulation it refuses, saying why; and without
# SIM=1 make bench runs the GPU's program, never the emulation's.
out=$(build/sim/01-vector-add/mw-chapter bench --results "$scratch/results" 2>&1)
rc=$?
[ $rc = 77 ] && grep -q -F 'needs a GPU' <<<"$out"
ok $? "the emulation's bench refuses with 77, needs a GPU (got $rc)" || diag <<<"$out"
if have_gpu; then
    skip "make bench without SIM=1 here runs on this GPU"
else
    cmd=$($MAKE_Q -n bench CH=01 2>&1 | grep -E 'mw-chapter bench' | tail -n 1)
    grep -q -E '^build/01-vector-add/mw-chapter bench ' <<<"$cmd"
    ok $? "make bench CH=01 (no SIM) runs the GPU program: $cmd"
fi


# racecheck's cases (--small --one-per-shape, grader/mk/sanitize.sh): one
# per class of chapter 05 (its race_class: d, the mask, N within 16, 64,
# 128 or past, whole tiles of 16 or not), so fewer than --small's, every
# class kept, and each once.
$MAKE_Q build/sim/05-attention/mw-chapter build/sim/solutions/05-attention/02_flash.so >/dev/null 2>&1
small_run() {
    build/sim/05-attention/mw-chapter check --small --no-fork --version 02 \
        --lib-dir build/sim/solutions/05-attention "$@" 2>&1 | grep -E '^  (PASS|SKIP|FAIL)'
}
classes() {
    awk '{ n = ""; d = ""; mask = "full"
           for (i = 1; i <= NF; i++) {
               if ($i ~ /^N=[0-9]+$/) n = substr($i, 3) + 0
               if ($i ~ /^d=[0-9]+$/) d = $i
               if ($i == "causal") mask = "causal"
           }
           span = n <= 16 ? "N<=16" : n <= 64 ? "N<=64" : n <= 128 ? "N<=128" : "N>128"
           print d, mask, span, (n % 16 ? "partial" : "whole") }'
}
all=$(small_run) one=$(small_run --one-per-shape)
n_all=$(grep -c . <<<"$all") n_one=$(grep -c . <<<"$one")
[ "$n_one" -gt 0 ] && [ "$n_one" -lt "$n_all" ] &&
    [ "$(classes <<<"$all" | sort -u)" = "$(classes <<<"$one" | sort -u)" ]
ok $? "--one-per-shape: $n_one of chapter 05's $n_all small cases, every class kept" ||
    diff <(classes <<<"$all" | sort -u) <(classes <<<"$one" | sort -u) | diag
[ -z "$(classes <<<"$one" | sort | uniq -d)" ]
ok $? "--one-per-shape: each class once" || classes <<<"$one" | sort | uniq -d | diag
done_testing
