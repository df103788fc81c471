#!/usr/bin/env bash
# On a GPU: an optional version (chapter 03's 04_tuned) costs nothing in a
# graded class. Two students hand in the reference's 01-03: alice without
# 04_tuned, bob with its untouched skeleton. Both get every point, with
# the sanitizer and the performance points, and neither status complains.
. tests/lib.sh
have_gpu || skip_all "$GPU_REASON"
long_file "a chapter 03 class graded"
ls solutions/03-matmul/0[1-4]_*.cu >/dev/null 2>&1 || skip_all "no solutions/ here (student edition)"

scratch=$(mktemp -d)
chmod 755 "$scratch"
trap 'rm -rf "$scratch"' EXIT
for who in alice bob; do
    mkdir -p "$scratch/class/$who"
    cp solutions/03-matmul/0[123]_*.cu "$scratch/class/$who/"
done
build/tools/mw-strip solutions/03-matmul/04_tuned.cu "$scratch/class/bob/04_tuned.cu"
chmod -R a+rX "$scratch"

run=$(make -s --no-print-directory grade CH=03 SUBMISSIONS="$scratch/class" \
    OUT="$scratch/out" TIMEOUT=30 FORCE=1 2>&1)
ok $? "make grade grades the class"
printf '%s\n' "$run" | diag
book=$scratch/out/gradebook.csv
col() {
    awk -F, -v who="$1" -v name="$2" '
        NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        $1 == who { print $(h[name]) }' "$book"
}
for who in alice bob; do
    total=$(col $who total) max=$(col $who max)
    awk -v t="$total" -v m="$max" 'BEGIN { exit !(m > 0 && t >= m - 0.01) }'
    ok $? "$who: full marks without the optional version ($total of $max)"
    [ "$(col $who status)" = graded ]
    ok $? "$who: status 'graded' ($(col $who status))"
    awk -v p="$(col $who sanitize)" 'BEGIN { exit !(p > 0) }'
    ok $? "$who: sanitizer points ($(col $who sanitize))"
done
grep -q 'optional' "$scratch/out/students/bob/report.md"
ok $? "bob's report lists the optional version's cases under 'optional'"

done_testing
