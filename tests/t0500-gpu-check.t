#!/usr/bin/env bash
# On a GPU: every reference solution passes every case; every skeleton (as
# generated from the solutions) reports "not implemented" with exit 77; EX=,
# SEED= and the last-line contract hold.
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

    # Skeletons as the strip tool makes them (exercises/ may hold a student's work).
    for f in solutions/$ch/*.cu; do
        mkdir -p "$scratch/$ch/src"
        build/tools/mw-strip "$f" "$scratch/$ch/src/$(basename "$f")" &&
            build_lib "$ch" "$scratch/$ch/src/$(basename "$f")" "$scratch/$ch/lib" >/dev/null
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

done_testing
