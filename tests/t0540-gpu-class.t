#!/usr/bin/env bash
# On a GPU: the fixture class in tests/class/01-vector-add (see its
# EXPECTED.md) graded in one command, with the hidden cases, and each
# student's scores and diagnostics checked. The sanitizer part is left out
# of this run's rubric to keep it short (t0520 tests the sanitizer); the
# rest is the default rubric. MW_CLASS_OUT keeps the output folder.
. tests/lib.sh
have_gpu || skip_all "$GPU_REASON"
long_file "the fixture class graded"
[ -d tests/class/01-vector-add ] || skip_all "no fixture class (student edition)"

scratch=$(mktemp -d)
chmod 755 "$scratch"
trap 'rm -rf "$scratch"' EXIT
out=${MW_CLASS_OUT:-$scratch/out}
grep -v '^sanitize' chapters/01-vector-add/rubric >"$scratch/rubric"
chmod -R a+rX "$scratch"

start=$(date +%s)
run=$(make -s --no-print-directory grade CH=01 SUBMISSIONS=tests/class/01-vector-add \
    OUT="$out" RUBRIC="$scratch/rubric" TIMEOUT=5 FORCE=1 2>&1)
ok $? "make grade grades the class"
diag "the batch took $(($(date +%s) - start)) s"
printf '%s\n' "$run" | diag
book=$out/gradebook.csv

# col STUDENT COLUMN: a gradebook cell, by header name.
col() {
    awk -F, -v who="$1" -v name="$2" '
        NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        $1 == who { print $(h[name]) }' "$book"
}
# cmp EXPR NAME: numeric comparison with awk.
cmp() { awk "BEGIN { exit !($1) }"; ok $? "$2"; }
details() { cat "$out/students/$1/check.csv" 2>/dev/null; }

rows=$(awk 'NR > 1' "$book" | wc -l)
ok "$([ "$rows" -eq 11 ] && echo 0 || echo 1)" "eleven students in the gradebook ($rows)"
max=$(col alice max)
cmp "$(col alice total) >= $max - 0.01" "alice: full marks ($(col alice total) of $max)"
cmp "$(col mallory total) >= $max - 20 && $(col mallory huge) == 10" \
    "mallory (one file for both versions): every correctness point"
for g in edge tail offset special large huge hidden; do
    cmp "$(col bob $g) == $(col alice $g)" "bob: $g full, like alice"
done
cmp "$(col bob performance) > 0 && $(col bob performance) < 10" \
    "bob: slow, so few performance points ($(col bob performance) of 20)"
cmp "$(col carol tail) < 15 && $(col carol total) < $(col alice total)" "carol: loses tail points"
details carol | grep -q 'the tail'
ok $? "carol: the tail hint"
col dave status | grep -q '02_fast does not compile'
ok $? "dave: 02_fast does not compile"
cmp "$(col dave edge) == 5" "dave: 01_naive still graded (edge $(col dave edge) of 10)"
grep -q '02_fast.cu(' "$out/students/dave/build.log"
ok $? "dave: nvcc's message names the file and line"
awk -F, 'NR > 1 && $2 >= 0 { n++ } END { exit n != 4 }' "$out/students/alice/steps.csv"
ok $? "alice: steps.csv holds the seconds of build, check, sanitize and perf"
dave_ms=$(col dave time_ms)
ok "$([ -z "$dave_ms" ] && echo 0 || echo 1)" "dave: no time recorded for a class member who does not compile"
details erin | grep -q 'timed out after 5 s'
ok $? "erin: 02_fast timed out"
details erin | grep -q 'not run, counted as timed out as well'
ok $? "erin: after three timeouts in a row, the rest of 02_fast is not run"
cmp "$(col erin edge) == 5" "erin: her 01_naive passes (edge $(col erin edge) of 10)"
details frank | grep -q 'cudaErrorIllegalAddress'
ok $? "frank: illegal address named"
# Of the 2 x E edge jobs, frank passes his 01_naive's E and 02_fast's n = 0.
E=$(build/01-vector-add/mw-chapter list | grep -c '^  edge ')
cmp "$E > 1 && $(col frank edge) > 10 * ($E + 1) / (2 * $E) - 0.01 && $(col frank edge) < 10 * ($E + 1) / (2 * $E) + 0.01" \
    "frank: 01_naive passes, and 02_fast at n = 0 (edge $(col frank edge), $E edge cases)"
cmp "$(col grace tail) == 7.5 && $(col grace performance) == 0" \
    "grace: her 02_fast off the given stream loses its tail points, and no performance points"
details grace | grep -q 'launch on the stream you are given'
ok $? "grace: the stream rule is named"
col heidi status | grep -q '02_fast does not compile'
ok $? "heidi: the library call fails the build"
grep -q 'cublasSaxpy' "$out/students/heidi/build.log"
ok $? "heidi: the link error names cublasSaxpy"
col ivan status | grep -q '01_naive.cu not submitted'
ok $? "ivan: 01_naive not submitted"
cmp "$(col ivan performance) == 0 && $(col ivan total) < $max / 2" "ivan: his cached answer fails"
cmp "$(col judy tail) == 15 && $(col judy hidden) == 10" "judy: her printed lines change nothing"
grep -q '34 passed, 0 failed' "$out/students/judy/check.log"
ok $? "judy: her forged lines are in her log, not in her score"
perl -MJSON::PP -e 'local $/; for my $f (@ARGV) { open F, $f; decode_json(<F>) }' \
    "$out"/students/*/results.json
ok $? "every results.json is valid JSON"
sed 's/^/  /' "$book" | diag

done_testing
