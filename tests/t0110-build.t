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
            ok "$([ -s "$so" ] && echo 0 || echo 1)" "$f compiles to $so"
        done
    done
done

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
shopt -s nullglob
wrong=(tests/wrong/*/*/)
# A known-wrong submission made by one change to a reference solution
# (tests/lib.sh, wrong_source): the line it changes is still there, once.
for dir in tests/wrong/*/*/; do
    [ -f "$dir/one-change" ] || continue
    err=$(wrong_source "$dir" "$scratch/derived" 2>&1 >/dev/null)
    ok $? "known-wrong $(basename "$dir"): its one change applies to the reference${err:+ ($err)}"
done
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
