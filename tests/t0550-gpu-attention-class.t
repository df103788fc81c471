#!/usr/bin/env bash
# On a GPU: chapter 05 graded as a class with its default rubric. alice
# hands in the reference solutions; bob the reference's unfused version and
# a flash kernel that forgets to rescale O_i when the running max grows
# (tests/wrong/05-attention/no-rescale). alice gets every public point
# (the hidden cases count only with CASES=); bob loses points, keeps those
# of 01_unfused, gets no performance points, and both are 'graded'.
. tests/lib.sh
have_gpu || skip_all "$GPU_REASON"
long_file "a chapter 05 class graded"
ls solutions/05-attention/0[12]_*.cu >/dev/null 2>&1 || skip_all "no solutions/ here (student edition)"
[ -d tests/wrong/05-attention/no-rescale ] ||
    skip_all "no tests/wrong/05-attention/no-rescale here (student edition)"

scratch=$(mktemp -d)
chmod 755 "$scratch"
trap 'rm -rf "$scratch"' EXIT
wrong=$(wrong_source tests/wrong/05-attention/no-rescale "$scratch/derived") ||
    { ok 1 "no-rescale derives from its base"; done_testing; exit 1; }
mkdir -p "$scratch/class/alice" "$scratch/class/bob"
cp solutions/05-attention/0[12]_*.cu "$scratch/class/alice/"
cp solutions/05-attention/01_unfused.cu "$wrong" "$scratch/class/bob/"
chmod -R a+rX "$scratch"

start=$(date +%s)
run=$(make -s --no-print-directory grade CH=05 SUBMISSIONS="$scratch/class" \
    OUT="$scratch/out" TIMEOUT=60 FORCE=1 2>&1)
ok $? "make grade CH=05 grades the class ($(( $(date +%s) - start )) s)"
printf '%s\n' "$run" | diag
book=$scratch/out/gradebook.csv
col() {
    awk -F, -v who="$1" -v name="$2" '
        NR == 1 { for (i = 1; i <= NF; i++) h[$i] = i; next }
        $1 == who { print $(h[name]) }' "$book"
}
total=$(col alice total) max=$(col alice max)
awk -v t="$total" -v m="$max" 'BEGIN { exit !(m > 0 && t >= m - 0.01) }'
ok $? "alice (the reference): full marks ($total of $max)"
total=$(col bob total)
awk -v t="$total" -v m="$max" 'BEGIN { exit !(t > 0 && t < m - 10) }'
ok $? "bob (no rescale of O_i): points lost, some kept ($total of $max)"
awk -v p="$(col bob performance)" 'BEGIN { exit !(p == 0) }'
ok $? "bob: no performance points for a wrong flash kernel ($(col bob performance))"
for who in alice bob; do
    [ "$(col $who status)" = graded ]
    ok $? "$who: status 'graded' ($(col $who status))"
done
grep -q 'L is right but O is wrong' "$scratch/out/students/bob/report.md" "$scratch"/out/students/bob/*.log 2>/dev/null
ok $? "bob's report names the mistake (L right, O wrong)"

done_testing
