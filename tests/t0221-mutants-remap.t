#!/usr/bin/env bash
# t0221-mutants-remap.t: grader/mk/mutants-remap.sh (make mutants-remap),
# which carries graded mutants across an edit of a reference solution that
# moved lines, in a scratch repository with one solution, a results CSV and
# an equivalents list committed, then edited (two lines added above
# everything, one line changed):
#  - the rows of unchanged lines move with them, their statuses kept; the
#    changed line's mutants are not graded yet, saying why; the block
#    follows the current list of mutants, row for row; another file's rows,
#    a CSV graded at another commit and one without the file's rows are
#    left as they are;
#  - the equivalents list's keys and its reasons' cross-references move; a
#    key on the changed line stays, with a warning;
#  - no edit: nothing moves; a bad commit or a missing SINCE: exit 2,
#    nothing written; make mutants-remap refuses a missing CH= or SINCE=.
. tests/lib.sh

root=$PWD
make -s --no-print-directory build/tools/mw-mutate >/dev/null 2>&1 || BAIL_OUT "cannot build mw-mutate"
tool=$root/build/tools/mw-mutate
remap="sh $root/grader/mk/mutants-remap.sh --chapter 09-demo --tool $tool"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
repo=$scratch/repo
mkdir -p "$repo/solutions/09-demo" "$repo/results/GPU_A/09-demo" "$repo/results/GPU_B/09-demo"
cd "$repo" || BAIL_OUT "no scratch repository"
git init -q . && git config user.email t@example.invalid && git config user.name t

cat >solutions/09-demo/01_k.cu <<'CU'
// BEGIN SOLUTION
// TODO: y = x + 1 where i < n.
__global__ void k(float *y, const float *x, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        y[i] = x[i] + 1.0f;
    if (i + 1 < n && x[i] > 0.f)
        y[i + 1] = x[i];
}
// END SOLUTION
CU
# Graded at the first commit: line 6 killed, 7 survived, 8 killed, 9 equivalent.
{
    echo "chapter,file,line,column,operator,original,mutated,status,killed_by"
    echo "09-demo,00_other.cu,3,5,cmp-flip,<,>=,killed,a case"
    "$tool" solutions/09-demo/01_k.cu | tail -n +2 | awk -F, '{
        s = $2 == 6 ? "killed,small case" : $2 == 7 ? "survived," : $2 == 8 ? "killed,\"big, case\"" : "equivalent,"
        print "09-demo," $0 "," s }'
    echo "09-demo,02_z.cu,1,1,cmp-flip,<,>=,survived,"
} >results/GPU_A/09-demo/mutants.csv
sed 's/^09-demo,01_k.cu,6,9,/09-demo,01_k.cu,5,9,/' results/GPU_A/09-demo/mutants.csv >results/GPU_B/09-demo/mutants.csv
mkdir -p results/GPU_C/09-demo && grep -v '^09-demo,01_k.cu,' results/GPU_A/09-demo/mutants.csv >results/GPU_C/09-demo/mutants.csv
cat >solutions/09-demo/equivalent-mutants <<'EQ'
# keys of 01_k.cu
01_k.cu:9:21:index-inc  y[i + 1] = x[i + 1] where x[i] > 0: as 01_k.cu:7:10:index-inc, no case tells
01_k.cu:6:11:cmp-bound  a key on the line that changes
EQ
git add -A && git commit -q -m graded && since=$(git rev-parse HEAD)
cp results/GPU_B/09-demo/mutants.csv "$scratch/b.before"
cp results/GPU_C/09-demo/mutants.csv "$scratch/c.before"

$remap --since "$since" >"$scratch/out" 2>"$scratch/err"
ok $? "no edit: exit 0"
grep -q 'no solution of 09-demo differs' "$scratch/out" && git diff --quiet
ok $? "no edit: nothing to move, nothing written"

# The edit: two lines above everything, line 6 (now 8) changed.
{ printf '/* a note */\n/* another */\n'; cat solutions/09-demo/01_k.cu; } >"$scratch/k.cu"
sed 's/    if (i < n)$/    if (i < n \&\& n > 0)/' "$scratch/k.cu" >solutions/09-demo/01_k.cu

$remap --since not-a-commit >/dev/null 2>"$scratch/err"
rc=$?
[ $rc -eq 2 ] && grep -q "no commit" "$scratch/err" && git diff --quiet -- results solutions/09-demo/equivalent-mutants
ok $? "a bad commit: exit 2 (got $rc), saying so, nothing written"
sh "$root/grader/mk/mutants-remap.sh" --chapter 09-demo --tool "$tool" >/dev/null 2>"$scratch/err"
rc=$?
[ $rc -eq 2 ] && grep -q "give --since" "$scratch/err" && git diff --quiet -- results
ok $? "no --since: exit 2 (got $rc), saying so, nothing written"

$remap --since "$since" >"$scratch/out" 2>"$scratch/err"
ok $? "after the edit: exit 0"
csv=results/GPU_A/09-demo/mutants.csv
row() { grep "^09-demo,01_k.cu,$1," $csv; }
[ "$(row 9 | cut -d, -f8 | sort -u)" = survived ] && [ "$(row 9 | wc -l)" -eq 4 ] &&
    [ "$(row 10 | grep -c 'killed,"big, case"$')" -eq 9 ] && [ "$(row 11 | cut -d, -f8 | sort -u)" = equivalent ]
ok $? "the rows of unchanged lines move two down, their statuses and quoted killed_by kept"
[ "$(row 8 | wc -l)" -ge 1 ] && [ -z "$(row 8 | grep -v ",ungraded,not graded yet: its line changed since $since$")" ]
ok $? "the changed line's mutants: not graded yet, since the commit named"
[ -z "$(grep -E '^09-demo,01_k.cu,(5|6|7),' $csv)" ]
ok $? "no row left at the old lines"
"$tool" solutions/09-demo/01_k.cu | tail -n +2 | sed 's/^/09-demo,/' >"$scratch/now"
grep '^09-demo,01_k.cu,' $csv | while IFS= read -r r; do
    p=$(printf '%s\n' "$r" | cut -d, -f1-7)
    grep -q -x -F -e "$p" "$scratch/now" || echo "$r"
done >"$scratch/stray"
[ ! -s "$scratch/stray" ] && [ "$(grep -c '^09-demo,01_k.cu,' $csv)" -eq "$(wc -l <"$scratch/now")" ]
ok $? "the block is the current list of mutants, one row each"
sed -n 2p $csv | grep -q '^09-demo,00_other.cu,3,5,' && tail -n 1 $csv | grep -q '^09-demo,02_z.cu,1,1,'
ok $? "another file's rows stay where they were, before and after the block"
grep -q "$csv: 01_k.cu: 17 rows carried, 17 of them to another line; 7 not graded yet" "$scratch/out"
ok $? "it says what it carried and what is not graded yet"
cmp -s results/GPU_B/09-demo/mutants.csv "$scratch/b.before" &&
    grep -q 'GPU_B/09-demo/mutants.csv: its rows of 01_k.cu are not the mutants of' "$scratch/out"
ok $? "a CSV graded at another commit is left as it was, saying so"
cmp -s results/GPU_C/09-demo/mutants.csv "$scratch/c.before" && ! grep -q 'GPU_C' "$scratch/out"
ok $? "a CSV with no rows of the file (a version not graded there) is left as it was"
list=solutions/09-demo/equivalent-mutants
grep -q -x -F '01_k.cu:11:21:index-inc  y[i + 1] = x[i + 1] where x[i] > 0: as 01_k.cu:9:10:index-inc, no case tells' $list
ok $? "the equivalents list: a key and its reason's cross-reference move with their lines"
grep -q '^01_k.cu:6:11:cmp-bound' $list && grep -q "names 01_k.cu:6, a line changed since $since" "$scratch/err"
ok $? "a key on the changed line stays, with a warning to check it"

cd "$root" || exit 1
make -s --no-print-directory mutants-remap CH=05 >/dev/null 2>"$scratch/err"
rc=$?
[ $rc -ne 0 ] && grep -q 'give SINCE=rev' "$scratch/err"
ok $? "make mutants-remap without SINCE=: refused, saying so"
make -s --no-print-directory mutants-remap SINCE=HEAD >/dev/null 2>"$scratch/err"
rc=$?
[ $rc -ne 0 ] && grep -q 'give a chapter' "$scratch/err"
ok $? "make mutants-remap without CH=: refused, saying so"
done_testing
