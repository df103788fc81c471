#!/usr/bin/env bash
# Everything compiles without a GPU: the chapter programs, every exercise,
# every solution and every known-wrong submission (one made by a one-change
# file applies to its reference in the fast tier); and an exercise that calls
# a library is refused at link time. The fast tier builds as make test does
# (make build-fast: the solutions, or the exercises where there are none);
# long (make test-full): make build, every exercise too, the known-wrong
# submissions, built side by side, and the library call (t0125 checks it in
# the fast tier too).
. tests/lib.sh

if long_tests; then
    goal=build sources="solutions exercises"
else
    goal=build-fast sources=$(ls solutions/*/*.cu >/dev/null 2>&1 && echo solutions || echo exercises)
fi
make -s --no-print-directory $goal >/tmp/mw-build.$$ 2>&1
ok $? "make $goal: chapter programs and the $sources"
[ -s /tmp/mw-build.$$ ] && grep -i -E 'error|warning' /tmp/mw-build.$$ | head -n 20 | diag
rm -f /tmp/mw-build.$$
[ "$goal" = build ] || skip_long "every exercise compiles (make build)"

for ch in $(chapters); do
    ok "$([ -x build/$ch/mw-chapter ] && echo 0 || echo 1)" "$ch: build/$ch/mw-chapter exists"
    for src in $sources; do
        for f in $src/$ch/*.cu; do
            [ -e "$f" ] || continue
            so=build/${f%.cu}.so
            # A version that needs a newer GPU than the build's has its marker instead (t0111).
            ok "$([ -s "$so" ] || [ -s "${so%.so}.skip" ] && echo 0 || echo 1)" "$f compiles to $so"
        done
    done
done

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
wrong=($(known_wrong_dirs))
# A known-wrong submission made by one change to a reference solution or to
# a shared base (tests/lib.sh, wrong_source): the lines it changes are still
# there, once.
for dir in "${wrong[@]}"; do
    [ -f "$dir/one-change" ] || continue
    err=$(wrong_source "$dir" "$scratch/derived" 2>&1 >/dev/null)
    ok $? "known-wrong $(basename "$dir"): its one change applies to its base${err:+ ($err)}"
done

# wrong_source itself, on a made-up chapter: a hunk of several lines
# replaced, one deleted, and each refusal saying why.
fmt=$scratch/fmt/01-x
mkdir -p "$fmt"
printf 'a\nb\nc\nb\nd\n' >"$fmt/base.cu"
one_change() { # one_change NAME LINE...: a known-wrong folder NAME with those one-change lines
    mkdir -p "$fmt/$1" && echo 'version: 01_a' >"$fmt/$1/expect"
    local name=$1
    shift
    printf '%s\n' '# a comment' "base: $fmt/base.cu" "$@" >"$fmt/$name/one-change"
}
derive() { wrong_source "$fmt/$1" "$scratch/fmt-out" 2>&1; }
one_change hunk -c -b -d +C +D
[ "$(cat "$(derive hunk)" 2>/dev/null)" = "$(printf 'a\nb\nC\nD')" ]
ok $? "wrong_source: a hunk of three lines becomes its two new ones, the rest of the base kept"
one_change gone -a
[ "$(cat "$(derive gone)" 2>/dev/null)" = "$(printf 'b\nc\nb\nd')" ]
ok $? "wrong_source: a hunk with no + lines deletes its lines"
one_change twice -b +B
derive twice | grep -q 'the line to change is in .*base.cu 2 times, not once: b'
ok $? "wrong_source: a line found twice is refused, saying so"
one_change absent -c -d +x
derive absent | grep -q 'the 2 lines to change (in a row) are not in .*base.cu: c'
ok $? "wrong_source: lines not in the base, in a row, are refused, saying so"
one_change order -c +x -d
derive order | grep -q 'a -old line after the +new ones'
ok $? "wrong_source: a second - after the + lines (not one hunk) is refused"
one_change nobase -c +x
sed -i "s|^base: .*|base: $fmt/missing.cu|" "$fmt/nobase/one-change"
derive nobase | grep -q 'its base .*missing.cu is missing'
ok $? "wrong_source: a missing base is refused, naming it"
mkdir -p "$scratch/kw/tests/wrong/01-x/base" "$scratch/kw/tests/wrong/01-x/bug"
touch "$scratch/kw/tests/wrong/01-x/base/01_a.cu" "$scratch/kw/tests/wrong/01-x/bug/expect"
[ "$(cd "$scratch/kw" && known_wrong_dirs)" = tests/wrong/01-x/bug ]
ok $? "known_wrong_dirs: a folder without an expect file (a shared base) is no known-wrong"

if [ ${#wrong[@]} -eq 0 ]; then
    skip "known-wrong submissions: no tests/wrong/ here (the student edition leaves it out)"
elif ! long_tests; then
    skip_long "the ${#wrong[@]} known-wrong submissions compile"
else
    n=0
    for dir in "${wrong[@]}"; do
        ch=$(basename "$(dirname "$dir")")
        f=$(wrong_source "$dir" "$scratch/derived") || continue # reported below
        n=$((n + 1))
        echo "$ch $f $scratch/wrong/$n"
    done >"$scratch/wrong.list"
    build_libs "$scratch/wrong.list"
    while read -r ch f lib; do
        built "$lib"
        ok $? "known-wrong $(basename "$(dirname "$f")") ($ch) compiles"
    done <"$scratch/wrong.list"
fi

# The exercise libraries link against the CUDA runtime only: a cuBLAS call
# is an undefined symbol at build time, with the symbol's name in the error.
if long_tests; then
    out=$(build_lib 01-vector-add tests/data/calls-cublas/01_naive.cu "$scratch/cublas" 2>&1)
    rc=$?
    ok "$([ $rc -ne 0 ] && echo 0 || echo 1)" "an exercise that calls cuBLAS does not link"
    printf '%s' "$out" | grep -q 'cublasSaxpy'
    ok $? "the link error names the library call"
else
    skip_long "an exercise that calls cuBLAS does not link (t0125 checks it in the fast tier)"
fi

done_testing
