#!/usr/bin/env bash
# On a GPU: bench and traffic run end to end (with a short time cap) and
# write well-formed CSV with a row for every implementation and size. This
# checks the pipeline, not the speed: speed is what `make bench` reports.
. tests/lib.sh
have_gpu || skip_all "$GPU_REASON"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
ch=01-vector-add
# Reuse measured ceilings when this GPU has them, so the test stays short.
[ -d results ] && cp -r results/. "$scratch/" 2>/dev/null

out=$(MW_TIME_CAP=0.05 make -s --no-print-directory bench CH=01 RESULTS="$scratch" 2>&1)
ok $? "make bench CH=01 succeeds"
csv=$(ls "$scratch"/*/$ch/bench.csv 2>/dev/null | head -n 1)
ok "$([ -s "$csv" ] && echo 0 || echo 1)" "bench.csv written"
head -n 1 "$csv" | grep -q '^chapter,impl,kind,size,shape,model_bytes,model_flops,reps,median_ms,q1_ms,q3_ms,wall_ms,gbps,gflops,roof,pct_roof,flag$'
ok $? "bench.csv has the documented header"
for impl in reference/01_naive reference/02_fast library/cublasSgeam roof/cudaMemcpy; do
    rows=$(grep -c ",$impl," "$csv")
    ok "$([ "$rows" -eq 19 ] && echo 0 || echo 1)" "$impl: 19 sizes (got $rows)"
done
wrong=$(awk -F, 'NR > 1 && $3 != "student" && $17 != "" && $17 != "side-stream"' "$csv" | wc -l)
ok "$([ "$wrong" -eq 0 ] && echo 0 || echo 1)" "no reference or library row is flagged"
printf '%s' "$out" | grep -q 'verdict:'
ok $? "bench ends in a verdict"
[ -s "$(dirname "$csv")/env.csv" ]
ok $? "env.csv records the GPU"

out=$(make -s --no-print-directory traffic CH=01 RESULTS="$scratch" 2>&1)
ok $? "make traffic CH=01 succeeds"
tcsv=$(dirname "$csv")/traffic.csv
rows=$(awk 'NR > 1' "$tcsv" | wc -l)
ok "$([ "$rows" -ge 12 ] && echo 0 || echo 1)" "traffic.csv has a row per implementation and size ($rows)"
if command -v ncu >/dev/null 2>&1; then
    measured=$(awk -F, 'NR > 1 && $12 == "ncu"' "$tcsv" | wc -l)
    ok "$([ "$measured" -eq "$rows" ] && echo 0 || echo 1)" "every row measured by ncu"
    # At 2^28 elements (3 GB moved) the fast reference moves its 12 bytes per element, within 5%.
    ratio=$(awk -F, 'NR > 1 && $2 == "reference/02_fast" && $4 == 268435456 { print ($8 + $9) / ($6 + $7) }' "$tcsv")
    ok "$(awk -v r="$ratio" 'BEGIN { exit !(r > 0.95 && r < 1.05) }' && echo 0 || echo 1)" \
        "02_fast at 2^28: measured/model bytes = $ratio, within 5%"
else
    skip "ncu not on the PATH"
    skip "ncu not on the PATH"
fi

# Without ncu, traffic says so and falls back to the model's bytes, labelled.
out=$(NCU=/nonexistent/ncu make -s --no-print-directory traffic CH=01 RESULTS="$scratch" 2>&1)
ok $? "make traffic without ncu still succeeds"
printf '%s' "$out" | grep -q 'ncu (Nsight Compute) not found'
ok $? "and says ncu was not found"
models=$(awk -F, 'NR > 1 && $12 == "model" && $8 == ""' "$tcsv" | wc -l)
rows=$(awk 'NR > 1' "$tcsv" | wc -l)
ok "$([ "$models" -eq "$rows" ] && [ "$rows" -gt 0 ] && echo 0 || echo 1)" "traffic.csv holds model bytes only, labelled source=model"

done_testing
