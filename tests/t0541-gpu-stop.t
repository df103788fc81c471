#!/usr/bin/env bash
# On a GPU: a class graded one student at a time and stopped by SIGTERM to
# its process group (as `timeout`, Ctrl-C or a scheduler stops it) kills
# the step it was running, which has a process group of its own, leaves no
# scratch folder behind, and records no grade for the student it was
# grading: the same command grades that student again.
. tests/lib.sh
have_gpu || skip_all "$GPU_REASON"
[ -d tests/class/01-vector-add ] || skip_all "no fixture class (student edition)"
command -v setsid >/dev/null || skip_all "setsid is not installed"

scratch=$(mktemp -d)
chmod 755 "$scratch"
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/class" "$scratch/root"
cp -r tests/class/01-vector-add/alice "$scratch/class/"
chmod -R a+rX "$scratch"
make -s --no-print-directory build/tools/mw-batch >/dev/null 2>&1

MW_BATCH_SCRATCH=$scratch/root setsid make -s --no-print-directory grade CH=01 \
    SUBMISSIONS="$scratch/class" OUT="$scratch/out" FORCE=1 >"$scratch/log" 2>&1 &
group=$!
# Until the check step runs (its log exists), at most two minutes.
for _ in $(seq 1 240); do
    [ -n "$(find "$scratch/root" -name check.log 2>/dev/null)" ] && break
    sleep 0.5
done
[ -n "$(find "$scratch/root" -name check.log 2>/dev/null)" ]
ok $? "the grading reached its check step" || diag <"$scratch/log"
kill -TERM -- -"$group" 2>/dev/null
wait "$group" 2>/dev/null
sleep 1
left=$(find "$scratch/root" -mindepth 1 -maxdepth 1 -name 'mw-batch-*')
[ -z "$left" ]
ok $? "no scratch folder is left behind" || diag "$left"
running=$(pgrep -f -- "$scratch/root" || true)
[ -z "$running" ]
ok $? "no step of the stopped grading is still running" ||
    ps -o pid,pgid,args -p "$(tr '\n' ',' <<<"$running" | sed 's/,$//')" | diag
! grep -s -q '^alice,.*graded' "$scratch/out/gradebook.csv"
ok $? "no grade recorded for the student being graded"
done_testing
