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
# Reuse measured ceilings when this GPU has them, so the test stays short.
[ -d results ] && cp -r results/. "$scratch/" 2>/dev/null
header='chapter,impl,kind,size,shape,model_bytes,model_flops,reps,median_ms,q1_ms,q3_ms,wall_ms,gbps,gflops,roof,pct_roof,flag,op,roof_value,chapter_roof,timed,not_timed_why,vs_library,vs_library_impl'

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
        NR > 1 && $3 != "student" && $17 != "" && !($17 == "no-memory" && need[$2 "," $4])
    ' "$csv" | wc -l)
    ok "$([ "$flagged" -eq 0 ] && echo 0 || echo 1)" \
        "$ch: no reference, library or roof row is flagged (but for no-memory beyond the GPU's memory)"
    [ "$flagged" -ne 0 ] && awk -F, 'NR > 1 && $3 != "student" && $17 != ""' "$csv" | head -n 5 | diag
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

# Measured DRAM bytes over the model's minimum where GBs move (caches
# cannot hide anything), within 5%. Chapters 01 and 02 at 2^28 elements:
# fused kernels move their 12 bytes per element; unfused chains 20 (add,
# then ReLU) or 28 (add, ReLU, scale). Chapter 04 at 2^20 columns (2^28
# elements): the fused reference reads once (split rows), the online form
# twice, the three-pass form three times.
while read -r ch impl size want; do
    tcsv=$(ls "$scratch"/*/$ch/traffic.csv 2>/dev/null | head -n 1)
    got=$(awk -F, -v i="$impl" -v n="$size" 'NR > 1 && $2 == i && $4 == n { print ($8 + $9) / ($6 + $7) }' "$tcsv")
    if [ -z "$got" ]; then
        why="cuDNN missing?"
        case $impl in reference/*)
            ls solutions/$ch/*.cu >/dev/null 2>&1 || why="no solutions/: the student edition" ;;
        esac
        skip "$ch: $impl not measured here ($why)"
        continue
    fi
    awk -v g="$got" -v w="$want" 'BEGIN { exit !(g > 0.95 * w && g < 1.05 * w) }'
    ok $? "$ch: $impl moves $got x the minimum at size $size (expected $want)"
done <<'LIST'
01-vector-add reference/02_fast 268435456 1.0
01-vector-add library/cublasSgeam 268435456 1.0
02-add-relu reference/01_fused 268435456 1.0
02-add-relu reference/02_chain 268435456 1.0
02-add-relu library/cublasSgeam+cudnnActivation 268435456 1.6667
02-add-relu reference/unfused_add+relu 268435456 1.6667
02-add-relu library/cublasSgeam+cudnnActivation+cublasSscal 268435456 2.3333
04-softmax reference/02_fused 1048576 1.0
04-softmax reference/03_online 1048576 1.5
04-softmax reference/01_three_pass 1048576 2.0
LIST

# Chapter 03 at 4096^3 (3 x 64 MB, past the L2): the register-blocked
# reference's 128 x 128 block tiles re-read A and B from DRAM far less often
# than the naive kernel's 32 x 8 blocks (whose loads the caches can only
# partly absorb). Measured DRAM bytes, not the model's, which is the same
# for both. At 2048^3 everything fits in the L2 and all move about the same.
tcsv=$(ls "$scratch"/*/03-matmul/traffic.csv 2>/dev/null | head -n 1)
bytes() { awk -F, -v i="$1" 'NR > 1 && $2 == i && $4 == 4096 && $12 == "ncu" { print $8 + $9 }' "$tcsv" 2>/dev/null; }
naive=$(bytes reference/01_naive) regblock=$(bytes reference/03_regblock)
if [ -z "$naive" ] || [ -z "$regblock" ]; then
    skip "03-matmul: no measured traffic for the references at 4096 (no solutions/, or no ncu)"
else
    awk -v r="$regblock" -v n="$naive" 'BEGIN { exit !(r < 0.5 * n) }'
    ok $? "03-matmul: at 4096^3 the register-blocked reference moves less than half the naive one's DRAM bytes ($regblock vs $naive)"
fi

# Chapter 05 (B H = 64, d = 64): flash attention's measured DRAM bytes stay
# within 1.5x of the minimum at N = 4096 and 16384 (the re-reads of K and V
# by every query tile hit the L2), while the unfused reference, which
# writes and reads the N x N scores, moves more than 10x it.
tcsv=$(ls "$scratch"/*/05-attention/traffic.csv 2>/dev/null | head -n 1)
ratio() { awk -F, -v i="$1" -v n="$2" 'NR > 1 && $2 == i && $4 == n && $12 == "ncu" { print ($8 + $9) / ($6 + $7) }' "$tcsv" 2>/dev/null; }
for n in 4096 16384; do
    got=$(ratio reference/02_flash $n)
    if [ -z "$got" ]; then
        skip "05-attention: no measured traffic for the flash reference at N=$n (no solutions/, or no ncu)"
        continue
    fi
    awk -v g="$got" 'BEGIN { exit !(g < 1.5) }'
    ok $? "05-attention: at N=$n the flash reference moves $got x the minimum (under 1.5)"
done
got=$(ratio reference/01_unfused 4096)
if [ -z "$got" ]; then
    skip "05-attention: no measured traffic for the unfused reference at N=4096"
else
    awk -v g="$got" 'BEGIN { exit !(g > 10) }'
    ok $? "05-attention: at N=4096 the unfused reference moves $got x the minimum (over 10)"
fi

# A right but unfused submission is timed, not flagged wrong.
unfused=tests/wrong/02-add-relu/unfused-two-pass/01_fused.cu
if [ ! -f "$unfused" ]; then
    skip "02-add-relu: no unfused submission here (the student edition has no tests/wrong/)"
    skip "02-add-relu: no unfused submission here (the student edition has no tests/wrong/)"
else
    lib=$scratch/unfused
    build_lib 02-add-relu "$unfused" "$lib" >/dev/null 2>&1
    MW_TIME_CAP=0.05 build/02-add-relu/mw-grade bench --student "$lib" --results "$scratch/unfused-results" >/dev/null 2>&1
    ok $? "02-add-relu: bench of an unfused submission succeeds"
    ucsv=$(ls "$scratch"/unfused-results/*/02-add-relu/bench.csv 2>/dev/null | head -n 1)
    timed=$(awk -F, 'NR > 1 && $2 == "student/01_fused" && $17 == "" && $9 != ""' "$ucsv" | wc -l)
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
