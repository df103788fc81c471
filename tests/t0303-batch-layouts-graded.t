#!/usr/bin/env bash
# On a GPU: a class in every layout (folder, .tar.gz, .zip, Canvas download,
# an archive with hostile entries, one refused for its size) graded in one
# command. Every readable submission gets a grade and a report that lists
# the files that matched no exercise; the refused one gets no score, a
# not-graded.txt and an empty gradebook row, and make grade fails; a re-run
# skips only the genuine grades. The kernels are the skeletons ("not
# implemented"), so that this is quick: the points are t0540's business.
. tests/lib.sh
have_gpu || skip_all "$GPU_REASON"
long_file "a class in every layout graded by make grade"

scratch=$(mktemp -d)
chmod 755 "$scratch"
trap 'rm -rf "$scratch" /tmp/mw-escape-$$.cu' EXIT
ex=exercises/01-vector-add
class=$scratch/class
src=$scratch/src
out=$scratch/out
mkdir -p "$class/ann/deep" "$src/ben" "$src/eve" "$src/many"
cp "$ex/01_naive.cu" "$class/ann/"
cp "$ex/02_fast.cu" "$class/ann/deep/"
echo notes >"$class/ann/notes.txt"
cp "$ex/01_naive.cu" "$ex/02_fast.cu" "$src/ben/"
echo readme >"$src/ben/README.md"
ln -s /etc/passwd "$src/ben/link.cu"
tar -czf "$class/ben.tar.gz" -C "$src" ben
have_unzip=0
if command -v unzip >/dev/null; then
    cp tests/data/batch-layouts/cat.zip "$class/"
    have_unzip=1
fi
cp "$ex/01_naive.cu" "$class/doe_john_12345_678901_01_naive.cu"
cp "$ex/01_naive.cu" "$class/doe_john_12345_678950_01_naive-1.cu"
cp "$ex/02_fast.cu" "$class/doe_john_12345_678902_02_fast.cu"
echo notes >"$class/doe_john_12345_678903_notes.txt"
echo '// escaped' >"$src/eve/escape.cu"
cp "$ex/01_naive.cu" "$ex/02_fast.cu" "$src/eve/"
(cd "$src/eve" && tar -czf "$class/eve.tar.gz" -P \
    --transform "s,^escape.cu,../../../../tmp/mw-escape-$$.cu," escape.cu 01_naive.cu 02_fast.cu \
    2>/dev/null)
for i in $(seq 1 201); do : >"$src/many/f$i.txt"; done
tar -czf "$class/many.tar.gz" -C "$src" many
chmod -R a+rX "$scratch"

grade() {
    make -s --no-print-directory grade CH=01 SUBMISSIONS="$class" OUT="$out" TIMEOUT=5 \
        HIDDEN=/dev/null 2>&1
}
run=$(grade)
rc=$?
printf '%s\n' "$run" | diag
ok "$([ $rc -ne 0 ] && echo 0 || echo 1)" "make grade fails: one submission was not graded"
printf '%s\n' "$run" | grep -q '^GPU: '
ok $? "the GPU graded on is named"

graded="ann ben doe_john eve"
[ $have_unzip -eq 1 ] && graded="$graded cat"
for who in $graded; do
    d=$out/students/$who
    [ -s "$d/score.csv" ] && [ -s "$d/report.md" ] && [ -s "$d/results.json" ] &&
        [ ! -e "$d/not-graded.txt" ] && ! grep -q 'not graded' "$d/score.csv"
    ok $? "$who: graded, with a score, a report and results.json"
done
[ $have_unzip -eq 1 ] || skip "unzip is not installed: no .zip student"
grep -q '^## Files not graded' "$out/students/ann/report.md" &&
    grep -q '`notes.txt`: matched no exercise' "$out/students/ann/report.md"
ok $? "ann: her report lists notes.txt, which matched no exercise"
grep -q '`ben/README.md`: matched no exercise' "$out/students/ben/report.md" &&
    grep -q '`ben/link.cu`: a link: ignored' "$out/students/ben/report.md"
ok $? "ben (.tar.gz): his README and his link are listed"
[ -s "$out/students/ben/unpack.log" ]
ok $? "ben: unpack.log kept"
grep -q 'doe_john_12345_678901_01_naive.cu`: an earlier upload' "$out/students/doe_john/report.md" &&
    grep -q 'doe_john_12345_678903_notes.txt`: matched no exercise' "$out/students/doe_john/report.md"
ok $? "doe_john (Canvas): the earlier upload and the notes are listed"
! grep -q 'not submitted' "$out/students/doe_john/score.csv"
ok $? "doe_john: both versions found in the Canvas files"
grep -q 'leaves the folder' "$out/students/eve/report.md" && [ ! -e "/tmp/mw-escape-$$.cu" ]
ok $? "eve: the entry with .. is refused and written nowhere"

d=$out/students/many
[ -s "$d/not-graded.txt" ] && [ ! -e "$d/score.csv" ] && [ ! -e "$d/report.md" ] &&
    [ ! -e "$d/results.json" ]
ok $? "many: not graded, and no score, report or results.json"
grep -q 'more than 200 entries' "$d/not-graded.txt"
ok $? "many: not-graded.txt says why"
printf '%s\n' "$run" | grep -q 'many *NOT GRADED: many.tar.gz has more than 200 entries'
ok $? "many: the terminal says NOT GRADED and why"
row=$(awk -F, '$1 == "many"' "$out/gradebook.csv")
diag "many's gradebook row: $row"
printf '%s\n' "$row" | grep -q '^many,,,' && printf '%s\n' "$row" | grep -q 'NOT GRADED'
ok $? "many: a gradebook row without points, NOT GRADED"
rows=$(awk 'NR > 1' "$out/gradebook.csv" | wc -l)
want=$(($(echo $graded | wc -w) + 1))
ok "$([ "$rows" -eq "$want" ] && echo 0 || echo 1)" "a gradebook row per student ($rows of $want)"

run=$(grade)
printf '%s\n' "$run" | diag
skipped=$(printf '%s\n' "$run" | grep -c -E '^  [^ ]+ +already graded')
want=$(echo $graded | wc -w)
ok "$([ "$skipped" -eq "$want" ] && echo 0 || echo 1)" "a re-run skips the $want graded ($skipped)"
printf '%s\n' "$run" | grep -q 'many *NOT GRADED'
ok $? "and tries the one not graded again"

done_testing
