#!/usr/bin/env bash
# make grade end to end on a small class, on a GPU (without one, make grade
# refuses before it grades anyone: t0302): each
# submission is built in its own sandboxed scratch folder; the gradebook, a
# report, a results.json (valid JSON) and a score per student are written;
# a compile error is named and does not stop the batch; a re-run skips the
# students already graded; FORCE=1 grades them again; bad hidden-case and
# rubric files are refused with the line at fault. Grading the class is
# long (make test-full); the refusals are not.
. tests/lib.sh

scratch=$(mktemp -d)
chmod 755 "$scratch"
trap 'rm -rf "$scratch"' EXIT
private_batch_scratch "$scratch/batch-root"
class=$scratch/class
out=$scratch/out
mkdir -p "$class/ann/deep/er" "$class/ben"
# The skeletons compile (and report "not implemented"): a submission that
# builds, found at any depth in its folder.
cp exercises/01-vector-add/01_naive.cu "$class/ann/"
cp exercises/01-vector-add/02_fast.cu "$class/ann/deep/er/"
cp exercises/01-vector-add/01_naive.cu "$class/ben/"
printf 'this is not CUDA\n' >"$class/ben/02_fast.cu"
cp exercises/01-vector-add/01_naive.cu "$class/cat.cu"
chmod -R a+rX "$scratch"

gpu=0
have_gpu && gpu=1
if [ $gpu -eq 1 ] && long_tests; then
run=$(make -s --no-print-directory grade CH=01 SUBMISSIONS="$class" OUT="$out" 2>&1)
ok $? "make grade runs over the class"
printf '%s\n' "$run" | grep -q '3 submission(s)'
ok $? "it finds three submissions (two folders, one file)"
rows=$(awk 'NR > 1' "$out/gradebook.csv" | wc -l)
ok "$([ "$rows" -eq 3 ] && echo 0 || echo 1)" "gradebook.csv has a row per student ($rows)"
head -n 1 "$out/gradebook.csv" | grep -q '^student,total,max,edge,tail,offset,special,large,huge,hidden,sanitize,performance,'
ok $? "gradebook columns follow the rubric"
for who in ann ben cat; do
    d=$out/students/$who
    [ -s "$d/report.md" ] && [ -s "$d/score.csv" ] && [ -s "$d/build.log" ] && [ -s "$d/check.log" ]
    ok $? "$who: report, score and logs written"
    perl -MJSON::PP -e 'local $/; open F, shift; my $j = decode_json(<F>); exit !(defined $j->{score} && @{$j->{tests}} > 0)' "$d/results.json"
    ok $? "$who: results.json is valid JSON with a score and tests"
done
grep -q '02_fast does not compile' "$out/students/ben/score.csv"
ok $? "a compile error is named in the student's status"
grep -q 'error' "$out/students/ben/build.log"
ok $? "and the compiler's message is in build.log"
ls -d "$MW_BATCH_SCRATCH"/mw-batch-* >/dev/null 2>&1 && leftover=1 || leftover=0
ok $leftover "no scratch folder is left behind"

run=$(make -s --no-print-directory grade CH=01 SUBMISSIONS="$class" OUT="$out" 2>&1)
skipped=$(printf '%s\n' "$run" | grep -c -E '^  [^ ]+ +already graded')
ok "$([ "$skipped" -eq 3 ] && echo 0 || echo 1)" "a re-run skips the three students already graded"
run=$(make -s --no-print-directory grade CH=01 SUBMISSIONS="$class" OUT="$out" FORCE=1 2>&1)
skipped=$(printf '%s\n' "$run" | grep -c -E '^  [^ ]+ +already graded')
ok "$([ "$skipped" -eq 0 ] && echo 0 || echo 1)" "FORCE=1 grades them again"
else
    why="$LONG_REASON: make grade of a small class"
    [ $gpu -eq 1 ] || why="$GPU_REASON: make grade refuses without a GPU (t0302)"
    skip "$why (15 checks)"
fi

printf 'seed 1\ncase hidden 12 0 0 0 0 0 0 gaussian 1 0 0 0\n' >"$scratch/bad.cases"
run=$(make -s --no-print-directory grade CH=01 SUBMISSIONS="$class" OUT="$scratch/out2" HIDDEN="$scratch/bad.cases" 2>&1)
printf '%s\n' "$run" | grep -q 'bad.cases:2:'
ok $? "a bad hidden-cases file is refused, naming the line"
printf 'group edge ten\n' >"$scratch/bad.rubric"
run=$(make -s --no-print-directory grade CH=01 SUBMISSIONS="$class" OUT="$scratch/out3" RUBRIC="$scratch/bad.rubric" 2>&1)
rc=$?
printf '%s\n' "$run" | grep -q 'bad.rubric:1:' && [ $rc -ne 0 ]
ok $? "a bad rubric is refused, naming the line"
build/tools/mw-batch --help | grep -q 'usage: mw-batch'
ok $? "mw-batch --help prints its usage"

done_testing
