#!/usr/bin/env bash
# t0310-dist.t: `make dist` writes the student edition, a tarball of the
# tracked files that unpacks into memwall-student/ and leaves out every
# answer: solutions/, tests/wrong/, tests/class/, instructor/ and *.hidden.
# The edition unpacked elsewhere prints its help and, in the long tier
# (make test-full), builds and passes its own `make test-full` (GPU tests
# skip there: the GPU is hidden from it, to keep this test short). Rules are
# also checked on a small made-up tree: what a tracked *.hidden or
# instructor file becomes, the fallback without git, and the refusal to ship
# an exercise holding solution markers.
. tests/lib.sh

skip_all_unless_full_tree tar gzip

scratch=$(mktemp -d)
chmod 755 "$scratch" # the edition's batch test builds in a sandbox that must read it
trap 'chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT
tarball=$scratch/out/memwall-student.tar.gz
top=memwall-student

# ---- make dist on this tree ---------------------------------------------------

out=$(MW_DIST_OUT="$tarball" make -s --no-print-directory dist 2>&1)
ok $? "make dist succeeds"
printf '%s\n' "$out" | diag
[ -s "$tarball" ] && gzip -t "$tarball" 2>/dev/null
ok $? "it writes a gzip tarball (MW_DIST_OUT names where)"
[ "$(ls -A "$scratch/out")" = memwall-student.tar.gz ]
ok $? "no temporary file is left beside it"

tar -tzf "$tarball" >"$scratch/list"
files=$(grep -c -v '/$' "$scratch/list")
said=$(printf '%s\n' "$out" | sed -n 's/.*wrote .*memwall-student\.tar\.gz: \([0-9]*\) files.*/\1/p')
[ -n "$said" ] && [ "$said" = "$files" ]
ok $? "it prints what it wrote and how many files ($said; the tarball lists $files)"
! grep -v -q "^$top/" "$scratch/list"
ok $? "every path is under $top/"

for dir in solutions tests/wrong tests/class instructor; do
    hits=$(grep -c "^$top/$dir/" "$scratch/list")
    ok "$([ "$hits" -eq 0 ] && echo 0 || echo 1)" "nothing under $dir/ ($hits)"
done
! grep -E -q '\.hidden(/|$)' "$scratch/list"
ok $? "no *.hidden file"
for path in exercises/ chapters/ grader/ tests/lib.sh Makefile README.md; do
    grep -q -x "$top/$path" "$scratch/list"
    ok $? "ships $path"
done
for dir in exercises chapters; do
    n=$(grep -c "^$top/$dir/.*[^/]$" "$scratch/list")
    ok "$([ "$n" -gt 0 ] && echo 0 || echo 1)" "$dir/ is not empty ($n files)"
done
# The chapters' own kernels answer exercises whatever their shape: none
# ships as source, each as the object the edition's Makefile links.
kernels=$(ls chapters/*/*.cu 2>/dev/null | wc -l)
n=$(grep -c -E "^$top/chapters/[^/]+/[^/]+\.cu$" "$scratch/list")
ok "$n" "no kernel source of chapters/ ships ($n)"
n=$(grep -c -E "^$top/chapters/[^/]+/[^/]+\.cu\.o$" "$scratch/list")
ok "$([ "$n" -eq "$kernels" ] && [ "$kernels" -gt 0 ] && echo 0 || echo 1)" \
    "each of chapters/'s $kernels kernel files ships compiled ($n)"
printf '%s' "$out" | grep -q "shipped compiled, without source: chapters/"
ok $? "it says which it shipped compiled"

# Exactly the tracked files that exist, less those left out.
if [ -n "$(git ls-files 2>/dev/null | head -n 1)" ]; then
    git -c core.quotepath=off ls-files | grep -v -E '^(solutions|tests/wrong|tests/class|instructor|build|dist)/' |
        grep -v -E '\.hidden(/|$)' | while IFS= read -r f; do
            [ -e "$f" ] || [ -L "$f" ] || continue
            # the chapters' own kernels ship compiled, as X.cu.o
            case $f in chapters/*/*.cu) echo "$top/$f.o" ;; *) echo "$top/$f" ;; esac
        done | LC_ALL=C sort >"$scratch/want"
    grep -v '/$' "$scratch/list" | LC_ALL=C sort >"$scratch/got"
    cmp -s "$scratch/want" "$scratch/got"
    ok $? "the tarball holds exactly the tracked files, less what is left out"
    diff "$scratch/want" "$scratch/got" | head -n 10 | diag
else
    skip "not a git checkout: no tracked files to compare with"
fi

# ---- the edition, unpacked elsewhere -----------------------------------------

mkdir "$scratch/u"
tar -xzf "$tarball" -C "$scratch/u"
ok $? "the tarball unpacks"
chmod -R a+rX "$scratch/u"
ed=$scratch/u/$top
[ -f "$ed/Makefile" ] && [ ! -e "$ed/solutions" ] && [ ! -e "$ed/tests/wrong" ]
ok $? "into $top/, without solutions/ or tests/wrong/"

if long_tests; then
    out=$(make -C "$ed" -s --no-print-directory -j"$(nproc 2>/dev/null || echo 2)" build 2>&1)
    ok $? "the edition builds: make -s build (chapter programs and exercises, no solutions)"
    [ -n "$out" ] && printf '%s\n' "$out" | grep -i -E 'error|warning' | head -n 20 | diag
    n=0
    for ch in $(chapters); do
        [ -x "$ed/build/$ch/mw-chapter" ] || n=$((n + 1))
        for f in "$ed/exercises/$ch"/*.cu; do
            so=$ed/build/exercises/$ch/$(basename "${f%.cu}").so
            [ -s "$so" ] || n=$((n + 1))
        done
    done
    ok "$([ "$n" -eq 0 ] && echo 0 || echo 1)" "every chapter program and exercise library is built ($n missing)"
else
    skip_long "the edition builds: make -s build"
    skip_long "every chapter program and exercise library is built"
fi

out=$(make -C "$ed" -s --no-print-directory help 2>&1)
ok $? "make -s help works there"
printf '%s' "$out" | grep -q 'make check CH=01'
ok $? "and names make check"

out=$(make -C "$ed" --no-print-directory -n check CH=01 SIM=0 2>&1)
printf '%s' "$out" | grep -q -- '--lib-dir build/exercises/01-vector-add'
st=$?
ok $st "make check CH=01 grades exercises/ there"
[ $st -eq 0 ] || printf '%s\n' "$out" | tail -n 8 | diag
out=$(make -C "$ed" --no-print-directory -n bench CH=01 2>&1)
rc=$?
[ $rc -eq 0 ] && printf '%s' "$out" | grep -q -- '--student build/exercises/01-vector-add' &&
    ! printf '%s' "$out" | grep -q -- '--reference'
st=$?
ok $st "make bench CH=01 runs there with no reference"
[ $st -eq 0 ] || printf '%s\n' "$out" | tail -n 8 | diag

# Its own tests, both tiers, with the GPU hidden (GPU tests skip, as on a
# machine without one) and this test skipped inside.
if long_tests; then
    out=$(cd "$ed" && MW_DIST_INNER=1 CUDA_VISIBLE_DEVICES="" make -s --no-print-directory test-full 2>&1)
    rc=$?
    ok $rc "make test-full passes in the edition (exit $rc)"
    if [ $rc -ne 0 ]; then
        printf '%s\n' "$out" | grep -E '^(not ok|tests/|Failed|Result)' | head -n 30 | diag
    else
        printf '%s\n' "$out" | grep -E 'skipped:' | diag
    fi
else
    skip_long "make test-full passes in the edition"
fi

# The edition makes the same edition again, without git (the find fallback):
# build/ and dist/ stay out, the file list is the same.
out=$(MW_DIST_OUT="$scratch/again.tar.gz" sh "$ed/grader/mk/dist.sh" 2>&1)
ok $? "make dist works in the edition too (no git: the tree less build/)"
tar -tzf "$scratch/again.tar.gz" 2>/dev/null | grep -v '/$' | LC_ALL=C sort >"$scratch/again"
grep -v '/$' "$scratch/list" | LC_ALL=C sort | cmp -s - "$scratch/again"
ok $? "and it holds the same files"
printf '%s\n' "$out" | grep -q 'from find'
ok $? "and says where its list came from"

# ---- the rules, on a made-up tree ---------------------------------------------

if ! command -v git >/dev/null 2>&1; then
    skip "git not installed: the made-up tree needs it"
    done_testing
    exit
fi
t=$scratch/tree
mkdir -p "$t/grader/mk" "$t/exercises/01-x" "$t/solutions/01-x" "$t/tests/wrong/01-x/bug" \
    "$t/tests/class/01-x/ann" "$t/instructor/hidden" "$t/docs/notes.hidden" "$t/build" "$t/keep"
cp grader/mk/dist.sh "$t/grader/mk/"
printf 'all:\n' >"$t/Makefile"
printf '# x\n' >"$t/README.md"
printf '// TODO: write it\n' >"$t/exercises/01-x/01_a.cu"
for f in solutions/01-x/01_a.cu tests/wrong/01-x/bug/01_a.cu tests/class/01-x/ann/01_a.cu \
    instructor/hidden/01-x.cases docs/notes.hidden/a.md keep/answers.hidden keep/ok.txt \
    keep/gone.txt "keep/with space.txt" build/junk.o; do
    printf 'x\n' >"$t/$f"
done
(cd "$t" && git init -q . && git add -f . && rm keep/gone.txt && printf 'x\n' >keep/untracked.txt)
MW_DIST_OUT="$scratch/t.tar.gz" MW_DIST_EXCLUDE="keep/ok.txt" sh "$t/grader/mk/dist.sh" >/dev/null 2>&1
ok $? "made-up tree: dist succeeds"
got=$(tar -tzf "$scratch/t.tar.gz" | grep -v '/$' | LC_ALL=C sort | tr '\n' ' ')
want="$top/Makefile $top/README.md $top/exercises/01-x/01_a.cu $top/grader/mk/dist.sh $top/keep/with space.txt "
[ "$got" = "$want" ]
ok $? "made-up tree: only the tracked files that are no answer, exist and are not in MW_DIST_EXCLUDE"
[ "$got" = "$want" ] || diag "got:  $got" "want: $want"

rm -rf "$t/.git"
MW_DIST_OUT="$scratch/t2.tar.gz" sh "$t/grader/mk/dist.sh" >/dev/null 2>&1
got=$(tar -tzf "$scratch/t2.tar.gz" | grep -v '/$' | LC_ALL=C sort | tr '\n' ' ')
want="$top/Makefile $top/README.md $top/exercises/01-x/01_a.cu $top/grader/mk/dist.sh $top/keep/ok.txt $top/keep/untracked.txt $top/keep/with space.txt "
[ "$got" = "$want" ]
ok $? "made-up tree without git: the tree less build/ and the answers"
[ "$got" = "$want" ] || diag "got:  $got" "want: $want"

# An exercise holding solution markers is refused, and the last good tarball
# stays as it was.
cp "$scratch/t2.tar.gz" "$scratch/t2.before"
printf '// BEGIN SOLUTION\nint x;\n// END SOLUTION\n' >"$t/exercises/01-x/01_a.cu"
out=$(MW_DIST_OUT="$scratch/t2.tar.gz" sh "$t/grader/mk/dist.sh" 2>&1)
rc=$?
[ $rc -ne 0 ] && printf '%s' "$out" | grep -q 'exercises/01-x/01_a.cu'
ok $? "an exercise with solution markers is refused, and named"
leftover=$(find "$scratch" -maxdepth 1 -name '*.tmp' | wc -l)
cmp -s "$scratch/t2.tar.gz" "$scratch/t2.before" && [ "$leftover" -eq 0 ]
ok $? "the previous tarball is untouched, no temporary file left"

done_testing
