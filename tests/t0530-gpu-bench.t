#!/usr/bin/env bash
# On a GPU: bench and traffic run end to end for every chapter (with a short
# time cap) and write well-formed CSV with a row for every implementation
# and size; measured DRAM bytes match what each implementation must move.
# This checks the pipeline and the byte counts, not the speed: speed is what
# `make bench` reports.
. tests/lib.sh
have_gpu || skip_all "$GPU_REASON"
long_file "bench and traffic of every chapter"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
# Reuse measured roofs when this GPU has them, so the test stays short.
[ -d results ] && cp -r results/. "$scratch/" 2>/dev/null
header='chapter,impl,kind,size,shape,model_bytes,model_flops,reps,median_ms,q1_ms,q3_ms,wall_ms,gbps,gflops,roof,pct_roof,pct_peak,flag,op,roof_value,chapter_roof,timed,not_timed_why,vs_library,vs_library_impl,roof_unit,roof_counts,roof_label,roof_description'

for ch in $(chapters); do
    out=$(MW_TIME_CAP=0.05 make -s --no-print-directory bench CH=$ch RESULTS="$scratch" 2>&1)
    ok $? "$ch: make bench succeeds"
    csv=$(ls "$scratch"/*/$ch/bench.csv 2>/dev/null | head -n 1)
    [ -s "$csv" ] && [ "$(head -n 1 "$csv")" = "$header" ]
    ok $? "$ch: bench.csv has the documented header"
    sizes=$(awk -F, 'NR > 1 { print $4 }' "$csv" | sort -u | wc -l)
    for impl in $(awk -F, 'NR > 1 && $3 != "student" { print $2 }' "$csv" | sort -u); do
        rows=$(awk -F, -v i="$impl" 'NR > 1 && $2 == i' "$csv" | wc -l)
        ok "$([ "$rows" -eq "$sizes" ] && echo 0 || echo 1)" "$ch: $impl at all $sizes sizes ($rows)"
    done
    # A row may be flagged no-memory only where footprint.csv says the
    # implementation needs more than the GPU holds (chapter 05's unfused
    # score matrix at the largest N); any other flag is a failure.
    flagged=$(awk -F, -v fp="$(dirname "$csv")/footprint.csv" '
        BEGIN { while ((getline line < fp) > 0) { split(line, f, ","); need[f[2] "," f[4]] = f[8] > f[9] } }
        NR > 1 && $3 != "student" && $18 != "" && !($18 == "no-memory" && need[$2 "," $4])
    ' "$csv" | wc -l)
    ok "$([ "$flagged" -eq 0 ] && echo 0 || echo 1)" \
        "$ch: no reference, library or roof row is flagged (but for no-memory beyond the GPU's memory)"
    [ "$flagged" -ne 0 ] && awk -F, 'NR > 1 && $3 != "student" && $18 != ""' "$csv" | head -n 5 | diag
    printf '%s' "$out" | grep -q 'verdict'
    ok $? "$ch: bench ends in a verdict"
    [ -s "$(dirname "$csv")/env.csv" ]
    ok $? "$ch: env.csv records the GPU"

    out=$(make -s --no-print-directory traffic CH=$ch RESULTS="$scratch" 2>&1)
    ok $? "$ch: make traffic succeeds"
    tcsv=$(dirname "$csv")/traffic.csv
    rows=$(awk 'NR > 1' "$tcsv" | wc -l)
    measured=$(awk -F, 'NR > 1 && $12 == "ncu"' "$tcsv" | wc -l)
    ok "$([ "$rows" -gt 0 ] && [ "$measured" -eq "$rows" ] && echo 0 || echo 1)" \
        "$ch: every traffic row measured by ncu ($measured of $rows)"
done

# Measured DRAM bytes against what each chapter says its implementations
# must move (chapters/<chapter>/traffic-expect).
for ch in $(chapters); do
    check_traffic "$ch" "$(ls "$scratch"/*/$ch/traffic.csv 2>/dev/null | head -n 1)"
done

# A right but unfused submission is timed, not flagged wrong.
unfused=tests/wrong/02-add-relu/unfused-two-pass/01_fused.cu
if [ ! -f "$unfused" ]; then
    skip "02-add-relu: no unfused submission here (the student edition has no tests/wrong/)"
    skip "02-add-relu: no unfused submission here (the student edition has no tests/wrong/)"
else
    lib=$scratch/unfused
    build_lib 02-add-relu "$unfused" "$lib" >/dev/null 2>&1
    MW_TIME_CAP=0.05 build/02-add-relu/mw-chapter bench --student "$lib" --results "$scratch/unfused-results" >/dev/null 2>&1
    ok $? "02-add-relu: bench of an unfused submission succeeds"
    ucsv=$(ls "$scratch"/unfused-results/*/02-add-relu/bench.csv 2>/dev/null | head -n 1)
    timed=$(awk -F, 'NR > 1 && $2 == "student/01_fused" && $18 == "" && $9 != ""' "$ucsv" | wc -l)
    ok "$([ "$timed" -eq 19 ] && echo 0 || echo 1)" "02-add-relu: the unfused submission is timed at all 19 sizes, not flagged ($timed)"
    awk -F, 'NR > 1 && $4 == 268435456 && ($2 == "student/01_fused" || $2 == "reference/01_fused") { print "# " $2 ": " $9 " ms" }' "$ucsv"
fi

# Without ncu, traffic says so and falls back to the model's bytes, labelled.
out=$(NCU=/nonexistent/ncu make -s --no-print-directory traffic CH=01 RESULTS="$scratch" 2>&1)
ok $? "make traffic without ncu still succeeds"
printf '%s' "$out" | grep -q 'ncu (Nsight Compute) not found'
ok $? "and says ncu was not found"
tcsv=$(ls "$scratch"/*/01-vector-add/traffic.csv | head -n 1)
models=$(awk -F, 'NR > 1 && $12 == "model" && $8 == ""' "$tcsv" | wc -l)
rows=$(awk 'NR > 1' "$tcsv" | wc -l)
ok "$([ "$models" -eq "$rows" ] && [ "$rows" -gt 0 ] && echo 0 || echo 1)" "traffic.csv holds model bytes only, labelled source=model"

done_testing
