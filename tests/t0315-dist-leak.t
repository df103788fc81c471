#!/usr/bin/env bash
# t0315-dist-leak.t: the student edition gives no exercise away. No C or
# CUDA source in it shares code with the solutions (the code between their
# BEGIN/END SOLUTION markers): `make dist` cuts the INSTRUCTOR ONLY regions
# (chapter 04's three-pass baseline, the answer to exercise 04.1), compares
# what it ships with the solutions and refuses a leak. The comparison is
# shown to catch the copies this repository holds (the baseline as it is
# here, the known-wrong submissions, the fixture class), and, in the long
# tier (make test-full), the edition's chapter 04 builds without its
# baseline.
. tests/lib.sh

skip_all_unless_full_tree tar gzip perl

scratch=$(mktemp -d)
trap 'chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT
top=memwall-student
compare() { sh grader/mk/dist.sh --compare "$@"; }

# ---- the comparison finds the copies there are -------------------------------

out=$(compare solutions chapters/04-softmax/baselines.cu 2>&1)
rc=$?
[ $rc -eq 1 ] && printf '%s' "$out" | grep -q 'baselines.cu: shares code with solutions/04-softmax/01_three_pass.cu'
ok $? "the comparison finds exercise 04.1 in this repository's chapter 04 baseline (names renamed)"
printf '%s\n' "$out" | diag

# Every solution file is found in itself: each exercise's code is long
# enough to be recognised.
n=0
for f in solutions/*/*.cu; do
    grep -q 'BEGIN SOLUTION' "$f" || continue
    compare solutions "$f" | grep -q "^$f: shares code with $f " || { n=$((n + 1)); diag "not recognised: $f"; }
done
ok "$([ "$n" -eq 0 ] && echo 0 || echo 1)" "every solution is recognised in a copy of itself ($n not)"

shopt -s nullglob
copies=(tests/wrong/*/*/*.cu tests/class/*/*/*.cu)
if [ ${#copies[@]} -gt 0 ]; then
    found=$(compare solutions "${copies[@]}" | cut -d: -f1 | sort -u | wc -l)
    ok "$([ "$found" -ge 10 ] && echo 0 || echo 1)" \
        "it finds near copies among the known-wrong and fixture submissions ($found of ${#copies[@]} files)"
else
    skip "no tests/wrong/ or tests/class/ here"
fi

# Nothing it must not find: the skeletons, the grader, the chapters' own
# code other than the instructor-only regions (a baseline that answers an
# exercise sits in one): a file with such regions is compared with them
# cut, as the edition ships it, so a new chapter's baseline needs no entry
# here.
own=()
for f in $(ls exercises/*/*.cu grader/*.c grader/*.h grader/*.cu grader/*/*.c grader/*/*.h \
    chapters/*/*.c chapters/*/*.h chapters/*/*.cu 2>/dev/null); do
    if grep -q -E '^[[:space:]]*// BEGIN INSTRUCTOR ONLY' "$f"; then
        mkdir -p "$scratch/cut/$(dirname "$f")"
        awk '/^[ \t]*\/\/ BEGIN INSTRUCTOR ONLY/ { skip = 1 } !skip { print }
             /^[ \t]*\/\/ END INSTRUCTOR ONLY/ { skip = 0 }' "$f" >"$scratch/cut/$f"
        f=$scratch/cut/$f
    fi
    own+=("$f")
done
out=$(compare solutions "${own[@]}" 2>&1)
ok $? "the skeletons, the grader and the chapters' other sources share no code with the solutions"
printf '%s\n' "$out" | diag

# ---- the edition ---------------------------------------------------------------

out=$(MW_DIST_OUT="$scratch/e.tar.gz" make -s --no-print-directory dist 2>&1)
ok $? "make dist succeeds"
printf '%s\n' "$out" | diag
printf '%s' "$out" | grep -q 'instructor-only code cut from: .*chapters/04-softmax/baselines.cu' &&
    printf '%s' "$out" | grep -q 'instructor-only code cut from: .*chapters/04-softmax/chapter.c'
ok $? "it says it cut the instructor-only code of chapter 04"
printf '%s' "$out" | grep -q -E 'dist: [0-9]+ C and CUDA sources compared with solutions/: none shares code'
ok $? "it says it compared the sources with solutions/"

mkdir "$scratch/u"
tar -xzf "$scratch/e.tar.gz" -C "$scratch/u"
ed=$scratch/u/$top
mapfile -t srcs < <(cd "$ed" && find . -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' -o -name '*.cuh' \
    -o -name '*.cpp' -o -name '*.cc' -o -name '*.hpp' \) | sed 's|^\./||' | LC_ALL=C sort)
ok "$([ ${#srcs[@]} -gt 20 ] && echo 0 || echo 1)" "the edition has C and CUDA sources to compare (${#srcs[@]})"
solutions=$(pwd)/solutions
out=$(cd "$ed" && sh grader/mk/dist.sh --compare "$solutions" "${srcs[@]}" 2>&1)
rc=$?
ok $rc "no source of the edition shares code with a solution"
printf '%s\n' "$out" | diag

hits=$(cd "$ed" && grep -l -E '(BEGIN|END) INSTRUCTOR ONLY' "${srcs[@]}")
ok "$([ -z "$hits" ] && echo 0 || echo 1)" "no instructor-only marker is left in the edition's sources"
[ ! -e "$ed/chapters/04-softmax/baselines.cu" ] && [ -s "$ed/chapters/04-softmax/baselines.cu.o" ] &&
    ! nm "$ed/chapters/04-softmax/baselines.cu.o" | grep -q three_pass &&
    ! grep -q -E 'mw04_three_pass|three_pass_run' "$ed/chapters/04-softmax/chapter.c"
ok $? "chapter 04's baseline and its library row are not in the edition"
grep -q 'mw04_three_pass' chapters/04-softmax/baselines.cu && grep -q 'three_pass_run' chapters/04-softmax/chapter.c
ok $? "and still are in this repository (the instructor's bench times them)"

if long_tests; then
    out=$(make -C "$ed" -s --no-print-directory -j"$(nproc 2>/dev/null || echo 2)" build/04-softmax/mw-chapter 2>&1)
    rc=$?
    ok $rc "the edition's chapter 04 builds without its baseline"
    [ $rc -eq 0 ] || printf '%s\n' "$out" | grep -v '^  [A-Z]' | tail -n 10 | diag
    prog=$ed/build/04-softmax/mw-chapter
    [ -x "$prog" ] && nm "$prog" >"$scratch/nm" 2>/dev/null && ! grep -q three_pass "$scratch/nm"
    ok $? "and its program holds no three-pass kernel"
else
    skip_long "the edition's chapter 04 builds without its baseline"
    skip_long "and its program holds no three-pass kernel"
fi

# ---- the rules, on a made-up tree ------------------------------------------------

if ! command -v git >/dev/null 2>&1; then
    skip "git not installed: the made-up tree needs it"
    done_testing
    exit
fi
t=$scratch/tree
mkdir -p "$t/grader/mk" "$t/chapters/01-x" "$t/solutions/01-x" "$t/exercises/01-x"
cp grader/mk/dist.sh "$t/grader/mk/"
printf 'all:\n' >"$t/Makefile"
printf '# x\n' >"$t/README.md"
cp solutions/04-softmax/01_three_pass.cu "$t/solutions/01-x/01_a.cu"
cp exercises/04-softmax/01_three_pass.cu "$t/exercises/01-x/01_a.cu"
cp chapters/04-softmax/baselines.cu "$t/chapters/01-x/base.cu"
printf '#include "x.h"\n// BEGIN INSTRUCTOR ONLY\nint answer(void);\n// END INSTRUCTOR ONLY\nint kept(void);\n' \
    >"$t/chapters/01-x/chapter.c"
chmod 640 "$t/chapters/01-x/chapter.c"
(cd "$t" && git init -q . && git add -f .)
mkt() { MW_DIST_OUT="$scratch/t.tar.gz" sh "$t/grader/mk/dist.sh" 2>&1; }

out=$(mkt)
ok $? "made-up tree: dist succeeds with the answer in instructor-only regions"
mkdir "$scratch/t1" && tar -xzf "$scratch/t.tar.gz" -C "$scratch/t1"
got=$(cat "$scratch/t1/$top/chapters/01-x/chapter.c")
[ "$got" = "$(printf '#include "x.h"\nint kept(void);')" ]
ok $? "made-up tree: a region is cut with its markers, the lines around it kept"
mode=$(stat -c %a "$scratch/t1/$top/chapters/01-x/chapter.c" 2>/dev/null || echo 640)
[ "$mode" = 640 ]
ok $? "made-up tree: the cut file keeps its mode ($mode)"
git -C "$t" diff --quiet && grep -q 'BEGIN INSTRUCTOR ONLY' "$t/chapters/01-x/chapter.c"
ok $? "made-up tree: the working copy is not touched"

cp "$scratch/t.tar.gz" "$scratch/t.before"
grep -v 'INSTRUCTOR ONLY' chapters/04-softmax/baselines.cu >"$t/chapters/01-x/base.cu"
out=$(mkt)
rc=$?
[ $rc -ne 0 ] && printf '%s' "$out" | grep -q 'chapters/01-x/base.cu: shares code with solutions/01-x/01_a.cu'
ok $? "made-up tree: a baseline that answers an exercise, unmarked, is refused and named"
printf '%s\n' "$out" | head -n 3 | diag
cmp -s "$scratch/t.tar.gz" "$scratch/t.before"
ok $? "made-up tree: the previous tarball is untouched"

cp chapters/04-softmax/baselines.cu "$t/chapters/01-x/base.cu"
printf '// BEGIN INSTRUCTOR ONLY\nint y;\n' >>"$t/chapters/01-x/chapter.c"
out=$(mkt)
rc=$?
[ $rc -ne 0 ] && printf '%s' "$out" | grep -q 'chapters/01-x/chapter.c:6: BEGIN INSTRUCTOR ONLY never ended'
ok $? "made-up tree: a region never ended is refused, naming the file and line"

printf '#include "x.h"\nint kept(void);\n// END INSTRUCTOR ONLY\n' >"$t/chapters/01-x/chapter.c"
out=$(mkt)
rc=$?
[ $rc -ne 0 ] && printf '%s' "$out" | grep -q 'chapters/01-x/chapter.c:3: END INSTRUCTOR ONLY without a BEGIN'
ok $? "made-up tree: an END without a BEGIN is refused"

done_testing
