#!/usr/bin/env bash
# On a GPU: every reference solution passes every case; every skeleton (as
# generated from the solutions) reports "not implemented" with exit 77; EX=,
# SEED= and the last-line contract hold. Long (make test-full): chapter 03's
# tuned reference forced to each of its configurations.
. tests/lib.sh
have_gpu || skip_all "$GPU_REASON"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

for ch in $(chapters); do
    if ! ls solutions/$ch/*.cu >/dev/null 2>&1; then
        skip "$ch: no solutions/$ch/ here (the student edition leaves them out)"
        continue
    fi
    out=$(make -s --no-print-directory check CH=$ch SRC=solutions SEED=20261122 2>&1)
    rc=$?
    ok $rc "$ch: the reference solutions pass (exit $rc)"
    [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -v '^  PASS' | head -n 40 | diag
    last=$(printf '%s\n' "$out" | grep -v '^make' | tail -n 1)
    printf '%s' "$last" | grep -q -E '^[0-9]+ passed, 0 failed$'
    ok $? "$ch: the last line is 'N passed, 0 failed' ($last)"
    printf '%s' "$out" | grep -q 'seed 20261122'
    ok $? "$ch: SEED= replays the given seed"

    # Skeletons as the strip tool makes them. exercises/ holds exactly that
    # unless a student edited it (t0210), and make build has built it: then
    # its library is taken, else the skeleton is made and built here.
    for f in solutions/$ch/*.cu; do
        v=$(basename "$f" .cu)
        mkdir -p "$scratch/$ch/src" "$scratch/$ch/lib"
        if build/tools/mw-strip --check "$f" "exercises/$ch/$v.cu" >/dev/null 2>&1 &&
            make -s --no-print-directory "build/exercises/$ch/$v.so" >/dev/null 2>&1; then
            cp "build/exercises/$ch/$v.so" "$scratch/$ch/lib/"
        else
            build/tools/mw-strip "$f" "$scratch/$ch/src/$v.cu" &&
                build_lib "$ch" "$scratch/$ch/src/$v.cu" "$scratch/$ch/lib" >/dev/null
        fi
    done
    out=$(build/$ch/mw-grade check --lib-dir "$scratch/$ch/lib" --label skeleton 2>&1)
    rc=$?
    ok "$([ $rc -eq 77 ] && echo 0 || echo 1)" "$ch: the skeletons exit 77, not implemented (exit $rc)"
    printf '%s' "$out" | grep -q 'not implemented yet' && ! printf '%s' "$out" | grep -q -E '^  (PASS|FAIL|ERROR)'
    ok $? "$ch: no skeleton case passes, fails or crashes; all are TODO"

    first=$(ls solutions/$ch/*.cu | head -n 1 | xargs basename | cut -c1-2)
    out=$(build/$ch/mw-grade check --lib-dir build/solutions/$ch --version "$first" --small 2>&1)
    others=$(printf '%s\n' "$out" | grep -E '^  (PASS|FAIL|ERROR|TODO|SKIP)' | grep -v -c " ${first}_")
    ok "$([ "$others" -eq 0 ] && echo 0 || echo 1)" "$ch: EX=$first grades only version $first"
done

# Chapter 03's tuned reference picks among tile configurations at run time:
# each one, forced, must pass every case on its own.
if [ -f solutions/03-matmul/04_tuned.cu ]; then
    configs=$(sed -n 's/^ *{"\([0-9x]*\)", launch_config.*/\1/p' solutions/03-matmul/04_tuned.cu)
    [ -n "$configs" ]
    ok $? "03-matmul: the tuned reference lists its configurations ($(echo $configs))"
    if long_tests; then
        for cfg in $configs; do
            out=$(MW_TUNED_CONFIG=$cfg build/03-matmul/mw-grade check --lib-dir build/solutions/03-matmul \
                --version 04 --seed 7 2>&1)
            rc=$?
            ok $rc "03-matmul: 04_tuned forced to $cfg passes every case"
            [ $rc -ne 0 ] && printf '%s\n' "$out" | grep -v '^  PASS' | head -n 20 | diag
        done
    else
        skip_long "03-matmul: 04_tuned forced to each configuration passes every case ($(echo $configs))"
    fi
    # The cache file it writes beside the library names this GPU.
    tune=build/solutions/03-matmul/04_tuned.tune
    build/03-matmul/mw-grade check --lib-dir build/solutions/03-matmul --version 04 --small >/dev/null 2>&1
    [ -s "$tune" ] && grep -q "$(nvidia-smi --query-gpu=name --format=csv,noheader | head -n 1)" "$tune"
    ok $? "03-matmul: the tuned reference caches its choices per GPU in $tune"

    # An optional version left as a stub costs nothing: required versions
    # from the solutions, the optional one from its skeleton (both built
    # above), exit 0.
    lib=$scratch/optional/lib
    mkdir -p "$lib"
    cp build/solutions/03-matmul/0[123]_*.so "$scratch/03-matmul/lib/04_tuned.so" "$lib/"
    out=$(build/03-matmul/mw-grade check --lib-dir "$lib" --small 2>&1)
    rc=$?
    ok $rc "03-matmul: an unattempted optional version does not fail the check (exit $rc)"
    printf '%s' "$out" | grep -q 'optional version was not attempted'
    ok $? "03-matmul: ... and the check says it was not attempted"
fi

done_testing
