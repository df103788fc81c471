#!/usr/bin/env bash
# t0410-tables.t: plots/table.awk picks the right rows and prints the facts
# bench.csv carries (timed, vs_library, chapter_roof: decided in C, added
# here to made-up files by build/tools/mw-facts); plots/readme-table.sh
# replaces exactly the text between the markers, and leaves the file alone
# on any error. TAP; run with prove.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
if [ ! -x "$root/build/tools/mw-facts" ]; then
    echo "1..1"
    echo "not ok 1 - build/tools/mw-facts is not built (run 'make build')"
    exit 1
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# facts FILE: FILE with the facts columns and the roof values of a made-up
# roofs.csv (a row's % of roof is shown where its roof's value is known);
# bare_facts FILE: the same with no roof values (blank: not measured).
cat > "$tmp/roofs.csv" <<'EOF'
metric,value,unit,detail
copy_gbps,3000,GB/s,made up
read_gbps,3200,GB/s,made up
write_gbps,2900,GB/s,made up
fp32_ffma_gflops,65000,GFLOP/s,made up
tf32_mma_gflops,400000,GFLOP/s,made up
bf16_mma_gflops,640000,GFLOP/s,made up
tf32_wgmma_gflops,450000,GFLOP/s,made up
bf16_wgmma_gflops,900000,GFLOP/s,made up
EOF
facts() { "$root/build/tools/mw-facts" --roof-cache "$tmp/roofs.csv" "$1"; }
bare_facts() { "$root/build/tools/mw-facts" --roof-cache "$tmp/no-roofs.csv" "$1"; }

n=0 failed=0
ok() {   # ok STATUS NAME: STATUS 0 passes
    n=$((n + 1))
    if [ "$1" -eq 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; failed=$((failed + 1)); fi
}
is() {   # is GOT WANT NAME
    [ "$1" = "$2" ]; ok $? "$3"
    [ "$1" = "$2" ] || printf '#   got:  %s\n#   want: %s\n' "$1" "$2"
}
row() { grep -F "| $1 |" "$tmp/table"; }  # row IMPL: its line of the table

# A small bench.csv: a quoted shape with a comma, a wrong row at the largest
# size of one implementation, rows out of order, two libraries, a roof.
cat > "$tmp/bench.csv" <<'EOF'
chapter,impl,kind,size,shape,model_bytes,model_flops,reps,median_ms,q1_ms,q3_ms,wall_ms,gbps,gflops,roof,pct_roof,flag,op
09-t,student/01_naive,student,1024,"m=32,n=32",12288,1024,10,0.005,0.0049,0.0052,1,2.46,0.20,copy,0.1,,0
09-t,student/01_naive,student,4096,"m=64,n=64",49152,4096,,,,,,,,copy,,wrong,0
09-t,reference/02_fast,reference,4096,"m=64,n=64",49152,4096,10,0.25,0.24,0.26,3,196.6,16.38,copy,6.5,,0
09-t,library/lib,library,4096,"m=64,n=64",49152,4096,10,0.5,0.49,0.52,6,98.3,8.19,copy,3.3,,0
09-t,reference/02_fast,reference,1024,"m=32,n=32",12288,1024,10,0.004,0.0039,0.0041,1,3.07,0.26,copy,0.1,,0
09-t,student/02_big,student,4096,"m=64,n=64",49152,4096,10,12.3456,12.3,12.4,130,0.004,0.00033,copy,0.0,side-stream,0
09-t,library/other,library,4096,"m=64,n=64",49152,4096,10,1.0,0.99,1.01,11,49.2,4.10,copy,1.6,,0
09-t,roof/copy,roof,4096,"m=64,n=64",32768,0,10,0.2,0.19,0.21,2,163.8,0,copy,5.4,,0
EOF
facts "$tmp/bench.csv"; ok $? "mw-facts adds the facts"
awk -f "$root/plots/csv.awk" -f "$root/plots/table.awk" "$tmp/bench.csv" > "$tmp/table"; ok $? "table.awk runs"
is "$(sed -n 1p "$tmp/table")" "| implementation | size | median time | IQR | GB/s | GFLOP/s | % of roof | vs library | flag |" "header"
is "$(sed -n 2p "$tmp/table" | cut -c1-4)" "|---" "alignment row"
is "$(sed 1,2d "$tmp/table" | cut -d'|' -f2 | tr -d ' ' | tr '\n' ' ')" \
   "student/01_naive student/02_big reference/02_fast library/lib library/other roof/copy " \
   "one row per implementation, student first, roof last"
is "$(row student/01_naive)" "| student/01_naive | m=64,n=64 |  |  |  |  |  |  | wrong |" \
   "a wrong row at the largest size is shown, blank, with its flag"
is "$(row reference/02_fast)" "| reference/02_fast | m=64,n=64 | 250 µs | 20.0 µs | 197 | 16.4 | 6.5% | 2.00x |  |" \
   "largest size picked though it comes first; ratio to the library"
is "$(row student/02_big)" "| student/02_big | m=64,n=64 | 12.35 ms | 100 µs | 0.00 | 0.00 | 0.0% | 0.04x | side-stream |" \
   "milliseconds, and other flags shown"
is "$(row library/lib)" "| library/lib | m=64,n=64 | 500 µs | 30.0 µs | 98.3 | 8.19 | 3.3% | 1.00x |  |" "the library against itself"
is "$(row library/other)" "| library/other | m=64,n=64 | 1.000 ms | 20.0 µs | 49.2 | 4.10 | 1.6% | 0.50x |  |" \
   "ratio against the first library row of that size"
is "$(row roof/copy)" "| roof/copy | m=64,n=64 | 200 µs | 20.0 µs | 164 |  | 5.4% |  |  |" \
   "roof row: no FLOPs, no ratio"

# A TF32 library row in an FP32 chapter, listed first: its % of roof says
# which roof, and the caption names the chapter's (FP32) roof, which its
# reference row is measured against.
cat > "$tmp/gemm.csv" <<'EOF'
chapter,impl,kind,size,shape,model_bytes,model_flops,reps,median_ms,q1_ms,q3_ms,wall_ms,gbps,gflops,roof,pct_roof,flag,op
09-g,library/sgemm_TF32,library,4096,M=4096 N=4096 K=4096,201326592,137438953472,10,0.4,0.4,0.4,1,503,343597,tf32_mma,84.1,,0
09-g,reference/01_k,reference,4096,M=4096 N=4096 K=4096,201326592,137438953472,10,5.6,5.6,5.6,6,35.9,24543,fp32,47.8,,0
09-g,library/sgemm,library,4096,M=4096 N=4096 K=4096,201326592,137438953472,10,2.8,2.8,2.8,3,71.9,49085,fp32,95.5,,0
EOF
facts "$tmp/gemm.csv"
printf 'key,value\ngpu,G\n' > "$tmp/genv.csv"
awk -f "$root/plots/csv.awk" -f "$root/plots/table.awk" -v env="$tmp/genv.csv" "$tmp/gemm.csv" > "$tmp/table"; ok $? "table.awk runs on an FP32 chapter"
row library/sgemm_TF32 | grep -qF '| 84.1% of TF32 mma.sync |'; ok $? "a TF32 row's % of roof says TF32 mma.sync"
row library/sgemm | grep -qF '| 95.5% |'; ok $? "an FP32 row's % of roof is plain"
grep -qF 'of the measured FP32 FMA issue rate (FFMA microkernel)' "$tmp/table"; ok $? "the caption names the FP32 FFMA roof, not TF32's"

# A bf16 version in an FP32 chapter (mw_version.roof), its row first, in a
# bench.csv that has the facts columns as the bench writes them: mw-facts
# keeps the chapter's roof the file names (the first non-library row's roof
# would be bf16), and the table says which roof the version's % is of.
facts_cols=roof_value,chapter_roof,timed,not_timed_why,vs_library,vs_library_impl,roof_unit,roof_counts,roof_label,roof_description
cat > "$tmp/attn.csv" <<EOF
chapter,impl,kind,size,shape,model_bytes,model_flops,reps,median_ms,q1_ms,q3_ms,wall_ms,gbps,gflops,roof,pct_roof,flag,op,$facts_cols
09-a,reference/03_bf16,reference,4096,N=4096,201326592,137438953472,10,0.5,0.5,0.5,1,403,274877,bf16_mma,37.9,,0,,fp32,,,,,,,,
09-a,reference/01_k,reference,4096,N=4096,201326592,137438953472,10,5.6,5.6,5.6,6,35.9,24543,fp32,47.8,,0,,fp32,,,,,,,,
09-a,library/lib,library,4096,N=4096,201326592,137438953472,10,2.8,2.8,2.8,3,71.9,49085,fp32,95.5,,0,,fp32,,,,,,,,
EOF
facts "$tmp/attn.csv"
is "$(awk -F, 'NR > 1 { print $20 }' "$tmp/attn.csv" | sort -u)" fp32 "mw-facts keeps the chapter_roof the bench wrote"
is "$(awk -F, 'NR == 2 { print $27 }' "$tmp/attn.csv")" "bf16 mma.sync" "the bf16 row's roof_label is bf16 mma.sync's"
awk -f "$root/plots/csv.awk" -f "$root/plots/table.awk" -v env="$tmp/genv.csv" "$tmp/attn.csv" > "$tmp/table"; ok $? "table.awk runs on a chapter with a bf16 version"
row reference/03_bf16 | grep -qF '| 37.9% of bf16 mma.sync |'; ok $? "a bf16 version's % of roof says bf16 mma.sync"
grep -qF 'of the measured FP32 FMA issue rate' "$tmp/table"; ok $? "the caption names the chapter's FP32 roof"

# A roof this GPU's roofs.csv lacks is not measured: no % of it is shown
# (a percent the file holds is of an earlier method), and the caption says so.
cp "$tmp/gemm.csv" "$tmp/unmeasured.csv"
bare_facts "$tmp/unmeasured.csv"
awk -f "$root/plots/csv.awk" -f "$root/plots/table.awk" -v env="$tmp/genv.csv" "$tmp/unmeasured.csv" > "$tmp/table"
row library/sgemm | grep -qF '| 49085 |  | 0.14x |'; ok $? "no roof value: the % of roof is blank"
grep -qF 'not shown, the FP32 FMA issue rate (FFMA microkernel) is not in this GPU' "$tmp/table"
ok $? "and the caption says that roof is not measured"

# A file with pct_peak (the bench writes it): a "% of peak" column beside
# "% of roof", and the caption says what it is of.
cat > "$tmp/peak.csv" <<'EOF'
chapter,impl,kind,size,shape,model_bytes,model_flops,reps,median_ms,q1_ms,q3_ms,wall_ms,gbps,gflops,roof,pct_roof,pct_peak,flag,op
09-p,reference/01_k,reference,4096,N=4096,201326592,137438953472,10,5.6,5.6,5.6,6,35.9,24543,fp32,37.8,37.8,,0
09-p,reference/03_bf16,reference,4096,N=4096,201326592,137438953472,10,0.5,0.5,0.5,1,403,274877,bf16_mma,42.9,30.5,,0
EOF
facts "$tmp/peak.csv"
awk -f "$root/plots/csv.awk" -f "$root/plots/table.awk" -v env="$tmp/genv.csv" "$tmp/peak.csv" > "$tmp/table"; ok $? "table.awk runs on a file with pct_peak"
is "$(sed -n 1p "$tmp/table")" "| implementation | size | median time | IQR | GB/s | GFLOP/s | % of roof | % of peak | vs library | flag |" "a % of peak column"
row reference/03_bf16 | grep -qF '| 42.9% of bf16 mma.sync | 30.5% |'; ok $? "a bf16 mma.sync row: % of its roof, then of the bf16 peak"
grep -qF '% of peak: of the largest roof of the row' "$tmp/table"; ok $? "the caption says what % of peak is of"

# A file without the facts columns: table.awk decides nothing, and says
# which column is missing and what adds it.
printf 'chapter,impl,kind,size,shape,model_bytes,model_flops,reps,median_ms,q1_ms,q3_ms,wall_ms,gbps,gflops,roof,pct_roof,flag,op\n' > "$tmp/old.csv"
sed -n 2p "$tmp/gemm.csv" | cut -d, -f1-18 >> "$tmp/old.csv"
awk -f "$root/plots/csv.awk" -f "$root/plots/table.awk" "$tmp/old.csv" > /dev/null 2> "$tmp/err"
ok $((! $?)) "a bench.csv without the facts columns: an error"
grep -qF 'build/tools/mw-facts adds it' "$tmp/err"; ok $? "the error says how to add them"
# mw-facts decides from the bench's own columns, op included: without it, a
# row's library could be another operation's.
printf 'chapter,impl,kind,size,shape,model_bytes,model_flops,reps,median_ms,q1_ms,q3_ms,wall_ms,gbps,gflops,roof,pct_roof,flag\n09-t,library/lib,library,4096,n=4096,49152,0,10,0.5,0.49,0.52,6,98.3,0,copy,3.3,\n' > "$tmp/no-op.csv"
! "$root/build/tools/mw-facts" --roof-cache "$tmp/no-roofs.csv" "$tmp/no-op.csv" 2> "$tmp/err"
ok $? "mw-facts refuses a bench.csv without the op column"
grep -qF 'op needed' "$tmp/err"; ok $? "and says which columns it needs"

# The sample: not-implemented row kept, ratios against cublasSgeam.
s=$root/tests/data/sample-results/01-vector-add
awk -f "$root/plots/csv.awk" -f "$root/plots/table.awk" -v env="$s/env.csv" "$s/bench.csv" > "$tmp/table"; ok $? "table.awk runs on the sample"
is "$(grep -c '| n=268435456 |' "$tmp/table")" 7 "sample: seven implementations at n=2^28"
is "$(row student/03_vec4)" "| student/03_vec4 | n=268435456 |  |  |  |  |  |  | not-implemented |" "sample: not-implemented row shown"
row student/01_naive | grep -qF '| 0.90x |'; ok $? "sample: naive at 0.90x the library"
grep -qF 'Measured on NVIDIA H100 80GB HBM3, 2026-11-22' "$tmp/table"; ok $? "sample: caption from env.csv"

# readme-table.sh
md=$tmp/README.md
cat > "$md" <<'EOF'
# Chapter

Text before.

<!-- BEGIN bench-table -->
| old | table |
<!-- END bench-table -->

Text after.
EOF
chmod 640 "$md"
"$root/plots/readme-table.sh" "$md" "$s/bench.csv" > /dev/null; ok $? "readme-table.sh runs"
grep -qF '| old | table |' "$md"; ok $((! $?)) "old table removed"
grep -qF '| student/03_vec4 | n=268435456 |' "$md"; ok $? "new table inserted"
is "$(grep -c -e '<!-- BEGIN bench-table -->' -e '<!-- END bench-table -->' "$md")" 2 "markers kept"
is "$(sed -n '1,5p;$p' "$md" | tr '\n' '/')" "# Chapter//Text before.//<!-- BEGIN bench-table -->/Text after./" \
   "text outside the markers kept"
awk '/BEGIN bench-table/ { b = NR } /END bench-table/ { e = NR } /student\/02_fast/ { t = NR } END { exit !(b < t && t < e) }' "$md"
ok $? "table between the markers"
is "$(stat -c %a "$md")" 640 "file mode kept"
cp "$md" "$tmp/before"
"$root/plots/readme-table.sh" "$md" "$s/bench.csv" > /dev/null && cmp -s "$md" "$tmp/before"; ok $? "running it twice changes nothing"

# Errors leave the file as it was and no temporary file behind.
fails() {   # fails NAME FILE-CONTENT [BENCH]
    printf '%s' "$2" > "$md"; cp "$md" "$tmp/before"
    "$root/plots/readme-table.sh" "$md" "${3:-$s/bench.csv}" > /dev/null 2> "$tmp/err"
    local st=$?
    [ $st -ne 0 ] && [ -s "$tmp/err" ] && cmp -s "$md" "$tmp/before" && [ -z "$(ls "$tmp" | grep 'README.md.')" ]
    ok $? "$1: error, file unchanged"
}
fails "no markers" $'# Chapter\n\nno table here\n'
fails "BEGIN without END" $'a\n<!-- BEGIN bench-table -->\nb\n'
fails "END without BEGIN" $'a\n<!-- END bench-table -->\nb\n'
fails "END before BEGIN" $'<!-- END bench-table -->\n<!-- BEGIN bench-table -->\n'
fails "two BEGINs" $'<!-- BEGIN bench-table -->\n<!-- BEGIN bench-table -->\n<!-- END bench-table -->\n'
fails "missing bench.csv" $'<!-- BEGIN bench-table -->\n<!-- END bench-table -->\n' "$tmp/none.csv"
grep -q 'no <!-- BEGIN bench-table -->' <(printf 'x\n' > "$md"; "$root/plots/readme-table.sh" "$md" "$s/bench.csv" 2>&1)
ok $? "missing markers: the error names the marker"

echo "1..$n"
[ "$failed" -eq 0 ]
