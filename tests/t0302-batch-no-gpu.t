#!/usr/bin/env bash
# Batch grading without a usable GPU refuses before it touches any student:
# make grade fails with mw-batch's exit 77 and one line saying why (the
# chapter program's `mw-chapter info`), writes no score.csv, report.md,
# results.json or gradebook.csv, and leaves an earlier run's output as it
# was. Which scores a later run on the GPU would keep is what --list --out
# shows: only complete, genuine ones.
. tests/lib.sh
have_gpu && skip_all "this machine has a GPU: the refusal is for machines without one"
[ -d tests/class/01-vector-add ] || skip_all "no fixture class (student edition)"

scratch=$(mktemp -d)
chmod 755 "$scratch"
trap 'rm -rf "$scratch"' EXIT
out=$scratch/out
reason=$(build/01-vector-add/mw-chapter info 2>&1 | head -n 1)

run=$(make -s --no-print-directory grade CH=01 SUBMISSIONS=tests/class/01-vector-add OUT="$out" 2>&1)
rc=$?
printf '%s\n' "$run" | diag
ok "$([ $rc -ne 0 ] && echo 0 || echo 1)" "make grade fails (exit $rc)"
printf '%s\n' "$run" | grep -q 'Error 77'
ok $? "with mw-batch's exit 77"
lines=$(printf '%s\n' "$run" | grep -c '^mw-batch:')
ok "$([ "$lines" -eq 1 ] && echo 0 || echo 1)" "mw-batch says why in one line ($lines)"
printf '%s\n' "$run" | grep '^mw-batch:' | grep -q 'no usable GPU' &&
    printf '%s\n' "$run" | grep '^mw-batch:' | grep -qF "$reason"
ok $? "the line says no usable GPU, and why: '$reason'"
[ ! -e "$out" ]
ok $? "nothing is written: not even the output folder"
[ -z "$(find "$scratch" \( -name score.csv -o -name report.md -o -name results.json \
    -o -name gradebook.csv \) 2>/dev/null)" ]
ok $? "no score.csv, report.md, results.json or gradebook.csv for anyone"
printf '%s\n' "$run" | grep -qE '^  [a-z]+ ' && touched=1 || touched=0
ok $touched "no student is named as graded or skipped"

build/tools/mw-batch --chapter 01-vector-add --submissions tests/class/01-vector-add \
    --out "$out" --force >/dev/null 2>&1
rc=$?
ok "$([ $rc -eq 77 ] && echo 0 || echo 1)" "mw-batch itself exits 77, --force or not (got $rc)"

# An output folder from an earlier run: alice with a genuine grade; carol
# not graded.
old=$scratch/old
student() { # student NAME STATUS
    mkdir -p "$old/students/$1"
    printf 'key,value\nstudent,%s\nstatus,%s\ntotal,40\nmax,110\n' "$1" "$2" \
        >"$old/students/$1/score.csv"
    echo '# report' >"$old/students/$1/report.md"
    echo '{}' >"$old/students/$1/results.json"
}
student alice graded
student carol graded
echo 'the check found no CUDA GPU: see check.log' >"$old/students/carol/not-graded.txt"
echo 'student,total,max' >"$old/gradebook.csv"
cp -a "$old" "$scratch/before"
make -s --no-print-directory grade CH=01 SUBMISSIONS=tests/class/01-vector-add OUT="$old" \
    >/dev/null 2>&1
diff -r "$scratch/before" "$old" >/dev/null
ok $? "an earlier run's output is left exactly as it was"

state=$(build/tools/mw-batch --chapter 01-vector-add --submissions tests/class/01-vector-add \
    --out "$old" --list 2>/dev/null | awk -F, '$2 != "ignored" && $3 == "" && $4 == "" { print $1 ": " $5 }')
printf '%s\n' "$state" | diag
printf '%s\n' "$state" | grep -qx 'alice: already graded in OUT: skipped unless --force'
ok $? "a complete, genuine grade would be kept"
printf '%s\n' "$state" | grep -qx 'carol: not graded in OUT yet: would be graded'
ok $? "a student marked not graded would be graded again"
rm "$old/students/alice/report.md"
build/tools/mw-batch --chapter 01-vector-add --submissions tests/class/01-vector-add \
    --out "$old" --list 2>/dev/null | grep -qx 'alice,folder,,,not graded in OUT yet: would be graded'
ok $? "a grade missing its report is incomplete: graded again"

done_testing
